package pdf

import (
	"fmt"
	"testing"
)

// tenPages is a document of ten pages as a hydraulics report fills them:
// a heading, a paragraph, a specification table, a warning and a table.
func tenPages(d *Doc) {
	for p := range 10 {
		if p > 0 {
			d.PageBreak()
		}
		d.Heading(fmt.Sprintf("Run %d — hydraulic design", p+1))
		d.Paragraph("The channel run is checked for the design storm with the climate allowance; " +
			"the water surface profile is computed from the outlet upstream.")
		d.KeyValues([][2]string{{"System", "Monoblock RD 200"}, {"Length", "48.0 m"}, {"Discharge", "12.4 l/s"},
			{"Freeboard", "35 mm"}, {"Rainfall", "50 mm/h"}, {"Return period", "30 years"}})
		d.Warning("Flooding at 12.5 m: the water surface is above the channel top.")
		d.Table(runColumns, runRows(15))
	}
}

func TestTenPages(t *testing.T) {
	d := New(TitleBlock{ProjectName: "Bench"})
	tenPages(d)
	if d.Pages() != 10 {
		t.Fatalf("pages = %d, want 10: the benchmark must measure ten pages", d.Pages())
	}
}

// BenchmarkTenPages measures building a ten-page document, fonts included.
func BenchmarkTenPages(b *testing.B) {
	for b.Loop() {
		d := New(TitleBlock{ProjectName: "Bench"})
		tenPages(d)
		if _, err := d.Bytes(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOnePage is the fixed cost of a document: reading the four
// embedded fonts and writing their subsets, with one short paragraph.
func BenchmarkOnePage(b *testing.B) {
	for b.Loop() {
		d := New(TitleBlock{ProjectName: "Bench"})
		d.Paragraph("One paragraph.")
		if _, err := d.Bytes(); err != nil {
			b.Fatal(err)
		}
	}
}
