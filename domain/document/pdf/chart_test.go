package pdf

import (
	"fmt"
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
		invert = append(invert, Point{x, inv})
		top = append(top, Point{x, inv + 200})
		water = append(water, Point{x, w})
		f := math.NaN()
		if w > inv+200 {
			f = w
		}
		flood = append(flood, Point{x, f})
	}
	return Chart{
		XLabel: "Distance (m)", YLabel: "Level (mm)", DecimalComma: true,
		Series: []Series{
			{Name: "Invert", Points: invert, Colour: Colour{0, 0, 0}},
			{Name: "Channel top", Points: top, Colour: Colour{90, 90, 90}, Dash: []float64{2, 1}},
			{Name: "Water surface", Points: water, Colour: Colour{0, 90, 200}},
			{Name: "Flooding", Points: flood, Colour: Colour{220, 0, 0}, Width: 0.8},
		},
		Bands: []Band{{Label: "Super-critical", From: 10, To: 20, Colour: Colour{255, 235, 160}}},
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
	red := Colour{220, 0, 0}
	// The legend sample alone is about 160 pixels at 100 dpi; a drawn
	// line across the plot adds thousands.
	for _, tc := range []struct {
		name     string
		chart    Chart
		min, max int
	}{
		{"red series", Chart{XLabel: "x", YLabel: "y", Series: []Series{
			{Name: "a", Points: []Point{{0, 0}, {10, 5}, {20, 2}}, Colour: red, Width: 1}}}, 1000, 1 << 30},
		{"black series", Chart{XLabel: "x", YLabel: "y", Series: []Series{
			{Name: "a", Points: []Point{{0, 0}, {10, 5}, {20, 2}}, Width: 1}}}, 0, 0},
		{"red only in a gap", Chart{XLabel: "x", YLabel: "y", Series: []Series{
			{Name: "a", Points: []Point{{0, 0}, {10, 5}}, Width: 1},
			{Name: "b", Points: []Point{{0, math.NaN()}, {10, math.NaN()}}, Colour: red, Width: 1}}}, 1, 300},
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
		{XLabel: "x", YLabel: "y", Series: []Series{{Name: "gap", Points: []Point{{1, math.NaN()}}}}},
	} {
		d := New(TitleBlock{})
		d.Chart(c)
		if _, err := d.Bytes(); err == nil {
			t.Errorf("chart %+v: no error", c)
		}
	}
}

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
		got := fold(fmt.Sprint(labels))
		got = got[1 : len(got)-1]
		if a.lo != tc.wantLo || a.hi != tc.wantHi || math.Abs(a.step-tc.step) > 1e-12 || got != tc.labels {
			t.Errorf("newAxis(%v, %v) = [%v, %v] step %v labels %q; want [%v, %v] step %v labels %q",
				tc.lo, tc.hi, a.lo, a.hi, a.step, got, tc.wantLo, tc.wantHi, tc.step, tc.labels)
		}
		if a.at(a.lo) != 0 || a.at(a.hi) != 100 {
			t.Errorf("axis %v maps its ends to %v, %v; want 0, 100", a, a.at(a.lo), a.at(a.hi))
		}
	}
}
