package pdf

import (
	"codeberg.org/go-pdf/fpdf"

	"draindesign/domain/document/drawing"
)

// The drawings are laid out by package drawing, which the RTF's raster
// images share; these names keep the PDF's callers as they were.
type (
	Colour = drawing.Colour
	Point  = drawing.Point
	Series = drawing.Series
	Band   = drawing.Band
	Chart  = drawing.Chart
	Shape  = drawing.Shape
	Label  = drawing.Label
	Figure = drawing.Figure
)

// captionLine is the line height of a figure's caption in mm.
const captionLine = 4.5

// Chart draws c as vectors at the current position across the text width,
// with its legend below. It fails the document when no series has a
// finite point, since an empty frame would look like a drawing error in a
// report.
func (d *Doc) Chart(c Chart) {
	cv := pageCanvas{d.f}
	height := c.TotalHeight(cv, contentWidth)
	d.needSpace(height)
	top := d.f.GetY()
	if err := c.Draw(cv, marginSide, top, contentWidth); err != nil {
		d.f.SetError(err)
		return
	}
	d.f.SetXY(marginSide, top+height)
	d.f.Ln(3)
	d.bodyFont()
}

// Figure draws fig at the current position, its caption below. A figure
// without a finite point fails the document: an empty box in a report
// would look like a drawing error.
func (d *Doc) Figure(fig Figure) {
	cv := pageCanvas{d.f}
	h := fig.DrawingHeight()
	d.needSpace(h + captionLine)
	top := d.f.GetY()
	if err := fig.Draw(cv, marginSide, top, contentWidth); err != nil {
		d.f.SetError(err)
		return
	}
	d.f.SetXY(marginSide, top+h)
	if fig.Caption != "" {
		d.f.SetFont(sans, "", 8)
		d.f.SetTextColor(80, 80, 80)
		d.f.MultiCell(0, captionLine, clean(fig.Caption), "", "C", false)
	}
	d.f.Ln(3)
	d.bodyFont()
}

// pageCanvas draws on the current PDF page, in millimetres, as vectors.
type pageCanvas struct{ f *fpdf.Fpdf }

var _ drawing.Canvas = pageCanvas{}

func (c pageCanvas) Path(pts []drawing.Point, closed bool, fill *drawing.Colour, pen *drawing.Pen) {
	if len(pts) == 0 || (fill == nil && pen == nil) {
		return
	}
	style := ""
	if fill != nil {
		c.f.SetFillColor(fill.R, fill.G, fill.B)
		style = "F"
	}
	if pen != nil {
		c.f.SetLineWidth(pen.Width)
		c.f.SetDrawColor(pen.Colour.R, pen.Colour.G, pen.Colour.B)
		c.f.SetDashPattern(pen.Dash, 0)
		style += "D"
	}
	c.f.MoveTo(pts[0].X, pts[0].Y)
	for _, p := range pts[1:] {
		c.f.LineTo(p.X, p.Y)
	}
	if closed {
		c.f.ClosePath()
	}
	c.f.DrawPath(style)
	if pen != nil && pen.Dash != nil {
		c.f.SetDashPattern(nil, 0)
	}
}

func (c pageCanvas) setFont(f drawing.Font) {
	style := ""
	if f.Bold {
		style = "B"
	}
	c.f.SetFont(sans, style, f.Size)
}

func (c pageCanvas) TextWidth(text string, f drawing.Font) float64 {
	c.setFont(f)
	return c.f.GetStringWidth(text)
}

func (c pageCanvas) Text(x, y float64, text string, f drawing.Font, align drawing.Align) {
	c.setFont(f)
	c.f.SetTextColor(f.Colour.R, f.Colour.G, f.Colour.B)
	switch align {
	case drawing.Right:
		x -= c.f.GetStringWidth(text)
	case drawing.Center:
		x -= c.f.GetStringWidth(text) / 2
	}
	c.f.Text(x, y, text)
}

func (c pageCanvas) Clip(x, y, w, h float64) { c.f.ClipRect(x, y, w, h, false) }
func (c pageCanvas) Unclip()                 { c.f.ClipEnd() }
