package hydraulics

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// denseFill is the fill ratio as the engine found it before it read the
// depth at integration points from the points themselves: every key point
// evaluated on the dense profile, then the same golden-section refinement.
func denseFill(m *model, prof profile) float64 {
	worst, wr, wk := 0.0, 0, -1
	var xs, best []float64
	for r := range m.reaches {
		rc := &m.reaches[r]
		xs = prof.keyPoints(r, xs[:0])
		for _, s := range m.secs {
			if s.Start > rc.x0 && s.Start < rc.x1 {
				xs = append(xs, s.Start)
			}
		}
		for _, j := range prof.jumps() {
			if j >= rc.x0 && j <= rc.x1 {
				xs = append(xs, j)
			}
		}
		sort.Float64s(xs)
		for k, x := range xs {
			y, _ := prof.depth(r, x)
			if v := y / m.availableDepth(x); v > worst {
				worst, wr, wk = v, r, k
				best = append(best[:0], xs[max(k-1, 0)], xs[min(k+1, len(xs)-1)])
			}
		}
	}
	if wk >= 0 {
		worst = math.Max(worst, goldenMax(func(x float64) float64 {
			y, _ := prof.depth(wr, x)
			return y / m.availableDepth(x)
		}, best[0], best[1]))
	}
	return worst
}

// The fill ratio from the integration points' own depths is the one the
// dense profile gives at those points: the two differ by the rounding of
// solving M(y) = M again (well under 1e-9), on subcritical and
// supercritical runs, rectangular and U, with jumps and a raised outlet.
func TestFillRatioFromPointsMatchesDense(t *testing.T) {
	t.Parallel()
	for _, shape := range []Shape{Rectangular{Width: 0.2}, UShape{Width: 0.2}} {
		for _, s0 := range []float64{0, 0.002, 0.01, 0.03, 0.099} {
			for _, l := range []float64{20, 500, 3000} {
				for _, out := range []Outlet{nil, FixedLevel{Depth: 0.15}} {
					run := rectRun(0.2, l, s0, 0.3, 0.011, 0.02/l, out)
					run.Sections[0].Shape = shape
					name := fmt.Sprintf("%T S%g L%g outlet %v", shape, s0, l, out != nil)
					m, err := compile(run, Options{})
					if err != nil {
						t.Fatal(err)
					}
					prof, err := solve(m)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					got, err := fillRatioOf(m, prof)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if want := denseFill(m, prof); !(relErr(got, want) < 1e-9) {
						t.Errorf("%s: fill ratio %.15g from the points, %.15g from the dense profile", name, got, want)
					}
				}
			}
		}
	}
}

// sortSamples merges ascending runs, or sorts when there are many: the
// result is sorted and holds the same samples.
func TestSortSamples(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 5))
	for _, runs := range []int{1, 2, 3, 5, 8, 9, 40} {
		for trial := 0; trial < 20; trial++ {
			var ss []sample
			for r := 0; r < runs; r++ {
				x := rng.Float64() * 10
				for n := rng.IntN(30); n >= 0; n-- {
					ss = append(ss, sample{x, float64(len(ss))})
					x += float64(rng.IntN(3)) * rng.Float64() // repeated chainages too
				}
			}
			want := slices.Clone(ss)
			slices.SortStableFunc(want, func(a, b sample) int { return cmp.Compare(a.x, b.x) })
			got, _ := sortSamples(slices.Clone(ss), nil)
			if !slices.IsSortedFunc(got, func(a, b sample) int { return cmp.Compare(a.x, b.x) }) {
				t.Fatalf("%d runs: not sorted: %v", runs, got)
			}
			key := func(s []sample) []sample {
				c := slices.Clone(s)
				slices.SortFunc(c, func(a, b sample) int { return cmp.Or(cmp.Compare(a.x, b.x), cmp.Compare(a.y, b.y)) })
				return c
			}
			if !slices.Equal(key(got), key(want)) {
				t.Fatalf("%d runs: samples lost or added", runs)
			}
		}
	}
}
