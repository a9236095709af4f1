package pdf

import "strconv"

// contents is the table of contents: the page kept for it and the headings
// written since, with their pages.
type contents struct {
	page    int // 0 until Contents reserves one
	title   string
	entries []tocEntry
}

type tocEntry struct {
	text string
	page int
}

func (c *contents) add(text string, page int) {
	if c.page > 0 {
		c.entries = append(c.entries, tocEntry{clean(text), page})
	}
}

// Contents metrics in millimetres.
const (
	tocLine      = 6.0
	tocPageWidth = 15.0 // the page-number column
)

// Contents keeps a page for a table of contents listing every later
// Heading with its page number, and starts a new page for them. Bytes
// writes the list, once the page numbers are known. The list must fit on
// that one page (about 38 headings); more fail the document.
func (d *Doc) Contents(title string) {
	if d.toc.page > 0 {
		d.f.SetErrorf("contents page requested twice")
		return
	}
	if d.f.GetY() > bodyTop+0.1 {
		d.PageBreak()
	}
	d.toc.page, d.toc.title = d.f.PageNo(), clean(title)
	d.PageBreak()
}

// drawContents writes the contents list on its page.
func (d *Doc) drawContents() {
	if d.toc.page == 0 {
		return
	}
	room := pageHeight - bottomMargin - bodyTop - 10
	if n := len(d.toc.entries); float64(n)*tocLine > room {
		d.f.SetErrorf("contents: %d headings do not fit on one page (at most %d)", n, int(room/tocLine))
		return
	}
	d.f.SetAutoPageBreak(false, 0)
	d.f.SetPage(d.toc.page)
	d.f.SetFillColor(255, 255, 255)
	d.f.SetTextColor(0, 0, 0)
	d.f.SetDrawColor(170, 170, 170)
	d.f.SetLineWidth(0.1)
	d.f.SetXY(marginSide, bodyTop)
	d.forceFont(sans, "B", 13)
	d.f.CellFormat(contentWidth, 10, d.toc.title, "", 1, "L", false, 0, "")
	d.forceFont(sans, "", 10)
	for _, e := range d.toc.entries {
		d.f.SetX(marginSide)
		d.f.CellFormat(contentWidth-tocPageWidth, tocLine, d.fit(e.text, contentWidth-tocPageWidth), "B", 0, "L", false, 0, "")
		d.f.CellFormat(tocPageWidth, tocLine, strconv.Itoa(e.page), "B", 1, "R", false, 0, "")
	}
}
