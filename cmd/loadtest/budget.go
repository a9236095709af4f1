package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The run's own processes are sampled by pid (load.go). The servers it
// shares with the machine, PostgreSQL and NATS, are many processes or were
// started before it, so they are sampled by command name; the machine as a
// whole comes from /proc/stat. Together they say where every core went
// while the designers worked, and so what one calculation costs the whole
// deployment: the figure that says how many cores a target rate needs.
const (
	seriesMachine  = "machine"
	seriesPostgres = "PostgreSQL server"
	seriesNATS     = "NATS server"
)

// sharedServers are the series sampled by command name, with the name.
var sharedServers = []struct{ series, comm string }{
	{seriesPostgres, "postgres"},
	{seriesNATS, "nats-server"},
}

// procStat is what the budget reads of /proc/<pid>/stat.
type procStat struct {
	pid, ppid int
	comm      string
	// ticks is the process's own CPU (utime + stime); reaped that of its
	// children that ended and were waited for (cutime + cstime).
	ticks, reaped int64
}

// ParseProcStat reads the text of /proc/<pid>/stat. The command name may
// hold spaces and parentheses, so the fields are counted after its last
// ')'.
func ParseProcStat(stat string) (procStat, error) {
	open, end := strings.IndexByte(stat, '('), strings.LastIndexByte(stat, ')')
	if open < 0 || end < open {
		return procStat{}, fmt.Errorf("stat without a command name: %q", stat)
	}
	var s procStat
	var err error
	if s.pid, err = strconv.Atoi(strings.TrimSpace(stat[:open])); err != nil {
		return procStat{}, fmt.Errorf("pid: %w", err)
	}
	s.comm = stat[open+1 : end]
	// f[0] is field 3 (state), f[1] field 4 (ppid), f[11] to f[14] fields
	// 14 to 17 (utime, stime, cutime, cstime).
	f := strings.Fields(stat[end+1:])
	if len(f) < 15 {
		return procStat{}, fmt.Errorf("stat has %d fields after the name", len(f))
	}
	var n [5]int64
	for i, at := range []int{1, 11, 12, 13, 14} {
		if n[i], err = strconv.ParseInt(f[at], 10, 64); err != nil {
			return procStat{}, fmt.Errorf("stat field %d %q: %w", at+3, f[at], err)
		}
	}
	s.ppid, s.ticks, s.reaped = int(n[0]), n[1]+n[2], n[3]+n[4]
	return s, nil
}

// GroupTicks is the CPU ticks of the processes named comm among stats,
// with the ended children reaped by the group's roots (those whose parent
// has another name): PostgreSQL's backends come and go under their
// postmaster, which collects their time when they end. Children reaped by
// a process of the group are in the group already, so only roots add them.
func GroupTicks(stats []procStat, comm string) int64 {
	names := make(map[int]string, len(stats))
	for _, s := range stats {
		names[s.pid] = s.comm
	}
	var sum int64
	for _, s := range stats {
		if s.comm != comm {
			continue
		}
		sum += s.ticks
		if names[s.ppid] != comm {
			sum += s.reaped
		}
	}
	return sum
}

// readProcStats reads every process's stat; one that ends meanwhile is
// skipped.
func readProcStats() []procStat {
	paths, _ := filepath.Glob("/proc/[0-9]*/stat")
	out := make([]procStat, 0, len(paths))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if s, err := ParseProcStat(string(b)); err == nil {
			out = append(out, s)
		}
	}
	return out
}

// SampleMachine records, at one moment, the machine's busy ticks (all
// cores) and the shared servers' ticks, as series of w.
func (w *ProcWatch) SampleMachine() {
	if b, err := os.ReadFile("/proc/stat"); err == nil {
		if busy, _, err := ParseBusyIdle(string(b)); err == nil {
			w.add(seriesMachine, busy, 0)
		}
	}
	stats := readProcStats()
	for _, s := range sharedServers {
		w.add(s.series, GroupTicks(stats, s.comm), 0)
	}
}

// part is one line of the budget: what a share of the machine went to.
type part struct {
	name       string
	cpuPercent float64 // of one core, over the steady window
}

// budgetLine is a part with its cost per calculation.
type budgetLine struct {
	part
	msPerCalc float64
}

// Budget is where the machine's CPU went over the steady window, per part
// and per calculation.
type Budget struct {
	Lines []budgetLine // the parts measured, then the rest of the machine
	// Machine is the machine's whole use (percent of one core) of
	// Capacity (100 per core).
	Machine, Capacity float64
	// MsPerCalc is the machine's CPU per calculation; LoadMsPerCalc that
	// of the load generator alone, which a deployment does not run.
	MsPerCalc, LoadMsPerCalc float64
}

// NewBudget shares machine (percent of one core, cores of them) among
// parts at rate calculations per second; what no part accounts for is
// the rest of the machine. loadGen names the part that is the load
// generator.
func NewBudget(parts []part, machine float64, cores int, rate float64, loadGen string) Budget {
	b := Budget{Machine: machine, Capacity: 100 * float64(cores)}
	perCalc := func(cpu float64) float64 {
		if rate <= 0 {
			return 0
		}
		return cpu / 100 * 1000 / rate
	}
	rest := machine
	for _, p := range parts {
		b.Lines = append(b.Lines, budgetLine{p, perCalc(p.cpuPercent)})
		rest -= p.cpuPercent
		if p.name == loadGen {
			b.LoadMsPerCalc = perCalc(p.cpuPercent)
		}
	}
	// Sampled a moment apart, the parts can add up to a little more than
	// the machine.
	rest = max(rest, 0)
	b.Lines = append(b.Lines, budgetLine{part{"the rest of the machine", rest}, perCalc(rest)})
	b.MsPerCalc = perCalc(machine)
	return b
}

// CoresFor is the cores of this machine that rate calculations a second
// would take at the measured cost, with the load generator and without.
func (b Budget) CoresFor(rate float64) (all, deployment float64) {
	return b.MsPerCalc * rate / 1000, (b.MsPerCalc - b.LoadMsPerCalc) * rate / 1000
}

// Markdown is the budget as the report's table and its conclusion for the
// target rate.
func (b Budget) Markdown(target float64) string {
	var s strings.Builder
	s.WriteString("| Part | CPU steady | CPU per calculation |\n|---|---|---|\n")
	for _, l := range b.Lines {
		fmt.Fprintf(&s, "| %s | %.0f %% | %.2f ms |\n", l.name, l.cpuPercent, l.msPerCalc)
	}
	fmt.Fprintf(&s, "| **the machine** | **%.0f %% of %.0f** | **%.2f ms** |\n", b.Machine, b.Capacity, b.MsPerCalc)
	all, deployment := b.CoresFor(target)
	fmt.Fprintf(&s, "\nAt %.2f ms of CPU per mixed calculation (with everything that goes with it: the edit before it, a save every few, the live streams, the read models), %.0f calculations/s would take %.1f cores like these, %.1f without the load generator.",
		b.MsPerCalc, target, all, deployment)
	if b.Capacity > 0 && b.Machine >= 0.9*b.Capacity {
		fmt.Fprintf(&s, " The machine was %.0f %% busy: the rate measured is what its cores allow.", 100*b.Machine/b.Capacity)
	}
	s.WriteString("\n")
	return s.String()
}
