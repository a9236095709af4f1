package pdf

import "strings"

// Heading starts a section. It moves to a new page rather than end a page
// alone, so it always has at least a few lines of its section below it.
// After Contents, it is listed on the contents page.
func (d *Doc) Heading(text string) {
	const size, h = 13.0, 7.0
	d.needSpace(h + 4*lineHeight)
	if d.f.GetY() > bodyTop+0.1 {
		d.f.Ln(3)
	}
	d.toc.add(text, d.f.PageNo())
	d.f.SetFont(sans, "B", size)
	d.f.MultiCell(0, h, clean(text), "", "L", false)
	d.f.Ln(1)
	d.bodyFont()
}

// Subheading starts a part of a section in a smaller type. It is not
// listed on the contents page, which then names only the sections: a
// project of many runs would not fit its headings and subheadings on the
// one contents page.
func (d *Doc) Subheading(text string) {
	const size, h = 11.0, 6.0
	d.needSpace(h + 4*lineHeight)
	if d.f.GetY() > bodyTop+0.1 {
		d.f.Ln(2)
	}
	d.f.SetFont(sans, "B", size)
	d.f.MultiCell(0, h, clean(text), "", "L", false)
	d.f.Ln(1)
	d.bodyFont()
}

// Paragraph writes running text, wrapped to the page width and continued
// on the next page where needed. A newline in text starts a new line.
func (d *Doc) Paragraph(text string) {
	d.bodyFont()
	d.f.MultiCell(0, lineHeight, clean(text), "", "L", false)
	d.f.Ln(2)
}

// Warning writes text the reader must not miss (flooding, super-critical
// flow, low freeboard): dark red, bold, between two red rules, with a
// warning sign that survives in a black-and-white print.
func (d *Doc) Warning(text string) {
	const pad = 1.5
	d.needSpace(2*lineHeight + 2*pad)
	d.f.SetDrawColor(200, 0, 0)
	d.f.SetLineWidth(0.8)
	d.rule()
	d.f.Ln(pad)
	d.f.SetFont(sans, "B", 10)
	d.f.SetTextColor(170, 0, 0)
	d.f.MultiCell(0, lineHeight, "⚠ "+clean(text), "", "L", false)
	d.f.Ln(pad)
	d.f.SetDrawColor(200, 0, 0)
	d.f.SetLineWidth(0.8)
	d.rule()
	d.f.Ln(3)
	d.bodyFont()
}

// rule draws a line across the text width at the current position.
func (d *Doc) rule() {
	y := d.f.GetY()
	d.f.Line(marginSide, y, pageWidth-marginSide, y)
}

// clean drops carriage returns and trailing newlines: fpdf's MultiCell
// treats trailing newlines differently for UTF-8 fonts (its documented bug).
func clean(text string) string {
	return strings.TrimRight(strings.ReplaceAll(text, "\r", ""), "\n")
}

// Note writes a small grey remark, such as the "generic drawing" note under
// a cross-section or a reference under a table.
func (d *Doc) Note(text string) {
	d.f.SetFont(sans, "", 8)
	d.f.SetTextColor(80, 80, 80)
	d.f.MultiCell(0, 4, clean(text), "", "L", false)
	d.f.Ln(2)
	d.bodyFont()
}
