package storage

import "testing"

// The modified rational hydrograph (trapezoid; e.g. Aron & Kibler 1990,
// "Pond sizing for rational formula hydrographs"): its volume is the
// storm's runoff C·i·A·D, its peak C·i·A for D ≥ tc and C·i·A·D/tc below.
func TestHydrograph(t *testing.T) {
	for _, c := range []struct {
		name         string
		area, c, mmh float64
		d, tc        float64
		wantPeakLS   float64
	}{
		{"storm longer than tc", 1500, 1, 31.2, 60, 30, 1500 * 31.2 / 3600},
		{"storm equal to tc", 1500, 1, 49.3, 30, 30, 1500 * 49.3 / 3600},
		{"storm shorter than tc", 1500, 0.6, 130, 5, 30, 1500 * 0.6 * 130 / 3600 * 5.0 / 30},
		{"two days", 800, 0.9, 1.7, 2880, 15, 800 * 0.9 * 1.7 / 3600},
	} {
		h := newHydrograph(c.area, c.c, c.mmh, c.d, c.tc)
		if !near(1000*h.qp, c.wantPeakLS, 1e-12) {
			t.Errorf("%s: peak %.4f l/s, want %.4f", c.name, 1000*h.qp, c.wantPeakLS)
		}
		runoff := c.c * c.area * c.mmh / 1000 * c.d / 60
		if !near(h.volume(h.end()), runoff, 1e-12) || !near(h.volume(1e9), runoff, 1e-12) {
			t.Errorf("%s: volume %.5f m³, want the storm's runoff %.5f", c.name, h.volume(h.end()), runoff)
		}
		if want := (c.d + c.tc) * 60; !near(h.end(), want, 1e-12) {
			t.Errorf("%s: ends at %g s, want D + tc = %g", c.name, h.end(), want)
		}
		// volume is the integral of rate.
		const n = 100000
		sum, dt := 0.0, h.end()/n
		for i := range n {
			sum += h.rate((float64(i)+0.5)*dt) * dt
			if i%9973 == 0 {
				if got := h.volume(float64(i+1) * dt); !near(got, sum, 1e-6) && got > 1e-9 {
					t.Errorf("%s: volume(%g s) %.6f, ∫rate %.6f", c.name, float64(i+1)*dt, got, sum)
				}
			}
		}
		if !near(sum, runoff, 1e-6) {
			t.Errorf("%s: ∫rate %.6f m³, want %.6f", c.name, sum, runoff)
		}
	}
}
