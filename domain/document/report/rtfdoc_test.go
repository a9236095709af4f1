package report

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"draindesign/domain/document/pdf"
	"draindesign/domain/document/pdf/pdftest"
	"draindesign/domain/document/rtf"
)

// rtfKinds are every document kind of the two-run project.
var rtfKinds = []Kind{{Name: Introduction}, {Name: Hydraulics, Run: 1}, {Name: Hydraulics, Run: 2}, {Name: Materials}, {Name: Information}, {Name: All}}

// TestRTFWellFormed: every kind in en, de, bg and pl is an RTF file whose
// groups close, in 7-bit ASCII, with the drawings as pictures where the
// PDF has them, and the same input gives the same bytes.
func TestRTFWellFormed(t *testing.T) {
	runs := []Run{calculated(t, "Loading bay", concreteBody), calculated(t, "Car park", polymerBody)}
	for _, lang := range []string{"en", "de", "bg", "pl"} {
		p := sampleProject(lang, runs...)
		tr := translator(t, lang)
		for _, k := range rtfKinds {
			t.Run(fmt.Sprintf("%s/%s%d", lang, k.Name, k.Run), func(t *testing.T) {
				out, err := RTF(p, k, tr)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.HasPrefix(out, []byte(`{\rtf1`)) {
					t.Fatalf("does not start with {\\rtf1: %.40q", out)
				}
				if err := groupsBalance(out); err != nil {
					t.Fatal(err)
				}
				for i, b := range out {
					if b > 0x7e || (b < 0x20 && b != '\n') {
						t.Fatalf("byte %#x at %d is not printable ASCII", b, i)
					}
				}
				// Each channel run's hydraulics carries its profile, its
				// cross-section and its catchment plan as pictures; both
				// runs are channels.
				pictures := map[string]int{Hydraulics: 3, All: 6}[k.Name]
				if got := bytes.Count(out, []byte(`{\pict\pngblip`)); got != pictures {
					t.Errorf("%d pictures, want %d", got, pictures)
				}
				again, err := RTF(p, k, tr)
				if err != nil || !bytes.Equal(out, again) {
					t.Errorf("the same project gave different RTF (%v)", err)
				}
			})
		}
	}
}

// groupsBalance checks that every "{" is closed by a "}" and none closes
// more than was opened, skipping escaped braces and backslashes; the
// document is one group.
func groupsBalance(doc []byte) error {
	depth := 0
	for i := 0; i < len(doc); i++ {
		switch doc[i] {
		case '\\':
			i++ // \{ \} \\ are text; a control word's first letter is no brace
		case '{':
			depth++
		case '}':
			depth--
			if depth < 0 {
				return fmt.Errorf("a } at byte %d closes no group", i)
			}
			if depth == 0 && i != len(bytes.TrimRight(doc, "\n"))-1 {
				return fmt.Errorf("the document's group closes at byte %d of %d", i, len(doc))
			}
		}
	}
	if depth != 0 {
		return fmt.Errorf("%d groups left open", depth)
	}
	return nil
}

func TestGroupsBalance(t *testing.T) {
	for _, tt := range []struct {
		doc string
		ok  bool
	}{
		{`{\rtf1 a\{b\}c\\}`, true},
		{`{\rtf1 {\b x}}` + "\n", true},
		{`{\rtf1 {\b x}`, false},
		{`{\rtf1 x}}`, false},
		{`{\rtf1 x}{y}`, false},
		{`{\rtf1 x\\}`, true},
		{`{\rtf1 x\}`, false},
	} {
		if err := groupsBalance([]byte(tt.doc)); (err == nil) != tt.ok {
			t.Errorf("groupsBalance(%q) = %v, want ok %v", tt.doc, err, tt.ok)
		}
	}
}

func TestRTFRefusesBadInput(t *testing.T) {
	p := sampleProject("en", calculated(t, "Yard", concreteBody))
	if _, err := RTF(p, Kind{Name: Hydraulics, Run: 2}, translator(t, "en")); !errors.Is(err, ErrNoRun) {
		t.Errorf("run 2 of 1: err = %v, want ErrNoRun", err)
	}
	if _, err := RTF(p, Kind{Name: "summary"}, translator(t, "en")); err == nil {
		t.Error("unknown kind made a document")
	}
	p.Runs[0].Results = nil
	if _, err := RTF(p, Kind{Name: Introduction}, translator(t, "en")); err == nil {
		t.Error("a run without results made a document")
	}
}

// TestRTFInLibreOffice opens RTF documents in LibreOffice, as the advanced
// user editing them would, converts them to PDF and reads their text: the
// project, each run's name, system, discharge and freeboard as the PDF
// prints them, the language's words, the title block and the page footer,
// and the drawings' pictures. One conversion of several files keeps LibreOffice's start-up to once.
func TestRTFInLibreOffice(t *testing.T) {
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("soffice (LibreOffice) is required under CI: run web/scripts/install-libreoffice.sh")
		}
		t.Skip("soffice (LibreOffice) not installed; web/scripts/install-libreoffice.sh installs it")
	}
	pdftest.Require(t)
	runs := []Run{calculated(t, "Loading bay", concreteBody), calculated(t, "Car park", polymerBody)}
	type doc struct {
		lang string
		kind Kind
	}
	docs := []doc{{"en", Kind{Name: All}}, {"de", Kind{Name: Hydraulics, Run: 1}}, {"bg", Kind{Name: All}}, {"pl", Kind{Name: Introduction}}}
	dir := t.TempDir()
	args := []string{"-env:UserInstallation=file://" + filepath.Join(dir, "profile"), "--headless", "--convert-to", "pdf", "--outdir", dir}
	for i, d := range docs {
		out, err := RTF(sampleProject(d.lang, runs...), d.kind, translator(t, d.lang))
		if err != nil {
			t.Fatal(err)
		}
		source := filepath.Join(dir, fmt.Sprintf("doc%d.rtf", i))
		if err := os.WriteFile(source, out, 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, source)
	}
	// The deadline only stops a hung converter.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if output, err := exec.CommandContext(ctx, soffice, args...).CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, output)
	}

	for i, d := range docs {
		t.Run(fmt.Sprintf("%s/%s%d", d.lang, d.kind.Name, d.kind.Run), func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("doc%d.pdf", i))
			if info, err := os.Stat(path); err != nil || info.Size() == 0 {
				t.Fatalf("no PDF from soffice: %v", err)
			}
			// Reading order, not layout: the word processor wraps narrow
			// table cells, which layout mode would interleave across cells.
			raw, err := exec.CommandContext(t.Context(), "pdftotext", path, "-").Output()
			if err != nil {
				t.Fatalf("pdftotext: %v", err)
			}
			text := squash(string(raw))
			p, tr := sampleProject(d.lang, runs...), translator(t, d.lang)
			w := newWriter(p, tr)
			want := []string{
				p.Details.Name, p.Details.Location, p.Details.Reference, p.Details.Designer, p.Details.Company, p.Software,
				tr("documents.pdf.software", nil),
				(tr("documents.pdf.page", map[string]any{"page": 1, "pages": pdftest.ReadInfo(t, path).Pages})),
			}
			for _, word := range words[d.lang][d.kind.Name] {
				if word != "Channel invert" && word != "Rinnensohle" && word != "Generic drawing" { // the drawings' legend is in their pictures
					want = append(want, word)
				}
			}
			shown := []int{0, 1}
			if d.kind.Name == Hydraulics {
				shown = []int{d.kind.Run - 1}
				want = append(want, tr("documents.results.crossSectionDisclaimer", nil))
			}
			for _, i := range shown {
				r := runs[i]
				want = append(want, r.Name, w.systemName(r.Results))
				if d.kind.Name == Introduction {
					// The overview's figures, in their own cells.
					want = append(want, decimal(d.lang, r.Results.Flow, 2), decimal(d.lang, r.Results.Freeboard, 0))
				} else {
					want = append(want, decimal(d.lang, r.Results.ChannelDischarge, 2)+" l/s",
						fmt.Sprintf("%s mm (%s %%)", decimal(d.lang, r.Results.Freeboard, 0), decimal(d.lang, r.Results.FreeboardPercent, 1)))
				}
			}
			for _, s := range want {
				if !strings.Contains(text, squash(s)) {
					t.Errorf("%q missing from the %s RTF document:\n%s", s, d.lang, text)
				}
			}
			if strings.Contains(text, "documents.") || strings.Contains(text, `\u`) {
				t.Errorf("a key or an RTF control word shows as text:\n%s", text)
			}
			// The drawings came through as pictures at their 200 dpi
			// pixel width, so at the text width: a picture LibreOffice
			// could not read would be missing or an empty frame.
			list, err := exec.CommandContext(t.Context(), "pdfimages", "-list", path).Output()
			if err != nil {
				t.Fatalf("pdfimages: %v", err)
			}
			pictures := 0
			for _, line := range strings.Split(string(list), "\n") {
				if f := strings.Fields(line); len(f) > 4 && f[2] == "image" && f[3] == "1339" {
					pictures++
				}
			}
			if want := map[string]int{Hydraulics: 3, All: 6}[d.kind.Name]; pictures != want { // profile, cross-section, catchment
				t.Errorf("%d pictures 1339 pixels wide in the PDF, want %d:\n%s", pictures, want, list)
			}
		})
	}
}

// squash drops all white space and hyphens: where a word processor breaks
// a line (or a word, in a narrow cell or after a hyphen, which pdftotext
// then drops) is its business, not the document's.
func squash(s string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(s), ""), "-", "")
}

// TestRTFFloodingWarning: the RTF of a run that floods carries the
// flooding warning as a warning paragraph (bold red), as the PDF does;
// the dry run's does not.
func TestRTFFloodingWarning(t *testing.T) {
	run := calculated(t, "Cloudburst", floodingBody)
	if !run.Results.Overflowed {
		t.Fatalf("the flooding example did not flood (freeboard %v mm)", run.Results.Freeboard)
	}
	tr := translator(t, "en")
	p := sampleProject("en", calculated(t, "Loading bay", concreteBody), run)
	from, to := floodReach(run.Results)
	warning := tr("documents.pdf.warning.flooding", map[string]any{"from": decimal("en", from, 1), "to": decimal("en", to, 1)})
	for _, tt := range []struct {
		kind Kind
		want bool
	}{
		{Kind{Name: Hydraulics, Run: 2}, true},
		{Kind{Name: All}, true},
		{Kind{Name: Hydraulics, Run: 1}, false},
	} {
		out, err := RTF(p, tt.kind, tr)
		if err != nil {
			t.Fatal(err)
		}
		// The writer's warning paragraph: bold, in the warning colour.
		if got := bytes.Contains(out, []byte(`\b\cf2 `+warning+`\par`)); got != tt.want {
			t.Errorf("%s%d: flooding warning %q present = %v, want %v", tt.kind.Name, tt.kind.Run, warning, got, tt.want)
		}
	}
}

// TestRTFTarget: the contents list names the sections that follow it,
// before them; the drawings are pictures, a figure's caption under its
// picture; and table columns share the width by the PDF's weights.
func TestRTFTarget(t *testing.T) {
	doc := rtf.New()
	r := newRTFTarget(doc)
	r.Heading("Before")
	r.Contents("Contents")
	r.Heading("Alpha")
	r.Subheading("Part")
	r.Chart(pdf.Chart{XLabel: "x", YLabel: "y", Series: []pdf.Series{{Name: "Line", Points: []pdf.Point{{X: 0, Y: 1}, {X: 1, Y: 2}}}}})
	r.Figure(pdf.Figure{Caption: "Generic drawing", Shapes: []pdf.Shape{{Points: []pdf.Point{{X: 0, Y: 0}, {X: 1, Y: 1}}}}})
	r.Heading("Beta")
	r.Table([]pdf.Column{{Title: "Narrow"}, {Title: "Wide", Width: 3}}, [][]string{{"a", "b"}})
	if err := r.finish(); err != nil {
		t.Fatal(err)
	}
	out := string(doc.Bytes())

	order := []string{"Before", "Contents", "Alpha", "Beta", `\page`, "Alpha", "Part", `\pngblip`, `\pngblip`, "Generic drawing", "Beta", "Narrow"}
	at := 0
	for _, s := range order {
		i := strings.Index(out[at:], s)
		if i < 0 {
			t.Fatalf("%q missing after byte %d in the order %q:\n%s", s, at, order, out)
		}
		at += i + len(s)
	}
	if strings.Count(out, "Before") != 1 {
		t.Errorf("a heading before the contents is listed in it:\n%s", out)
	}
	quarter := rtf.TextWidth / 4
	for _, edge := range []string{fmt.Sprintf(`\cellx%d`, quarter), fmt.Sprintf(`\cellx%d`, quarter+rtf.TextWidth*3/4)} {
		if !strings.Contains(out, edge) {
			t.Errorf("table lacks the cell edge %s (weights 1 and 3):\n%s", edge, out)
		}
	}
}

// TestRTFTargetEmptyDrawing: a drawing without points fails the RTF, as it
// fails the PDF, rather than leave a hole in the document.
func TestRTFTargetEmptyDrawing(t *testing.T) {
	for name, draw := range map[string]func(*rtfTarget){
		"chart":  func(r *rtfTarget) { r.Chart(pdf.Chart{XLabel: "x", YLabel: "y"}) },
		"figure": func(r *rtfTarget) { r.Figure(pdf.Figure{Caption: "empty"}) },
	} {
		r := newRTFTarget(rtf.New())
		r.Paragraph("Before")
		draw(r)
		if err := r.finish(); err == nil || !strings.Contains(err.Error(), "no points") {
			t.Errorf("%s without points: err = %v", name, err)
		}
	}
}
