package main

import (
	"math"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = 100 - i // 100 down to 1: sorting is the function's job
	}
	for _, c := range []struct {
		name    string
		samples []time.Duration
		p       float64
		want    time.Duration
	}{
		{"none", nil, 99, 0},
		{"one", ms(7), 50, 7 * time.Millisecond},
		{"one at p99", ms(7), 99, 7 * time.Millisecond},
		{"median of four is the second", ms(4, 1, 3, 2), 50, 2 * time.Millisecond},
		{"p99 of 1..100", ms(hundred...), 99, 99 * time.Millisecond},
		{"p95 of 1..100", ms(hundred...), 95, 95 * time.Millisecond},
		{"p100 is the max", ms(hundred...), 100, 100 * time.Millisecond},
		{"p99 of ten is the max", ms(1, 2, 3, 4, 5, 6, 7, 8, 9, 50), 99, 50 * time.Millisecond},
		{"p50 of ten", ms(10, 9, 8, 7, 6, 5, 4, 3, 2, 1), 50, 5 * time.Millisecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Percentile(c.samples, c.p); got != c.want {
				t.Fatalf("Percentile(%v, %g) = %v, want %v", c.samples, c.p, got, c.want)
			}
		})
	}
}

func TestSummarizeKeepsTheSamplesOrder(t *testing.T) {
	in := []time.Duration{3, 1, 2}
	s := Summarize(in)
	if s.Count != 3 || s.P50 != 2 || s.P99 != 3 || s.Max != 3 {
		t.Fatalf("Summarize = %+v", s)
	}
	if in[0] != 3 || in[1] != 1 || in[2] != 2 {
		t.Fatalf("Summarize reordered its input: %v", in)
	}
}

func TestRecorderWindowsAndSeconds(t *testing.T) {
	r := &Recorder{samples: map[string][]sample{
		"calc": {
			{at: 500 * time.Millisecond, took: 10},
			{at: 1500 * time.Millisecond, took: 20},
			{at: 1700 * time.Millisecond, took: 30, failed: true},
			{at: 1900 * time.Millisecond, took: 40},
			{at: 3100 * time.Millisecond, took: 50},
		},
		"edit": {{at: 1200 * time.Millisecond, took: 5}},
	}}
	ok, failed := r.Window("calc", time.Second, 2*time.Second)
	if len(ok) != 2 || ok[0] != 20 || ok[1] != 40 || failed != 1 {
		t.Fatalf("Window = %v, %d failed", ok, failed)
	}
	for _, c := range []struct {
		names []string
		want  []float64
	}{
		{[]string{"calc"}, []float64{1, 2, 0, 1}},
		{[]string{"calc", "edit"}, []float64{1, 3, 0, 1}},
	} {
		got := r.PerSecond(4, c.names...)
		for i := range c.want {
			if got[i] != c.want[i] {
				t.Fatalf("PerSecond(%v) = %v, want %v", c.names, got, c.want)
			}
		}
	}
	p99 := r.P99PerSecond(4, "calc")
	if p99[0] != float64(10)/1e6 || p99[1] != float64(40)/1e6 || !math.IsNaN(p99[2]) {
		t.Fatalf("P99PerSecond = %v", p99)
	}
}
