// Package sheet makes the two feature sheets of the logged-out page (the UK
// version and the European and international one) as PDFs, with the
// document generator's pages, in any of the eleven languages. Its texts are
// the catalogue's marketing texts (home.*), so a translator's change of the
// page changes the sheet too.
package sheet

import (
	"fmt"
	"time"

	"draindesign/domain/document/pdf"
)

// Versions are the two offerings of the spec.
var Versions = []string{"uk", "int"}

// T gives a catalogue text in the sheet's language.
type T func(key string, data map[string]any) string

// PDF is the feature sheet of version ("uk" or "int").
func PDF(version string, t T, software string, created time.Time) ([]byte, error) {
	if version != "uk" && version != "int" {
		return nil, fmt.Errorf("feature sheet: no version %q", version)
	}
	tr := func(key string) string { return t(key, nil) }
	d := pdf.New(pdf.TitleBlock{
		ProjectName: tr("documents.sheet.title." + version),
		Location:    tr("documents.sheet.market." + version),
		Date:        created.Format("2006-01-02"),
		Software:    software,
		Created:     created,
		Labels: pdf.Labels{
			Project:   tr("documents.sheet.document"),
			Location:  tr("documents.sheet.market"),
			Reference: tr("documents.pdf.reference"),
			Date:      tr("documents.details.date"),
			Designer:  tr("documents.details.designer"),
			Company:   tr("documents.details.company"),
			Software:  tr("documents.pdf.software"),
			Page:      t("documents.pdf.page", map[string]any{"page": "%[1]d", "pages": "%[2]d"}),
		},
	})
	d.Heading(tr("advert.title"))
	d.Paragraph(tr("advert.threeClicks") + " " + tr("advert.description"))
	d.Subheading(tr("home.features." + version + ".title"))
	d.Paragraph(tr("home.features." + version + ".text"))
	d.Subheading(tr("documents.sheet.features"))
	for _, k := range []string{"home.features.point1", "home.features.point2", "home.features.point3", "home.features.point4"} {
		d.Paragraph("• " + tr(k))
	}
	for _, part := range []string{"reassurance", "confidentiality", "experience"} {
		d.Subheading(tr("home." + part + ".title"))
		d.Paragraph(tr("home." + part + ".text"))
	}
	d.Subheading(tr("home.feedback.title"))
	if version == "uk" {
		d.Paragraph(tr("home.feedback.uk"))
	} else {
		d.Paragraph(tr("home.feedback.europe"))
	}
	d.Note(tr("home.features.disclaimer"))
	return d.Bytes()
}
