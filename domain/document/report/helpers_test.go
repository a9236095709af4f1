package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"draindesign/domain/catalogue"
	"draindesign/domain/design"
	"draindesign/domain/project"
)

// The 20 m concrete example of the design issue, and a polymer run.
const (
	concreteBody = `{"advanced": true, "calculation_method": "GVF", "channel_group": "concrete",
		"concreteChannel": {"width": 100, "depth": 300, "roughness": 0.011}, "channel_length_m": 20,
		"drainage_area_m2": 144, "catchmentShape": "uniform", "permeability": 1,
		"rainfall": {"rainfall_mm_per_hr": 50}, "slopeSetting": "slope", "ground_slope": 0,
		"dischargeSetting": "free-outflow"}`
	polymerBody = `{"advanced": false, "channel_group": "poly-100", "selectedSystem": {"slug": "poly-100"},
		"loading": "C250", "grating": "poly-100-slot-iron", "channel_length_m": 30, "drainage_area_m2": 300,
		"catchmentShape": "uniform", "permeability": 1, "rainfall": {"rainfall_mm_per_hr": 50},
		"slopeSetting": "slope", "ground_slope": 0, "dischargeSetting": "free-outflow"}`
	// floodingBody is the concrete channel under a cloudburst: it floods.
	floodingBody = `{"advanced": true, "calculation_method": "GVF", "channel_group": "concrete",
		"concreteChannel": {"width": 100, "depth": 150, "roughness": 0.011}, "channel_length_m": 20,
		"drainage_area_m2": 400, "catchmentShape": "uniform", "permeability": 1,
		"rainfall": {"rainfall_mm_per_hr": 5000}, "slopeSetting": "slope", "ground_slope": 0,
		"dischargeSetting": "free-outflow"}`
)

// calculated decodes and calculates a run as the server does.
func calculated(t testing.TB, name, body string) Run {
	t.Helper()
	req, err := design.DecodeRequest([]byte(body))
	if err != nil {
		t.Fatalf("decode %s: %v", name, err)
	}
	a, err := design.Calculate(catalogue.Default(), req)
	if err != nil {
		t.Fatalf("calculate %s: %v", name, err)
	}
	return Run{Name: name, Request: req, Results: a.Results, Notes: "Checked on site by " + name + "."}
}

// sampleProject is a project with the given runs, in language lang.
func sampleProject(lang string, runs ...Run) Project {
	return Project{
		Details: project.Details{
			Name: "Harbour Yard Łódź", Location: "Quay Street 4", Reference: "HY-2026-07", Date: "2026-11-24",
			Company: "Aqua Consult", Designer: "Jana Novák", Telephone: "+44 20 7946 0000", Email: "jana@example.com",
		},
		RainfallUnits:   "mm/h",
		FreeboardMargin: project.Settings{}.FreeboardMargin(),
		Runs:            runs,
		Language:        lang,
		Software:        "draindesign 1.0.0",
		Created:         time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC),
	}
}

// catalogue reads a message catalogue of the web client.
func readCatalogue(t testing.TB, lang string) map[string]string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "web", "locales", lang+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("catalogue %s: %v", lang, err)
	}
	return m
}

var placeholder = regexp.MustCompile(`\{\{\s*\.?(\w+)\s*\}\}`)

// translator is the catalogue of lang with English as the fallback, and
// {{name}} (or {{.name}}) filled from data, as go-i18n does on the server.
func translator(t testing.TB, lang string) Translator {
	t.Helper()
	en, own := readCatalogue(t, "en"), readCatalogue(t, lang)
	return func(key string, data map[string]any) string {
		text, ok := own[key]
		if !ok {
			text, ok = en[key]
		}
		if !ok {
			t.Errorf("key %s is in no catalogue", key)
			return key
		}
		return placeholder.ReplaceAllStringFunc(text, func(m string) string {
			name := placeholder.FindStringSubmatch(m)[1]
			if v, ok := data[name]; ok {
				return fmt.Sprint(v)
			}
			return m
		})
	}
}

// decimal formats like the document of lang does.
func decimal(lang string, v float64, decimals int) string {
	s := fmt.Sprintf("%.*f", decimals, v)
	if lang != "en" {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}
