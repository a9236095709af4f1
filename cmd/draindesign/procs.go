package main

import (
	"runtime"
	"strconv"
)

// procs is how serve sets Go's scheduler up: the Ps it runs goroutines on
// (GOMAXPROCS) and the calculations that may run at once (api.Limits'
// HeavyTotal), given the GOMAXPROCS variable and the Ps Go chose at start
// (the cores, or a container's CPU limit).
//
// Calculations get one slot per core and the scheduler twice as many Ps as
// cores. Go looks for network readiness only when a P runs out of work,
// or from its monitor thread once 10 ms have passed without a look
// (golang/go#51651): with as many calculations running as Ps, every
// database answer, bus message and live-stream write waited up to 10 ms to
// be noticed, and then in line behind them, holding its database
// connection all the while. The spare Ps run that short work at once,
// while the calculations' slots keep the cores from more engine work than
// they can do; the kernel shares the cores between the Ps' threads. In the
// load test (docs/performance.md, "ninth") an edit reached the other tab
// at a p99 of 239–333 ms instead of 649–756 ms, at the same calculations
// per second; the calculations wait longer in their queue instead.
//
// An operator who sets GOMAXPROCS keeps it, and a slot per P. Setting
// GOMAXPROCS here ends Go's own updates of it when a container's CPU
// limit changes: a new limit is taken at the next start.
func procs(env string, chosen int) (gomaxprocs, heavy int) {
	chosen = max(1, chosen)
	if n, err := strconv.Atoi(env); err == nil && n > 0 {
		return chosen, chosen
	}
	return 2 * chosen, chosen
}

// setProcs applies procs to the running program. It returns the heavy
// slots and a function that puts the Ps back as they were.
func setProcs(env string) (heavy int, restore func()) {
	chosen := runtime.GOMAXPROCS(0)
	gomaxprocs, heavy := procs(env, chosen)
	runtime.GOMAXPROCS(gomaxprocs)
	return heavy, func() { runtime.GOMAXPROCS(chosen) }
}
