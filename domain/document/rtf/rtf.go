// Package rtf writes the small subset of the Rich Text Format (RTF 1.9.1)
// that the project's editable documents need. No maintained Go RTF library
// exists, and the subset is small enough to own and pin with golden tests.
//
// A Doc is built by appending blocks in reading order and turned into bytes
// once with Bytes. The output is plain 7-bit ASCII:
//
//   - Document: \rtf1\ansi\ansicpg1252 with \uc1, A4 paper (11906 × 16838
//     twips) and 2 cm margins.
//   - Fonts: one font, "DejaVu Sans" with Arial as its alternative (\falt),
//     so Cyrillic and Central European Latin show where DejaVu is installed
//     and something close where it is not. Body text is 10 pt.
//   - Colours: black, a warning red and a light grey for table header cells.
//   - Document properties: the title (\info\title), and no dates, so the
//     same content gives the same bytes.
//   - Styles: Normal (\s0) and headings 1–3 (\s1–\s3, with \outlinelevel so
//     word processors list them in their navigator).
//   - Blocks: Heading, Paragraph, Warning (bold red paragraph), Table (real
//     RTF rows: \trowd … \cellx … \cell … \row, bordered, header row bold,
//     shaded and marked \trhdr to repeat on each page, which Word honours
//     and LibreOffice 7.4 ignores on import), KeyValues (a borderless
//     two-column table with bold keys), PNG (\pict\pngblip with hex data),
//     PageBreak (\page).
//   - Header and footer on every page; "{page}" in their text becomes the
//     page number (\chpgn) and "{pages}" the page count (a NUMPAGES field).
//
// Text escaping, the heart of a correct writer: "\", "{" and "}" are
// escaped; every non-ASCII character is written as \uN followed by one ASCII
// fallback character for readers without Unicode (N is a signed 16-bit
// number, so code points above 32767 are negative; characters outside the
// Basic Multilingual Plane are written as their UTF-16 surrogate pair, two
// \u each with "?" as fallback); a newline within a paragraph becomes \line
// and a tab \tab; other control characters are dropped; bytes that are not
// UTF-8 become U+FFFD. The fallback is the letter without its accent for
// Latin, a one-letter transliteration for Cyrillic, a plain quote or dash for
// typographic punctuation and "?" otherwise; it is never a digit or a space,
// which a reader would take as part of the \u control word.
package rtf

import (
	"bytes"
	"fmt"
	"image/png"
	"strconv"
	"strings"
)

// Page geometry in twips (1/20 pt, 1/1440 inch).
const (
	pageWidth  = 11906 // A4
	pageHeight = 16838
	margin     = 1134 // 2 cm
	// TextWidth is the width between the margins, the full width for Table.
	TextWidth = pageWidth - 2*margin
)

// Colour table indexes (entry 0 is the reader's automatic colour).
const (
	colourBlack   = 1
	colourWarning = 2
	colourShade   = 3
)

// Doc is an RTF document under construction. The zero value is not ready;
// use New.
type Doc struct {
	body   bytes.Buffer
	title  string
	header string
	footer string
}

// New starts an empty document.
func New() *Doc { return &Doc{} }

// Title sets the document's title in its properties (\info), which word
// processors show in the window title and carry into a PDF made from it.
func (d *Doc) Title(text string) { d.title = text }

// Header sets the text repeated at the top of every page; "{page}" becomes
// the page number and "{pages}" the page count. An empty text means no
// header.
func (d *Doc) Header(text string) { d.header = text }

// Footer sets the text repeated at the bottom of every page, with the same
// placeholders as Header. An empty text means no footer.
func (d *Doc) Footer(text string) { d.footer = text }

// Heading appends a heading. Levels below 1 are written as 1 and above 3
// as 3: the documents have three levels of structure.
func (d *Doc) Heading(level int, text string) {
	level = min(max(level, 1), 3)
	d.body.WriteString(`\pard\plain`)
	d.body.WriteString(headingStyles[level-1])
	d.body.WriteByte(' ')
	writeText(&d.body, text)
	d.body.WriteString("\\par\n")
}

// Paragraph appends a paragraph of body text; newlines in text become line
// breaks within the paragraph.
func (d *Doc) Paragraph(text string) {
	d.body.WriteString(`\pard\plain` + normalStyle + ` `)
	writeText(&d.body, text)
	d.body.WriteString("\\par\n")
}

// Warning appends a paragraph in bold warning red.
func (d *Doc) Warning(text string) {
	fmt.Fprintf(&d.body, `\pard\plain%s\sb120\b\cf%d `, normalStyle, colourWarning)
	writeText(&d.body, text)
	d.body.WriteString("\\par\n")
}

// PageBreak starts a new page. The \pard\plain before \page matters:
// LibreOffice gives the paragraph after the break the formatting still in
// force, so a break after a centred picture centred the next heading.
func (d *Doc) PageBreak() { d.body.WriteString(`\pard\plain\page` + "\n") }

// Table appends a bordered table. The header row (left out when header is
// empty) is bold on grey and marked to repeat at the top of each page the
// table crosses. The number of columns is the longest of header and rows;
// short rows get empty cells. widthsTwips gives each column's width; a missing or
// non-positive width shares what is left of TextWidth equally with the
// other such columns (at least 1 cm each).
func (d *Doc) Table(header []string, rows [][]string, widthsTwips []int) {
	columns := len(header)
	for _, row := range rows {
		columns = max(columns, len(row))
	}
	if columns == 0 {
		return
	}
	edges := cellEdges(columns, widthsTwips)
	if len(header) > 0 {
		d.row(header, edges, true, true)
	}
	for _, row := range rows {
		d.row(row, edges, false, true)
	}
	d.body.WriteString(`\pard\plain` + "\n")
}

// KeyValues appends pairs as a borderless two-column table, the key bold:
// the layout of project details and design parameters.
func (d *Doc) KeyValues(pairs [][2]string) {
	if len(pairs) == 0 {
		return
	}
	edges := cellEdges(2, []int{TextWidth * 2 / 5, 0})
	for _, pair := range pairs {
		d.rowCells(edges, false, false, func(i int) {
			if i == 0 {
				d.body.WriteString(`\b `)
			} else {
				d.body.WriteByte(' ')
			}
			writeText(&d.body, pair[i])
		})
	}
	d.body.WriteString(`\pard\plain` + "\n")
}

// PNG appends a centred PNG image of the given size in twips. When either
// size is not positive, the image is sized from its pixels at 96 dpi (15
// twips a pixel), keeping its aspect ratio if the other size is given, and
// shrunk to TextWidth. Data that is not a PNG is refused and nothing is
// appended.
func (d *Doc) PNG(data []byte, widthTwips, heightTwips int) error {
	config, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("rtf image: %w", err)
	}
	if config.Width <= 0 || config.Height <= 0 {
		return fmt.Errorf("rtf image: empty image of %d × %d pixels", config.Width, config.Height)
	}
	widthTwips, heightTwips = imageSize(config.Width, config.Height, widthTwips, heightTwips)
	fmt.Fprintf(&d.body, `\pard\plain%s\qc {\pict\pngblip\picw%d\pich%d\picwgoal%d\pichgoal%d`+"\n",
		normalStyle, config.Width, config.Height, widthTwips, heightTwips)
	const hexDigits = "0123456789abcdef"
	for i, b := range data {
		d.body.WriteByte(hexDigits[b>>4])
		d.body.WriteByte(hexDigits[b&0x0f])
		// Short lines keep the file readable in a text editor; readers
		// ignore line ends in hex data.
		if i%64 == 63 || i == len(data)-1 {
			d.body.WriteByte('\n')
		}
	}
	d.body.WriteString("}\\par\n")
	return nil
}

// Bytes returns the complete document.
func (d *Doc) Bytes() []byte {
	var out bytes.Buffer
	out.Grow(d.body.Len() + 1024)
	out.WriteString(`{\rtf1\ansi\ansicpg1252\deff0\uc1` + "\n")
	out.WriteString(`{\fonttbl{\f0\fswiss\fcharset0 DejaVu Sans{\*\falt Arial};}}` + "\n")
	out.WriteString(`{\colortbl;\red0\green0\blue0;\red192\green0\blue0;\red217\green217\blue217;}` + "\n")
	out.WriteString(`{\stylesheet{\s0` + baseFont + ` Normal;}`)
	for i, style := range headingStyles {
		fmt.Fprintf(&out, `{%s\sbasedon0\snext0 heading %d;}`, style, i+1)
	}
	out.WriteString("}\n")
	if d.title != "" {
		out.WriteString(`{\info{\title `)
		writeText(&out, d.title)
		out.WriteString("}}\n")
	}
	fmt.Fprintf(&out, `\paperw%d\paperh%d\margl%d\margr%d\margt%d\margb%d\headery567\footery567`+"\n",
		pageWidth, pageHeight, margin, margin, margin, margin)
	for _, part := range []struct{ group, text, align string }{
		{`\header`, d.header, `\qr`},
		{`\footer`, d.footer, `\qc`},
	} {
		if part.text == "" {
			continue
		}
		fmt.Fprintf(&out, `{%s\pard\plain%s\f0\fs16 `, part.group, part.align)
		writeWithPageFields(&out, part.text)
		out.WriteString("\\par}\n")
	}
	out.Write(d.body.Bytes())
	out.WriteString("}\n")
	return out.Bytes()
}

// baseFont is the character formatting every paragraph starts from, after
// \plain resets it.
const baseFont = `\f0\fs20`

// normalStyle is the body-text paragraph, with a little space after.
const normalStyle = `\s0\sa120` + baseFont

// headingStyles are the paragraph and character formatting of headings 1–3,
// used both in the style sheet and on each heading paragraph.
var headingStyles = [3]string{
	`\s1\outlinelevel0\keepn\sb360\sa120\f0\fs32\b`,
	`\s2\outlinelevel1\keepn\sb240\sa120\f0\fs26\b`,
	`\s3\outlinelevel2\keepn\sb240\sa60\f0\fs22\b`,
}

// row writes one table row of texts, bold on grey for a header row.
func (d *Doc) row(cells []string, edges []int, header, borders bool) {
	d.rowCells(edges, header, borders, func(i int) {
		d.body.WriteByte(' ')
		if i < len(cells) {
			writeText(&d.body, cells[i])
		}
	})
}

// rowCells writes a row definition and its cells, the content of cell i
// written by cell after the cell's paragraph formatting.
func (d *Doc) rowCells(edges []int, header, borders bool, cell func(i int)) {
	// \trleft-108 moves the row left by the cell's inner margin, so text in
	// the first column lines up with the paragraphs above.
	d.body.WriteString(`\trowd\trgaph108\trleft-108`)
	if header {
		d.body.WriteString(`\trhdr`)
	}
	d.body.WriteString(`\trkeep` + "\n")
	for _, edge := range edges {
		if borders {
			d.body.WriteString(`\clbrdrt\brdrs\brdrw10\clbrdrl\brdrs\brdrw10\clbrdrb\brdrs\brdrw10\clbrdrr\brdrs\brdrw10`)
		}
		if header {
			fmt.Fprintf(&d.body, `\clcbpat%d`, colourShade)
		}
		fmt.Fprintf(&d.body, `\cellx%d`+"\n", edge)
	}
	for i := range edges {
		d.body.WriteString(`\pard\plain\intbl\s0` + baseFont)
		if header {
			d.body.WriteString(`\b`)
		}
		cell(i)
		d.body.WriteString("\\cell\n")
	}
	d.body.WriteString("\\row\n")
}

// cellEdges turns column widths into the right edges \cellx wants.
func cellEdges(columns int, widths []int) []int {
	const minWidth = 567 // 1 cm
	given, open := 0, 0
	for i := range columns {
		if i < len(widths) && widths[i] > 0 {
			given += widths[i]
		} else {
			open++
		}
	}
	share := 0
	if open > 0 {
		share = max((TextWidth-given)/open, minWidth)
	}
	edges := make([]int, columns)
	edge := 0
	for i := range columns {
		if i < len(widths) && widths[i] > 0 {
			edge += widths[i]
		} else {
			edge += share
		}
		edges[i] = edge
	}
	return edges
}

// imageSize fills in a missing size from the pixels and keeps the image
// within the text width.
func imageSize(pxWidth, pxHeight, width, height int) (int, int) {
	const twipsPerPixel = 15 // 96 dpi
	switch {
	case width <= 0 && height <= 0:
		width, height = pxWidth*twipsPerPixel, pxHeight*twipsPerPixel
	case width <= 0:
		width = height * pxWidth / pxHeight
	case height <= 0:
		height = width * pxHeight / pxWidth
	}
	if width > TextWidth {
		height = height * TextWidth / width
		width = TextWidth
	}
	return max(width, 1), max(height, 1)
}

// writeWithPageFields writes header or footer text, its "{page}" and
// "{pages}" placeholders as page fields.
func writeWithPageFields(out *bytes.Buffer, text string) {
	for text != "" {
		i := strings.IndexByte(text, '{')
		if i < 0 {
			writeText(out, text)
			return
		}
		writeText(out, text[:i])
		rest := text[i:]
		switch {
		case strings.HasPrefix(rest, "{pages}"):
			out.WriteString(`{\field{\*\fldinst NUMPAGES}{\fldrslt 1}}`)
			text = rest[len("{pages}"):]
		case strings.HasPrefix(rest, "{page}"):
			out.WriteString(`\chpgn `)
			text = rest[len("{page}"):]
		default:
			writeText(out, "{")
			text = rest[1:]
		}
	}
}

// Escape returns text as it is written inside an RTF paragraph (see the
// package comment for the rules).
func Escape(text string) string {
	var out bytes.Buffer
	writeText(&out, text)
	return out.String()
}

// writeText writes text with RTF's escapes. A control word it writes at the
// end is always closed by a space or a \u fallback, so whatever follows is
// read as text.
func writeText(out *bytes.Buffer, text string) {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c < 0x80 {
			switch {
			case c == '\\' || c == '{' || c == '}':
				out.WriteByte('\\')
				out.WriteByte(c)
			case c == '\r':
				// CR LF and a lone CR are one line break, like LF.
				if i+1 < len(text) && text[i+1] == '\n' {
					i++
				}
				out.WriteString(`\line `)
			case c == '\n':
				out.WriteString(`\line `)
			case c == '\t':
				out.WriteString(`\tab `)
			case c < 0x20 || c == 0x7f:
				// Other control characters have no meaning in a document.
			default:
				out.WriteByte(c)
			}
			continue
		}
		r, size := decodeRune(text[i:])
		i += size - 1
		if r > 0xffff {
			// UTF-16 surrogate pair; the pair's fallback is one "?" each.
			r -= 0x10000
			writeUnicode(out, 0xd800+(r>>10), '?')
			writeUnicode(out, 0xdc00+(r&0x3ff), '?')
			continue
		}
		writeUnicode(out, r, fallback(r))
	}
}

// writeUnicode writes one UTF-16 code unit as \uN with N signed, as RTF
// reads it, followed by its one-character fallback.
func writeUnicode(out *bytes.Buffer, unit rune, fallback byte) {
	out.WriteString(`\u`)
	out.WriteString(strconv.Itoa(int(int16(uint16(unit)))))
	out.WriteByte(fallback)
}
