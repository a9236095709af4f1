package report

import (
	"math"
	"strconv"

	"draindesign/domain/design"
	"draindesign/domain/document/pdf"
)

// Catchment colours: a paved look for the areas, the channel as a dark bar.
var (
	areaColour    = pdf.Colour{R: 225, G: 235, B: 215}
	areaEdge      = pdf.Colour{R: 90, G: 120, B: 80}
	channelColour = pdf.Colour{R: 40, G: 40, B: 40}
)

// minPlanRatio is the least height of a catchment plan against its
// length. A 300 m run with 4 m wide areas drawn to one scale would be a
// hairline; below this ratio the widths are drawn larger, and the caption
// says by how much.
const minPlanRatio = 0.25

// catchment prints the run's catchment as the calculation took it: a plan
// with the channel along the middle, the left areas above it and the right
// ones below, numbered, and a table of the areas.
func (w *writer) catchment(r *design.Results) {
	if len(r.Catchment) == 0 {
		return
	}
	w.d.Subheading(w.tr("documents.pdf.catchment.title"))
	w.d.Figure(w.catchmentPlan(r))
	w.d.Table(w.catchmentColumns(), w.catchmentRows(r.Catchment))
}

// catchmentPlan draws the areas as polygons in metres: x along the run
// from the head, y across it (left side positive).
func (w *writer) catchmentPlan(r *design.Results) pdf.Figure {
	length, widest := r.CatchmentLengthMM/1000, 0.0
	for _, c := range r.Catchment {
		length = math.Max(length, c.XOriginM+c.LengthM)
		widest = math.Max(widest, math.Max(c.StartWidthM, c.EndWidthM))
	}
	stretch := 1.0
	if widest > 0 && 2*widest < minPlanRatio*length {
		stretch = minPlanRatio * length / (2 * widest)
	}
	var fig pdf.Figure
	fill := areaColour
	for i, c := range r.Catchment {
		sign := 1.0
		if c.Side == design.SideRight {
			sign = -1
		}
		x0, x1 := c.XOriginM, c.XOriginM+c.LengthM
		y0, y1 := sign*c.StartWidthM*stretch, sign*c.EndWidthM*stretch
		fig.Shapes = append(fig.Shapes, pdf.Shape{
			Points: []pdf.Point{{X: x0, Y: 0}, {X: x1, Y: 0}, {X: x1, Y: y1}, {X: x0, Y: y0}},
			Closed: true, Fill: &fill, Stroke: areaEdge,
		})
		fig.Labels = append(fig.Labels, pdf.Label{
			At:    pdf.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 4},
			Text:  strconv.Itoa(i + 1),
			Align: pdf.Center,
		})
	}
	fig.Shapes = append(fig.Shapes, pdf.Shape{
		Points: []pdf.Point{{X: 0, Y: 0}, {X: length, Y: 0}}, Stroke: channelColour, Width: 1.2,
	})
	fig.Labels = append(fig.Labels,
		pdf.Label{At: pdf.Point{X: 0, Y: 0}, Text: w.tr("documents.pdf.catchment.head"), Align: pdf.Right},
		pdf.Label{At: pdf.Point{X: length, Y: 0}, Text: w.tr("documents.pdf.catchment.outlet")},
	)
	fig.Height = 45
	fig.Caption = w.trd("documents.pdf.catchment.caption", "length", w.num.f(length, 2))
	if stretch > 1 {
		fig.Caption += " " + w.trd("documents.pdf.catchment.stretched", "factor", w.num.f(stretch, 1))
	}
	return fig
}

func (w *writer) catchmentColumns() []pdf.Column {
	return []pdf.Column{
		{Title: "#", Align: pdf.Right, Width: 0.3},
		{Title: w.tr("documents.pdf.catchment.side")},
		{Title: w.tr("documents.pdf.catchment.from") + " (m)", Align: pdf.Right},
		{Title: w.tr("documents.pdf.catchment.length") + " (m)", Align: pdf.Right},
		{Title: w.tr("documents.pdf.catchment.startWidth") + " (m)", Align: pdf.Right},
		{Title: w.tr("documents.pdf.catchment.endWidth") + " (m)", Align: pdf.Right},
		{Title: w.tr("documents.pdf.catchment.permeability"), Align: pdf.Right, Width: 1.5},
		{Title: w.tr("documents.pdf.catchment.area") + " (m²)", Align: pdf.Right},
	}
}

func (w *writer) catchmentRows(pieces []design.CatchmentPiece) [][]string {
	rows := make([][]string, 0, len(pieces)+1)
	total := 0.0
	for i, c := range pieces {
		side := w.tr("documents.pdf.catchment.left")
		if c.Side == design.SideRight {
			side = w.tr("documents.pdf.catchment.right")
		}
		rows = append(rows, []string{
			strconv.Itoa(i + 1), side, w.num.f(c.XOriginM, 2), w.num.f(c.LengthM, 2),
			w.num.f(c.StartWidthM, 2), w.num.f(c.EndWidthM, 2), w.num.f(c.Permeability, 2), w.num.f(c.AreaM2, 2),
		})
		total += c.AreaM2
	}
	return append(rows, []string{"", w.tr("documents.pdf.catchment.total"), "", "", "", "", "", w.num.f(total, 2)})
}
