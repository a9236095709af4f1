package sheet

import (
	"strings"
	"testing"
	"time"

	"draindesign/domain/document/pdf/pdftest"
)

// Each version's sheet prints its own title, market and version text and
// none of the other's; every text comes through the catalogue function.
func TestSheets(t *testing.T) {
	t.Parallel()
	pdftest.Require(t)
	asked := map[string]bool{}
	tr := func(key string, _ map[string]any) string {
		asked[key] = true
		if key == "documents.pdf.page" {
			return "Page %[1]d of %[2]d"
		}
		return "<" + key + ">"
	}
	at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ version, other string }{{"uk", "int"}, {"int", "uk"}} {
		data, err := PDF(tc.version, tr, "draindesign", at)
		if err != nil {
			t.Fatal(err)
		}
		text := pdftest.PageText(t, pdftest.Write(t, data), 1)
		for _, want := range []string{"<documents.sheet.title." + tc.version + ">", "<documents.pdf.reference>",
			"<home.features." + tc.version + ".text>", "<home.reassurance.text>", "<home.features.disclaimer>", "Page 1 of 1"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s sheet lacks %s:\n%s", tc.version, want, text)
			}
		}
		if strings.Contains(text, "<home.features."+tc.other+".text>") {
			t.Errorf("%s sheet prints the %s version's text", tc.version, tc.other)
		}
	}
	if _, err := PDF("mars", tr, "x", at); err == nil {
		t.Error("a sheet for an unknown version")
	}
}
