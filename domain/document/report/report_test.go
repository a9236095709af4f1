package report

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"draindesign/domain/document/pdf/pdftest"
)

func TestParseKind(t *testing.T) {
	tests := []struct {
		path string
		want Kind
		ok   bool
	}{
		{"introduction", Kind{Name: "introduction"}, true},
		{"materials/", Kind{Name: "materials"}, true},
		{"information", Kind{Name: "information"}, true},
		{"all", Kind{Name: "all"}, true},
		{"hydraulics/2", Kind{Name: "hydraulics", Run: 2}, true},
		{"hydraulics/2/", Kind{Name: "hydraulics", Run: 2}, true},
		{"hydraulics", Kind{}, false},
		{"hydraulics/0", Kind{}, false},
		{"hydraulics/-1", Kind{}, false},
		{"hydraulics/02", Kind{}, false},
		{"hydraulics/x", Kind{}, false},
		{"hydraulics/1/2", Kind{}, false},
		{"summary", Kind{}, false},
		{"", Kind{}, false},
	}
	for _, tt := range tests {
		got, err := ParseKind(tt.path)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseKind(%q) = %+v, %v; want %+v, ok %v", tt.path, got, err, tt.want, tt.ok)
		}
	}
}

func TestPDFRefusesBadInput(t *testing.T) {
	p := sampleProject("en", calculated(t, "Yard", concreteBody))
	if _, err := PDF(p, Kind{Name: "hydraulics", Run: 2}, translator(t, "en")); !errors.Is(err, ErrNoRun) {
		t.Errorf("run 2 of 1: err = %v, want ErrNoRun", err)
	}
	if _, err := PDF(p, Kind{Name: "summary"}, translator(t, "en")); err == nil {
		t.Error("unknown kind made a document")
	}
	p.Runs[0].Results = nil
	if _, err := PDF(p, Kind{Name: "introduction"}, translator(t, "en")); err == nil {
		t.Error("a run without results made a document")
	}
}

// words are texts of each language that must appear in its documents.
var words = map[string]map[string][]string{
	"en": {"introduction": {"Introduction", "Design method", "Disclaimer"}, "hydraulics": {"Hydraulic design", "Freeboard", "Channel invert", "Generic drawing"}, "materials": {"Materials", "Project total", "Article no."}, "information": {"Installation notes", "References", "Chow"}, "all": {"Contents", "Introduction", "Project total"}},
	"de": {"introduction": {"Einführung", "Bemessungsverfahren", "Haftungsausschluss"}, "hydraulics": {"Hydraulische Bemessung", "Freibord", "Rinnensohle"}, "materials": {"Material", "Projektsumme"}, "information": {"Einbauhinweise", "Literatur"}, "all": {"Inhalt", "Einführung", "Projektsumme"}},
	"bg": {"introduction": {"Въведение", "Метод на оразмеряване"}, "hydraulics": {"Хидравлично оразмеряване"}, "materials": {"Материали", "Общо за проекта"}, "information": {"Указания за монтаж", "Литература"}, "all": {"Съдържание", "Въведение"}},
	"pl": {"introduction": {"Wprowadzenie", "Zastrzeżenie"}, "hydraulics": {"Wymiarowanie hydrauliczne"}, "materials": {"Materiały", "Suma dla projektu"}, "information": {"Wskazówki montażowe", "Literatura"}, "all": {"Spis treści", "Wprowadzenie"}},
}

func TestDocuments(t *testing.T) {
	pdftest.Require(t)
	runs := []Run{calculated(t, "Loading bay", concreteBody), calculated(t, "Car park", polymerBody)}
	kinds := []struct {
		kind      Kind
		runs      []int // the runs whose name, system and figures the document shows
		figures   bool  // discharge and freeboard printed
		minPages  int
		wordsFrom string
	}{
		{Kind{Name: "introduction"}, []int{0, 1}, true, 1, "introduction"},
		{Kind{Name: "hydraulics", Run: 1}, []int{0}, true, 1, "hydraulics"},
		{Kind{Name: "hydraulics", Run: 2}, []int{1}, true, 1, "hydraulics"},
		{Kind{Name: "materials"}, []int{0, 1}, false, 1, "materials"},
		{Kind{Name: "information"}, []int{0, 1}, false, 1, "information"},
		{Kind{Name: "all"}, []int{0, 1}, true, 6, "all"},
	}
	for lang, langWords := range words {
		p := sampleProject(lang, runs...)
		tr := translator(t, lang)
		for _, k := range kinds {
			t.Run(fmt.Sprintf("%s/%s%d", lang, k.kind.Name, k.kind.Run), func(t *testing.T) {
				out, err := PDF(p, k.kind, tr)
				if err != nil {
					t.Fatal(err)
				}
				path := pdftest.Write(t, out)
				info := pdftest.ReadInfo(t, path)
				if info.Pages < k.minPages || math.Round(info.Width) != 595 || math.Round(info.Height) != 842 {
					t.Fatalf("info = %+v, want A4 with at least %d pages", info, k.minPages)
				}
				text := allText(t, path, info.Pages)
				want := []string{p.Details.Name}
				want = append(want, langWords[k.wordsFrom]...)
				if k.kind.Name == "hydraulics" && lang == "de" {
					want = append(want, "Rinnenoberkante")
				}
				for _, i := range k.runs {
					r := runs[i]
					w := &writer{p: p, t: tr, num: numbers{comma: lang != "en"}}
					want = append(want, r.Name, w.systemName(r.Results))
					switch {
					case k.kind.Name == "introduction":
						// The overview prints the figures under unit headings.
						want = append(want, decimal(lang, r.Results.Flow, 2)+" "+decimal(lang, r.Results.MaxDepthMM, 0)+" "+decimal(lang, r.Results.Freeboard, 0))
					case k.figures:
						want = append(want, decimal(lang, r.Results.ChannelDischarge, 2)+" l/s", decimal(lang, r.Results.Freeboard, 0)+" mm")
					}
				}
				if k.kind.Name == "hydraulics" {
					r := runs[k.runs[0]].Results
					want = append(want, fmt.Sprintf("%s mm (%s %%)", decimal(lang, r.Freeboard, 0), decimal(lang, r.FreeboardPercent, 1)))
				}
				for _, s := range want {
					if !strings.Contains(text, pdftest.Fold(s)) {
						t.Errorf("%q missing from the %s document:\n%s", s, lang, text)
					}
				}
				if strings.Contains(text, "documents.pdf.") {
					t.Errorf("untranslated key in the document:\n%s", text)
				}
			})
		}
	}
}

// allText is the text of every page.
func allText(t *testing.T, path string, pages int) string {
	t.Helper()
	var b strings.Builder
	for i := 1; i <= pages; i++ {
		b.WriteString(pdftest.PageText(t, path, i))
		b.WriteString(" ")
	}
	return b.String()
}

func TestFloodingWarning(t *testing.T) {
	pdftest.Require(t)
	run := calculated(t, "Cloudburst", floodingBody)
	if !run.Results.Overflowed {
		t.Fatalf("the flooding example did not flood (freeboard %v mm)", run.Results.Freeboard)
	}
	dry := calculated(t, "Loading bay", concreteBody)
	for _, lang := range []string{"en", "de", "bg", "pl"} {
		t.Run(lang, func(t *testing.T) {
			tr := translator(t, lang)
			want := pdftest.Fold(strings.SplitN(tr("documents.pdf.warning.flooding", nil), ":", 2)[0])
			p := sampleProject(lang, dry, run)
			for _, k := range []Kind{{Name: "hydraulics", Run: 2}, {Name: "all"}} {
				out, err := PDF(p, k, tr)
				if err != nil {
					t.Fatal(err)
				}
				path := pdftest.Write(t, out)
				text := allText(t, path, pdftest.ReadInfo(t, path).Pages)
				if !strings.Contains(text, want+":") {
					t.Errorf("%s: flooding warning %q missing:\n%s", k.Name, want, text)
				}
			}
			// The dry run's own document carries no flooding warning.
			out, err := PDF(p, Kind{Name: "hydraulics", Run: 1}, tr)
			if err != nil {
				t.Fatal(err)
			}
			if text := pdftest.PageText(t, pdftest.Write(t, out), 1); strings.Contains(text, want+":") {
				t.Errorf("the dry run carries a flooding warning:\n%s", text)
			}
		})
	}
}

// TestGoldenPages compares page 1 of each kind with a committed image.
// UPDATE_GOLDEN=1 go test ./domain/document/report/ -run Golden rewrites
// them; look at them before committing.
func TestGoldenPages(t *testing.T) {
	pdftest.Require(t)
	runs := []Run{calculated(t, "Loading bay", concreteBody), calculated(t, "Car park", polymerBody)}
	p := sampleProject("en", runs...)
	for _, k := range []Kind{{Name: "introduction"}, {Name: "hydraulics", Run: 1}, {Name: "materials"}, {Name: "information"}, {Name: "all"}} {
		name := k.Name
		if k.Run > 0 {
			name = fmt.Sprintf("%s%d", k.Name, k.Run)
		}
		t.Run(name, func(t *testing.T) {
			out, err := PDF(p, k, translator(t, "en"))
			if err != nil {
				t.Fatal(err)
			}
			pdftest.Golden(t, pdftest.Write(t, out), 1, filepath.Join("testdata", name+".png"), 0.002)
		})
	}
}

func TestSameInputSameBytes(t *testing.T) {
	p := sampleProject("de", calculated(t, "Loading bay", concreteBody))
	a, err := PDF(p, Kind{Name: "all"}, translator(t, "de"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := PDF(p, Kind{Name: "all"}, translator(t, "de"))
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Error("two documents of the same project differ")
	}
}

// TestAllOfManyRuns: the contents page lists only the sections, so a
// project of many runs still fits it.
func TestAllOfManyRuns(t *testing.T) {
	run := calculated(t, "Bay", concreteBody)
	runs := make([]Run, 30)
	for i := range runs {
		runs[i] = run
		runs[i].Name = fmt.Sprintf("Bay %d", i+1)
	}
	if _, err := PDF(sampleProject("en", runs...), Kind{Name: All}, translator(t, "en")); err != nil {
		t.Fatalf("all of 30 runs: %v", err)
	}
}

// TestEmptyProject: a project without runs still has its introduction,
// materials, information and "all" documents; only hydraulics is refused.
func TestEmptyProject(t *testing.T) {
	p := sampleProject("fr")
	for _, k := range []string{Introduction, Materials, Information, All} {
		if out, err := PDF(p, Kind{Name: k}, translator(t, "fr")); err != nil || len(out) == 0 {
			t.Errorf("%s of an empty project: %d bytes, %v", k, len(out), err)
		}
	}
	if _, err := PDF(p, Kind{Name: Hydraulics, Run: 1}, translator(t, "fr")); !errors.Is(err, ErrNoRun) {
		t.Errorf("hydraulics of an empty project: %v, want ErrNoRun", err)
	}
}
