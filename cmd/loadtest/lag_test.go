package main

import (
	"math"
	"slices"
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
	each := []lagSample{
		{at: 1 * time.Second, each: map[string]int64{"timeline": 900, "offer": 5}},
		{at: 2 * time.Second, each: map[string]int64{"timeline": 100, "offer": 1500}},
		{at: 3 * time.Second, each: map[string]int64{"timeline": 300, "offer": 700}},
		{at: 4 * time.Second, each: map[string]int64{"timeline": 50}},
	}
	wantEach := []ModelLag{{Name: "offer", P50: 700, Max: 1500}, {Name: "timeline", P50: 100, Max: 300}}
	if got := eachSummary(each, 2*time.Second, 5*time.Second); !slices.Equal(got, wantEach) {
		t.Errorf("each read model %+v, want %+v", got, wantEach)
	}
	if got := eachLag(wantEach); got != " Each read model, steady p50 / max events behind: offer 700 / 1500, timeline 100 / 300." {
		t.Errorf("sentence %q", got)
	}
	w := &LagWatch{samples: append(s, lagSample{at: 4500 * time.Millisecond, behind: 7000})}
	ps := w.PerSecond(8)
	if ps[4] != 7000 || ps[2] != 300 || !math.IsNaN(ps[7]) {
		t.Errorf("per second %v", ps)
	}
}
