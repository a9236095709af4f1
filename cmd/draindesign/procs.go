package main

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
)

// procs is how serve sets Go's scheduler up: the Ps it runs goroutines on
// (GOMAXPROCS) and the calculations that may run at once (api.Limits'
// HeavyTotal), given the GOMAXPROCS variable and the Ps Go chose at start
// (the cores, or a container's CPU limit).
//
// Calculations get one slot per core and the scheduler three times as many
// Ps as cores. Go looks for network readiness only when a P runs out of
// work, or from its monitor thread once 10 ms have passed without a look
// (golang/go#51651): with as many calculations running as Ps, every
// database answer, bus message and live-stream write waited up to 10 ms to
// be noticed, and then in line behind them, holding its database
// connection all the while. The spare Ps run that short work at once,
// while the calculations' slots keep the cores from more engine work than
// they can do. In the load test (docs/performance.md, "ninth") twice as
// many Ps as cores took an edit's p99 to the other tab from 649–756 ms to
// 239–333 ms, at the same calculations per second; the calculations wait
// longer in their queue instead. Since the calculations run below the
// network work's priority (calculationNice), the kernel gives the spare
// Ps' threads a core as soon as they wake, and a P held by a calculation
// is one fewer for that work: three Ps per core took the p99 from
// 193–323 ms to 99–129 ms ("tenth"); four did no better.
//
// An operator who sets GOMAXPROCS keeps it, and a slot per P. Setting
// GOMAXPROCS here ends Go's own updates of it when a container's CPU
// limit changes: a new limit is taken at the next start.
func procs(env string, chosen int) (gomaxprocs, heavy int) {
	chosen = max(1, chosen)
	if n, err := strconv.Atoi(env); err == nil && n > 0 {
		return chosen, chosen
	}
	return 3 * chosen, chosen
}

// setProcs applies procs to the running program. It returns the heavy
// slots and a function that puts the Ps back as they were.
func setProcs(env string) (heavy int, restore func()) {
	chosen := runtime.GOMAXPROCS(0)
	gomaxprocs, heavy := procs(env, chosen)
	runtime.GOMAXPROCS(gomaxprocs)
	return heavy, func() { runtime.GOMAXPROCS(chosen) }
}

// calculationNice is the nice value of the threads calculations run on
// (app.Options.CalculationNice), given the CALCULATION_NICE variable: 10
// unless set (on Linux; elsewhere threads have no priorities of their own),
// 0 for none (each on its request's thread).
//
// With the calculations below them, the threads doing the network work get
// a core as soon as they wake, and the calculations use what is left: in
// the load test an edit reached the other tab at a p99 of 120–167 ms
// instead of 237–266 ms (docs/performance.md, "tenth"). 10 rather than 19:
// the garbage collector stops every thread at times, and waits for a
// calculation's thread to take its turn; at 19 it gets 1.5 % of a busy
// core against 10 % at 10.
func calculationNice(env string) (int, error) {
	env = strings.TrimSpace(env)
	if env == "" {
		if runtime.GOOS != "linux" {
			return 0, nil
		}
		return 10, nil
	}
	n, err := strconv.Atoi(env)
	if err != nil || n < 0 || n > 19 {
		return 0, fmt.Errorf("CALCULATION_NICE=%q: want 0 (off) to 19", env)
	}
	return n, nil
}

// niceText is how serve words the calculations' nice value.
func niceText(nice int) string {
	if nice == 0 {
		return ""
	}
	return fmt.Sprintf(" at nice %d", nice)
}
