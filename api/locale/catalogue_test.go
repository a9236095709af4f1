package locale

import (
	"encoding/json"
	"strings"
	"testing"

	"draindesign/domain/catalogue"
	"draindesign/domain/translation"
	"draindesign/web"
)

func raw(t *testing.T, code string) map[string]string {
	t.Helper()
	b, err := web.Locales.ReadFile("locales/" + code + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestEveryCatalogueTextHasItsKeys: every system name, grating and article
// description of the catalogue has its key in all eleven languages, the
// English one is the data's text, and the line additions are there too.
func TestEveryCatalogueTextHasItsKeys(t *testing.T) {
	t.Parallel()
	texts := catalogue.Default().Texts()
	if len(texts) < 150 {
		t.Fatalf("only %d catalogue texts", len(texts))
	}
	extra := []string{catalogue.KeyCutTo, catalogue.KeyGratingSize, "runs.defaultName"}
	for _, p := range catalogue.DrillPositions {
		extra = append(extra, catalogue.KeyModified+"."+p)
	}
	en := raw(t, "en")
	for _, code := range Codes {
		m := raw(t, code)
		for key, english := range texts {
			v, ok := m[key]
			switch {
			case !ok || strings.TrimSpace(v) == "":
				t.Errorf("%s: no %s (%q)", code, key, english)
			case code == "en" && v != english:
				t.Errorf("en: %s is %q, the catalogue says %q", key, v, english)
			}
		}
		for _, key := range extra {
			if m[key] == "" || m[key] == key {
				t.Errorf("%s: no %s", code, key)
			}
		}
		// Nothing left over of an item the catalogue dropped.
		for key := range m {
			if strings.HasPrefix(key, "catalogue.") && texts[key] == "" && !strings.HasPrefix(key, "catalogue.line.") {
				t.Errorf("%s: %s is no catalogue item", code, key)
			}
		}
	}
	// Descriptive texts differ from the English somewhere, so none was
	// left untranslated by mistake; names kept as they are (Polymer 100)
	// are the exception the list names.
	kept := map[string]bool{catalogue.SystemKey("poly-100"): true}
	for key, english := range en {
		if !strings.HasPrefix(key, "catalogue.") || kept[key] {
			continue
		}
		for _, code := range []string{"de", "fr"} {
			if raw(t, code)[key] == english {
				t.Errorf("%s: %s is still the English %q", code, key, english)
			}
		}
	}
}

// TestDescribeInEveryLanguage: material lines written through the locale
// read in English exactly as the catalogue describes them, and in German
// and French with the language's words around the same article numbers,
// designations and sizes.
func TestDescribeInEveryLanguage(t *testing.T) {
	t.Parallel()
	c := catalogue.Default()
	layout := func(parts []catalogue.RunPart, runM float64, loading string) []catalogue.Element {
		els, err := c.Layout(parts, runM, loading)
		if err != nil {
			t.Fatal(err)
		}
		return els
	}
	deep := layout([]catalogue.RunPart{{Slug: "poly-100-10-0", Count: 4}}, 3.5, "C")
	reqs := []catalogue.MaterialRequest{
		{System: "poly-100", Loading: "C", Grating: "poly-100-slot-iron", Elements: deep, Discharge: catalogue.OutflowInTrashBox,
			Accessories: []catalogue.PlacedAccessory{{Type: catalogue.AccessoryAccessBox, DistanceM: 1}, {Type: catalogue.AccessoryConnectionPlate, DistanceM: 2}}},
		{System: "poly-100", Loading: "B", Grating: "poly-100-mesh-galv", Elements: deep, Discharge: catalogue.ModificationLastElement},
		{System: "poly-100", Loading: "B", Grating: "poly-100-mesh-galv", Elements: deep, Discharge: catalogue.ModificationLastElement,
			Drilling: &catalogue.Drilling{Position: catalogue.DrillLeftWall, HoleDiameterMM: 75, HoleDistanceMM: 200}},
		{System: "poly-100", Loading: "B", Grating: "poly-100-mesh-galv", Elements: deep, Discharge: catalogue.ModificationLastElement,
			Drilling: &catalogue.Drilling{Position: catalogue.DrillRightWall, HoleDiameterMM: 110, HoleDistanceMM: 250}},
		{System: "poly-100", Loading: "C", Grating: "poly-100-slot-iron", Elements: deep, Discharge: catalogue.EndCapWithOutletSetting, EndCapID: "10603"},
	}
	var lines []catalogue.MaterialLine
	for _, req := range reqs {
		m, err := c.Materials(req)
		if err != nil {
			t.Fatal(err)
		}
		for _, list := range [][]catalogue.MaterialLine{m.Channel, m.Connectors, m.Endcaps, m.AccessCover, m.Box} {
			lines = append(lines, list...)
		}
	}
	concrete, err := c.Materials(catalogue.MaterialRequest{System: catalogue.ConcreteSlug, Accessories: []catalogue.PlacedAccessory{{Type: catalogue.AccessoryConcreteChamber}}})
	if err != nil {
		t.Fatal(err)
	}
	gully, err := c.PointMaterials("gully-450", 160, true)
	if err != nil {
		t.Fatal(err)
	}
	lines = append(append(lines, concrete.Box...), gully.Channel...)

	tr := func(code string) catalogue.Translate {
		return func(key string, data map[string]any) string { return T(code, key, data) }
	}
	seen := map[string]bool{}
	for _, l := range lines {
		if l.Text == (catalogue.LineText{}) {
			t.Errorf("%s %q carries no text", l.HAN, l.Description)
			continue
		}
		if got := l.Describe(tr("en")); got != l.Description {
			t.Errorf("en: %q, the catalogue says %q", got, l.Description)
		}
		for _, code := range []string{"de", "fr"} {
			got := l.Describe(tr(code))
			// A whole channel element is its designation alone, in every language.
			designation := l.Text == catalogue.LineText{Designation: l.Description}
			if got == l.Description && !designation {
				t.Errorf("%s: %q is not translated", code, got)
			}
			seen[code+" "+got] = true
		}
	}
	for _, want := range []string{
		"de Polymer 100 Type 10.0, gekürzt auf 500 mm, bearbeitet: Ablaufbohrung DN 75 in der linken Seitenwand, Mitte 200 mm vom Ende",
		"de Maschenrost, Stahl verzinkt, 100 mm breit, 1000 mm lang",
		"de Stirnwand Polymer 100 mit Ablauf DN 110",
		"fr Polymer 100 Type 10.0, coupé à 500 mm, modifié : trou de sortie DN 50 dans le fond, centre à 150 mm de l'extrémité",
		"fr Obturateur Polymer 100 avec sortie DN 110",
		"fr Avaloir de chaussée 450, sortie DN 160, avec grille et seau à boues",
	} {
		if !seen[want] {
			t.Errorf("no line reads %q", want)
		}
	}
}

// TestShippedTextsPassTheEditorsChecks: every text the release ships would
// be accepted by the translators' editor (placeholders as in English,
// plural forms the language has), so the checks refuse only new mistakes.
func TestShippedTextsPassTheEditorsChecks(t *testing.T) {
	t.Parallel()
	en := Shipped(Fallback)
	for _, code := range Codes {
		for key, text := range Shipped(code) {
			english := en[key]
			if base, _, plural := translation.PluralForm(key); plural && english == "" {
				english = en[base+"_other"]
			}
			err := translation.Validate(translation.Check{Language: code, Kind: translation.KindMessage, Key: key, Text: text, English: english, Known: Known(key)})
			if err != nil {
				t.Errorf("%s %s: %v", code, key, err)
			}
		}
	}
}
