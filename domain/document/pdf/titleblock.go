package pdf

import (
	"fmt"
	"strings"
	"time"
)

// TitleBlock is what every page of a document says about its project, as in
// a drawing's title block, plus the translated labels for it.
type TitleBlock struct {
	ProjectName string
	Location    string
	Reference   string
	Date        string // already formatted for the document's language
	Designer    string
	Company     string
	Software    string // the software version, e.g. "1.4.2"
	Labels      Labels
	// Created stamps the file's metadata; zero means now. A fixed time gives
	// byte-identical files, which golden tests want.
	Created time.Time
}

// Labels are the title block's captions in the document's language.
type Labels struct {
	Project   string
	Location  string
	Reference string
	Date      string
	Designer  string
	Company   string
	Software  string
	// Page is a format with two integer verbs, the page and the page count:
	// "Page %d of %d"; indexed verbs ("%[2]d … %[1]d") let a language put
	// the count first. Anything else fails the document in Bytes.
	Page string
}

// withDefaults fills empty captions with English so a missing translation
// shows a readable word instead of a bare value.
func (l Labels) withDefaults() Labels {
	def := func(s *string, english string) {
		if *s == "" {
			*s = english
		}
	}
	def(&l.Project, "Project")
	def(&l.Location, "Location")
	def(&l.Reference, "Reference")
	def(&l.Date, "Date")
	def(&l.Designer, "Designer")
	def(&l.Company, "Company")
	def(&l.Software, "Software")
	def(&l.Page, "Page %d of %d")
	return l
}

// field is one box of the title block.
type field struct {
	label, value string
	width        float64
	bold         bool
}

// drawTitleBlock is fpdf's header callback: two rows of captioned boxes.
func (d *Doc) drawTitleBlock() {
	t, l := d.title, d.title.Labels
	rows := [][]field{
		{{l.Project, t.ProjectName, 90, true}, {l.Reference, t.Reference, 45, false}, {l.Date, t.Date, 45, false}},
		{{l.Location, t.Location, 45, false}, {l.Designer, t.Designer, 45, false},
			{l.Company, t.Company, 45, false}, {l.Software, t.Software, 45, false}},
	}
	d.f.SetLineWidth(0.3)
	d.f.SetDrawColor(0, 0, 0)
	rowH := titleHeight / float64(len(rows))
	for i, row := range rows {
		x := marginSide
		y := marginTop + float64(i)*rowH
		for _, fl := range row {
			d.drawField(fl, x, y, rowH)
			x += fl.width
		}
	}
	d.f.SetXY(marginSide, bodyTop)
}

// drawField draws one box with a small grey caption above its value; a
// value too long for the box is cut with an ellipsis rather than
// overflowing into its neighbour.
func (d *Doc) drawField(fl field, x, y, h float64) {
	d.f.Rect(x, y, fl.width, h, "D")
	d.f.SetFont(condensed, "", 6.5)
	d.f.SetTextColor(90, 90, 90)
	d.f.SetXY(x, y+0.5)
	d.f.CellFormat(fl.width, 3, d.fit(fl.label, fl.width), "", 0, "L", false, 0, "")
	style, size := "", 9.0
	if fl.bold {
		style, size = "B", 10
	}
	d.f.SetFont(sans, style, size)
	d.f.SetTextColor(0, 0, 0)
	d.f.SetXY(x, y+3.8)
	d.f.CellFormat(fl.width, 5, d.fit(fl.value, fl.width), "", 0, "L", false, 0, "")
}

// fit shortens s with an ellipsis until it fits a cell of width w in the
// current font (fpdf's cell margin on both sides included).
func (d *Doc) fit(s string, w float64) string {
	room := w - 2*d.f.GetCellMargin()
	if d.f.GetStringWidth(s) <= room {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && d.f.GetStringWidth(string(r)+"…") > room {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

// drawFooters writes "page x of y" on every page once the count is known,
// ending on the last page. Each page gets explicit settings: the state fpdf
// tracks is the last page's, not the revisited one's.
func (d *Doc) drawFooters() {
	n := d.f.PageCount()
	d.f.SetAutoPageBreak(false, 0)
	for p := 1; p <= n; p++ {
		d.f.SetPage(p)
		d.forceFont(sans, "", 8)
		d.f.SetFillColor(255, 255, 255)
		d.f.SetTextColor(60, 60, 60)
		d.f.SetDrawColor(0, 0, 0)
		d.f.SetLineWidth(0.2)
		d.f.Line(marginSide, footerY, pageWidth-marginSide, footerY)
		d.f.SetXY(marginSide, footerY+1)
		half := contentWidth / 2
		d.f.CellFormat(half, 4, d.fit(d.title.ProjectName, half), "", 0, "L", false, 0, "")
		page := fmt.Sprintf(d.title.Labels.Page, p, n)
		if strings.Contains(page, "%!") {
			d.f.SetErrorf("page label %q: want a format with two integer verbs, page and count", d.title.Labels.Page)
			return
		}
		d.f.CellFormat(half, 4, page, "", 0, "R", false, 0, "")
	}
}
