// Package pdf builds the designer's PDF documents: A4 portrait pages with a
// title block on each, a "page x of y" footer, headings, paragraphs,
// wrapping tables and warnings. It knows nothing of HTTP, storage or
// translations: callers pass texts already in the document's language and
// numbers already formatted.
//
// New starts a document; Heading, Paragraph, Note, Warning, Table,
// KeyValues, Chart (a hydraulic profile), Figure (a cross-section or plan
// to scale), Contents and PageBreak add to it in reading order; Bytes
// returns the file. Charts and figures are laid out by package drawing,
// which the RTF's pictures share, and drawn here as vectors. Mistakes such as a table row with the wrong number of
// cells make Bytes fail rather than print a broken page.
package pdf

import (
	"bytes"
	"fmt"
	"time"

	"codeberg.org/go-pdf/fpdf"

	"draindesign/domain/document/fonts"
)

// Font families as registered with fpdf.
const (
	sans      = "DejaVuSans"
	condensed = "DejaVuSansCondensed"
)

// Page geometry in millimetres (A4 portrait).
const (
	pageWidth    = 210.0
	pageHeight   = 297.0
	marginSide   = 15.0
	marginTop    = 10.0
	titleHeight  = 20.0 // the title block box
	bodyTop      = marginTop + titleHeight + 6
	footerY      = pageHeight - 12
	bottomMargin = 20.0 // the body stops here, above the footer
	contentWidth = pageWidth - 2*marginSide
	lineHeight   = 5.0 // body text at 10 pt
)

// Doc is one PDF document under construction. Its methods add content in
// reading order; Bytes finishes it. After an error inside fpdf every later
// call does nothing and Bytes returns that error.
type Doc struct {
	f     *fpdf.Fpdf
	title TitleBlock
	toc   contents
	out   []byte // the finished file, once Bytes has run
	err   error
}

// New starts a document whose every page carries the title block meta.
func New(meta TitleBlock) *Doc {
	meta.Labels = meta.Labels.withDefaults()
	f := fpdf.New("P", "mm", "A4", "")
	d := &Doc{f: f, title: meta}
	d.addFonts()
	created := meta.Created
	if created.IsZero() {
		created = time.Now()
	}
	f.SetCreationDate(created)
	f.SetModificationDate(created)
	f.SetCatalogSort(true) // fonts in a fixed order: same input, same bytes
	f.SetTitle(meta.ProjectName, true)
	f.SetCreator("draindesign "+meta.Software, true)
	f.SetMargins(marginSide, bodyTop, marginSide)
	f.SetAutoPageBreak(true, bottomMargin)
	f.SetHeaderFunc(d.drawTitleBlock)
	f.AddPage()
	d.bodyFont()
	return d
}

// addFonts registers the embedded fonts (package fonts), so a document
// prints the same on every machine and covers Cyrillic and accented Latin,
// which the PDF core fonts do not.
func (d *Doc) addFonts() {
	for _, font := range []struct {
		family, style string
		data          []byte
	}{
		{sans, "", fonts.Sans},
		{sans, "B", fonts.SansBold},
		{condensed, "", fonts.Condensed},
		{condensed, "B", fonts.CondensedBold},
	} {
		d.f.AddUTF8FontFromBytes(font.family, font.style, font.data)
	}
}

// bodyFont restores the running text style after headings, tables and
// warnings changed it.
func (d *Doc) bodyFont() {
	d.f.SetFont(sans, "", 10)
	d.f.SetTextColor(0, 0, 0)
	d.f.SetDrawColor(0, 0, 0)
	d.f.SetLineWidth(0.2)
}

// PageBreak starts a new page (for example before each run's hydraulics).
func (d *Doc) PageBreak() {
	d.f.AddPage()
	d.bodyFont()
}

// Pages is the number of pages so far.
func (d *Doc) Pages() int { return d.f.PageCount() }

// Bytes finishes the document and returns the PDF file. Footers and the
// contents page are drawn here, once the page numbers are known, so "page x
// of y" is exact and aligned (fpdf's page-count alias would be measured with
// its placeholder's width). Later calls return the same result; content
// added after the first call is not in the file.
func (d *Doc) Bytes() ([]byte, error) {
	if d.out != nil || d.err != nil {
		return d.out, d.err
	}
	d.drawContents()
	d.drawFooters()
	var buf bytes.Buffer
	if err := d.f.Output(&buf); err != nil {
		d.err = fmt.Errorf("write pdf: %w", err)
		return nil, d.err
	}
	d.out = buf.Bytes()
	return d.out, nil
}

// forceFont selects a font on a page revisited with SetPage. fpdf writes a
// font change only when it differs from the one it tracks, which is the
// last page's; selecting another size first makes it write the real one.
func (d *Doc) forceFont(family, style string, size float64) {
	d.f.SetFont(family, style, size+1)
	d.f.SetFont(family, style, size)
}

// spaceLeft is the height left on the current page above the bottom margin.
func (d *Doc) spaceLeft() float64 {
	return pageHeight - bottomMargin - d.f.GetY()
}

// needSpace starts a new page when less than h is left, so a block that
// must stay together (a heading with its first lines, a table row) does
// not split.
func (d *Doc) needSpace(h float64) {
	if d.spaceLeft() < h {
		d.PageBreak()
	}
}
