package report

import (
	"fmt"

	"draindesign/domain/document/pdf"
	"draindesign/domain/document/raster"
	"draindesign/domain/document/rtf"
)

// target is what the content functions write to: the PDF document or the
// editable RTF one. Both documents come from the same content functions,
// so they cannot drift apart; each target lays the blocks out its own way.
type target interface {
	Heading(text string)
	Subheading(text string)
	Paragraph(text string)
	Note(text string)
	Warning(text string)
	Table(columns []pdf.Column, rows [][]string)
	KeyValues(pairs [][2]string)
	PageBreak()
	// Contents asks for a contents page listing the headings that follow.
	Contents(title string)
	// Chart and Figure are the drawings: vectors in the PDF, PNG pictures
	// in the RTF, both laid out by package drawing.
	Chart(c pdf.Chart)
	Figure(f pdf.Figure)
}

// *pdf.Doc is the PDF target as it is: its methods are the blocks, so the
// PDF comes out byte for byte as it did before there were two targets.
var _ target = (*pdf.Doc)(nil)

// rtfTarget writes the blocks to an RTF document. Blocks are kept in order
// and written at the end, because a contents list (asked for first) must
// name the headings that come after it.
type rtfTarget struct {
	doc      *rtf.Doc
	contents bool     // a contents list was asked for
	headings []string // the headings after it
	blocks   []func()
	err      error // the first drawing that failed
}

var _ target = (*rtfTarget)(nil)

func newRTFTarget(doc *rtf.Doc) *rtfTarget {
	return &rtfTarget{doc: doc}
}

func (r *rtfTarget) add(block func()) { r.blocks = append(r.blocks, block) }

func (r *rtfTarget) Heading(text string) {
	if r.contents {
		r.headings = append(r.headings, text)
	}
	r.add(func() { r.doc.Heading(1, text) })
}

func (r *rtfTarget) Subheading(text string) { r.add(func() { r.doc.Heading(2, text) }) }
func (r *rtfTarget) Paragraph(text string)  { r.add(func() { r.doc.Paragraph(text) }) }

// Note is a paragraph in the RTF: the writer has no small type, and an
// editable document is restyled by its reader anyway.
func (r *rtfTarget) Note(text string)    { r.add(func() { r.doc.Paragraph(text) }) }
func (r *rtfTarget) Warning(text string) { r.add(func() { r.doc.Warning(text) }) }
func (r *rtfTarget) PageBreak()          { r.add(r.doc.PageBreak) }

func (r *rtfTarget) KeyValues(pairs [][2]string) { r.add(func() { r.doc.KeyValues(pairs) }) }

// Table gives each column its share of the text width by the same weights
// the PDF uses (zero counts as 1).
func (r *rtfTarget) Table(columns []pdf.Column, rows [][]string) {
	header := make([]string, len(columns))
	total := 0.0
	for i, c := range columns {
		header[i] = c.Title
		total += columnWeight(c)
	}
	widths := make([]int, len(columns))
	for i, c := range columns {
		widths[i] = int(float64(rtf.TextWidth) * columnWeight(c) / total)
	}
	r.add(func() { r.doc.Table(header, rows, widths) })
}

func columnWeight(c pdf.Column) float64 {
	if c.Width <= 0 {
		return 1
	}
	return c.Width
}

// Contents lists the section headings (without page numbers: the reader's
// word processor sets the pages) at the place it was asked for.
func (r *rtfTarget) Contents(title string) {
	r.contents = true
	r.add(func() {
		r.doc.Heading(1, title)
		for _, h := range r.headings {
			r.doc.Paragraph(h)
		}
		r.doc.PageBreak()
	})
}

// drawingWidthMM is the RTF's text width in millimetres: the drawings
// are laid out at the width they print at, so their 7 pt labels print at
// 7 pt.
const drawingWidthMM = float64(rtf.TextWidth) * 25.4 / 1440

// Chart is the chart as a PNG picture across the text width. A chart
// without points fails the document, as it does the PDF.
func (r *rtfTarget) Chart(c pdf.Chart) {
	r.picture(raster.Chart(c, drawingWidthMM, raster.DPI))
}

// Figure is the figure's drawing as a PNG picture across the text width,
// its caption (the cross-section's "generic drawing" note) a paragraph
// under it.
func (r *rtfTarget) Figure(f pdf.Figure) {
	r.picture(raster.Figure(f, drawingWidthMM, raster.DPI))
	if f.Caption != "" {
		r.add(func() { r.doc.Paragraph(f.Caption) })
	}
}

// picture adds a drawing's PNG at the text width; its height follows from
// the picture's proportions, which are the drawing's.
func (r *rtfTarget) picture(png []byte, err error) {
	if err != nil {
		r.fail(err)
		return
	}
	r.add(func() { r.fail(r.doc.PNG(png, rtf.TextWidth, 0)) })
}

func (r *rtfTarget) fail(err error) {
	if r.err == nil && err != nil {
		r.err = fmt.Errorf("rtf drawing: %w", err)
	}
}

// finish writes the blocks in order; it fails with the first drawing that
// could not be made.
func (r *rtfTarget) finish() error {
	for _, b := range r.blocks {
		b()
	}
	r.blocks = nil
	return r.err
}
