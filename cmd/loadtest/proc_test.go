package main

import (
	"strings"
	"testing"
	"time"
)

func TestParseRSSKiB(t *testing.T) {
	got, err := ParseRSSKiB("Name:\tdraindesign\nVmPeak:\t 900 kB\nVmRSS:\t  123456 kB\nThreads:\t12\n")
	if err != nil || got != 123456 {
		t.Fatalf("ParseRSSKiB = %d, %v", got, err)
	}
	if _, err := ParseRSSKiB("Name:\tzombie\n"); err == nil {
		t.Fatal("a status without VmRSS was read")
	}
}

func TestUsage(t *testing.T) {
	s := []procSample{
		{at: 0, cpuTicks: 0, rssKiB: 1024},
		{at: time.Second, cpuTicks: 50, rssKiB: 4096},
		{at: 3 * time.Second, cpuTicks: 250, rssKiB: 2048},
	}
	// 250 ticks (2.5 s of CPU) in 3 s: 83 % of a core.
	u := usageOf(s, 0, 10*time.Second)
	if u.PeakRSSMiB != 4 || u.CPUPercent < 83.3 || u.CPUPercent > 83.4 {
		t.Fatalf("usage = %+v", u)
	}
	if u := usageOf(s, time.Second, 10*time.Second); u.CPUPercent != 100 || u.PeakRSSMiB != 4 {
		t.Fatalf("usage from 1 s = %+v", u)
	}
	if u := usageOf(s, 2*time.Second, 10*time.Second); u.CPUPercent != 0 || u.PeakRSSMiB != 2 {
		t.Fatalf("usage of one sample = %+v", u)
	}
}

func TestParseBusyIdle(t *testing.T) {
	for _, c := range []struct {
		name, stat string
		busy, idle int64
		ok         bool
	}{
		// user nice system idle iowait irq softirq steal guest guest_nice
		{"full line", "cpu  100 5 50 1000 20 3 2 1 40 4\ncpu0 1 2 3 4 5 6 7 8 9 10\n", 161, 1020, true},
		{"old kernel, four fields", "cpu 10 0 5 100\n", 15, 100, true},
		{"per-core line only", "cpu0 1 2 3 4 5\n", 0, 0, false},
		{"not a number", "cpu 1 x 3 4 5\n", 0, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			busy, idle, err := ParseBusyIdle(c.stat)
			if (err == nil) != c.ok || busy != c.busy || idle != c.idle {
				t.Fatalf("ParseBusyIdle = %d, %d, %v; want %d, %d (ok %v)", busy, idle, err, c.busy, c.idle, c.ok)
			}
		})
	}
}

// Only a machine busy before the run is called busy: the load averages
// trail the last minutes (a run started right after another showed ~10).
func TestBusyBeforeText(t *testing.T) {
	for _, c := range []struct {
		share       float64
		pessimistic bool
		figure      string
	}{{-1, false, "unknown"}, {0.04, false, "4 %"}, {busyLimit, false, "25 %"}, {0.6, true, "60 %"}} {
		got := busyBeforeText(c.share)
		if strings.Contains(got, "pessimistic") != c.pessimistic || !strings.Contains(got, c.figure) {
			t.Errorf("busyBeforeText(%g) = %q; want %q, pessimistic %v", c.share, got, c.figure, c.pessimistic)
		}
	}
}
