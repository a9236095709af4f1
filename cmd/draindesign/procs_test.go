package main

import (
	"fmt"
	"io"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"draindesign/api/lowpriority"
)

func TestProcs(t *testing.T) {
	for _, tc := range []struct {
		env                       string
		chosen                    int
		wantGomaxprocs, wantHeavy int
	}{
		{"", 2, 6, 2},      // three Ps per core, a slot per core
		{"", 1, 3, 1},      // one core still gets spare Ps
		{"", 8, 24, 8},     // a container's limit of 8 CPUs
		{"", 0, 3, 1},      // never below one slot
		{"3", 3, 3, 3},     // the operator's GOMAXPROCS is kept
		{"x", 2, 6, 2},     // an unreadable value is Go's to ignore; so is it here
		{"0", 2, 6, 2},     // as is zero
		{"-1", 2, 6, 2},    // and a negative count
		{"16", 16, 16, 16}, // more Ps than cores, on purpose
	} {
		t.Run(fmt.Sprintf("%q,%d", tc.env, tc.chosen), func(t *testing.T) {
			g, h := procs(tc.env, tc.chosen)
			if g != tc.wantGomaxprocs || h != tc.wantHeavy {
				t.Errorf("procs(%q, %d) = %d Ps, %d heavy slots; want %d, %d", tc.env, tc.chosen, g, h, tc.wantGomaxprocs, tc.wantHeavy)
			}
		})
	}
}

func TestSetProcsRestores(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	heavy, restore := setProcs("")
	if got := runtime.GOMAXPROCS(0); got != 3*before || heavy != before {
		t.Errorf("setProcs: %d Ps and %d heavy slots from %d; want %d and %d", got, heavy, before, 3*before, before)
	}
	restore()
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Errorf("after restore: %d Ps, want %d", got, before)
	}
}

// BenchmarkRoundTripBesideCalculations is a loopback round trip (one byte
// out, one back, as a database answer or a bus message) while the
// calculations' slots are full of goroutines computing without pause:
// before procs, twice as many as the cores on as many Ps as cores; then
// one per core on twice as many Ps; now one per core at nice 10 on three
// times as many Ps. Before, the answer waited for a P and for Go to look
// at the network at all (golang/go#51651); with spare Ps one reads it at
// once and the kernel shares the cores; with the calculations below them,
// the kernel runs the woken thread first.
//
//	go test ./cmd/draindesign -run '^$' -bench RoundTripBesideCalculations
func BenchmarkRoundTripBesideCalculations(b *testing.B) {
	cores := runtime.GOMAXPROCS(0)
	niced, err := lowpriority.Start(10)
	if err != nil {
		b.Skip(err)
	}
	defer niced.Close()
	for _, bc := range []struct {
		name             string
		ps, calculations int
		on               *lowpriority.Threads
	}{
		{"before/Ps=cores,calculations=2×cores", cores, 2 * cores, nil},
		{"ninth/Ps=2×cores,calculations=cores", 2 * cores, cores, nil},
		{"procs/Ps=3×cores,calculations=cores,nice=10", 3 * cores, cores, niced},
	} {
		b.Run(bc.name, func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(bc.ps))
			client, stop := echoPair(b)
			defer stop()
			busy := spin(bc.calculations, bc.on)
			defer busy()
			buf := []byte{1}
			b.ResetTimer()
			for range b.N {
				if _, err := client.Write(buf); err != nil {
					b.Fatal(err)
				}
				if _, err := io.ReadFull(client, buf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// echoPair is a client connection to a loopback server that sends back
// what it reads.
func echoPair(b *testing.B) (net.Conn, func()) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		_, _ = io.Copy(conn, conn)
	})
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		b.Fatal(err)
	}
	return client, func() { client.Close(); ln.Close(); wg.Wait() }
}

// spin keeps n goroutines computing, on the given threads, until the
// returned function is called.
func spin(n int, on *lowpriority.Threads) func() {
	var stop atomic.Bool
	var wg sync.WaitGroup
	var sink atomic.Uint64
	for range n {
		wg.Go(func() {
			on.Run(func() {
				x := uint64(1)
				for !stop.Load() {
					for range 1000 {
						x = x*6364136223846793005 + 1442695040888963407
					}
				}
				sink.Add(x)
			})
		})
	}
	return func() { stop.Store(true); wg.Wait() }
}

func TestCalculationNice(t *testing.T) {
	byDefault := 10
	if runtime.GOOS != "linux" {
		byDefault = 0
	}
	for _, tc := range []struct {
		env  string
		want int
		bad  bool
	}{
		{"", byDefault, false},
		{" ", byDefault, false},
		{"0", 0, false}, // off: each calculation on its request's thread
		{"19", 19, false},
		{" 5 ", 5, false},
		{"20", 0, true},
		{"-1", 0, true},
		{"low", 0, true},
	} {
		got, err := calculationNice(tc.env)
		if got != tc.want || (err != nil) != tc.bad {
			t.Errorf("calculationNice(%q) = %d, %v; want %d, error %v", tc.env, got, err, tc.want, tc.bad)
		}
	}
}
