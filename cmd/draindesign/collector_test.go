package main

import (
	"runtime/debug"
	"testing"
)

// serve sets the collector's target unless GOGC chose one, and puts the
// previous target back.
func TestSetCollector(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	for _, tc := range []struct {
		env, said string
		inForce   int
	}{
		{"", "200", serveGCPercent},
		{"  ", "200", serveGCPercent},
		{"50", "50", 100}, // Go applied GOGC itself at start: left as it is
		{"off", "off", 100},
	} {
		said, restore := setCollector(tc.env)
		if got := gcPercent(); said != tc.said || got != tc.inForce {
			t.Errorf("GOGC %q: said %q with %d in force, want %q with %d", tc.env, said, got, tc.said, tc.inForce)
		}
		restore()
		if got := gcPercent(); got != 100 {
			t.Errorf("GOGC %q: %d after restore, want 100", tc.env, got)
		}
	}
}

// gcPercent is the collector's target in force.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}
