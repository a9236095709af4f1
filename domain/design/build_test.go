package design

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"draindesign/domain/hydraulics"
)

// The U section's own critical depth satisfies Q²T/(gA³) = 1 within and
// above the semicircle, across the catalogue's widths and flows.
func TestUShapeCriticalDepth(t *testing.T) {
	t.Parallel()
	for _, w := range []float64{0.1, 0.15, 0.2, 0.25, 0.3, 0.5} {
		u := uShape{hydraulics.UShape{Width: w}}
		for q := 1e-7; q < 2; q *= 1.37 {
			y := u.CriticalDepth(q)
			a, tw := u.Area(y), u.TopWidth(y)
			if fr2 := q * q * tw / (hydraulics.Gravity * a * a * a); !(math.Abs(fr2-1) < 1e-9) {
				t.Fatalf("width %v, Q %v: yc %v gives Froude² %v", w, q, y, fr2)
			}
		}
		if u.CriticalDepth(0) != 0 || u.CriticalDepth(-1) != 0 {
			t.Errorf("no flow, no depth")
		}
	}
}

// The table's guess of the critical depth in the semicircle is within 1e-8
// of the radius of the depth.
func TestUCriticalDepthGuess(t *testing.T) {
	t.Parallel()
	u := uShape{hydraulics.UShape{Width: 2}} // r = 1
	for y := 1e-4; y < 1; y *= 1.07 {
		a, tw := u.Area(y), u.TopWidth(y)
		if g := ucritGuess(a * a * a / tw); !(math.Abs(g-y) < 1e-8) {
			t.Errorf("depth %v: guess %v", y, g)
		}
	}
}

// largestFitting finds what the bisection of hydraulics.LargestFitting
// finds for every monotone flood test, whatever the ratios it is given
// (smooth, flat, noisy, falling), within about three times log2(n) tests.
func TestLargestFittingMatchesBisection(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(15, 1))
	ratios := map[string]func(i, b, n int) float64{
		"linear":  func(i, b, n int) float64 { return 1 + float64(i-b)/float64(n+1) - 0.5/float64(n+1) },
		"flat":    func(i, b, n int) float64 { return 0.98 },
		"noisy":   func(i, b, n int) float64 { return 0.5 + rng.Float64() },
		"falling": func(i, b, n int) float64 { return 2 - float64(i)/float64(n+1) },
		"curved":  func(i, b, n int) float64 { x := float64(i) / float64(b+1); return x * x },
	}
	for name, ratio := range ratios {
		for range 300 {
			n := rng.IntN(600)
			b := rng.IntN(n + 1) // the largest fitting count
			floods := func(i int) (bool, error) { return i > b, nil }
			want, err := hydraulics.LargestFitting(n, floods)
			if err != nil || want != b {
				t.Fatalf("bisection: %d, %v (want %d)", want, err, b)
			}
			tests := 0
			got, err := largestFitting(n, func(i int) (bool, float64, error) {
				if i <= 0 || i > n {
					t.Fatalf("%s: test outside 1..%d: %d", name, n, i)
				}
				tests++
				return i > b, ratio(i, b, n), nil
			})
			if err != nil || got != want {
				t.Fatalf("%s, n %d: largestFitting %d, %v; bisection %d", name, n, got, err, want)
			}
			if limit := 3*bits.Len(uint(n+1)) + 3; tests > limit {
				t.Errorf("%s, n %d, answer %d: %d tests (limit %d)", name, n, b, tests, limit)
			}
		}
	}
}
