package hydraulics

import (
	"math"
	"testing"
)

// rectRun is a single rectangular channel of width b (m), length l (m),
// bed slope s0 (m/m), available depth d (m), Manning n, with uniform lateral
// inflow q (m³/s per m) and the given outlet.
func rectRun(b, l, s0, d, n, q float64, out Outlet) Run {
	return Run{
		Sections: []Section{{
			Name: "test", Start: 0, End: l, Shape: Rectangular{Width: b},
			InvertStart: s0 * l, InvertEnd: 0, DepthStart: d, DepthEnd: d, N: n,
		}},
		Lateral: LateralInflow{{Start: 0, End: l, QStart: q, QEnd: q}},
		Outlet:  out,
	}
}

// depthAt returns the slice depth (m) closest to chainage x.
func depthAt(t *testing.T, res *Results, x float64) float64 {
	t.Helper()
	best, dist := math.NaN(), math.Inf(1)
	for _, s := range res.Segments {
		for _, c := range s.Slices {
			if d := math.Abs(c.DistanceM - x); d < dist {
				best, dist = c.DepthMM/1000, d
			}
		}
	}
	return best
}

// relErr is |got − want|/|want|; NaN or Inf on either side gives +Inf so
// that a comparison "relErr(...) > tol" fails as it should.
func relErr(got, want float64) float64 {
	e := math.Abs(got-want) / math.Abs(want)
	if math.IsNaN(e) {
		return math.Inf(1)
	}
	return e
}

func mustCalc(t testing.TB, run Run, opts Options) *Results {
	t.Helper()
	res, err := CalculateWith(run, opts)
	if err != nil {
		t.Fatalf("calculate: %v", err)
	}
	return res
}
