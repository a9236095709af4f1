package lowpriority

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// threadNice reads the calling thread's nice value from the kernel
// (proc(5): field 19 of /proc/thread-self/stat). The caller locks its
// goroutine to the thread.
func threadNice(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/thread-self/stat")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]) // from field 3, state
	n, err := strconv.Atoi(fields[19-3])
	if err != nil {
		t.Fatalf("nice in %q: %v", s, err)
	}
	return n
}

// started starts Threads at nice for the test, which it skips where
// threads have no priorities of their own.
func started(t *testing.T, nice int) *Threads {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("thread priorities are Linux's")
	}
	th, err := Start(nice)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { th.Close() })
	return th
}

func TestRunLowersOnlyItsOwnThreads(t *testing.T) {
	th := started(t, 12)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before := threadNice(t)
	var inside int
	var tid int
	th.Run(func() { inside, tid = threadNice(t), syscall.Gettid() })
	if inside != 12 {
		t.Errorf("nice inside Run = %d, want 12", inside)
	}
	if tid == syscall.Gettid() {
		t.Error("Run called f on the caller's thread")
	}
	if after := threadNice(t); after != before {
		t.Errorf("caller's nice %d → %d", before, after)
	}
}

func TestRunReusesAnIdleThread(t *testing.T) {
	th := started(t, 5)
	tids := map[int]bool{}
	for range 50 {
		th.Run(func() { tids[syscall.Gettid()] = true })
	}
	if len(tids) != 1 {
		t.Errorf("50 runs one after another used %d threads, want 1", len(tids))
	}
}

func TestRunsAtOnceGetThreadsOfTheirOwn(t *testing.T) {
	th := started(t, 5)
	const n = 4
	var started, release sync.WaitGroup
	started.Add(n)
	release.Add(1)
	tids := make(chan int, n)
	var done sync.WaitGroup
	for range n {
		done.Go(func() {
			th.Run(func() {
				tids <- syscall.Gettid()
				started.Done()
				release.Wait() // all n hold a thread at once
			})
		})
	}
	started.Wait()
	release.Done()
	done.Wait()
	close(tids)
	seen := map[int]bool{}
	for tid := range tids {
		seen[tid] = true
	}
	if len(seen) != n {
		t.Errorf("%d runs at once used %d threads", n, len(seen))
	}
}

func TestRunPanicsInTheCaller(t *testing.T) {
	th := started(t, 5)
	defer func() {
		if p := recover(); p != "engine fault" {
			t.Errorf("recovered %v, want the function's panic", p)
		}
	}()
	th.Run(func() { panic("engine fault") })
	t.Error("Run returned after a panic")
}

func TestAfterCloseRunCallsInPlace(t *testing.T) {
	th := started(t, 5)
	th.Run(func() {}) // a thread to end
	th.Close()
	th.Close() // twice is harmless
	called := false
	th.Run(func() { called = true })
	if !called {
		t.Error("Run after Close did not call f")
	}
}

func TestNilRunsInPlace(t *testing.T) {
	var th *Threads
	called := false
	th.Run(func() { called = true })
	if !called || th.Close() != nil {
		t.Error("a nil *Threads should call f at once and close without error")
	}
}

func TestStartRefusesAValueOutOfRange(t *testing.T) {
	for _, n := range []int{-1, 0, 20} {
		if _, err := Start(n); err == nil {
			t.Errorf("Start(%d) accepted", n)
		}
	}
}

// A function that ends its goroutine (runtime.Goexit, as t.FailNow does)
// ends the caller's goroutine too, instead of leaving it waiting, and the
// threads go on serving.
func TestGoexitEndsTheCaller(t *testing.T) {
	th := started(t, 5)
	returned := make(chan bool, 1)
	go func() {
		defer func() { returned <- false }() // runs on Goexit too
		th.Run(runtime.Goexit)
		returned <- true
	}()
	if <-returned {
		t.Fatal("Run returned after its function called runtime.Goexit")
	}
	called := false
	th.Run(func() { called = true })
	if !called {
		t.Error("no thread ran the next function")
	}
}
