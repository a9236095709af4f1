package pdf_test

import (
	"fmt"
	"math"

	"draindesign/domain/document/pdf"
)

// A hydraulics page as the document call builds it: texts arrive already
// translated, numbers already formatted.
func ExampleNew() {
	d := pdf.New(pdf.TitleBlock{
		ProjectName: "Riverside Car Park", Location: "Leeds", Reference: "RCP-042",
		Date: "24/11/2026", Designer: "A. Smith", Company: "Drain Ltd", Software: "1.4.2",
		Labels: pdf.Labels{Project: "Project", Page: "Page %d of %d"},
	})
	d.Contents("Contents")
	d.Heading("Run 1 — hydraulic design")
	d.KeyValues([][2]string{{"System", "Monoblock RD 200"}, {"Freeboard", "35 mm"}})
	d.Warning("Flooding between 28 m and 48 m.")
	d.Chart(pdf.Chart{
		XLabel: "Distance (m)", YLabel: "Level (mm)",
		Series: []pdf.Series{
			{Name: "Invert", Points: []pdf.Point{{X: 0, Y: 100}, {X: 48, Y: 76}}},
			{Name: "Flooding", Points: []pdf.Point{{X: 0, Y: math.NaN()}, {X: 28, Y: 290}, {X: 48, Y: 340}},
				Colour: pdf.Colour{R: 220}},
		},
		Bands: []pdf.Band{{Label: "Super-critical", From: 10, To: 20, Colour: pdf.Colour{R: 255, G: 235, B: 160}}},
	})
	d.Table([]pdf.Column{{Title: "Item"}, {Title: "Count", Align: pdf.Right}}, [][]string{{"Channel 1 m", "48"}})
	file, err := d.Bytes()
	fmt.Println(d.Pages(), err, string(file[:5]))
	// Output: 2 <nil> %PDF-
}
