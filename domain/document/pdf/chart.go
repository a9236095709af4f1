package pdf

import (
	"math"
	"strconv"
	"strings"
)

// Colour is an RGB colour, each part 0-255.
type Colour struct{ R, G, B int }

// Point is one data point of a series, in the axes' units. A NaN Y leaves
// a gap, so a series such as "flooding" can show only where it applies.
type Point struct{ X, Y float64 }

// Series is one line of a chart.
type Series struct {
	Name   string
	Points []Point
	Colour Colour
	Width  float64   // line width in mm; zero is 0.4
	Dash   []float64 // dash and gap lengths in mm; nil is a solid line
}

// Band shades a stretch of the x axis, for example a super-critical reach.
type Band struct {
	Label    string
	From, To float64
	Colour   Colour
}

// Chart is a line chart drawn as vectors, such as a hydraulic profile:
// distance along the run against levels or depths.
type Chart struct {
	XLabel, YLabel string
	Series         []Series
	Bands          []Band
	Height         float64 // of the whole chart in mm; zero is 80
	DecimalComma   bool    // tick labels as 2,5 rather than 2.5
}

// Chart geometry in millimetres.
const (
	chartLeftRoom   = 14.0 // y tick labels
	chartBottomRoom = 10.0 // x tick labels and the x axis label
	chartTopRoom    = 5.0  // the y axis label
	legendLine      = 5.0
	tickFontSize    = 7.0
)

// axis maps data values onto a page span with round-number ticks.
type axis struct {
	lo, hi, step float64 // data range, widened to whole ticks
	from, to     float64 // page coordinates of lo and hi
}

func (a axis) at(v float64) float64 {
	return a.from + (v-a.lo)/(a.hi-a.lo)*(a.to-a.from)
}

// Chart draws c at the current position across the text width, with its
// legend below. It fails the document when no series has a finite point,
// since an empty frame would look like a drawing error in a report.
func (d *Doc) Chart(c Chart) {
	xlo, xhi, ylo, yhi, ok := dataRange(c)
	if !ok {
		d.f.SetErrorf("chart %q against %q has no points", c.YLabel, c.XLabel)
		return
	}
	height := c.Height
	if height <= 0 {
		height = 80
	}
	legendH := d.legendHeight(c)
	d.needSpace(height + legendH)
	top := d.f.GetY()
	x := newAxis(xlo, xhi, marginSide+chartLeftRoom, pageWidth-marginSide-2)
	y := newAxis(ylo, yhi, top+height-chartBottomRoom, top+chartTopRoom)
	d.drawBands(c, x, y)
	d.drawGrid(c, x, y)
	d.drawSeries(c, x, y)
	d.f.SetXY(marginSide, top+height)
	d.drawLegend(c)
	d.f.Ln(3)
	d.bodyFont()
}

// dataRange spans every finite point of the chart; bands are cut to it.
func dataRange(c Chart) (xlo, xhi, ylo, yhi float64, ok bool) {
	xlo, ylo = math.Inf(1), math.Inf(1)
	xhi, yhi = math.Inf(-1), math.Inf(-1)
	for _, s := range c.Series {
		for _, p := range s.Points {
			if finite(p.X) && finite(p.Y) {
				xlo, xhi = min(xlo, p.X), max(xhi, p.X)
				ylo, yhi = min(ylo, p.Y), max(yhi, p.Y)
				ok = true
			}
		}
	}
	return xlo, xhi, ylo, yhi, ok
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// newAxis widens [lo, hi] to whole steps of 1, 2 or 5 times a power of
// ten, about five of them, so tick labels are round numbers.
func newAxis(lo, hi, from, to float64) axis {
	if hi-lo < 1e-9 {
		lo, hi = lo-1, hi+1
	}
	step := niceStep((hi - lo) / 5)
	return axis{
		lo: math.Floor(lo/step+1e-9) * step, hi: math.Ceil(hi/step-1e-9) * step,
		step: step, from: from, to: to,
	}
}

func niceStep(raw float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5} {
		if raw <= m*p*(1+1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// ticks are the round values from lo to hi.
func (a axis) ticks() []float64 {
	n := int(math.Round((a.hi - a.lo) / a.step))
	out := make([]float64, 0, n+1)
	for i := 0; i <= n; i++ {
		out = append(out, a.lo+float64(i)*a.step)
	}
	return out
}

// label formats a tick with as many decimals as the step needs.
func (a axis) label(v float64, comma bool) string {
	decimals := max(0, int(math.Ceil(-math.Log10(a.step)-1e-9)))
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if s == "-0" {
		s = "0"
	}
	if comma {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

func (d *Doc) drawBands(c Chart, x, y axis) {
	for _, b := range c.Bands {
		from, to := x.at(max(b.From, x.lo)), x.at(min(b.To, x.hi))
		if to <= from {
			continue
		}
		d.f.SetFillColor(b.Colour.R, b.Colour.G, b.Colour.B)
		d.f.Rect(from, y.to, to-from, y.from-y.to, "F")
	}
}

// drawGrid draws the light grid, the frame, the tick labels and the axis
// labels.
func (d *Doc) drawGrid(c Chart, x, y axis) {
	d.f.SetLineWidth(0.1)
	d.f.SetDrawColor(200, 200, 200)
	d.f.SetFont(sans, "", tickFontSize)
	d.f.SetTextColor(0, 0, 0)
	for _, v := range x.ticks() {
		px := x.at(v)
		d.f.Line(px, y.from, px, y.to)
		d.f.SetXY(px-10, y.from+0.5)
		d.f.CellFormat(20, 3.5, x.label(v, c.DecimalComma), "", 0, "C", false, 0, "")
	}
	for _, v := range y.ticks() {
		py := y.at(v)
		d.f.Line(x.from, py, x.to, py)
		d.f.SetXY(marginSide, py-1.75)
		d.f.CellFormat(chartLeftRoom-1, 3.5, y.label(v, c.DecimalComma), "", 0, "R", false, 0, "")
	}
	d.f.SetLineWidth(0.3)
	d.f.SetDrawColor(0, 0, 0)
	d.f.Rect(x.from, y.to, x.to-x.from, y.from-y.to, "D")
	d.f.SetFont(sans, "B", tickFontSize+0.5)
	d.f.SetXY(x.from, y.from+4.5)
	d.f.CellFormat(x.to-x.from, 4, c.XLabel, "", 0, "C", false, 0, "")
	d.f.SetXY(marginSide, y.to-chartTopRoom)
	d.f.CellFormat(contentWidth, 4, c.YLabel, "", 0, "L", false, 0, "")
}

// drawSeries draws each series clipped to the plot, so a point outside a
// band-widened axis cannot spill into the text.
func (d *Doc) drawSeries(c Chart, x, y axis) {
	d.f.ClipRect(x.from, y.to, x.to-x.from, y.from-y.to, false)
	for _, s := range c.Series {
		d.lineStyle(s)
		pen := false
		for _, p := range s.Points {
			if !finite(p.X) || !finite(p.Y) {
				pen = d.endPath(pen)
				continue
			}
			if pen {
				d.f.LineTo(x.at(p.X), y.at(p.Y))
			} else {
				d.f.MoveTo(x.at(p.X), y.at(p.Y))
				pen = true
			}
		}
		d.endPath(pen)
	}
	d.f.SetDashPattern(nil, 0)
	d.f.ClipEnd()
}

// endPath strokes the path drawn so far, if any; it returns false, the pen
// being up afterwards.
func (d *Doc) endPath(pen bool) bool {
	if pen {
		d.f.DrawPath("D")
	}
	return false
}

func (d *Doc) lineStyle(s Series) {
	w := s.Width
	if w <= 0 {
		w = 0.4
	}
	d.f.SetLineWidth(w)
	d.f.SetDrawColor(s.Colour.R, s.Colour.G, s.Colour.B)
	d.f.SetFillColor(s.Colour.R, s.Colour.G, s.Colour.B)
	d.f.SetDashPattern(s.Dash, 0)
}

// legendEntry is one item of the legend: a line sample for a series or a
// shaded square for a band.
type legendEntry struct {
	name   string
	width  float64
	series *Series
	band   *Band
}

// legendEntries lists the legend's items and their widths, sample included.
func (d *Doc) legendEntries(c Chart) []legendEntry {
	d.f.SetFont(sans, "", tickFontSize+0.5)
	var out []legendEntry
	for i := range c.Series {
		s := &c.Series[i]
		out = append(out, legendEntry{s.Name, 12 + d.f.GetStringWidth(s.Name) + 6, s, nil})
	}
	for i := range c.Bands {
		b := &c.Bands[i]
		out = append(out, legendEntry{b.Label, 12 + d.f.GetStringWidth(b.Label) + 6, nil, b})
	}
	return out
}

// legendRows splits the legend into rows that fit the text width.
func (d *Doc) legendRows(c Chart) [][]legendEntry {
	var rows [][]legendEntry
	used := contentWidth
	for _, e := range d.legendEntries(c) {
		if used+e.width > contentWidth {
			rows = append(rows, nil)
			used = 0
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], e)
		used += e.width
	}
	return rows
}

func (d *Doc) legendHeight(c Chart) float64 {
	return float64(len(d.legendRows(c))) * legendLine
}

func (d *Doc) drawLegend(c Chart) {
	for _, row := range d.legendRows(c) {
		x, y := marginSide+chartLeftRoom, d.f.GetY()
		for _, e := range row {
			d.legendSample(e, x, y+legendLine/2)
			d.f.SetFont(sans, "", tickFontSize+0.5)
			d.f.SetTextColor(0, 0, 0)
			d.f.SetXY(x+11, y)
			d.f.CellFormat(e.width-11, legendLine, e.name, "", 0, "L", false, 0, "")
			x += e.width
		}
		d.f.SetXY(marginSide, y+legendLine)
	}
}

func (d *Doc) legendSample(e legendEntry, x, mid float64) {
	if e.band != nil {
		d.f.SetFillColor(e.band.Colour.R, e.band.Colour.G, e.band.Colour.B)
		d.f.Rect(x, mid-1.5, 10, 3, "F")
		return
	}
	d.lineStyle(*e.series)
	d.f.Line(x, mid, x+10, mid)
	d.f.SetDashPattern(nil, 0)
}
