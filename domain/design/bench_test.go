package design

import (
	"encoding/json"
	"syscall"
	"testing"
	"time"

	"draindesign/domain/catalogue"
)

// The three calculations of docs/performance.md: a short standard-mode
// run, a long stepped one, and the longest run GVF takes.
var benchBodies = []struct{ name, body string }{
	{"single-size-50m", `{"channel_group":"poly-100","loading":"C250","grating":"poly-100-slot-iron","channel_length_m":50,
		"drainage_area_m2":500,"rainfall":{"rainfall_mm_per_hr":50},"ground_slope":0.2}`},
	{"stepped-500m", `{"channel_group":"fibre","loading":"C250","grating":"fibre-std-mesh","channel_length_m":500,"stepped":true,
		"drainage_area_m2":3000,"rainfall":{"rainfall_mm_per_hr":50},"ground_slope":0.2}`},
	{"gvf-3000m", `{"advanced":true,"channel_group":"concrete","concreteChannel":{"width":500,"depth":800,"roughness":0.013},
		"channel_length_m":3000,"drainage_area_m2":90000,"rainfall":{"rainfall_mm_per_hr":50},"ground_slope":0.5}`},
	{"gvf-3000m-standard", `{"channel_group":"fibre","loading":"C250","grating":"fibre-std-mesh","channel_length_m":3000,
		"drainage_area_m2":30000,"rainfall":{"rainfall_mm_per_hr":10},"ground_slope":1}`},
}

func BenchmarkCalculate(b *testing.B) {
	cat := catalogue.Default()
	for _, bb := range benchBodies {
		b.Run(bb.name, func(b *testing.B) {
			r, err := DecodeRequest([]byte(bb.body))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Calculate(cat, r); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			c0 := cpuTime()
			for b.Loop() {
				if _, err := Calculate(cat, r); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, c0)
		})
	}
}

// BenchmarkAnswerJSON is the encoding of the longest answer, which the
// HTTP call adds to the calculation, as the call does it: AppendJSON into
// a buffer kept from the previous call (api's answerBuffers).
func BenchmarkAnswerJSON(b *testing.B) {
	ans := benchAnswer(b)
	buf, err := ans.AppendJSON(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	c0 := cpuTime()
	for b.Loop() {
		if buf, err = ans.AppendJSON(buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, c0)
}

// BenchmarkAnswerMarshal is json.Marshal of the same answer, which the
// command line's calc and any other encoding/json user pay: the slices
// encode themselves, but encoding/json re-reads what they write.
func BenchmarkAnswerMarshal(b *testing.B) {
	ans := benchAnswer(b)
	b.ReportAllocs()
	c0 := cpuTime()
	for b.Loop() {
		if _, err := json.Marshal(ans); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, c0)
}

func benchAnswer(b *testing.B) *Answer {
	b.Helper()
	r, err := DecodeRequest([]byte(benchBodies[2].body))
	if err != nil {
		b.Fatal(err)
	}
	ans, err := Calculate(catalogue.Default(), r)
	if err != nil {
		b.Fatal(err)
	}
	return ans
}

// cpuTime is the CPU time the process has used (user and system, all
// threads). On a machine shared with other work the wall time of a
// benchmark counts the time it waited for a core; its CPU time does not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds the CPU time per operation since c0 as "cpu-ns/op".
func reportCPU(b *testing.B, c0 time.Duration) {
	if b.N > 0 {
		b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkSummary is the summary recorded in the project for each
// calculation (`go test -run xxx -bench Summary ./domain/design`).
func BenchmarkSummary(b *testing.B) {
	cat := catalogue.Default()
	for _, bb := range benchBodies[:2] {
		b.Run(bb.name, func(b *testing.B) {
			r, err := DecodeRequest([]byte(bb.body))
			if err != nil {
				b.Fatal(err)
			}
			ans, err := Calculate(cat, r)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Summary(ans.Results); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
