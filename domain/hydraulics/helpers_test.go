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

// withFloorStep splits rectRun's run at half its length, the downstream
// half half a depth lower, 1.5 times as deep and as wide: a floor step.
func withFloorStep(run *Run, width, length, depth float64) {
	s := run.Sections[0]
	a, b := s, s
	a.End, b.Start = length/2, length/2
	a.InvertEnd = s.InvertAt(length / 2)
	b.InvertStart = a.InvertEnd - depth/2
	b.InvertEnd = s.InvertEnd - depth/2
	b.DepthStart, b.DepthEnd = depth*1.5, depth*1.5
	b.Shape = Rectangular{Width: width * 1.5}
	run.Sections = []Section{a, b}
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
