package report

import (
	"strings"
	"testing"
)

// TestCatalogueTextsInTheDocumentLanguage: the materials document and the
// specification name the system, grating and articles in the document's
// language, with the same article numbers as in English.
func TestCatalogueTextsInTheDocumentLanguage(t *testing.T) {
	run := calculated(t, "Car park", polymerBody)
	for _, tt := range []struct {
		lang         string
		want, absent []string
	}{
		{"en", []string{"10504", "Slotted grating, ductile iron, bolted, 100 mm wide, 500 mm long", "End cap Polymer 100, universal", "Polymer 100"}, nil},
		{"de", []string{"10504", "Schlitzrost, Sphäroguss, verschraubt, 100 mm breit, 500 mm lang", "Stirnwand Polymer 100, universal", "Fugendichtstoff, Kartusche 290 ml"},
			[]string{"grating", "End cap", "Joint sealant"}},
		{"fr", []string{"10504", "Grille à fentes, fonte ductile, boulonnée, 100 mm de large, 500 mm de long", "Obturateur Polymer 100, universel"},
			[]string{"grating", "End cap", "Joint sealant"}},
	} {
		w := &writer{p: sampleProject(tt.lang, run), t: translator(t, tt.lang), d: &recorder{}}
		w.materials()
		for _, row := range w.specification(run) {
			w.d.KeyValues([][2]string{row})
		}
		text := strings.Join(w.d.(*recorder).texts, " | ")
		for _, s := range tt.want {
			if !strings.Contains(text, s) {
				t.Errorf("%s: no %q in %s", tt.lang, s, text)
			}
		}
		for _, s := range tt.absent {
			if strings.Contains(text, s) {
				t.Errorf("%s: English %q in %s", tt.lang, s, text)
			}
		}
	}
}
