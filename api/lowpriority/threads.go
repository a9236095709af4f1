// Package lowpriority runs CPU-bound work on operating-system threads that
// the kernel schedules after the process's other threads.
//
// A calculation computes for milliseconds to a second without a pause;
// the network work beside it (a database answer, a live-stream write, a
// bus message) needs a core for microseconds, and while it waits for one it
// often holds something others need, a database connection above all. Go
// cannot rank goroutines, but the kernel ranks threads: a goroutine locked
// to a thread with a higher nice value gets a core only when the threads of
// normal priority leave one, and gives it up as soon as one of them wakes.
// The calculations still use every core the rest leaves idle.
package lowpriority

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// Threads runs functions on threads of one nice value. A nil *Threads runs
// them on the caller's thread.
type Threads struct {
	nice int
	jobs chan job
	idle atomic.Int64 // threads waiting for a job, or promised one

	mu     sync.RWMutex // held to read while handing a job over
	closed bool
}

type job struct {
	f     func()
	ended chan any // the panic's value, or nil
}

// Start returns Threads at the given nice value (1 to 19: 19 is the
// lowest priority). A thread is started for each function run while the
// others are busy, and kept for the next; callers bound how many run at
// once (the API's heavy slots).
func Start(nice int) (*Threads, error) {
	if nice < 1 || nice > 19 {
		return nil, fmt.Errorf("nice value %d: want 1 to 19", nice)
	}
	if err := supported(); err != nil {
		return nil, err
	}
	return &Threads{nice: nice, jobs: make(chan job)}, nil
}

// Run calls f on one of the threads and returns when it has returned. A
// panic in f panics again in the caller, where the server's recoverer
// sees it. After Close, Run calls f on the caller's thread.
func (t *Threads) Run(f func()) {
	if t == nil {
		f()
		return
	}
	j := job{f: f, ended: make(chan any, 1)}
	if !t.hand(j) {
		f()
		return
	}
	switch p := <-j.ended; p {
	case nil:
	case errGoexit:
		runtime.Goexit() // as f meant for its goroutine
	default:
		panic(p)
	}
}

// hand gives j to an idle thread, or to a new one when none is; false
// once the threads are closed.
func (t *Threads) hand(j job) bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	switch {
	case t.closed:
		return false
	case t.idle.Add(-1) >= 0:
		t.jobs <- j // an idle thread takes it at once
	default:
		t.idle.Add(1)
		go t.work(j)
	}
	return true
}

// Close ends the idle threads, and each busy one when its function
// returns.
func (t *Threads) Close() error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.closed {
		t.closed = true
		close(t.jobs)
	}
	return nil
}

// work runs j and then whatever comes, on a thread of its own. The thread
// stays locked to the goroutine: when the goroutine returns, Go ends the
// thread instead of running other goroutines at its lowered priority (an
// unprivileged process may lower a thread's priority, never raise it
// again).
func (t *Threads) work(j job) {
	runtime.LockOSThread()
	if lower(t.nice) != nil {
		// Start checked the system; should the call fail all the same,
		// this function runs at normal priority and its thread ends.
		t.serve(j, false)
		return
	}
	for ok := true; ok; j, ok = <-t.jobs {
		t.serve(j, true)
	}
}

// errGoexit tells Run that its function called runtime.Goexit.
var errGoexit = errors.New("runtime.Goexit on a low-priority thread")

// serve calls j's function and tells its caller how it ended: returned,
// panicked (recovered here) or by runtime.Goexit, after which this
// goroutine ends too. A thread that goes on is counted idle before the
// caller hears, so that its next job finds it.
func (t *Threads) serve(j job, goOn bool) {
	returned := false
	defer func() {
		var p any
		if !returned {
			if p = recover(); p == nil {
				p, goOn = errGoexit, false
			}
		}
		if goOn {
			t.idle.Add(1)
		}
		j.ended <- p
	}()
	j.f()
	returned = true
}
