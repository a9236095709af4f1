package pdf

import (
	"math"
	"testing"

	"draindesign/domain/document/pdf/pdftest"
)

// profile is a hydraulic profile as the document call will draw it.
func profile() Chart {
	var invert, top, water, flood []Point
	for i := 0; i <= 48; i += 2 {
		x := float64(i)
		inv := 100 - 0.5*x
		w := inv + 120 + 3*x
		invert = append(invert, Point{X: x, Y: inv})
		top = append(top, Point{X: x, Y: inv + 200})
		water = append(water, Point{X: x, Y: w})
		f := math.NaN()
		if w > inv+200 {
			f = w
		}
		flood = append(flood, Point{X: x, Y: f})
	}
	return Chart{
		XLabel: "Distance (m)", YLabel: "Level (mm)", DecimalComma: true,
		Series: []Series{
			{Name: "Invert", Points: invert, Colour: Colour{R: 0, G: 0, B: 0}},
			{Name: "Channel top", Points: top, Colour: Colour{R: 90, G: 90, B: 90}, Dash: []float64{2, 1}},
			{Name: "Water surface", Points: water, Colour: Colour{R: 0, G: 90, B: 200}},
			{Name: "Flooding", Points: flood, Colour: Colour{R: 220, G: 0, B: 0}, Width: 0.8},
		},
		Bands: []Band{{Label: "Super-critical", From: 10, To: 20, Colour: Colour{R: 255, G: 235, B: 160}}},
	}
}

// TestChartText: axis labels, round tick labels and the legend are text a
// reader (and pdftotext) can find.
func TestChartText(t *testing.T) {
	requirePoppler(t)
	path := writePDF(t, build(t, TitleBlock{ProjectName: "Chart"}, func(d *Doc) {
		d.Heading("Hydraulic profile")
		d.Chart(profile())
		d.Paragraph("Below the chart.")
	}))
	text := pageText(t, path, 1)
	mustContain(t, "page 1", text, "Distance (m)", "Level (mm)", "Invert", "Channel top",
		"Water surface", "Flooding", "Super-critical", "Below the chart.", "0 10 20 30 40 50")
}

// TestChartDrawsColours renders the page and looks for the series'
// colours: a chart whose lines were lost would have none of them.
func TestChartDrawsColours(t *testing.T) {
	requirePoppler(t)
	red := Colour{R: 220, G: 0, B: 0}
	// The legend sample alone is about 160 pixels at 100 dpi; a drawn
	// line across the plot adds thousands.
	for _, tc := range []struct {
		name     string
		chart    Chart
		min, max int
	}{
		{"red series", Chart{XLabel: "x", YLabel: "y", Series: []Series{
			{Name: "a", Points: []Point{{X: 0, Y: 0}, {X: 10, Y: 5}, {X: 20, Y: 2}}, Colour: red, Width: 1}}}, 1000, 1 << 30},
		{"black series", Chart{XLabel: "x", YLabel: "y", Series: []Series{
			{Name: "a", Points: []Point{{X: 0, Y: 0}, {X: 10, Y: 5}, {X: 20, Y: 2}}, Width: 1}}}, 0, 0},
		{"red only in a gap", Chart{XLabel: "x", YLabel: "y", Series: []Series{
			{Name: "a", Points: []Point{{X: 0, Y: 0}, {X: 10, Y: 5}}, Width: 1},
			{Name: "b", Points: []Point{{X: 0, Y: math.NaN()}, {X: 10, Y: math.NaN()}}, Colour: red, Width: 1}}}, 1, 300},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writePDF(t, build(t, TitleBlock{ProjectName: "Colours"}, func(d *Doc) { d.Chart(tc.chart) }))
			if n := countColour(t, path, red); n < tc.min || n > tc.max {
				t.Errorf("%d red pixels, want %d to %d", n, tc.min, tc.max)
			}
		})
	}
}

// countColour renders page 1 at 100 dpi and counts pixels near c.
func countColour(t *testing.T, path string, c Colour) int {
	t.Helper()
	pix, _, _ := pdftest.Render(t, path, 1, 100)
	n := 0
	for i := 0; i+2 < len(pix); i += 3 {
		if near(int(pix[i]), c.R) && near(int(pix[i+1]), c.G) && near(int(pix[i+2]), c.B) {
			n++
		}
	}
	return n
}

func near(a, b int) bool { return a-b < 40 && b-a < 40 }

// TestChartWithoutPoints fails the document rather than print an empty frame.
func TestChartWithoutPoints(t *testing.T) {
	for _, c := range []Chart{
		{XLabel: "x", YLabel: "y"},
		{XLabel: "x", YLabel: "y", Series: []Series{{Name: "gap", Points: []Point{{X: 1, Y: math.NaN()}}}}},
	} {
		d := New(TitleBlock{})
		d.Chart(c)
		if _, err := d.Bytes(); err == nil {
			t.Errorf("chart %+v: no error", c)
		}
	}
}
