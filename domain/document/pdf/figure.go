package pdf

import "math"

// Shape is one outline of a figure: a polyline, or a polygon when Closed,
// filled when Fill is set. Points are in the figure's own units, y upwards.
type Shape struct {
	Points []Point
	Closed bool
	Fill   *Colour
	Stroke Colour
	Width  float64   // line width in mm; zero is 0.3
	Dash   []float64 // dash and gap lengths in mm; nil is solid
}

// Label is a text placed at a point of a figure, left-aligned unless Align
// says otherwise.
type Label struct {
	At    Point
	Text  string
	Align Align
}

// Figure is a drawing to scale, such as a channel cross-section or a
// catchment plan: both axes share one scale, so shapes keep their
// proportions, and the drawing is centred in the text width.
type Figure struct {
	Shapes  []Shape
	Labels  []Label
	Height  float64 // room for the drawing in mm; zero is 60
	Caption string  // under the drawing, e.g. "generic drawing, not to scale"
}

// Figure geometry in millimetres.
const (
	figurePad   = 4.0 // around the drawing, for labels at its edges
	captionLine = 4.5
)

// frame maps figure units onto the page: one scale for both axes, y
// flipped because the page's y runs downwards.
type frame struct {
	scale, x0, y0 float64 // page point of figure (0, 0)
}

func (fr frame) at(p Point) (float64, float64) {
	return fr.x0 + p.X*fr.scale, fr.y0 - p.Y*fr.scale
}

// fitFrame scales the box [lo, hi] into a w × h page area at (left, top),
// centred, keeping proportions.
func fitFrame(lo, hi Point, left, top, w, h float64) frame {
	dx, dy := math.Max(hi.X-lo.X, 1e-9), math.Max(hi.Y-lo.Y, 1e-9)
	s := math.Min(w/dx, h/dy)
	offX := left + (w-dx*s)/2
	offY := top + (h-dy*s)/2
	return frame{scale: s, x0: offX - lo.X*s, y0: offY + hi.Y*s}
}

// Figure draws fig at the current position, its caption below. A figure
// without a finite point fails the document: an empty box in a report
// would look like a drawing error.
func (d *Doc) Figure(fig Figure) {
	lo, hi, ok := figureBox(fig)
	if !ok {
		d.f.SetErrorf("figure %q has no points", fig.Caption)
		return
	}
	h := fig.Height
	if h <= 0 {
		h = 60
	}
	d.needSpace(h + captionLine)
	top := d.f.GetY()
	fr := fitFrame(lo, hi, marginSide+figurePad, top+figurePad, contentWidth-2*figurePad, h-2*figurePad)
	for _, s := range fig.Shapes {
		d.drawShape(fr, s)
	}
	d.drawLabels(fr, fig.Labels)
	d.f.SetXY(marginSide, top+h)
	if fig.Caption != "" {
		d.f.SetFont(sans, "", 8)
		d.f.SetTextColor(80, 80, 80)
		d.f.MultiCell(0, captionLine, clean(fig.Caption), "", "C", false)
	}
	d.f.Ln(3)
	d.bodyFont()
}

// figureBox spans the finite points of the shapes and labels.
func figureBox(fig Figure) (lo, hi Point, ok bool) {
	lo = Point{math.Inf(1), math.Inf(1)}
	hi = Point{math.Inf(-1), math.Inf(-1)}
	grow := func(p Point) {
		if finite(p.X) && finite(p.Y) {
			lo = Point{math.Min(lo.X, p.X), math.Min(lo.Y, p.Y)}
			hi = Point{math.Max(hi.X, p.X), math.Max(hi.Y, p.Y)}
			ok = true
		}
	}
	for _, s := range fig.Shapes {
		for _, p := range s.Points {
			grow(p)
		}
	}
	for _, l := range fig.Labels {
		grow(l.At)
	}
	return lo, hi, ok
}

func (d *Doc) drawShape(fr frame, s Shape) {
	var pts []Point
	for _, p := range s.Points {
		if finite(p.X) && finite(p.Y) {
			pts = append(pts, p)
		}
	}
	if len(pts) < 2 {
		return
	}
	w := s.Width
	if w <= 0 {
		w = 0.3
	}
	d.lineStyle(Series{Colour: s.Stroke, Width: w, Dash: s.Dash})
	style := "D"
	if s.Fill != nil {
		d.f.SetFillColor(s.Fill.R, s.Fill.G, s.Fill.B)
		style = "FD"
	}
	d.f.MoveTo(fr.at(pts[0]))
	for _, p := range pts[1:] {
		d.f.LineTo(fr.at(p))
	}
	if s.Closed {
		d.f.ClosePath()
	}
	d.f.DrawPath(style)
	d.f.SetDashPattern(nil, 0)
}

func (d *Doc) drawLabels(fr frame, labels []Label) {
	d.f.SetFont(sans, "", 7.5)
	d.f.SetTextColor(0, 0, 0)
	for _, l := range labels {
		if !finite(l.At.X) || !finite(l.At.Y) {
			continue
		}
		x, y := fr.at(l.At)
		w := d.f.GetStringWidth(l.Text) + 2*d.f.GetCellMargin()
		switch l.Align {
		case Right:
			x -= w
		case Center:
			x -= w / 2
		}
		d.f.SetXY(x, y-1.75)
		d.f.CellFormat(w, 3.5, l.Text, "", 0, "L", false, 0, "")
	}
}
