package main

import (
	"math"
	"sort"
	"sync"
	"time"
)

// Percentile is the nearest-rank percentile p (0 < p <= 100) of samples,
// which it sorts in place; zero for no samples.
func Percentile(samples []time.Duration, p float64) time.Duration {
	if len(samples) == 0 {
		return 0
	}
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	return percentileSorted(samples, p)
}

func percentileSorted(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	rank = min(max(rank, 1), len(sorted))
	return sorted[rank-1]
}

// Summary is what the report shows of one kind of call.
type Summary struct {
	Count         int
	P50, P95, P99 time.Duration
	Max           time.Duration
}

// Summarize sorts samples and reads their percentiles.
func Summarize(samples []time.Duration) Summary {
	s := append([]time.Duration(nil), samples...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	out := Summary{Count: len(s), P50: percentileSorted(s, 50), P95: percentileSorted(s, 95), P99: percentileSorted(s, 99)}
	if len(s) > 0 {
		out.Max = s[len(s)-1]
	}
	return out
}

// sample is one finished call: when it ended (since the run's start), how
// long it took, and whether it failed.
type sample struct {
	at     time.Duration
	took   time.Duration
	failed bool
}

// Recorder collects samples per call name, safely from many goroutines.
type Recorder struct {
	mu      sync.Mutex
	start   time.Time
	samples map[string][]sample
}

func NewRecorder(start time.Time) *Recorder {
	return &Recorder{start: start, samples: map[string][]sample{}}
}

// Add records a call that ended now.
func (r *Recorder) Add(name string, took time.Duration, failed bool) {
	at := time.Since(r.start)
	r.mu.Lock()
	r.samples[name] = append(r.samples[name], sample{at: at, took: took, failed: failed})
	r.mu.Unlock()
}

// Window is the successful latencies of name that ended within [from, to),
// and the count of failures there.
func (r *Recorder) Window(name string, from, to time.Duration) (ok []time.Duration, failed int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.samples[name] {
		if s.at < from || s.at >= to {
			continue
		}
		if s.failed {
			failed++
		} else {
			ok = append(ok, s.took)
		}
	}
	return ok, failed
}

// Names are the call names recorded, sorted.
func (r *Recorder) Names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.samples))
	for n := range r.samples {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// PerSecond counts the successful samples of the names per whole second
// of the run, over seconds [0, n).
func (r *Recorder) PerSecond(n int, names ...string) []float64 {
	out := make([]float64, n)
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, name := range names {
		for _, s := range r.samples[name] {
			if i := int(s.at / time.Second); !s.failed && i >= 0 && i < n {
				out[i]++
			}
		}
	}
	return out
}

// P99PerSecond is the p99 latency (ms) of the names' successful samples
// per second of the run; NaN for a second without any.
func (r *Recorder) P99PerSecond(n int, names ...string) []float64 {
	buckets := make([][]time.Duration, n)
	r.mu.Lock()
	for _, name := range names {
		for _, s := range r.samples[name] {
			if i := int(s.at / time.Second); !s.failed && i >= 0 && i < n {
				buckets[i] = append(buckets[i], s.took)
			}
		}
	}
	r.mu.Unlock()
	out := make([]float64, n)
	for i, b := range buckets {
		if len(b) == 0 {
			out[i] = math.NaN()
			continue
		}
		out[i] = float64(Percentile(b, 99)) / float64(time.Millisecond)
	}
	return out
}

func nan() float64 { return math.NaN() }
