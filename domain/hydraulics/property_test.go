package hydraulics

import (
	"fmt"
	"math"
	"testing"
)

// A channel far too small for its catchment floods, and says so
// consistently; a large one does not.
func TestTooSmallChannelFloods(t *testing.T) {
	t.Parallel()
	lat, err := UniformInflow(30, 2000, 100, 1) // 55.6 l/s into 30 m
	if err != nil {
		t.Fatal(err)
	}
	small := rectRun(0.1, 30, 0.005, 0.1, 0.011, 0, nil)
	small.Lateral = lat
	res := mustCalc(t, small, Options{})
	if !res.Overflowed || res.PercentageFull <= 100 || res.Freeboard >= 0 || res.MaxPossibleDischarge >= res.ChannelDischarge {
		t.Fatalf("100 mm channel with 55.6 l/s: overflowed %v, %.1f %% full, freeboard %.1f mm, max %.2f l/s",
			res.Overflowed, res.PercentageFull, res.Freeboard, res.MaxPossibleDischarge)
	}
	big := rectRun(0.5, 30, 0.005, 0.5, 0.011, 0, nil)
	big.Lateral = lat
	res = mustCalc(t, big, Options{})
	if res.Overflowed || res.PercentageFull >= 100 || res.Freeboard <= 0 || res.MaxPossibleDischarge <= res.ChannelDischarge {
		t.Fatalf("500 mm channel with 55.6 l/s: overflowed %v, %.1f %% full, freeboard %.1f mm, max %.2f l/s",
			res.Overflowed, res.PercentageFull, res.Freeboard, res.MaxPossibleDischarge)
	}
	if d := res.PercentageFull + res.FreeboardPercent; math.Abs(d-100) > 1e-6 && res.PercentageFull < 100 {
		// With a constant available depth, least freeboard and fullest point coincide.
		t.Fatalf("percentage full %.4f + freeboard %% %.4f ≠ 100", res.PercentageFull, res.FreeboardPercent)
	}
}

// propertyGrid spans the engine's range: level to 9.9 %, frictionless to
// rough, 20 to 3000 m, free outfall and a raised outlet.
type gridCase struct {
	s0, n, l float64
	outlet   Outlet
}

func (c gridCase) String() string {
	o := "free"
	if c.outlet != nil {
		o = "level"
	}
	return fmt.Sprintf("S%g_n%g_L%g_%s", c.s0, c.n, c.l, o)
}

func propertyGrid(short bool) []gridCase {
	slopes := []float64{0, 0.002, 0.005, 0.01, 0.0125, 0.03, 0.099}
	ns := []float64{0, 0.011, 0.02}
	ls := []float64{20, 100, 500, 3000}
	if short {
		ls = []float64{20, 500}
	}
	var out []gridCase
	for _, s0 := range slopes {
		for _, n := range ns {
			for _, l := range ls {
				out = append(out, gridCase{s0, n, l, nil}, gridCase{s0, n, l, FixedLevel{Depth: 0.12}})
			}
		}
	}
	return out
}

// 10 l/s collected over the run into a 150 mm wide channel.
func (c gridCase) run(scale float64) Run {
	return rectRun(0.15, c.l, c.s0, 2, c.n, scale*0.01/c.l, c.outlet)
}

// Halving the integration step (and tightening the tolerance to match the
// fifth-order method) changes the largest depth by less than 0.1 %.
func TestStepHalvingChangesMaxDepthUnder0p1Percent(t *testing.T) {
	t.Parallel()
	for _, c := range propertyGrid(testing.Short()) {
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel()
			a := mustCalc(t, c.run(1), Options{SkipMaxDischarge: true})
			b := mustCalc(t, c.run(1), Options{SkipMaxDischarge: true, MaxStep: 2.5, Tol: 1e-7 / 32})
			t.Logf("HALVING| %s | %.3e", c, relErr(a.MaxDepthMM, b.MaxDepthMM))
			if e := relErr(a.MaxDepthMM, b.MaxDepthMM); e > 1e-3 {
				t.Fatalf("max depth %.5f mm, with half the step %.5f mm (%.3g %%)", a.MaxDepthMM, b.MaxDepthMM, 100*e)
			}
		})
	}
}

// More rain never lowers the largest depth, and, where the flow stays
// subcritical throughout, never lowers the depth anywhere.
func TestMoreRainNeverLowersDepth(t *testing.T) {
	t.Parallel()
	for _, c := range propertyGrid(true) {
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel()
			var prev *Results
			for _, s := range []float64{0.25, 0.5, 1, 1.5, 2, 4} {
				res := mustCalc(t, c.run(s), Options{SkipMaxDischarge: true})
				if prev != nil {
					if res.MaxDepthMM < prev.MaxDepthMM*(1-1e-9) {
						t.Fatalf("scale %g: max depth fell from %.4f to %.4f mm", s, prev.MaxDepthMM, res.MaxDepthMM)
					}
					if !res.WentSuperCritical && !prev.WentSuperCritical {
						for i, seg := range res.Segments {
							for j, sl := range seg.Slices {
								// 0.1 mm: resolution at the dry head of a
								// sloping run, where depth tends to zero.
								if p := prev.Segments[i].Slices[j].DepthMM; sl.DepthMM < p*(1-1e-9)-0.1 {
									t.Fatalf("scale %g: depth at %.2f m fell from %.4f to %.4f mm", s, sl.DistanceM, p, sl.DepthMM)
								}
							}
						}
					}
				}
				prev = res
			}
		})
	}
}

// A larger channel (wider and deeper, laid with its top on the same line)
// never floods where a smaller one does not: the property the selection's
// binary search relies on.
func TestDeeperNeverFloodsWhereShallowerDoesNot(t *testing.T) {
	t.Parallel()
	sizes := []ChannelSize{
		{Name: "100/100", Shape: Rectangular{Width: 0.1}, N: 0.011, Depth: 0.10},
		{Name: "100/150", Shape: Rectangular{Width: 0.1}, N: 0.011, Depth: 0.15},
		{Name: "150/150", Shape: Rectangular{Width: 0.15}, N: 0.011, Depth: 0.15},
		{Name: "150/250", Shape: Rectangular{Width: 0.15}, N: 0.011, Depth: 0.25},
		{Name: "200/300", Shape: Rectangular{Width: 0.2}, N: 0.011, Depth: 0.30},
		{Name: "300/400", Shape: Rectangular{Width: 0.3}, N: 0.011, Depth: 0.40},
	}
	for _, l := range []float64{10, 50, 200} {
		for _, grad := range []float64{0, 0.005, 0.02, 0.05} {
			for _, area := range []float64{100, 500, 2000, 8000} {
				lat, _ := UniformInflow(l, area, 75, 1)
				lay := Layout{Length: l, Gradient: grad, TopAtHead: 10, Lateral: lat}
				flooded := true
				for i := range sizes {
					run, _ := lay.runWith(sizes, []float64{0}, []int{i})
					f, err := Floods(run, Options{})
					if err != nil {
						t.Fatal(err)
					}
					if f && !flooded {
						t.Fatalf("L%g grad %g area %g: %s floods but the smaller %s did not", l, grad, area, sizes[i].Name, sizes[i-1].Name)
					}
					flooded = f
				}
			}
		}
	}
}
