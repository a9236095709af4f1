package report

import (
	"strings"

	"draindesign/domain/document/rtf"
)

// RTF makes the document k of project p in the language t speaks as
// editable RTF, for advanced users who put the text into their own report.
// It has the PDF's content, written by the same content functions, with
// the drawings as PNG pictures laid out as in the PDF. The title block
// becomes a key-value block at the top, a header line on every page and
// "Page x of y" in the footer.
func RTF(p Project, k Kind, t Translator) ([]byte, error) {
	if err := checkInput(p, k); err != nil {
		return nil, err
	}
	w := newWriter(p, t)
	doc := rtf.New()
	d := p.Details
	doc.Title(d.Name)
	doc.Header(strings.Join(nonEmpty(d.Name, d.Location, d.Reference), " · "))
	// The catalogue's placeholders become the writer's page fields.
	doc.Footer(w.trd("documents.pdf.page", "page", "{page}", "pages", "{pages}"))
	doc.KeyValues(w.titlePairs())

	target := newRTFTarget(doc)
	w.d = target
	if err := w.content(k); err != nil {
		return nil, err
	}
	if err := target.finish(); err != nil {
		return nil, err
	}
	return doc.Bytes(), nil
}

// titlePairs is the PDF's title block as label and value pairs, leaving out
// empty fields.
func (w *writer) titlePairs() [][2]string {
	tb := w.titleBlock()
	var pairs [][2]string
	for _, f := range [][2]string{
		{tb.Labels.Project, tb.ProjectName}, {tb.Labels.Location, tb.Location}, {tb.Labels.Reference, tb.Reference},
		{tb.Labels.Date, tb.Date}, {tb.Labels.Designer, tb.Designer}, {tb.Labels.Company, tb.Company},
		{tb.Labels.Software, tb.Software},
	} {
		if f[1] != "" {
			pairs = append(pairs, f)
		}
	}
	return pairs
}

func nonEmpty(values ...string) []string {
	out := values[:0:0]
	for _, v := range values {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}
