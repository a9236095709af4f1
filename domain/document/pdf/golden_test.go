package pdf

import (
	"fmt"
	"path/filepath"
	"testing"

	"draindesign/domain/document/pdf/pdftest"
)

// TestGoldenPages compares rendered pages with committed images, so a
// broken layout (a title block that moved, a table that lost its grid, a
// chart drawn off its axes) fails even when every word is still there.
// UPDATE_GOLDEN=1 go test ./domain/document/pdf/ -run Golden rewrites them
// after an intended change; look at them before committing.
func TestGoldenPages(t *testing.T) {
	requirePoppler(t)
	path := writePDF(t, build(t, languages()[2].meta, func(d *Doc) {
		d.Heading("Хидравлично оразмеряване")
		d.KeyValues([][2]string{{"Система", "Monoblock RD 200"}, {"Дължина", "48,0 м"}, {"Запас", "35 мм"}})
		d.Warning("Наводнение между 28 м и 48 м.")
		d.Chart(profile())
		d.Table(runColumns, runRows(40))
		d.Figure(crossSection())
	}))
	if n := readInfo(t, path).Pages; n != 2 {
		t.Fatalf("pages = %d, want 2 for the golden images", n)
	}
	for page := 1; page <= 2; page++ {
		t.Run(fmt.Sprint("page ", page), func(t *testing.T) {
			golden := filepath.Join("testdata", fmt.Sprintf("sample-page%d.png", page))
			pdftest.Golden(t, path, page, golden, 0.002)
		})
	}
}
