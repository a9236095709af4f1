package hydraulics

import "testing"

// Benchmarks of docs/performance.md ("Hydraulic engine"):
//
//	go test -run '^$' -bench . -benchmem ./domain/hydraulics/
//
// Each calculates the full results (profile slices every 0.5 m and the
// maximum possible discharge), as POST /api/drainage/calculate/ would.

// 50 m of 150 mm channel, 1 % fall, 400 m² at 75 mm/h.
func BenchmarkRun50mSingleSize(b *testing.B) {
	lat, _ := UniformInflow(50, 400, 75, 1)
	run := rectRun(0.15, 50, 0.01, 0.2, 0.011, 0, nil)
	run.Lateral = lat
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Calculate(run); err != nil {
			b.Fatal(err)
		}
	}
}

// 500 m, 0.5 % fall, 5000 m² at 75 mm/h, standard mode stepped over the ten
// catalogue sizes, selection and full results of the chosen design.
func BenchmarkStepped500mTenSizes(b *testing.B) {
	lat, _ := UniformInflow(500, 5000, 75, 1)
	lay := Layout{Length: 500, Gradient: 0.005, TopAtHead: 10, Unit: 1, Lateral: lat}
	sizes := catalogueSizes()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SelectStepped(lay, sizes, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// 3000 m of 300 mm channel, 0.3 % fall, 20000 m² at 50 mm/h, GVF.
func BenchmarkGVF3000m(b *testing.B) {
	lat, _ := UniformInflow(3000, 20000, 50, 1)
	run := rectRun(0.3, 3000, 0.003, 0.5, 0.011, 0, nil)
	run.Lateral = lat
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Calculate(run); err != nil {
			b.Fatal(err)
		}
	}
}

// A steep 3000 m run (9.9 %, the GVF limit) with a control section near the
// head and supercritical flow over almost all its length.
func BenchmarkGVF3000mSteep(b *testing.B) {
	lat, _ := UniformInflow(3000, 20000, 50, 1)
	run := rectRun(0.3, 3000, 0.099, 0.5, 0.011, 0, nil)
	run.Lateral = lat
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Calculate(run); err != nil {
			b.Fatal(err)
		}
	}
}
