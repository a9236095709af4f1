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
