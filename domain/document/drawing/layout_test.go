package drawing

import (
	"math"
	"strings"
	"testing"
)

func TestAxis(t *testing.T) {
	for _, tc := range []struct {
		lo, hi         float64
		wantLo, wantHi float64
		step           float64
		labels         string
		comma          bool
	}{
		{0, 48, 0, 50, 10, "0 10 20 30 40 50", false},
		{76, 344, 0, 400, 100, "0 100 200 300 400", false},
		{0.12, 0.97, 0, 1, 0.2, "0.0 0.2 0.4 0.6 0.8 1.0", false},
		{0.12, 0.97, 0, 1, 0.2, "0,0 0,2 0,4 0,6 0,8 1,0", true},
		{-3, 3, -4, 4, 2, "-4 -2 0 2 4", false},
		{5, 5, 4, 6, 0.5, "4.0 4.5 5.0 5.5 6.0", false},
	} {
		a := newAxis(tc.lo, tc.hi, 0, 100)
		var labels []string
		for _, v := range a.ticks() {
			labels = append(labels, a.label(v, tc.comma))
		}
		got := strings.Join(labels, " ")
		if a.lo != tc.wantLo || a.hi != tc.wantHi || math.Abs(a.step-tc.step) > 1e-12 || got != tc.labels {
			t.Errorf("newAxis(%v, %v) = [%v, %v] step %v labels %q; want [%v, %v] step %v labels %q",
				tc.lo, tc.hi, a.lo, a.hi, a.step, got, tc.wantLo, tc.wantHi, tc.step, tc.labels)
		}
		if a.at(a.lo) != 0 || a.at(a.hi) != 100 {
			t.Errorf("axis %v maps its ends to %v, %v; want 0, 100", a, a.at(a.lo), a.at(a.hi))
		}
	}
}

// TestFitFrame: one scale for both axes, the drawing centred in its area,
// y turned upwards.
func TestFitFrame(t *testing.T) {
	for _, tc := range []struct {
		name       string
		lo, hi     Point
		w, h       float64
		scale      float64
		lowerLeft  Point // page point of lo
		lowerRight Point // page point of (hi.X, lo.Y)
	}{
		// A square in a wide area: height limits, centred horizontally.
		{"wide area", Point{0, 0}, Point{10, 10}, 100, 50, 5, Point{25, 50}, Point{75, 50}},
		// A wide box in a square area: width limits, centred vertically.
		{"tall area", Point{-10, 5}, Point{10, 15}, 40, 40, 2, Point{0, 30}, Point{40, 30}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fr := fitFrame(tc.lo, tc.hi, 0, 0, tc.w, tc.h)
			if math.Abs(fr.scale-tc.scale) > 1e-9 {
				t.Errorf("scale = %v, want %v", fr.scale, tc.scale)
			}
			p := fr.at(tc.lo)
			x, y := p.X, p.Y
			if math.Abs(x-tc.lowerLeft.X) > 1e-9 || math.Abs(y-tc.lowerLeft.Y) > 1e-9 {
				t.Errorf("lower-left at (%v, %v), want %v", x, y, tc.lowerLeft)
			}
			p = fr.at(Point{X: tc.hi.X, Y: tc.lo.Y})
			x, y = p.X, p.Y
			if math.Abs(x-tc.lowerRight.X) > 1e-9 || math.Abs(y-tc.lowerRight.Y) > 1e-9 {
				t.Errorf("lower-right at (%v, %v), want %v", x, y, tc.lowerRight)
			}
			yTop := fr.at(tc.hi).Y
			if yTop >= y {
				t.Errorf("top of the drawing at y=%v is not above its bottom at y=%v", yTop, y)
			}
		})
	}
}
