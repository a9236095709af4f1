package storage

import (
	"math"
	"testing"
)

// The drowned orifice law Q = Cd·a·√(2g·h) with h the head over the centre
// (any hydraulics text; Cd 0.6 for a sharp-edged plate), worked by hand.
func TestOrificeLaw(t *testing.T) {
	for _, c := range []struct {
		dMM, hM, wantLS float64
	}{
		// a = π·0.05²/4 = 0.0019635 m², head 1 − 0.025 = 0.975 m,
		// √(2·9.81·0.975) = 4.37368 m/s: 0.6 × 0.0019635 × 4.37368.
		{50, 1, 5.15258},
		// a = 0.0113097 m², head 0.44 m: √(8.6328) = 2.93816 m/s.
		{120, 0.5, 19.93793},
		// At h = d both branches give Cd·a·√(g·d): a = 0.0078540, √(0.981).
		{100, 0.1, 0.6 * 0.0078540 * math.Sqrt(0.981) * 1000},
	} {
		if got := OrificeFlow(c.dMM, c.hM); !near(got, c.wantLS, 2e-5) {
			t.Errorf("Q(d %g mm, h %g m) = %.5f l/s, want %.5f", c.dMM, c.hM, got, c.wantLS)
		}
	}
}

// The law is continuous at h = d, grows with the head and with the
// diameter everywhere (what makes the orifice search and the critical storm
// well defined), and OrificeDiameter inverts it.
func TestOrificeMonotoneAndInverse(t *testing.T) {
	for _, d := range []float64{0.01, 0.05, 0.2, 1} {
		below, above := orificeFlow(d, d*(1-1e-9)), orificeFlow(d, d*(1+1e-9))
		if !near(below, above, 1e-6) {
			t.Errorf("d %g: Q jumps at h = d: %g to %g", d, below, above)
		}
	}
	prev := 0.0
	for h := 0.001; h < 1; h += 0.001 {
		q := orificeFlow(0.08, h)
		if q <= prev {
			t.Fatalf("Q(h) does not grow at h = %g: %g after %g", h, q, prev)
		}
		prev = q
	}
	for _, h := range []float64{0.01, 0.1, 0.6} {
		prev = 0
		for d := 0.001; d < 2; d *= 1.05 {
			q := orificeFlow(d, h)
			if q <= prev {
				t.Fatalf("Q(d) does not grow at h %g, d %g: %g after %g", h, d, q, prev)
			}
			prev = q
		}
	}
	for _, c := range []struct{ q, h float64 }{{0.0001, 0.6}, {0.005, 0.5}, {0.005, 0.01}, {0.02, 0.2}, {1, 0.05}} {
		d := OrificeDiameter(c.q, c.h)
		if got := orificeFlow(d, c.h); !near(got, c.q, 1e-8) {
			t.Errorf("OrificeDiameter(%g, %g) = %g m passes %g m³/s", c.q, c.h, d, got)
		}
	}
}
