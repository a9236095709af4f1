package hydraulics

import (
	"errors"
	"math"
	"testing"
)

// FuzzGVF drives the engine with arbitrary geometry, roughness, inflow and
// outlet: it must never panic, and must answer either a typed input error or
// results free of NaN and Inf whose outlet discharge is the inflow.
func FuzzGVF(f *testing.F) {
	f.Add(0.1, 50.0, 0.0, 0.15, 0.011, 1e-4, 0.0, 0.0, 0.0, uint8(0), false)
	f.Add(0.2, 500.0, 0.01, 0.3, 0.013, 2e-5, 0.02, 250.0, 0.05, uint8(1), false)
	f.Add(0.15, 3000.0, 0.099, 0.5, 0.02, 5e-6, 0.0, 0.0, 0.2, uint8(2), true)
	f.Add(0.3, 20.0, 0.0125, 0.2, 0.0, 1e-3, 0.01, 20.0, 0.1, uint8(3), false)
	f.Add(0.05, 1.0, 0.05, 0.05, 0.5, 0.9, 50.0, 0.0, 0.0, uint8(4), true)
	f.Add(math.NaN(), -1.0, math.Inf(1), 0.0, -1.0, -1.0, math.NaN(), -5.0, -1.0, uint8(5), false)
	f.Fuzz(func(t *testing.T, width, length, slope, depth, n, q, pointQ, pointX, outletParam float64, outletKind uint8, stepped bool) {
		var out Outlet
		switch outletKind % 6 {
		case 1:
			out = FixedLevel{Depth: outletParam}
		case 2:
			out = Orifice{Diameter: outletParam, CentreHeight: outletParam / 2}
		case 3:
			out = BottomOutlet{Diameter: outletParam}
		case 4:
			out = TrashBox{RatedFlow: outletParam, RatedHead: 0.2}
		case 5:
			out = Weir{Crest: outletParam, Length: width}
		}
		run := rectRun(width, length, slope, depth, n, q, out)
		if stepped && finite(length) && length > 1 {
			withFloorStep(&run, width, length, depth)
		}
		if pointQ != 0 || pointX != 0 {
			run.Points = []PointInflow{{X: pointX, Flow: pointQ}}
		}
		for _, m := range []Method{GVF, HRW} {
			run.Method = m
			res, err := CalculateWith(run, Options{})
			if err != nil {
				var ie *InputError
				if !errors.As(err, &ie) {
					t.Fatalf("%v: error is not an *InputError: %v", m, err)
				}
				continue
			}
			if !res.finite() {
				t.Fatalf("%v: non-finite result %+v", m, res)
			}
			if want := 1000 * run.TotalInflow(); math.Abs(res.ChannelDischarge-want) > 1e-9*math.Max(1, want) {
				t.Fatalf("%v: discharge %g l/s, inflow %g l/s", m, res.ChannelDischarge, want)
			}
			if res.MaxDepthMM < 0 || res.PercentageFull < 0 {
				t.Fatalf("%v: negative depth %g", m, res.MaxDepthMM)
			}
		}
	})
}
