// Package drawing lays out the documents' drawings: line charts such as
// the hydraulic profile (axes with round-number ticks, shaded bands, a
// legend) and figures to scale such as the channel cross-section. It draws
// them on a Canvas, so the PDF (vectors, package pdf) and the RTF (a PNG,
// package raster) come from one layout and cannot drift apart.
//
// Canvas units are millimetres with y running downwards, as on a page;
// font sizes are points. Data units (a chart's metres and millimetres, a
// figure's own units) are whatever the caller's points are in.
package drawing

import "math"

// Colour is an RGB colour, each part 0-255.
type Colour struct{ R, G, B int }

// Point is a point in data units, or on the canvas in millimetres.
type Point struct{ X, Y float64 }

// Align places a text at its anchor: its left end, centre or right end.
// The values are fpdf's alignment letters, which tables pass on as they are.
type Align string

// The alignments.
const (
	Left   Align = "L"
	Right  Align = "R"
	Center Align = "C"
)

// Pen is how a line is stroked.
type Pen struct {
	Colour Colour
	Width  float64   // mm
	Dash   []float64 // dash and gap lengths in mm; nil is a solid line
}

// Font is the style of a text.
type Font struct {
	Size   float64 // points
	Bold   bool
	Colour Colour
}

// Measurer measures texts, which the layout needs before it draws: the
// legend's rows depend on the widths of the series' names.
type Measurer interface {
	// TextWidth is the width of text set in f, in mm.
	TextWidth(text string, f Font) float64
}

// Canvas is what a drawing is drawn on: a PDF page or a raster image.
type Canvas interface {
	Measurer
	// Path draws the polyline through pts, a polygon when closed: filled
	// with fill unless it is nil, then stroked with pen unless it is nil.
	Path(pts []Point, closed bool, fill *Colour, pen *Pen)
	// Text writes text with its baseline at y, anchored at x as align
	// says.
	Text(x, y float64, text string, f Font, align Align)
	// Clip limits what is drawn to the rectangle until Unclip.
	Clip(x, y, w, h float64)
	Unclip()
}

// ptToMM converts a font size in points to millimetres.
const ptToMM = 25.4 / 72

// cellMargin is the inner margin of fpdf's text cells (1 mm). The texts
// were first placed as cells; keeping the margin keeps them where they
// were in the PDF.
const cellMargin = 1.0

// lineBaseline is the baseline of a text of f's size centred in a line of
// height h starting at top, as fpdf centres a text in a cell.
func lineBaseline(top, h float64, f Font) float64 {
	return top + h/2 + 0.3*f.Size*ptToMM
}

// rect draws a rectangle.
func rect(cv Canvas, x, y, w, h float64, fill *Colour, pen *Pen) {
	cv.Path([]Point{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}}, true, fill, pen)
}

// line draws a straight line.
func line(cv Canvas, x1, y1, x2, y2 float64, pen Pen) {
	cv.Path([]Point{{x1, y1}, {x2, y2}}, false, nil, &pen)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
