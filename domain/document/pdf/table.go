package pdf

import "draindesign/domain/document/drawing"

// Align places text within a table column or beside a figure's point; it
// is the drawings' alignment, so one value serves both.
type Align = drawing.Align

// Column alignments; numbers read best aligned right.
const (
	Left   = drawing.Left
	Right  = drawing.Right
	Center = drawing.Center
)

// Column is one table column: its heading, its share of the text width
// (weights are relative; zero counts as 1) and its alignment (empty is Left).
type Column struct {
	Title string
	Width float64
	Align Align
}

// Table cell metrics in millimetres and points.
const (
	cellFontSize = 8.5
	cellLine     = 4.0
	cellPad      = 1.0
)

// table is a table being laid out: column widths in millimetres, and how
// each part is styled.
type table struct {
	widths   []float64
	aligns   []string
	header   []string // nil for KeyValues, which has no header row
	boldKey  bool     // the first column in bold, for key-value tables
	capacity int      // cell lines a fresh page holds under the header
}

func newTable(columns []Column) *table {
	t := &table{}
	total := 0.0
	for _, c := range columns {
		total += weight(c)
	}
	for _, c := range columns {
		t.widths = append(t.widths, contentWidth*weight(c)/total)
		align := string(c.Align)
		if align == "" {
			align = string(Left)
		}
		t.aligns = append(t.aligns, align)
		t.header = append(t.header, c.Title)
	}
	return t
}

func weight(c Column) float64 {
	if c.Width <= 0 {
		return 1
	}
	return c.Width
}

// Table writes rows under a header row. Cells wrap within their column;
// a row that does not fit moves to the next page, which repeats the header
// row. A row taller than a whole page is split across pages.
func (d *Doc) Table(columns []Column, rows [][]string) {
	if len(columns) == 0 {
		d.f.SetErrorf("table without columns")
		return
	}
	d.drawTable(newTable(columns), rows)
}

// KeyValues writes a two-column specification table: names in bold on the
// left, values on the right, no header row.
func (d *Doc) KeyValues(pairs [][2]string) {
	t := newTable([]Column{{Width: 2}, {Width: 3}})
	t.header, t.boldKey = nil, true
	rows := make([][]string, len(pairs))
	for i, p := range pairs {
		rows[i] = []string{p[0], p[1]}
	}
	d.drawTable(t, rows)
}

func (d *Doc) drawTable(t *table, rows [][]string) {
	for i, r := range rows {
		if len(r) != len(t.widths) {
			d.f.SetErrorf("table row %d has %d cells for %d columns", i+1, len(r), len(t.widths))
			return
		}
	}
	first := 1
	if len(rows) > 0 {
		first = maxLines(d.split(t, rows[0], false))
	}
	t.capacity = d.linesPerPage(t)
	// The header row never ends a page without a first row under it.
	d.needSpace(d.headerHeight(t) + rowHeight(min(first, 3)))
	d.drawHeader(t)
	for _, r := range rows {
		d.tableRow(t, r)
	}
	d.f.Ln(3)
	d.bodyFont()
}

func rowHeight(lines int) float64 { return float64(lines)*cellLine + 2*cellPad }

func (d *Doc) headerHeight(t *table) float64 {
	if t.header == nil {
		return 0
	}
	return rowHeight(maxLines(d.split(t, t.header, true)))
}

func (d *Doc) drawHeader(t *table) {
	if t.header == nil {
		return
	}
	lines := d.split(t, t.header, true)
	d.drawRow(t, lines, maxLines(lines), true)
}

// tableRow places one row, moving it to a new page (under a repeated
// header) when it does not fit, or splitting it when even a fresh page is
// too short for it.
func (d *Doc) tableRow(t *table, cells []string) {
	lines := d.split(t, cells, false)
	fresh := false
	for {
		n := maxLines(lines)
		fit := int((d.spaceLeft() - 2*cellPad + 1e-6) / cellLine)
		if fresh {
			fit = max(fit, 1) // a header taller than the page must not loop forever
		}
		if n <= fit {
			d.drawRow(t, lines, n, false)
			return
		}
		if fit >= 1 && (n > t.capacity || fresh) {
			d.drawRow(t, lines, fit, false)
			lines = dropLines(lines, fit)
		}
		d.PageBreak()
		d.drawHeader(t)
		fresh = true
	}
}

// linesPerPage is how many cell lines fit on a page below the header row.
func (d *Doc) linesPerPage(t *table) int {
	room := pageHeight - bottomMargin - bodyTop - d.headerHeight(t) - 2*cellPad
	return max(1, int(room/cellLine))
}

// split wraps each cell's text to its column in the font it is drawn in.
func (d *Doc) split(t *table, cells []string, header bool) [][]string {
	out := make([][]string, len(cells))
	for i, c := range cells {
		d.cellFont(t, i, header)
		out[i] = d.f.SplitText(clean(c), t.widths[i])
	}
	return out
}

func (d *Doc) cellFont(t *table, col int, header bool) {
	style := ""
	if header || (t.boldKey && col == 0) {
		style = "B"
	}
	d.f.SetFont(condensed, style, cellFontSize)
}

// drawRow draws the first n lines of each cell as one row of boxes. Page
// breaks are off meanwhile: the caller has made sure the row fits.
func (d *Doc) drawRow(t *table, lines [][]string, n int, header bool) {
	d.f.SetAutoPageBreak(false, bottomMargin)
	defer d.f.SetAutoPageBreak(true, bottomMargin)
	h := rowHeight(n)
	x, y := marginSide, d.f.GetY()
	d.f.SetLineWidth(0.2)
	d.f.SetDrawColor(120, 120, 120)
	d.f.SetFillColor(225, 225, 225)
	d.f.SetTextColor(0, 0, 0)
	for i, w := range t.widths {
		style := "D"
		if header {
			style = "FD"
		}
		d.f.Rect(x, y, w, h, style)
		d.cellFont(t, i, header)
		for j := 0; j < n && j < len(lines[i]); j++ {
			d.f.SetXY(x, y+cellPad+float64(j)*cellLine)
			d.f.CellFormat(w, cellLine, lines[i][j], "", 0, t.aligns[i], false, 0, "")
		}
		x += w
	}
	d.f.SetXY(marginSide, y+h)
}

func maxLines(cells [][]string) int {
	n := 1
	for _, c := range cells {
		n = max(n, len(c))
	}
	return n
}

// dropLines removes the first n lines of every cell, for the part of a
// split row that goes on the next page.
func dropLines(cells [][]string, n int) [][]string {
	out := make([][]string, len(cells))
	for i, c := range cells {
		if n < len(c) {
			out[i] = c[n:]
		}
	}
	return out
}
