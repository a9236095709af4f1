package drawing

import (
	"fmt"
	"math"
)

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
// proportions, and the drawing is centred in its width. The caption is the
// document's to set under it (a paragraph of its own in an editable
// document), not part of the drawing.
type Figure struct {
	Shapes  []Shape
	Labels  []Label
	Height  float64 // room for the drawing in mm; zero is 60
	Caption string  // under the drawing, e.g. "generic drawing, not to scale"
}

// figurePad is the room around a figure's drawing, in mm, for labels at
// its edges.
const figurePad = 4.0

var figureFont = Font{Size: 7.5}

// DrawingHeight is the height of the drawing, caption not included.
func (f Figure) DrawingHeight() float64 {
	if f.Height <= 0 {
		return 60
	}
	return f.Height
}

// frame maps figure units onto the canvas: one scale for both axes, y
// flipped because the canvas's y runs downwards.
type frame struct {
	scale, x0, y0 float64 // canvas point of figure (0, 0)
}

func (fr frame) at(p Point) Point {
	return Point{fr.x0 + p.X*fr.scale, fr.y0 - p.Y*fr.scale}
}

// fitFrame scales the box [lo, hi] into a w × h area at (left, top),
// centred, keeping proportions.
func fitFrame(lo, hi Point, left, top, w, h float64) frame {
	dx, dy := math.Max(hi.X-lo.X, 1e-9), math.Max(hi.Y-lo.Y, 1e-9)
	s := math.Min(w/dx, h/dy)
	offX := left + (w-dx*s)/2
	offY := top + (h-dy*s)/2
	return frame{scale: s, x0: offX - lo.X*s, y0: offY + hi.Y*s}
}

// Draw draws f width mm wide and DrawingHeight high with its top left
// corner at (left, top). A figure without a finite point fails, and
// nothing is drawn: an empty box in a report would look like a drawing
// error.
func (f Figure) Draw(cv Canvas, left, top, width float64) error {
	fr, err := f.frame(left, top, width)
	if err != nil {
		return err
	}
	for _, s := range f.Shapes {
		drawShape(cv, fr, s)
	}
	drawLabels(cv, fr, f.Labels)
	return nil
}

// Place is where Draw puts a point of the figure when it is drawn width mm
// wide at (left, top). It fails as Draw does.
func (f Figure) Place(left, top, width float64) (func(p Point) Point, error) {
	fr, err := f.frame(left, top, width)
	if err != nil {
		return nil, err
	}
	return fr.at, nil
}

func (f Figure) frame(left, top, width float64) (frame, error) {
	lo, hi, ok := f.box()
	if !ok {
		return frame{}, fmt.Errorf("figure %q has no points", f.Caption)
	}
	h := f.DrawingHeight()
	return fitFrame(lo, hi, left+figurePad, top+figurePad, width-2*figurePad, h-2*figurePad), nil
}

// box spans the finite points of the shapes and labels.
func (f Figure) box() (lo, hi Point, ok bool) {
	lo = Point{math.Inf(1), math.Inf(1)}
	hi = Point{math.Inf(-1), math.Inf(-1)}
	grow := func(p Point) {
		if finite(p.X) && finite(p.Y) {
			lo = Point{math.Min(lo.X, p.X), math.Min(lo.Y, p.Y)}
			hi = Point{math.Max(hi.X, p.X), math.Max(hi.Y, p.Y)}
			ok = true
		}
	}
	for _, s := range f.Shapes {
		for _, p := range s.Points {
			grow(p)
		}
	}
	for _, l := range f.Labels {
		grow(l.At)
	}
	return lo, hi, ok
}

// drawShape draws the finite points of s; a shape of fewer than two is
// left out.
func drawShape(cv Canvas, fr frame, s Shape) {
	var pts []Point
	for _, p := range s.Points {
		if finite(p.X) && finite(p.Y) {
			pts = append(pts, fr.at(p))
		}
	}
	if len(pts) < 2 {
		return
	}
	w := s.Width
	if w <= 0 {
		w = 0.3
	}
	pen := Pen{Colour: s.Stroke, Width: w, Dash: s.Dash}
	cv.Path(pts, s.Closed, s.Fill, &pen)
}

// drawLabels sets each label beside its point: a left-aligned label starts
// a cell margin right of it, a right-aligned one ends a margin left of it.
func drawLabels(cv Canvas, fr frame, labels []Label) {
	for _, l := range labels {
		if !finite(l.At.X) || !finite(l.At.Y) {
			continue
		}
		at := fr.at(l.At)
		y := lineBaseline(at.Y-1.75, 3.5, figureFont)
		switch l.Align {
		case Right:
			cv.Text(at.X-cellMargin, y, l.Text, figureFont, Right)
		case Center:
			cv.Text(at.X, y, l.Text, figureFont, Center)
		default:
			cv.Text(at.X+cellMargin, y, l.Text, figureFont, Left)
		}
	}
}
