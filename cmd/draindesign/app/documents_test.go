package app

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"draindesign/domain/account"
	"draindesign/domain/document/pdf/pdftest"
)

// download posts a document request and answers the status, the headers
// and the file.
func (u *user) download(path string, body any) (int, http.Header, []byte) {
	u.t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		u.t.Fatal(err)
	}
	req, err := http.NewRequest("POST", u.base+path, bytes.NewReader(b))
	if err != nil {
		u.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := u.http.Do(req)
	if err != nil {
		u.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, data
}

// The hydraulic profile as CSV: recalculated on the server, one row per
// slice of the calculation, with the separators of the language's
// spreadsheets and a file name that says what it is.
func TestProfileCSV(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.staff(t, "cleo", account.GroupStandard)
	run := patch(t, exampleCalc, map[string]any{"name": "Gate lane"})
	var calc calcAnswer
	// A standard user may not calculate an advanced design, but a document
	// of one is theirs to have; the concrete channel calculates the same
	// with the flag off.
	u.must(http.StatusOK, "POST", "/api/drainage/calculate/", patch(t, exampleCalc, map[string]any{"name": "Gate lane", "advanced": false}), &calc)
	var slices [][3]float64 // distance m, depth mm, flow l/s
	for _, seg := range calc.Results.Segments {
		for _, s := range seg.Slices {
			slices = append(slices, [3]float64{s.DistanceM, s.DepthMM, s.FlowLS})
		}
	}
	// The client's results are ignored: a forged one changes nothing.
	run["results"] = map[string]any{"calculated": true, "channel_discharge": 99}
	body := map[string]any{"details": map[string]any{"name": "Depot yard", "rainfall_units": "mm/h"}, "runs": []any{run}}

	for _, tc := range []struct {
		lang         string
		comma, point rune
		wantName     string
	}{
		{"en", ',', '.', "Depot-yard-Gate-lane-profile-en.csv"},
		{"de", ';', ',', "Depot-yard-Gate-lane-profile-de.csv"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			status, h, data := u.download("/api/drainage/document/csv/"+tc.lang+"/hydraulics/1/", body)
			if status != http.StatusOK {
				t.Fatalf("status %d: %s", status, data)
			}
			if ct := h.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
				t.Errorf("content type %q", ct)
			}
			if _, params, err := mime.ParseMediaType(h.Get("Content-Disposition")); err != nil || params["filename"] != tc.wantName {
				t.Errorf("file name %v (%v), want %s", params, err, tc.wantName)
			}
			r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff"))))
			r.Comma = tc.comma
			rows, err := r.ReadAll()
			if err != nil {
				t.Fatalf("read back: %v", err)
			}
			if len(rows)-1 != len(slices) {
				t.Fatalf("%d rows, want one per slice (%d)", len(rows)-1, len(slices))
			}
			num := func(s string) float64 {
				v, err := strconv.ParseFloat(strings.ReplaceAll(s, string(tc.point), "."), 64)
				if err != nil {
					t.Fatalf("number %q: %v", s, err)
				}
				return v
			}
			for i, want := range slices {
				row := rows[i+1]
				// Columns: distance, invert, water level, depth, flow, velocity, Froude.
				if math.Abs(num(row[0])-want[0]) > 0.001 || math.Abs(num(row[3])-want[1]) > 0.1 || math.Abs(num(row[4])-want[2]) > 0.001 {
					t.Fatalf("row %d %v does not match slice %v", i+1, row, want)
				}
			}
			// 144 m² at 50 mm/h leave the run: 2 l/s, whatever the request said.
			if last := rows[len(rows)-1]; math.Abs(num(last[4])-2) > 0.001 {
				t.Errorf("outlet flow %s, want 2 l/s", last[4])
			}
		})
	}

	for name, tc := range map[string]struct {
		path string
		body any
	}{
		"unknown language": {"/api/drainage/document/csv/xx/hydraulics/1/", body},
		"no such run":      {"/api/drainage/document/csv/en/hydraulics/2/", body},
		"run index zero":   {"/api/drainage/document/csv/en/hydraulics/0/", body},
		"uncalculable run": {"/api/drainage/document/csv/en/hydraulics/1/", map[string]any{"runs": []any{patch(t, exampleCalc, map[string]any{"drainage_area_m2": 0})}}},
	} {
		var answer map[string]any
		if got := u.call("POST", tc.path, tc.body, &answer); got != http.StatusBadRequest || answer["error"] == "" {
			t.Errorf("%s: status %d %v, want 400 with a readable error", name, got, answer)
		}
	}
}

// A document made of a saved project is recorded in its timeline and the
// staff history, by its owner only; anyone else's download changes nothing.
func TestDocumentRecordedInTheProject(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	owner := p.staff(t, "dina", account.GroupStandard)
	other := p.staff(t, "olaf", account.GroupStandard)
	admin := p.staff(t, "ada", account.GroupAdmin)
	var saved saveAnswer
	owner.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"details": map[string]any{"name": "Yard"}, "runs": []any{calculatedRun("Run 1", 20, "")}}}, &saved)
	body := map[string]any{"project_id": saved.SaveID, "details": map[string]any{"name": "Yard"}, "runs": []any{calculatedRun("Run 1", 20, "")}}

	before := head(t, p.Store)
	if status, _, data := other.download("/api/drainage/document/csv/en/hydraulics/1/", body); status != http.StatusOK {
		t.Fatalf("another user's download: %d %s", status, data)
	}
	if after := head(t, p.Store); after != before {
		t.Fatalf("another user's document was written into the owner's project: %s -> %s", before, after)
	}

	if status, _, data := owner.download("/api/drainage/document/csv/pl/hydraulics/1/", body); status != http.StatusOK {
		t.Fatalf("owner's download: %d %s", status, data)
	}
	var tl struct {
		Events []struct {
			Type string          `json:"type"`
			Data json.RawMessage `json:"data"`
		} `json:"events"`
	}
	owner.must(http.StatusOK, "GET", "/api/projects/"+saved.SaveID+"/timeline", nil, &tl)
	last := tl.Events[len(tl.Events)-1]
	var doc struct{ Kind, Format, Language string }
	if err := json.Unmarshal(last.Data, &doc); err != nil || last.Type != "project.document_created" ||
		doc != (struct{ Kind, Format, Language string }{"hydraulics/1", "csv", "pl"}) {
		t.Fatalf("last timeline event %s %s (%v)", last.Type, last.Data, err)
	}
	var history []struct {
		Outcome string `json:"outcome"`
		Message string `json:"message"`
	}
	admin.must(http.StatusOK, "GET", "/api/staff/calculations/", nil, &history)
	found := false
	for _, h := range history {
		found = found || (h.Outcome == "document" && h.Message == "csv hydraulics/1 (pl)")
	}
	if !found {
		t.Fatalf("staff history %+v lacks the document", history)
	}
}

// The PDF documents over HTTP: every kind is a PDF with a name that says
// what it is, made from runs the server calculates; the text carries the
// project and run names in the chosen language (the content itself is
// tested in domain/document/report).
func TestDocumentPDF(t *testing.T) {
	pdftest.Require(t)
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.staff(t, "paula", account.GroupStandard)
	body := map[string]any{"details": map[string]any{"name": "Депо Изток", "rainfall_units": "mm/h"},
		"runs": []any{patch(t, exampleCalc, map[string]any{"name": "Gate lane"}), patch(t, exampleCalc, map[string]any{"name": "Yard edge", "channel_length_m": 30})}}
	for _, kind := range []string{"introduction", "materials", "information", "all", "hydraulics/2"} {
		status, h, data := u.download("/api/drainage/document/pdf/bg/"+kind+"/", body)
		if status != http.StatusOK {
			t.Fatalf("%s: status %d %s", kind, status, data)
		}
		if h.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(data, []byte("%PDF-")) {
			t.Fatalf("%s: %q, starts %q", kind, h.Get("Content-Type"), data[:min(8, len(data))])
		}
		_, params, _ := mime.ParseMediaType(h.Get("Content-Disposition"))
		if want := "Депо-Изток-" + strings.ReplaceAll(kind, "/", "-") + "-bg.pdf"; params["filename"] != want {
			t.Errorf("%s: file name %q, want %q", kind, params["filename"], want)
		}
		text := pdftest.PageText(t, pdftest.Write(t, data), 0)
		for _, want := range []string{"Депо Изток", "Yard edge"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: text lacks %q", kind, want)
			}
		}
	}
	for name, tc := range map[string]struct {
		path string
		body any
	}{
		"unknown kind":     {"/api/drainage/document/pdf/en/brochure/", body},
		"no such run":      {"/api/drainage/document/pdf/en/hydraulics/3/", body},
		"unknown language": {"/api/drainage/document/pdf/xx/all/", body},
		"uncalculable run": {"/api/drainage/document/pdf/en/all/", map[string]any{"runs": []any{patch(t, exampleCalc, map[string]any{"name": "Dry", "drainage_area_m2": 0})}}},
	} {
		var answer map[string]any
		if got := u.call("POST", tc.path, tc.body, &answer); got != http.StatusBadRequest || answer["error"] == "" {
			t.Errorf("%s: status %d %v, want 400 with a readable error", name, got, answer)
		}
		if name == "uncalculable run" && !strings.Contains(fmt.Sprint(answer["error"]), "Dry") {
			t.Errorf("the refusal %v does not name the run", answer)
		}
	}
}

// RTF documents come with advanced mode: an advanced user gets an RTF file
// named like the PDF, a standard user a 403 with a reason.
func TestDocumentRTF(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	advanced := p.staff(t, "avery", account.GroupAdvanced)
	standard := p.staff(t, "stan", account.GroupStandard)
	body := map[string]any{"details": map[string]any{"name": "Yard"}, "runs": []any{patch(t, exampleCalc, map[string]any{"name": "Gate lane"})}}
	status, h, data := advanced.download("/api/drainage/document/rtf/de/hydraulics/1/", body)
	if status != http.StatusOK || h.Get("Content-Type") != "application/rtf" || !bytes.HasPrefix(data, []byte(`{\rtf1`)) {
		t.Fatalf("advanced user's RTF: %d %q %.40q", status, h.Get("Content-Type"), data)
	}
	if _, params, _ := mime.ParseMediaType(h.Get("Content-Disposition")); params["filename"] != "Yard-hydraulics-1-de.rtf" {
		t.Errorf("file name %v", params)
	}
	if !bytes.Contains(data, []byte("Gate lane")) {
		t.Error("the run's name is missing from the RTF")
	}
	var answer map[string]any
	if got := standard.call("POST", "/api/drainage/document/rtf/de/all/", body, &answer); got != http.StatusForbidden || answer["error"] == "" {
		t.Fatalf("standard user's RTF: %d %v, want 403 with a reason", got, answer)
	}
}

// A run still called by its default name is named in the document's
// language ("Run 2" is "Strang 2" in German); a name the user gave stays.
func TestDocumentDefaultRunName(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	advanced := p.staff(t, "dora", account.GroupAdvanced)
	body := map[string]any{"details": map[string]any{"name": "Yard"}, "runs": []any{
		patch(t, exampleCalc, map[string]any{"name": "Gate lane"}), patch(t, exampleCalc, map[string]any{"name": "Run 2"})}}
	for _, tc := range []struct{ lang, want, absent string }{{"de", "Strang 2", "Run 2"}, {"fr", `Tron\u231con 2`, "Run 2"}, {"en", "Run 2", "Strang"}} {
		status, _, data := advanced.download("/api/drainage/document/rtf/"+tc.lang+"/introduction/", body)
		if status != http.StatusOK {
			t.Fatalf("%s: status %d %s", tc.lang, status, data)
		}
		if !bytes.Contains(data, []byte(tc.want)) || bytes.Contains(data, []byte(tc.absent)) || !bytes.Contains(data, []byte("Gate lane")) {
			t.Errorf("%s: want %q and Gate lane, not %q, in %s", tc.lang, tc.want, tc.absent, data)
		}
	}
}
