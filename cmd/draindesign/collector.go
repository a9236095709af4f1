package main

import (
	"runtime/debug"
	"strconv"
	"strings"
)

// serveGCPercent is the garbage collector's target for serve: the heap may
// grow to three times what is live before a collection (Go's default is
// twice). The collector and its write barriers took about a seventh of an
// instance's CPU under load; at 200 the instances needed 15 % less CPU per
// calculation and served 14 % more (docs/performance.md, "ninth"), for
// half as much memory again (a peak of 450–510 MiB against 300–340 MiB
// per instance in the load test).
const serveGCPercent = 200

// setCollector sets the collector's target for serve unless the operator
// chose one with GOGC (env is its value); it returns the target in force
// and a function that puts the previous one back.
func setCollector(env string) (percent string, restore func()) {
	if strings.TrimSpace(env) != "" {
		return env, func() {}
	}
	before := debug.SetGCPercent(serveGCPercent)
	return strconv.Itoa(serveGCPercent), func() { debug.SetGCPercent(before) }
}
