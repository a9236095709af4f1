package design

import (
	"encoding/json"
	"testing"

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
			for b.Loop() {
				if _, err := Calculate(cat, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAnswerJSON is the encoding of the longest answer, which the
// HTTP call adds to the calculation.
func BenchmarkAnswerJSON(b *testing.B) {
	r, err := DecodeRequest([]byte(benchBodies[2].body))
	if err != nil {
		b.Fatal(err)
	}
	ans, err := Calculate(catalogue.Default(), r)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(ans); err != nil {
			b.Fatal(err)
		}
	}
}
