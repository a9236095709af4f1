package storage

import (
	"math"
	"testing"
)

// The body of a slot channel is a U: a semicircular invert of radius W/2
// under vertical walls, so A(R) = πR²/2 and above it A grows by W per metre
// (plain geometry; docs/catalogue.md, shape "slot").
func TestSectionArea(t *testing.T) {
	for _, c := range []struct {
		slug string
		y    float64
		want float64
	}{
		{"poly-hicap-150-300", 0.075, math.Pi * 0.075 * 0.075 / 2},
		{"poly-hicap-150-300", 0.200, math.Pi*0.075*0.075/2 + 0.150*0.125},
		{"poly-hicap-250-750", 0.650, math.Pi*0.125*0.125/2 + 0.250*0.525},
		// Half the radius up a circle of radius R: R²·acos(1/2) − (R/2)·√(3R²/4).
		{"poly-hicap-150-300", 0.0375, 0.075*0.075*math.Acos(0.5) - 0.0375*math.Sqrt(0.0375*(0.15-0.0375))},
		{"poly-hicap-150-300", 0, 0},
	} {
		if got := hicap(t, c.slug).Area(c.y); !near(got, c.want, 1e-12) {
			t.Errorf("%s: A(%g) = %.10f m², want %.10f", c.slug, c.y, got, c.want)
		}
	}
}

// dA/dy is the top width: checked by central differences across the
// corner radius, where the two formulas meet.
func TestSectionTopWidthIsSlope(t *testing.T) {
	s := hicap(t, "poly-hicap-250-550")
	for _, y := range []float64{0.001, 0.03, 0.1, 0.1249, 0.125, 0.1251, 0.3, 0.44} {
		const e = 1e-7
		num := (s.Area(y+e) - s.Area(y-e)) / (2 * e)
		if !near(s.TopWidth(y), num, 1e-5) {
			t.Errorf("T(%g) = %.7f, dA/dy = %.7f", y, s.TopWidth(y), num)
		}
	}
}

// A level run stores L·A(h); a sloped one ∫A(h − s·x)dx, checked against a
// fine midpoint sum. The downstream end fills first, so a sloped run holds
// less when full.
func TestReservoirVolume(t *testing.T) {
	s := hicap(t, "poly-hicap-150-600")
	for _, c := range []struct {
		name    string
		length  float64
		slope   float64
		heights []float64
	}{
		{"level", 50, 0, []float64{0.01, 0.075, 0.3, 0.5}},
		{"1 %, partly dry", 50, 0.01, []float64{0.05, 0.3, 0.5}},
		{"0.2 %, wet throughout", 50, 0.002, []float64{0.2, 0.5}},
		{"tiny fall", 50, 1e-7, []float64{0.2}},
	} {
		r := newReservoir(s, c.length, c.slope)
		for _, h := range c.heights {
			const n = 200000
			sum := 0.0
			for i := range n {
				x := (float64(i) + 0.5) * c.length / n
				sum += s.Area(h-c.slope*x) * c.length / n
			}
			if got := r.volume(h); !near(got, sum, 1e-5) {
				t.Errorf("%s: V(%g) = %.6f m³, want %.6f", c.name, h, got, sum)
			}
			const e = 1e-6
			if num := (r.volume(h+e) - r.volume(h-e)) / (2 * e); !near(r.dVolume(h), num, 1e-3) {
				t.Errorf("%s: dV/dh(%g) = %.6f, numerically %.6f", c.name, h, r.dVolume(h), num)
			}
		}
	}
	level, sloped := newReservoir(s, 50, 0), newReservoir(s, 50, 0.005)
	if !(sloped.capacity() < level.capacity()) {
		t.Errorf("capacity at 0.5 %% %.3f m³ is not below the level run's %.3f m³", sloped.capacity(), level.capacity())
	}
}
