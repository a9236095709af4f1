package main

import (
	"testing"
	"time"
)

func TestParseCPUTicks(t *testing.T) {
	for _, c := range []struct {
		name, stat string
		want       int64
		ok         bool
	}{
		{"plain", "1234 (draindesign) S 1 1234 1234 0 -1 4194560 5000 0 0 0 250 40 0 0 20 0 12 0 100 0 0", 290, true},
		{"name with spaces and parentheses", "99 (a (b) c) R 1 99 99 0 -1 0 0 0 0 0 7 3 0 0 20 0 1 0 5 0 0", 10, true},
		{"no name", "99 R 1", 0, false},
		{"too short", "99 (x) R 1 2", 0, false},
		{"not a number", "99 (x) R 1 99 99 0 -1 0 0 0 0 0 x 3 0", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseCPUTicks(c.stat)
			if (err == nil) != c.ok || got != c.want {
				t.Fatalf("ParseCPUTicks = %d, %v; want %d (ok %v)", got, err, c.want, c.ok)
			}
		})
	}
}

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
