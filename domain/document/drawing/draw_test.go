package drawing

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

// recorder is a canvas that keeps what is drawn on it. Texts are 2 mm a
// character wide, so the layout's measuring is known.
type recorder struct {
	paths   []recordedPath
	texts   []recordedText
	clipped bool
}

type recordedPath struct {
	pts     []Point
	closed  bool
	fill    *Colour
	pen     *Pen
	clipped bool
}

type recordedText struct {
	x, y  float64
	text  string
	align Align
}

func (r *recorder) TextWidth(text string, _ Font) float64 {
	return 2 * float64(utf8.RuneCountInString(text))
}

func (r *recorder) Path(pts []Point, closed bool, fill *Colour, pen *Pen) {
	r.paths = append(r.paths, recordedPath{append([]Point(nil), pts...), closed, fill, pen, r.clipped})
}

func (r *recorder) Text(x, y float64, text string, _ Font, align Align) {
	r.texts = append(r.texts, recordedText{x, y, text, align})
}

func (r *recorder) Clip(_, _, _, _ float64) { r.clipped = true }
func (r *recorder) Unclip()                 { r.clipped = false }

// pathsOf are the recorded paths stroked in colour c.
func (r *recorder) pathsOf(c Colour) []recordedPath {
	var out []recordedPath
	for _, p := range r.paths {
		if p.pen != nil && p.pen.Colour == c {
			out = append(out, p)
		}
	}
	return out
}

func (r *recorder) hasText(s string) bool {
	for _, t := range r.texts {
		if t.text == s {
			return true
		}
	}
	return false
}

var (
	blue = Colour{0, 0, 200}
	red  = Colour{200, 0, 0}
)

func sampleChart() Chart {
	return Chart{
		XLabel: "Distance (m)", YLabel: "Level (mm)", DecimalComma: true, Height: 70,
		Series: []Series{
			{Name: "Water", Points: []Point{{0, 100}, {10, 150}, {20, 175}}, Colour: blue},
			{Name: "Flooding", Points: []Point{{0, math.NaN()}, {5, 120}, {8, 130}, {10, math.NaN()}, {12, 160}, {20, 175}}, Colour: red, Width: 0.8},
		},
		Bands: []Band{{Label: "Super-critical", From: 12, To: 30, Colour: Colour{255, 230, 200}}},
	}
}

// TestChartDraw: each series is drawn through the points Place gives,
// clipped to the plot, split at its gaps; the tick labels are round
// numbers in the chart's decimal style; a band is cut to the axis.
func TestChartDraw(t *testing.T) {
	c := sampleChart()
	var r recorder
	if err := c.Draw(&r, 10, 20, 170); err != nil {
		t.Fatal(err)
	}
	place, err := c.Place(10, 20, 170)
	if err != nil {
		t.Fatal(err)
	}

	water := r.pathsOf(blue)
	if len(water) != 2 { // the line and its legend sample
		t.Fatalf("%d blue paths, want the water line and its legend sample", len(water))
	}
	for i, p := range c.Series[0].Points {
		if got, want := water[0].pts[i], place(p); math.Abs(got.X-want.X) > 1e-9 || math.Abs(got.Y-want.Y) > 1e-9 {
			t.Errorf("water point %d drawn at %v, Place says %v", i, got, want)
		}
	}
	if !water[0].clipped || water[1].clipped {
		t.Error("the series must be clipped to the plot and the legend not")
	}
	if flood := r.pathsOf(red); len(flood) != 3 || len(flood[0].pts) != 2 || len(flood[1].pts) != 2 {
		t.Errorf("flooding drawn as %d paths, want two reaches split at the gap and the legend sample", len(flood))
	}

	// The x axis runs 0 to 20 in steps of 5, the y axis 100 to 180 by 20.
	for _, s := range []string{"0", "5", "10", "15", "20", "100", "180", "Distance (m)", "Level (mm)", "Water", "Flooding", "Super-critical"} {
		if !r.hasText(s) {
			t.Errorf("text %q not drawn", s)
		}
	}
	if lo, hi := place(Point{0, 100}), place(Point{20, 180}); lo.X != 10+chartLeftRoom || hi.X != 10+170-chartRightRoom ||
		lo.Y != 20+70-chartBottomRoom || hi.Y != 20+chartTopRoom {
		t.Errorf("plot spans %v to %v, want the chart's box less its margins", lo, hi)
	}

	// The band from 12 to 30 is cut at the axis' end, 20.
	for _, p := range r.paths {
		if p.fill != nil && *p.fill == c.Bands[0].Colour && p.pts[0].Y < 20+70-chartBottomRoom-1 {
			if left, right := p.pts[0].X, p.pts[1].X; math.Abs(left-place(Point{12, 0}).X) > 1e-9 || math.Abs(right-place(Point{20, 0}).X) > 1e-9 {
				t.Errorf("band drawn from x=%v to %v, want %v to %v", left, right, place(Point{12, 0}).X, place(Point{20, 0}).X)
			}
		}
	}
}

// TestChartDecimalComma: tick labels use the document's decimal sign.
func TestChartDecimalComma(t *testing.T) {
	c := Chart{XLabel: "x", YLabel: "y", DecimalComma: true, Series: []Series{{Name: "s", Points: []Point{{0, 0.1}, {1, 0.9}}}}}
	var r recorder
	if err := c.Draw(&r, 0, 0, 100); err != nil {
		t.Fatal(err)
	}
	if !r.hasText("0,2") || r.hasText("0.2") {
		t.Errorf("y ticks not in decimal comma: %v", r.texts)
	}
}

// TestLegendRows: the legend wraps to the width it is given, and the
// chart's height grows by a line for each row.
func TestLegendRows(t *testing.T) {
	c := sampleChart()
	var r recorder
	// Entries: 12 + 2·len + 6 mm: Water 28, Flooding 34, Super-critical 46;
	// an entry wider than the width gets a row of its own.
	for _, tt := range []struct {
		width float64
		rows  int
	}{{200, 1}, {108, 1}, {107, 2}, {62, 2}, {61, 3}, {40, 3}} {
		if got := c.TotalHeight(&r, tt.width); got != 70+float64(tt.rows)*legendLine {
			t.Errorf("width %v: height %v, want %d legend rows", tt.width, got, tt.rows)
		}
	}
}

func TestChartWithoutPoints(t *testing.T) {
	for _, c := range []Chart{
		{XLabel: "x", YLabel: "y"},
		{XLabel: "x", YLabel: "y", Series: []Series{{Name: "gap", Points: []Point{{1, math.NaN()}}}}},
	} {
		var r recorder
		if err := c.Draw(&r, 0, 0, 100); err == nil || !strings.Contains(err.Error(), "no points") {
			t.Errorf("chart %+v: err = %v", c, err)
		}
		if len(r.paths)+len(r.texts) > 0 {
			t.Errorf("a chart without points drew %d paths and %d texts", len(r.paths), len(r.texts))
		}
	}
}

// TestFigureDraw: shapes keep their proportions, centred in the width;
// labels sit beside their points as aligned.
func TestFigureDraw(t *testing.T) {
	grey := Colour{190, 190, 190}
	f := Figure{
		Shapes: []Shape{{Points: []Point{{0, 0}, {100, 0}, {100, 50}, {0, 50}}, Closed: true, Fill: &grey}},
		Labels: []Label{
			{At: Point{50, 50}, Text: "top", Align: Center},
			{At: Point{0, 25}, Text: "left", Align: Right},
			{At: Point{100, 25}, Text: "right"},
		},
		Height: 58,
	}
	var r recorder
	if err := f.Draw(&r, 10, 0, 200); err != nil {
		t.Fatal(err)
	}
	// 100 × 50 units into 192 × 50 mm: 1 mm a unit, centred at x = 110.
	got := r.paths[0].pts
	want := []Point{{60, 54}, {160, 54}, {160, 4}, {60, 4}}
	for i := range want {
		if math.Abs(got[i].X-want[i].X) > 1e-9 || math.Abs(got[i].Y-want[i].Y) > 1e-9 {
			t.Fatalf("shape drawn at %v, want %v", got, want)
		}
	}
	if !r.paths[0].closed || r.paths[0].fill == nil || r.paths[0].pen == nil || r.paths[0].pen.Width != 0.3 {
		t.Errorf("shape drawn as %+v, want closed, filled and outlined 0.3 mm", r.paths[0])
	}
	for _, tt := range []struct {
		text  string
		x     float64
		align Align
	}{{"top", 110, Center}, {"left", 60 - cellMargin, Right}, {"right", 160 + cellMargin, Left}} {
		found := false
		for _, tx := range r.texts {
			if tx.text == tt.text {
				found = true
				if math.Abs(tx.x-tt.x) > 1e-9 || tx.align != tt.align {
					t.Errorf("label %q at x=%v %s, want x=%v %s", tt.text, tx.x, tx.align, tt.x, tt.align)
				}
			}
		}
		if !found {
			t.Errorf("label %q not drawn", tt.text)
		}
	}
	if _, err := (Figure{Caption: "empty"}).Place(0, 0, 100); err == nil {
		t.Error("a figure without points was placed")
	}
}
