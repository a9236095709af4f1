package report

import (
	"strings"
	"testing"

	"draindesign/domain/document/pdf"
	"draindesign/domain/document/pdf/pdftest"
)

const (
	// steepBody is the concrete example on a 3 % fall: the flow goes
	// super-critical.
	steepBody = `{"advanced": true, "calculation_method": "GVF", "channel_group": "concrete",
		"concreteChannel": {"width": 100, "depth": 300, "roughness": 0.011}, "channel_length_m": 20,
		"drainage_area_m2": 144, "catchmentShape": "uniform", "permeability": 1,
		"rainfall": {"rainfall_mm_per_hr": 50}, "slopeSetting": "slope", "ground_slope": 3,
		"dischargeSetting": "free-outflow"}`
	// inflowBody is the concrete example with a confirmed inflow and one
	// still to be confirmed.
	inflowBody = `{"advanced": true, "calculation_method": "GVF", "channel_group": "concrete",
		"concreteChannel": {"width": 100, "depth": 300, "roughness": 0.011}, "channel_length_m": 20,
		"drainage_area_m2": 144, "catchmentShape": "uniform", "permeability": 1,
		"rainfall": {"rainfall_mm_per_hr": 50}, "slopeSetting": "slope", "ground_slope": 0,
		"dischargeSetting": "free-outflow", "inflows": [{"id": "a", "distance_m": 12.5, "flow_lps": 1.5},
		{"id": "b", "distance_m": 7.25, "flow_lps": 9, "toBeConfirmed": true}]}`
	gullyBody = `{"channel_group": "gully-450", "drainage_area_m2": 300, "rainfall": {"rainfall_mm_per_hr": 50}, "pipe_diameter_mm": 160}`
)

func TestNumbers(t *testing.T) {
	tests := []struct {
		comma    bool
		v        float64
		decimals int
		want     string
	}{
		{false, 2, 2, "2.00"},
		{true, 2, 2, "2,00"},
		{true, 1234.567, 1, "1234,6"},
		{false, -0.004, 2, "0.00"},
		{true, -2621, 0, "-2621"},
		{true, 0.0004, 0, "0"},
	}
	for _, tt := range tests {
		if got := (numbers{comma: tt.comma}).f(tt.v, tt.decimals); got != tt.want {
			t.Errorf("f(%v, %d) comma %v = %q, want %q", tt.v, tt.decimals, tt.comma, got, tt.want)
		}
	}
}

// TestProjectTotal: the total adds each article's counts over the runs.
func TestProjectTotal(t *testing.T) {
	poly := calculated(t, "Car park", polymerBody)
	runs := []Run{poly, calculated(t, "Yard", concreteBody), poly}
	one := map[string]int{}
	for _, l := range materialLines(poly.Results) {
		one[l.HAN] += l.Count
	}
	total := projectTotal(runs)
	if len(total) != len(one) || len(one) == 0 {
		t.Fatalf("total has %d articles, one run %d", len(total), len(one))
	}
	for i, l := range total {
		if l.Count != 2*one[l.HAN] {
			t.Errorf("%s: total %d, want twice %d", l.HAN, l.Count, one[l.HAN])
		}
		if i > 0 && total[i-1].HAN > l.HAN {
			t.Errorf("total not sorted by article number: %s before %s", total[i-1].HAN, l.HAN)
		}
	}
}

func TestRainfallUnits(t *testing.T) {
	run := calculated(t, "Yard", concreteBody) // 50 mm/h
	for _, tt := range []struct{ units, want string }{
		{"mm/h", "50.0 mm/h"},
		{"l/s/m2", "0.0139 l/s/m²"},
		{"l/(s*ha)", "138.9 l/(s·ha)"},
	} {
		p := sampleProject("en", run)
		p.RainfallUnits = tt.units
		w := &writer{p: p, t: translator(t, "en")}
		var got string
		for _, row := range w.specification(run) {
			if row[0] == "Rainfall intensity" {
				got = row[1]
			}
		}
		if got != tt.want {
			t.Errorf("%s: rainfall %q, want %q", tt.units, got, tt.want)
		}
	}
}

// TestSpecialRuns: a super-critical run is warned of and shaded; a gully
// gets its capacity check instead of a profile.
func TestSpecialRuns(t *testing.T) {
	pdftest.Require(t)
	steep, gully := calculated(t, "Ramp", steepBody), calculated(t, "Gully", gullyBody)
	if !steep.Results.WentSuperCritical || gully.Results.Point == nil {
		t.Fatalf("examples: super-critical %v, point %v", steep.Results.WentSuperCritical, gully.Results.Point)
	}
	if bands := (&writer{p: sampleProject("en"), t: translator(t, "en")}).profile(steep.Results).Bands; len(bands) == 0 || bands[0].To <= bands[0].From {
		t.Errorf("super-critical bands %+v", bands)
	}
	p := sampleProject("de", steep, gully)
	tr := translator(t, "de")
	text := func(k Kind) string {
		out, err := PDF(p, k, tr)
		if err != nil {
			t.Fatal(err)
		}
		path := pdftest.Write(t, out)
		return allText(t, path, pdftest.ReadInfo(t, path).Pages)
	}
	ramp := text(Kind{Name: Hydraulics, Run: 1})
	for _, s := range []string{tr("documents.pdf.warning.superCritical", nil), "Schießender Abfluss Ja"} {
		if !strings.Contains(ramp, pdftest.Fold(s)) {
			t.Errorf("%q missing from the super-critical run:\n%s", s, ramp)
		}
	}
	g := text(Kind{Name: Hydraulics, Run: 2})
	// The 160 mm row: capacity, then what governs it (the grating here).
	capacity := decimal("de", gully.Results.Point.CapacityLPS, 2) + " l/s " + tr("documents.pdf.gully."+gully.Results.Point.Governing, nil)
	for _, s := range []string{tr("documents.pdf.gully.title", nil), capacity} {
		if !strings.Contains(g, s) {
			t.Errorf("%q missing from the gully:\n%s", s, g)
		}
	}
	if strings.Contains(g, tr("documents.results.profile", nil)) {
		t.Errorf("a gully has a profile:\n%s", g)
	}
}

// TestInflows: the confirmed inflow is listed with its distance and flow,
// the one still to be confirmed is not.
func TestInflows(t *testing.T) {
	pdftest.Require(t)
	p := sampleProject("de", calculated(t, "Yard", inflowBody))
	tr := translator(t, "de")
	out, err := PDF(p, Kind{Name: Hydraulics, Run: 1}, tr)
	if err != nil {
		t.Fatal(err)
	}
	path := pdftest.Write(t, out)
	text := allText(t, path, pdftest.ReadInfo(t, path).Pages)
	if !strings.Contains(text, "Punktuelle Zuflüsse") || !strings.Contains(text, "12,50 1,50") {
		t.Errorf("the inflow at 12,50 m of 1,50 l/s is missing:\n%s", text)
	}
	if strings.Contains(text, "7,25") {
		t.Errorf("an inflow to be confirmed is listed:\n%s", text)
	}
}

// TestRainfallSource: a rainfall read off the UK map says where it came
// from, so the look-up can be repeated; a typed-in intensity says nothing
// more.
func TestRainfallSource(t *testing.T) {
	mapped := calculated(t, "Yard", strings.Replace(concreteBody, `"rainfall": {"rainfall_mm_per_hr": 50}`,
		`"rainfall": {"rainfall_mm_per_hr": 50, "town": "Leeds", "M5": 20, "r": 0.4, "return_period": 100,
		"storm_duration": 5, "climate_change_factor": 40, "override": true}`, 1))
	typed := calculated(t, "Gate", concreteBody)
	for _, tt := range []struct {
		run          Run
		want, absent []string
	}{
		{mapped, []string{"FSR rainfall model", "Leeds", "20.0 mm", "0.40", "100 years", "5 min", "+40 %", "entered by the designer"}, nil},
		{typed, nil, []string{"FSR rainfall model", "M5-60"}},
	} {
		w := &writer{p: sampleProject("en", tt.run), t: translator(t, "en"), d: &recorder{}}
		w.rainfallSource(tt.run.Request.Rainfall)
		text := strings.Join(w.d.(*recorder).texts, " | ")
		for _, s := range tt.want {
			if !strings.Contains(text, s) {
				t.Errorf("%s: %q lacks %q", tt.run.Name, text, s)
			}
		}
		for _, s := range tt.absent {
			if strings.Contains(text, s) {
				t.Errorf("%s: %q has %q", tt.run.Name, text, s)
			}
		}
	}
}

// recorder is a target that keeps the text of every block, for tests of
// one content function at a time.
type recorder struct{ texts []string }

func (r *recorder) add(s ...string)        { r.texts = append(r.texts, s...) }
func (r *recorder) Heading(text string)    { r.add(text) }
func (r *recorder) Subheading(text string) { r.add(text) }
func (r *recorder) Paragraph(text string)  { r.add(text) }
func (r *recorder) Note(text string)       { r.add(text) }
func (r *recorder) Warning(text string)    { r.add(text) }
func (r *recorder) PageBreak()             {}
func (r *recorder) Contents(title string)  { r.add(title) }
func (r *recorder) Chart(pdf.Chart)        {}
func (r *recorder) Figure(pdf.Figure)      {}
func (r *recorder) Table(_ []pdf.Column, rows [][]string) {
	for _, row := range rows {
		r.add(row...)
	}
}
func (r *recorder) KeyValues(pairs [][2]string) {
	for _, p := range pairs {
		r.add(p[0], p[1])
	}
}
