package main

import (
	"math"
	"os"
	"strings"
	"testing"
	"time"
)

func TestParseProcStat(t *testing.T) {
	for _, c := range []struct {
		name, stat string
		want       procStat
		ok         bool
	}{
		{"postmaster", "2288 (postgres) S 1 2288 2288 0 -1 4194560 5000 0 0 0 250 40 900 300 20 0 12 0 100 0 0",
			procStat{pid: 2288, ppid: 1, comm: "postgres", ticks: 290, reaped: 1200}, true},
		{"name with spaces and parentheses", "99 (a (b) c) R 7 99 99 0 -1 0 0 0 0 0 7 3 1 2 20 0 1 0 5 0 0",
			procStat{pid: 99, ppid: 7, comm: "a (b) c", ticks: 10, reaped: 3}, true},
		{"no name", "99 R 1", procStat{}, false},
		{"too short for the children's times", "99 (x) R 1 99 99 0 -1 0 0 0 0 0 7 3 1", procStat{}, false},
		{"not a number", "99 (x) R 1 99 99 0 -1 0 0 0 0 0 7 3 x 2 20", procStat{}, false},
		{"no pid", "(x) R 1 99 99 0 -1 0 0 0 0 0 7 3 1 2 20", procStat{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseProcStat(c.stat)
			if (err == nil) != c.ok || got != c.want {
				t.Fatalf("ParseProcStat = %+v, %v; want %+v (ok %v)", got, err, c.want, c.ok)
			}
		})
	}
}

func TestGroupTicks(t *testing.T) {
	stats := []procStat{
		// The postmaster has reaped ended backends: their time counts.
		{pid: 10, ppid: 1, comm: "postgres", ticks: 100, reaped: 1000},
		// A backend's own reaped children are in the postmaster's
		// reaped already when it ends, and are not counted twice.
		{pid: 11, ppid: 10, comm: "postgres", ticks: 20, reaped: 7},
		{pid: 12, ppid: 10, comm: "postgres", ticks: 30},
		{pid: 20, ppid: 1, comm: "nats-server", ticks: 50, reaped: 5},
		// Another program started by a postgres process is not PostgreSQL.
		{pid: 30, ppid: 10, comm: "sh", ticks: 400},
		{pid: 40, ppid: 1, comm: "draindesign", ticks: 900, reaped: 90},
	}
	for comm, want := range map[string]int64{"postgres": 1150, "nats-server": 55, "haproxy": 0} {
		if got := GroupTicks(stats, comm); got != want {
			t.Errorf("GroupTicks(%q) = %d, want %d", comm, got, want)
		}
	}
}

func TestBudget(t *testing.T) {
	// 100 calculations/s on a machine 180 % busy (of 200): 18 ms of CPU
	// per calculation, of which the load generator's 20 % is 2 ms.
	parts := []part{{"the instances (2)", 100}, {"load generator", 20}, {"PostgreSQL server", 50}}
	b := NewBudget(parts, 180, 2, 100, "load generator")
	want := []budgetLine{
		{part{"the instances (2)", 100}, 10},
		{part{"load generator", 20}, 2},
		{part{"PostgreSQL server", 50}, 5},
		{part{"the rest of the machine", 10}, 1},
	}
	if len(b.Lines) != len(want) {
		t.Fatalf("lines %+v, want %+v", b.Lines, want)
	}
	for i, l := range b.Lines {
		if l.name != want[i].name || math.Abs(l.cpuPercent-want[i].cpuPercent) > 1e-9 || math.Abs(l.msPerCalc-want[i].msPerCalc) > 1e-9 {
			t.Errorf("line %d = %+v, want %+v", i, l, want[i])
		}
	}
	if b.MsPerCalc != 18 || b.LoadMsPerCalc != 2 || b.Capacity != 200 {
		t.Fatalf("budget %+v", b)
	}
	// 500/s at 18 ms each: 9 cores, 8 without the load generator's 2 ms.
	if all, deployment := b.CoresFor(500); math.Abs(all-9) > 1e-9 || math.Abs(deployment-8) > 1e-9 {
		t.Fatalf("CoresFor(500) = %v, %v; want 9, 8", all, deployment)
	}
	md := b.Markdown(500)
	for _, s := range []string{
		"| the rest of the machine | 10 % | 1.00 ms |",
		"| **the machine** | **180 % of 200** | **18.00 ms** |",
		"500 calculations/s would take 9.0 cores like these, 8.0 without the load generator",
		"The machine was 90 % busy",
	} {
		if !strings.Contains(md, s) {
			t.Errorf("markdown lacks %q:\n%s", s, md)
		}
	}

	// Parts sampled a moment apart may add up to more than the machine:
	// the rest is then nothing, not less. A machine with room says
	// nothing of being full.
	b = NewBudget(parts, 160, 2, 100, "load generator")
	if rest := b.Lines[len(b.Lines)-1]; rest.cpuPercent != 0 || rest.msPerCalc != 0 {
		t.Fatalf("rest = %+v, want nothing", rest)
	}
	if md := b.Markdown(500); strings.Contains(md, "busy") {
		t.Fatalf("a machine 80 %% busy reported as full:\n%s", md)
	}
	// No calculations: no cost per calculation rather than a division by
	// zero.
	if b := NewBudget(parts, 180, 2, 0, "load generator"); b.MsPerCalc != 0 || b.Lines[0].msPerCalc != 0 {
		t.Fatalf("budget without calculations = %+v", b)
	}
}

func TestSampleMachine(t *testing.T) {
	if _, err := os.Stat("/proc/stat"); err != nil {
		t.Skip("no /proc/stat here")
	}
	w := NewProcWatch(time.Now())
	w.SampleMachine()
	// Work between the samples, so that the machine was busy.
	for end := time.Now().Add(50 * time.Millisecond); time.Now().Before(end); {
	}
	w.SampleMachine()
	m := w.samples[seriesMachine]
	if len(m) != 2 || m[1].cpuTicks < m[0].cpuTicks || m[0].cpuTicks <= 0 {
		t.Fatalf("machine samples %+v", m)
	}
	for _, s := range sharedServers {
		if len(w.samples[s.series]) != 2 {
			t.Errorf("%s sampled %d times, want 2", s.series, len(w.samples[s.series]))
		}
	}
}
