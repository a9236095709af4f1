package design

import (
	"math"
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
