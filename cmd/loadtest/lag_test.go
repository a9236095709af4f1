package main

import (
	"math"
	"testing"
	"time"
)

func TestLagFigures(t *testing.T) {
	s := []lagSample{
		{at: 1 * time.Second, behind: 0, name: "a"},
		{at: 2 * time.Second, behind: 300, name: "timeline"},
		{at: 3 * time.Second, behind: 100, name: "a"},
		{at: 4 * time.Second, behind: 5000, name: "project_list"},
		{at: 5 * time.Second, behind: 20, name: "a"},
		{at: 6 * time.Second, behind: 0, name: "a"},
	}
	got := lagSummary(s, 2*time.Second, 6*time.Second)
	want := LagSummary{Samples: 4, P50: 100, Max: 5000, MaxName: "project_list", MaxAt: 4 * time.Second}
	if got != want {
		t.Errorf("summary %+v, want %+v", got, want)
	}
	if got := lagSummary(s, 10*time.Second, 20*time.Second); got != (LagSummary{}) {
		t.Errorf("empty window: %+v", got)
	}
	for _, c := range []struct {
		after time.Duration
		at    time.Duration
		ok    bool
	}{{0, time.Second, true}, {2 * time.Second, 6 * time.Second, true}, {7 * time.Second, 0, false}} {
		if at, ok := caughtUp(s, c.after); at != c.at || ok != c.ok {
			t.Errorf("caught up after %s: %s %v, want %s %v", c.after, at, ok, c.at, c.ok)
		}
	}
	w := &LagWatch{samples: append(s, lagSample{at: 4500 * time.Millisecond, behind: 7000})}
	ps := w.PerSecond(8)
	if ps[4] != 7000 || ps[2] != 300 || !math.IsNaN(ps[7]) {
		t.Errorf("per second %v", ps)
	}
}
