package hydraulics

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The fast branch solvers find the root the bracketed ones find, bit for
// bit, where they find one; the roots are within the tolerance of the
// depth whose momentum was asked; and a guess that is an exact root
// (M(y) − mv = 0 in floating point) is returned as it is.
func TestBranchSolvers(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 13))
	fast, exact := 0, 0
	for i := 0; i < 20000; i++ {
		r := reach{ru: 0.025 + 0.15*rng.Float64()}
		r.sh = UShape{Width: 2 * r.ru}
		q := math.Pow(10, -5+3.5*rng.Float64())
		yc := criticalDepth(r.sh, q)
		sub := rng.IntN(2) == 0
		var y float64
		if sub {
			y = yc * (1.01 + 3*rng.Float64())
		} else {
			y = yc * (0.2 + 0.79*rng.Float64())
		}
		mv := r.M(y, q)
		guess := y * (1 + 0.05*(rng.Float64()-0.5))
		var got, want float64
		var ok bool
		if sub {
			got, ok = r.ySubFast(mv, q, guess)
			want = r.ySub(mv, q, yc, guess)
		} else {
			got, ok = r.ySupFast(mv, q, guess)
			want = r.ySup(mv, q, yc, guess)
		}
		if ok {
			fast++
			if got != want {
				t.Fatalf("r %g q %g sub %v: fast %v, bracketed %v", r.ru, q, sub, got, want)
			}
		}
		if e := math.Abs(want-y) / y; e > 1e-9 {
			t.Fatalf("r %g q %g sub %v: root %v, depth %v (%.2g)", r.ru, q, sub, want, y, e)
		}
		if sub && r.M(want, q) == mv {
			exact++
			if got := r.ySub(mv, q, yc, want); got != want {
				t.Fatalf("an exact root %v as the guess gave %v", want, got)
			}
			if got, ok := r.ySubFast(mv, q, want); ok && got != want {
				t.Fatalf("an exact root %v as the guess gave %v (fast)", want, got)
			}
		}
	}
	if fast < 15000 || exact == 0 {
		t.Errorf("%d of 20000 by the fast solvers, %d exact roots: the test does not exercise them", fast, exact)
	}
}

// The subcritical pass starts each Runge–Kutta stage's Newton iteration
// from the previous stage's depth moved by the change of M and Q to first
// order: nearer the root than the depth itself, so an iteration fewer.
func TestStagePredictor(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(17, 19))
	better := 0
	const n = 2000
	for i := 0; i < n; i++ {
		r := reach{ru: 0.025 + 0.15*rng.Float64()}
		r.sh = UShape{Width: 2 * r.ru}
		q0 := math.Pow(10, -5+3*rng.Float64())
		yc := criticalDepth(r.sh, q0)
		y0 := yc * (1.2 + 3*rng.Float64())
		m0 := r.M(y0, q0)
		_, d0, ok := r.ySubFastSlope(m0, q0, y0*1.001)
		if !ok {
			continue
		}
		// The next stage: a little more flow and momentum.
		q1 := q0 * (1 + 0.01*rng.Float64())
		y1 := y0 * (1 + 0.01*(rng.Float64()-0.3))
		m1 := r.M(y1, q1)
		p := predictDepth(y0, m0, q0, r.area(y0), d0, m1, q1)
		if math.Abs(p-y1) < math.Abs(y0-y1)/10 {
			better++
		}
	}
	if better < n*9/10 {
		t.Errorf("the predicted depth is ten times nearer the root than the previous depth in %d of %d stages", better, n)
	}
}
