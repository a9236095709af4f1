package report

import (
	"strings"
	"testing"

	"draindesign/domain/document/pdf/pdftest"
)

// irregularBody is a 40 m concrete run with a wedge of asphalt on its left
// (0 to 20 m wide: 400 m²) and a 10 m strip of soft landscape on its right
// from 5 m (3 m wide: 30 m²).
const irregularBody = `{"advanced": true, "calculation_method": "GVF", "channel_group": "concrete",
	"concreteChannel": {"width": 200, "depth": 300, "roughness": 0.011}, "channel_length_m": 40,
	"drainage_area_m2": 430, "catchmentShape": "irregular",
	"leftAreas": [{"length_m": 40, "start_width_m": 0, "end_width_m": 20, "permeability": "asphalt"}],
	"rightAreas": [{"xOrigin": 5, "length_m": 10, "start_width_m": 3, "end_width_m": 3, "permeability": 0.3}],
	"rainfall": {"rainfall_mm_per_hr": 50}, "slopeSetting": "slope", "ground_slope": 0,
	"dischargeSetting": "free-outflow"}`

// The hydraulics document draws and lists the catchment as calculated:
// each area's side, widths, runoff coefficient and plan area, and the
// total; and it words the calculation's warnings in its own language.
func TestHydraulicsPrintsCatchmentAndNotices(t *testing.T) {
	pdftest.Require(t)
	long := strings.Replace(concreteBody, `"channel_length_m": 20`, `"channel_length_m": 512.5`, 1)
	for _, lang := range []string{"en", "de", "pl"} {
		t.Run(lang, func(t *testing.T) {
			tr := translator(t, lang)
			p := sampleProject(lang, calculated(t, "Yard edge", irregularBody), calculated(t, "Service road", long))
			out, err := PDF(p, Kind{Name: "hydraulics", Run: 1}, tr)
			if err != nil {
				t.Fatal(err)
			}
			path := pdftest.Write(t, out)
			text := allText(t, path, pdftest.ReadInfo(t, path).Pages)
			for _, want := range []string{
				tr("documents.pdf.catchment.title", nil),
				tr("documents.pdf.catchment.left", nil), tr("documents.pdf.catchment.right", nil),
				decimal(lang, 400, 2), decimal(lang, 30, 2), decimal(lang, 430, 2), // areas and total, m²
				decimal(lang, 0.9, 2), decimal(lang, 0.3, 2), // asphalt, and the number given
			} {
				if !strings.Contains(text, pdftest.Fold(want)) {
					t.Errorf("catchment: %q missing:\n%s", want, text)
				}
			}

			out, err = PDF(p, Kind{Name: "hydraulics", Run: 2}, tr)
			if err != nil {
				t.Fatal(err)
			}
			path = pdftest.Write(t, out)
			text = allText(t, path, pdftest.ReadInfo(t, path).Pages)
			// 512.5 m is 12.5 m over the 500 m at which a run gets a warning.
			want := tr("documents.pdf.notice.longRun", map[string]any{"over": decimal(lang, 12.5, 1), "limit": "500"})
			if !strings.Contains(strings.Join(strings.Fields(text), " "), pdftest.Fold(want)) {
				t.Errorf("long-run warning %q missing:\n%s", want, text)
			}
		})
	}
}

// The accessories placed along a run are listed with their distance from
// the discharge end, in the document language.
func TestHydraulicsListsAccessories(t *testing.T) {
	pdftest.Require(t)
	body := `{"channel_group": "super", "loading": "F900", "grating": "super-slot-iron", "channel_length_m": 33,
		"drainage_area_m2": 900, "rainfall": {"rainfall_mm_per_hr": 50}, "dischargeSetting": "outflow-in-trashbox",
		"accessories": [{"type": "access-box", "distance_m": 12}, {"type": "access-box", "distance_m": 20, "toBeConfirmed": true}]}`
	tr := translator(t, "de")
	out, err := PDF(sampleProject("de", calculated(t, "Hofzufahrt", body)), Kind{Name: Hydraulics, Run: 1}, tr)
	if err != nil {
		t.Fatal(err)
	}
	path := pdftest.Write(t, out)
	text := allText(t, path, pdftest.ReadInfo(t, path).Pages)
	for _, want := range []string{tr("documents.pdf.accessories", nil), tr("documents.pdf.accessory.accessBox", nil), "12,00"} {
		if !strings.Contains(text, pdftest.Fold(want)) {
			t.Errorf("%q missing:\n%s", want, text)
		}
	}
	if strings.Contains(text, "20,00") {
		t.Errorf("an accessory still to be confirmed is listed:\n%s", text)
	}
}
