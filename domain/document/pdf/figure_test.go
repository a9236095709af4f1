package pdf

import (
	"math"
	"testing"
)

// crossSection is a channel cross-section as the document call will draw
// it: the channel body filled grey, water filled blue, dimension labels.
func crossSection() Figure {
	grey, blue := Colour{200, 200, 200}, Colour{0, 0, 220}
	return Figure{
		Shapes: []Shape{
			{Points: []Point{{0, 0}, {260, 0}, {260, 300}, {230, 300}, {230, 40}, {30, 40}, {30, 300}, {0, 300}},
				Closed: true, Fill: &grey},
			{Points: []Point{{30, 40}, {230, 40}, {230, 180}, {30, 180}}, Closed: true, Fill: &blue, Stroke: blue},
			{Points: []Point{{0, 300}, {260, 300}}, Dash: []float64{1, 1}},
		},
		Labels:  []Label{{At: Point{130, 320}, Text: "Width 200 mm", Align: Center}, {At: Point{265, 180}, Text: "Water 140 mm"}},
		Caption: "Generic drawing, not to scale",
	}
}

// TestFigure: labels and caption are readable text and the water's blue
// fill is drawn.
func TestFigure(t *testing.T) {
	requirePoppler(t)
	path := writePDF(t, build(t, TitleBlock{ProjectName: "Figure"}, func(d *Doc) {
		d.Heading("Cross-section")
		d.Figure(crossSection())
		d.Note("Dimensions in millimetres.")
	}))
	mustContain(t, "page 1", pageText(t, path, 1), "Width 200 mm", "Water 140 mm",
		"Generic drawing, not to scale", "Dimensions in millimetres.")
	// 200 × 140 units at the figure's scale (about 0.17 mm a unit) is some
	// 34 × 24 mm of blue: thousands of pixels at 100 dpi.
	if n := countColour(t, path, Colour{0, 0, 220}); n < 3000 {
		t.Errorf("%d blue pixels, want the water filled", n)
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
			x, y := fr.at(tc.lo)
			if math.Abs(x-tc.lowerLeft.X) > 1e-9 || math.Abs(y-tc.lowerLeft.Y) > 1e-9 {
				t.Errorf("lower-left at (%v, %v), want %v", x, y, tc.lowerLeft)
			}
			x, y = fr.at(Point{tc.hi.X, tc.lo.Y})
			if math.Abs(x-tc.lowerRight.X) > 1e-9 || math.Abs(y-tc.lowerRight.Y) > 1e-9 {
				t.Errorf("lower-right at (%v, %v), want %v", x, y, tc.lowerRight)
			}
			_, yTop := fr.at(tc.hi)
			if yTop >= y {
				t.Errorf("top of the drawing at y=%v is not above its bottom at y=%v", yTop, y)
			}
		})
	}
}

func TestFigureWithoutPoints(t *testing.T) {
	d := New(TitleBlock{})
	d.Figure(Figure{Caption: "empty", Shapes: []Shape{{Points: []Point{{math.NaN(), 1}}}}})
	if _, err := d.Bytes(); err == nil {
		t.Error("a figure without points was accepted")
	}
}
