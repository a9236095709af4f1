package pdf

import (
	"math"
	"testing"
)

// crossSection is a channel cross-section as the document call will draw
// it: the channel body filled grey, water filled blue, dimension labels.
func crossSection() Figure {
	grey, blue := Colour{R: 200, G: 200, B: 200}, Colour{R: 0, G: 0, B: 220}
	return Figure{
		Shapes: []Shape{
			{Points: []Point{{X: 0, Y: 0}, {X: 260, Y: 0}, {X: 260, Y: 300}, {X: 230, Y: 300}, {X: 230, Y: 40}, {X: 30, Y: 40}, {X: 30, Y: 300}, {X: 0, Y: 300}},
				Closed: true, Fill: &grey},
			{Points: []Point{{X: 30, Y: 40}, {X: 230, Y: 40}, {X: 230, Y: 180}, {X: 30, Y: 180}}, Closed: true, Fill: &blue, Stroke: blue},
			{Points: []Point{{X: 0, Y: 300}, {X: 260, Y: 300}}, Dash: []float64{1, 1}},
		},
		Labels:  []Label{{At: Point{X: 130, Y: 320}, Text: "Width 200 mm", Align: Center}, {At: Point{X: 265, Y: 180}, Text: "Water 140 mm"}},
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
	if n := countColour(t, path, Colour{R: 0, G: 0, B: 220}); n < 3000 {
		t.Errorf("%d blue pixels, want the water filled", n)
	}
}

func TestFigureWithoutPoints(t *testing.T) {
	d := New(TitleBlock{})
	d.Figure(Figure{Caption: "empty", Shapes: []Shape{{Points: []Point{{X: math.NaN(), Y: 1}}}}})
	if _, err := d.Bytes(); err == nil {
		t.Error("a figure without points was accepted")
	}
}
