package profilecsv_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"draindesign/domain/account"
	"draindesign/domain/catalogue"
	"draindesign/domain/design"
	"draindesign/domain/document/profilecsv"
	"draindesign/domain/hydraulics"
)

// exampleRun is the example: 20 m of in-situ concrete channel,
// 100 × 300 mm, n 0.011, level, 144 m² at 50 mm/h (2 l/s), free outflow.
const exampleRun = `{"advanced": true, "calculation_method": "GVF", "channel_group": "concrete",
	"concreteChannel": {"width": 100, "depth": 300, "roughness": 0.011}, "channel_length_m": 20,
	"drainage_area_m2": 144, "catchmentShape": "uniform", "permeability": 1,
	"rainfall": {"rainfall_mm_per_hr": 50}, "slopeSetting": "slope", "ground_slope": 0,
	"dischargeSetting": "free-outflow"}`

// steppedRun is a standard-mode stepped run of U-section polymer channels:
// several segments with steps in the floor between them.
const steppedRun = `{"channel_group": "poly-100", "loading": "C250", "grating": "poly-100-slot-iron",
	"channel_length_m": 60.5, "drainage_area_m2": 800, "rainfall": {"rainfall_mm_per_hr": 50},
	"stepped": true, "ground_slope": 0.5}`

// gullyRun is a point product: it has no profile.
const gullyRun = `{"channel_group": "gully-450", "drainage_area_m2": 300,
	"rainfall": {"rainfall_mm_per_hr": 50}, "pipe_diameter_mm": 160}`

func calculate(t *testing.T, body string, patch map[string]any) *design.Results {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range patch {
		m[k] = v
	}
	raw, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	r, err := design.DecodeRequest(raw)
	if err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	a, err := design.Calculate(catalogue.Default(), r)
	if err != nil {
		t.Fatalf("calculate %s: %v", raw, err)
	}
	return a.Results
}

func locale(t *testing.T, lang string) profilecsv.Locale {
	t.Helper()
	l, err := profilecsv.LocaleFor(lang)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// parse reads a file back as a spreadsheet of that locale would: it checks
// the BOM and the CRLF line ends, splits the columns and turns the numbers
// back with the locale's decimal separator.
func parse(t *testing.T, file []byte, loc profilecsv.Locale) (header []string, rows [][]float64) {
	t.Helper()
	if !bytes.HasPrefix(file, []byte("\xEF\xBB\xBF")) {
		t.Fatalf("no UTF-8 byte order mark: % x", file[:min(len(file), 8)])
	}
	body := file[3:]
	if !bytes.HasSuffix(body, []byte("\r\n")) {
		t.Errorf("the file does not end with CRLF")
	}
	if n, crlf := bytes.Count(body, []byte("\n")), bytes.Count(body, []byte("\r\n")); n != crlf {
		t.Errorf("%d line ends, only %d of them CRLF", n, crlf)
	}
	r := csv.NewReader(bytes.NewReader(body))
	r.Comma = loc.Separator
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("read back: %v", err)
	}
	if len(recs) < 2 {
		t.Fatalf("%d records", len(recs))
	}
	for i, rec := range recs[1:] {
		row := make([]float64, len(rec))
		for j, f := range rec {
			if loc.Decimal != '.' && strings.Contains(f, ".") {
				t.Fatalf("row %d column %d: %q has a point in a %q-decimal locale", i, j, f, loc.Decimal)
			}
			v, err := strconv.ParseFloat(strings.Replace(f, string(loc.Decimal), ".", 1), 64)
			if err != nil {
				t.Fatalf("row %d column %d: %v", i, j, err)
			}
			row[j] = v
		}
		rows = append(rows, row)
	}
	return recs[0], rows
}

func slices(res *design.Results) []hydraulics.Slice {
	var out []hydraulics.Slice
	for _, s := range res.Segments {
		out = append(out, s.Slices...)
	}
	return out
}

// near: within half a unit of the last decimal written, and a hair more
// for the binary representation.
func near(got, want float64, decimals int) bool {
	return math.Abs(got-want) <= 0.5*math.Pow10(-decimals)+1e-9
}

// The rows of the file are the calculation's slices one to one, in both
// the English and the German separators, and read back to the same numbers.
func TestProfileRowsAreTheSlices(t *testing.T) {
	t.Parallel()
	res := calculate(t, exampleRun, nil)
	want := slices(res)
	if len(want) < 40 {
		t.Fatalf("the example has only %d slices", len(want))
	}
	for _, lang := range []string{"en", "de", "bg", "rs", "si"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			loc := locale(t, lang)
			file, err := profilecsv.Profile(res, loc)
			if err != nil {
				t.Fatal(err)
			}
			header, rows := parse(t, file, loc)
			if strings.Join(header, "|") != "Distance (m)|Invert level (m)|Water level (m)|Depth (mm)|Flow (l/s)|Velocity (m/s)|Froude number" {
				t.Errorf("header %q", header)
			}
			if len(rows) != len(want) {
				t.Fatalf("%d rows for %d slices", len(rows), len(want))
			}
			for i, s := range want {
				r := rows[i]
				if len(r) != 7 {
					t.Fatalf("row %d has %d columns", i, len(r))
				}
				if !near(r[0], s.DistanceM, 3) || !near(r[1], s.InvertLevelM, 3) || !near(r[3], s.DepthMM, 1) || !near(r[4], s.FlowLS, 3) {
					t.Errorf("row %d %v, slice %+v", i, r, s)
				}
				if !near(r[2], s.InvertLevelM+s.DepthMM/1000, 3) {
					t.Errorf("row %d: water level %v, invert %v + depth %v mm", i, r[2], s.InvertLevelM, s.DepthMM)
				}
			}
			// The run collects 2 l/s along its length and lets it all out.
			if first, last := rows[0], rows[len(rows)-1]; first[0] != 0 || !near(last[0], 20, 3) || !near(last[4], 2, 3) {
				t.Errorf("first row %v, last row %v", first, last)
			}
		})
	}
}

// The velocity is Q/A of the 100 mm rectangle and the Froude number
// v/√(g·y); at the outlet the velocity is the engine's outlet velocity and,
// the outfall being free, the flow passes critical depth (Froude 1).
func TestProfileVelocityAndFroudeOfARectangle(t *testing.T) {
	t.Parallel()
	res := calculate(t, exampleRun, nil)
	rows, err := profilecsv.Rows(res)
	if err != nil {
		t.Fatal(err)
	}
	want := slices(res)
	if len(rows) != len(want) {
		t.Fatalf("%d rows for %d slices", len(rows), len(want))
	}
	for i, s := range want {
		y := s.DepthMM / 1000
		v := s.FlowLS / 1000 / (0.1 * y)
		fr := v / math.Sqrt(hydraulics.Gravity*y)
		if math.Abs(rows[i].VelocityMS-v) > 1e-12 || math.Abs(rows[i].Froude-fr) > 1e-12 {
			t.Errorf("slice %d (%v m): v %v Fr %v, want %v and %v", i, s.DistanceM, rows[i].VelocityMS, rows[i].Froude, v, fr)
		}
	}
	out := rows[len(rows)-1]
	if math.Abs(out.VelocityMS-res.FlowVelocity) > 1e-9 {
		t.Errorf("outlet velocity %v, the engine's %v", out.VelocityMS, res.FlowVelocity)
	}
	yc := math.Cbrt(0.002 * 0.002 / (hydraulics.Gravity * 0.1 * 0.1))
	if math.Abs(out.DepthMM-1000*yc) > 0.1 || math.Abs(out.Froude-1) > 0.01 {
		t.Errorf("outlet depth %v mm (critical %v), Froude %v", out.DepthMM, 1000*yc, out.Froude)
	}
	if rows[0].VelocityMS != 0 || rows[0].Froude != 0 || rows[0].FlowLS != 0 {
		t.Errorf("the head has no flow yet: %+v", rows[0])
	}

	// The file carries the same numbers, rounded.
	loc := locale(t, "de")
	file, err := profilecsv.Profile(res, loc)
	if err != nil {
		t.Fatal(err)
	}
	_, parsed := parse(t, file, loc)
	last := parsed[len(parsed)-1]
	if !near(last[5], out.VelocityMS, 3) || !near(last[6], out.Froude, 3) {
		t.Errorf("outlet row %v, want v %v Fr %v", last, out.VelocityMS, out.Froude)
	}
}

// A stepped run of U channels: one row per slice over every segment (two
// at each step), the velocity from the U's own area, and the Froude number
// agreeing with the engine's super-critical flag.
func TestProfileSteppedUChannels(t *testing.T) {
	t.Parallel()
	res := calculate(t, steppedRun, nil)
	if len(res.Segments) < 2 {
		t.Fatalf("%d segments", len(res.Segments))
	}
	rows, err := profilecsv.Rows(res)
	if err != nil {
		t.Fatal(err)
	}
	want := slices(res)
	if len(rows) != len(want) {
		t.Fatalf("%d rows for %d slices", len(rows), len(want))
	}
	i := 0
	for _, seg := range res.Segments {
		u, ok := seg.Shape.(interface{ Area(float64) float64 })
		if !ok {
			t.Fatalf("segment %s has shape %T", seg.Description, seg.Shape)
		}
		for _, s := range seg.Slices {
			y := s.DepthMM / 1000
			if v := s.FlowLS / 1000 / u.Area(y); y > 0 && math.Abs(rows[i].VelocityMS-v) > 1e-12 {
				t.Errorf("slice %d: v %v, want %v", i, rows[i].VelocityMS, v)
			}
			i++
		}
	}
	checkFroudeFlag(t, want, rows)
}

// A steep concrete run goes super-critical; the slices the engine marks
// super-critical have a Froude number above 1, the others below.
func TestProfileFroudeMatchesSupercriticalFlag(t *testing.T) {
	t.Parallel()
	res := calculate(t, exampleRun, map[string]any{"ground_slope": 3})
	if !res.WentSuperCritical {
		t.Fatal("a 3 % concrete run should go super-critical")
	}
	rows, err := profilecsv.Rows(res)
	if err != nil {
		t.Fatal(err)
	}
	want := slices(res)
	supers := 0
	for _, s := range want {
		if s.Supercritical {
			supers++
		}
	}
	if supers == 0 {
		t.Fatal("no slice marked super-critical")
	}
	checkFroudeFlag(t, want, rows)
}

func checkFroudeFlag(t *testing.T, want []hydraulics.Slice, rows []profilecsv.Row) {
	t.Helper()
	// At a control section the flow is critical and either flag is right.
	const tol = 0.02
	for i, s := range want {
		if s.FlowLS == 0 {
			continue
		}
		if fr := rows[i].Froude; (s.Supercritical && fr < 1-tol) || (!s.Supercritical && fr > 1+tol) {
			t.Errorf("slice %d at %v m: Froude %v, super-critical %v", i, s.DistanceM, fr, s.Supercritical)
		}
	}
}

// German opens with ';' between columns and ',' in numbers, English with
// ',' and '.'; every product language has one of the two.
func TestProfileSeparators(t *testing.T) {
	t.Parallel()
	res := calculate(t, exampleRun, nil)
	cases := []struct {
		lang            string
		sep, dec, other string
	}{
		{"en", ",", ".", ";"},
		{"de", ";", ",", "."},
	}
	for _, c := range cases {
		file, err := profilecsv.Profile(res, locale(t, c.lang))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(file), "\r\n"), "\r\n")
		if len(lines) != len(slices(res))+1 {
			t.Fatalf("%s: %d lines", c.lang, len(lines))
		}
		for i, line := range lines[1:] {
			fields := strings.Split(line, c.sep)
			if len(fields) != 7 || strings.Contains(line, c.other) || strings.Count(line, c.dec) != 7 {
				t.Fatalf("%s line %d: %q", c.lang, i+1, line)
			}
		}
		if strings.Count(lines[0], c.sep) != 6 {
			t.Errorf("%s header %q", c.lang, lines[0])
		}
	}
	for _, lang := range account.Languages() {
		loc, err := profilecsv.LocaleFor(lang)
		if err != nil {
			t.Errorf("%s: %v", lang, err)
			continue
		}
		want := profilecsv.Locale{Decimal: ',', Separator: ';'}
		if lang == "en" {
			want = profilecsv.Locale{Decimal: '.', Separator: ','}
		}
		if loc != want {
			t.Errorf("%s: %+v, want %+v", lang, loc, want)
		}
	}
	for _, lang := range []string{"", "xx", "es"} {
		if _, err := profilecsv.LocaleFor(lang); err == nil {
			t.Errorf("language %q has a locale", lang)
		}
	}
}

// Translated headers are written as given, quoted where they hold the
// column separator, and read back intact.
func TestProfileTranslatedColumns(t *testing.T) {
	t.Parallel()
	res := calculate(t, exampleRun, nil)
	loc := locale(t, "bg")
	loc.Columns = profilecsv.Columns{
		Distance: "Разстояние (m)", InvertLevel: "Кота дъно (m)", WaterLevel: "Кота вода (m)",
		Depth: "Дълбочина (mm)", Flow: "Дебит (l/s)", Velocity: "Скорост; средна (m/s)", Froude: "Число на Фруд",
	}
	file, err := profilecsv.Profile(res, loc)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(file, []byte(`"Скорост; средна (m/s)"`)) {
		t.Errorf("the label holding ';' is not quoted: %q", file[:200])
	}
	header, rows := parse(t, file, loc)
	if header[0] != loc.Columns.Distance || header[5] != loc.Columns.Velocity || header[6] != loc.Columns.Froude {
		t.Errorf("header %q", header)
	}
	if len(rows) != len(slices(res)) {
		t.Errorf("%d rows", len(rows))
	}
}

// What has no profile, or cannot be written unambiguously, is refused.
func TestProfileRefuses(t *testing.T) {
	t.Parallel()
	res := calculate(t, exampleRun, nil)

	// A run read back from JSON has lost the cross-sections.
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var stored design.Results
	if err := json.Unmarshal(raw, &stored); err != nil {
		t.Fatal(err)
	}
	notCalculated := *res
	notCalculated.Calculated = false

	en := locale(t, "en")
	cases := []struct {
		name string
		res  *design.Results
		loc  profilecsv.Locale
		want string
	}{
		{"nil results", nil, en, "not calculated"},
		{"not calculated", &notCalculated, en, "not calculated"},
		{"point product", calculate(t, gullyRun, nil), en, "point product"},
		{"no sections", &stored, en, "no cross-section"},
		{"same separators", res, profilecsv.Locale{Decimal: ',', Separator: ','}, "split the numbers"},
		{"quote separator", res, profilecsv.Locale{Decimal: '.', Separator: '"'}, "invalid column separator"},
		{"no separator", res, profilecsv.Locale{Decimal: '.'}, "invalid column separator"},
		{"odd decimal", res, profilecsv.Locale{Decimal: '·', Separator: ';'}, "decimal separator"},
		{"missing label", res, profilecsv.Locale{Decimal: '.', Separator: ',', Columns: profilecsv.Columns{Distance: "d"}}, "header label"},
	}
	for _, c := range cases {
		file, err := profilecsv.Profile(c.res, c.loc)
		if err == nil || !strings.Contains(err.Error(), c.want) || file != nil {
			t.Errorf("%s: %v (%d bytes), want an error with %q", c.name, err, len(file), c.want)
		}
	}
}
