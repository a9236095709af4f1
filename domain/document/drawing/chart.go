package drawing

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Series is one line of a chart. A point with a NaN Y leaves a gap, so a
// series such as "flooding" can show only where it applies.
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

// Chart is a line chart such as a hydraulic profile: distance along the
// run against levels or depths.
type Chart struct {
	XLabel, YLabel string
	Series         []Series
	Bands          []Band
	Height         float64 // of the chart without its legend, in mm; zero is 80
	DecimalComma   bool    // tick labels as 2,5 rather than 2.5
}

// Chart geometry in millimetres, font sizes in points.
const (
	chartLeftRoom   = 14.0 // y tick labels
	chartRightRoom  = 2.0  // half an x tick label past the last tick
	chartBottomRoom = 10.0 // x tick labels and the x axis label
	chartTopRoom    = 5.0  // the y axis label
	legendLine      = 5.0
	tickFontSize    = 7.0
	labelFontSize   = 7.5 // axis labels and the legend
)

var (
	black     = Colour{0, 0, 0}
	gridPen   = Pen{Colour: Colour{200, 200, 200}, Width: 0.1}
	framePen  = Pen{Colour: black, Width: 0.3}
	tickFont  = Font{Size: tickFontSize}
	labelFont = Font{Size: labelFontSize}
	axisFont  = Font{Size: labelFontSize, Bold: true}
)

func (c Chart) plotHeight() float64 {
	if c.Height <= 0 {
		return 80
	}
	return c.Height
}

// TotalHeight is the height c takes drawn width mm wide: the chart and its
// legend, whose rows depend on how wide the names are set.
func (c Chart) TotalHeight(m Measurer, width float64) float64 {
	return c.plotHeight() + float64(len(c.legendRows(m, width)))*legendLine
}

// Draw draws c width mm wide with its top left corner at (left, top), its
// legend below it. It fails when no series has a finite point, since an
// empty frame would look like a drawing error in a report; nothing is
// drawn then.
func (c Chart) Draw(cv Canvas, left, top, width float64) error {
	x, y, err := c.axes(left, top, width)
	if err != nil {
		return err
	}
	c.drawBands(cv, x, y)
	c.drawGrid(cv, x, y, left, width)
	c.drawSeries(cv, x, y)
	c.drawLegend(cv, left, top+c.plotHeight(), width)
	return nil
}

// Place is where Draw puts a data point: the canvas point of p when c is
// drawn width mm wide at (left, top). It fails as Draw does.
func (c Chart) Place(left, top, width float64) (func(p Point) Point, error) {
	x, y, err := c.axes(left, top, width)
	if err != nil {
		return nil, err
	}
	return func(p Point) Point { return Point{x.at(p.X), y.at(p.Y)} }, nil
}

// axes are the chart's x and y axes on the canvas.
func (c Chart) axes(left, top, width float64) (x, y axis, err error) {
	xlo, xhi, ylo, yhi, ok := c.dataRange()
	if !ok {
		return axis{}, axis{}, fmt.Errorf("chart %q against %q has no points", c.YLabel, c.XLabel)
	}
	bottom := top + c.plotHeight() - chartBottomRoom
	x = newAxis(xlo, xhi, left+chartLeftRoom, left+width-chartRightRoom)
	y = newAxis(ylo, yhi, bottom, top+chartTopRoom)
	return x, y, nil
}

// axis maps data values onto a canvas span with round-number ticks.
type axis struct {
	lo, hi, step float64 // data range, widened to whole ticks
	from, to     float64 // canvas coordinates of lo and hi
}

func (a axis) at(v float64) float64 {
	return a.from + (v-a.lo)/(a.hi-a.lo)*(a.to-a.from)
}

// dataRange spans every finite point of the chart; bands are cut to it.
func (c Chart) dataRange() (xlo, xhi, ylo, yhi float64, ok bool) {
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

func (c Chart) drawBands(cv Canvas, x, y axis) {
	for _, b := range c.Bands {
		from, to := x.at(max(b.From, x.lo)), x.at(min(b.To, x.hi))
		if to <= from {
			continue
		}
		fill := b.Colour
		rect(cv, from, y.to, to-from, y.from-y.to, &fill, nil)
	}
}

// drawGrid draws the light grid, the frame, the tick labels and the axis
// labels.
func (c Chart) drawGrid(cv Canvas, x, y axis, left, width float64) {
	for _, v := range x.ticks() {
		px := x.at(v)
		line(cv, px, y.from, px, y.to, gridPen)
		cv.Text(px, lineBaseline(y.from+0.5, 3.5, tickFont), x.label(v, c.DecimalComma), tickFont, Center)
	}
	for _, v := range y.ticks() {
		py := y.at(v)
		line(cv, x.from, py, x.to, py, gridPen)
		cv.Text(left+chartLeftRoom-1-cellMargin, lineBaseline(py-1.75, 3.5, tickFont), y.label(v, c.DecimalComma), tickFont, Right)
	}
	frame := framePen
	rect(cv, x.from, y.to, x.to-x.from, y.from-y.to, nil, &frame)
	cv.Text((x.from+x.to)/2, lineBaseline(y.from+4.5, 4, axisFont), c.XLabel, axisFont, Center)
	cv.Text(left+cellMargin, lineBaseline(y.to-chartTopRoom, 4, axisFont), c.YLabel, axisFont, Left)
}

// drawSeries draws each series clipped to the plot, so a point outside a
// band-widened axis cannot spill into the text. A gap (a point that is not
// finite) ends a line; a lone point between gaps draws nothing.
func (c Chart) drawSeries(cv Canvas, x, y axis) {
	cv.Clip(x.from, y.to, x.to-x.from, y.from-y.to)
	for _, s := range c.Series {
		pen := seriesPen(s)
		var run []Point
		flush := func() {
			if len(run) > 1 {
				cv.Path(run, false, nil, &pen)
			}
			run = run[:0]
		}
		for _, p := range s.Points {
			if !finite(p.X) || !finite(p.Y) {
				flush()
				continue
			}
			run = append(run, Point{x.at(p.X), y.at(p.Y)})
		}
		flush()
	}
	cv.Unclip()
}

func seriesPen(s Series) Pen {
	w := s.Width
	if w <= 0 {
		w = 0.4
	}
	return Pen{Colour: s.Colour, Width: w, Dash: s.Dash}
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
func (c Chart) legendEntries(m Measurer) []legendEntry {
	var out []legendEntry
	for i := range c.Series {
		s := &c.Series[i]
		out = append(out, legendEntry{s.Name, 12 + m.TextWidth(s.Name, labelFont) + 6, s, nil})
	}
	for i := range c.Bands {
		b := &c.Bands[i]
		out = append(out, legendEntry{b.Label, 12 + m.TextWidth(b.Label, labelFont) + 6, nil, b})
	}
	return out
}

// legendRows splits the legend into rows that fit the width.
func (c Chart) legendRows(m Measurer, width float64) [][]legendEntry {
	var rows [][]legendEntry
	used := width
	for _, e := range c.legendEntries(m) {
		if used+e.width > width {
			rows = append(rows, nil)
			used = 0
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], e)
		used += e.width
	}
	return rows
}

func (c Chart) drawLegend(cv Canvas, left, top, width float64) {
	for i, row := range c.legendRows(cv, width) {
		x, y := left+chartLeftRoom, top+float64(i)*legendLine
		for _, e := range row {
			legendSample(cv, e, x, y+legendLine/2)
			cv.Text(x+11+cellMargin, lineBaseline(y, legendLine, labelFont), e.name, labelFont, Left)
			x += e.width
		}
	}
}

func legendSample(cv Canvas, e legendEntry, x, mid float64) {
	if e.band != nil {
		fill := e.band.Colour
		rect(cv, x, mid-1.5, 10, 3, &fill, nil)
		return
	}
	line(cv, x, mid, x+10, mid, seriesPen(*e.series))
}
