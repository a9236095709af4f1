package api

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"draindesign/domain/catalogue"
	"draindesign/domain/design"

	"draindesign/domain/jsonobject"
)

// saveOutcome is what the save handler takes from a body: the content the
// domain gets, or the message of the error the designer sees.
func saveOutcome(t testing.TB, body []byte, strip bool) (any, string) {
	t.Helper()
	var in savePayload
	var err error
	if strip {
		r := httptest.NewRequest("POST", "/api/drainage/save/", bytes.NewReader(body))
		err = decodeSave(httptest.NewRecorder(), r, &in)
	} else {
		err = jsonobject.Decode(bytes.NewReader(body), &in, jsonobject.Strict)
	}
	if err != nil {
		return nil, err.Error()
	}
	c, err := in.content()
	if err != nil {
		return nil, err.Error()
	}
	return []any{c, in.Project.SaveID, in.Project.Version, in.Share}, ""
}

var saveBodies = []string{
	`{"share":false,"project":{"saveID":"p1","version":3,"details":{"name":"Yard"},"runs":[{"name":"Run 1","channel_length_m":20,"results":{"slices":[[0,1.5,2e-3],[1,1.25,3]],"ok":true}}]}}`,
	`{"project":{"saveID":"p1","version":3,"runs":[{"name":"A","results":null},{"name":"B","stepped":true,"results":[1,2,{"x":"]}"}]},{"name":"C","channel_length_m":5}]}}`,
	`{"project":{"runs":[{"name":"A","results":{"a":"\"results\": 1"}}],"saveID":"p"}}`,
	// wrong: the messages must be the usual ones
	`{"project":{"runs":[{"name":"A","results":{"slices":[1,,2]}}]}}`,
	`{"project":{"runs":[{"name":"A","results":{}}],"version":"three"}}`,
	`{"project":{"runs":[{"name":"","results":[]}]}}`,
	`{"project":{"runs":[{"name":"A","results":[]}]},"unknown":1}`,
	`{"project":{"runs":[{"name":"A","results":[]}]}} trailing`,
	`{"project":{"runs":{"results":[1]}}}`,
	`{"project":{"Runs":[{"name":"A","results":[1]}]}}`,
	`{"project":{"runs":[{"name":"A","results":1,"results":2}]}}`,
	`[]`, ``, `{`, `null`,
	// what validators disagree on: raw control characters, bad UTF-8,
	// bad escapes, numbers and literals inside the skipped results
	"{\"project\":{\"runs\":[{\"name\":\"A\",\"results\":\"a\tb\"}]}}",
	"{\"project\":{\"runs\":[{\"name\":\"A\",\"results\":\"a\x00b\"}]}}",
	"{\"project\":{\"runs\":[{\"name\":\"A\",\"results\":\"\xff\xfe\"}]}}",
	`{"project":{"runs":[{"name":"A","results":"\x41"}]}}`,
	`{"project":{"runs":[{"name":"A","results":"\u12"}]}}`,
	`{"project":{"runs":[{"name":"A","results":[01, 1.e5, -, 1e, .5]}]}}`,
	`{"project":{"runs":[{"name":"A","results":[1.5e+3, -0, 1E-2]}]}}`,
	`{"project":{"runs":[{"name":"A","results":[tru, nul, True]}]}}`,
	`{"project":{"runs":[{"name":"A","results":{"a" 1}}]}}`,
	`{"project":{"runs":[{"name":"A","results":{"a":1,}}]}}`,
	`{"project":{"runs":[{"name":"A","results":[1,]}]}}`,
	"{\"project\":{\"runs\":[{\"name\":\"A\",\"results\":\u00a0[1]}]}}",
}

// TestSaveReadsResultsUnread: the save call's shortcut (each run's
// results replaced unread) gives the domain exactly what the full decode
// gives, and the same message for every faulty body.
func TestSaveReadsResultsUnread(t *testing.T) {
	for _, body := range saveBodies {
		want, wantErr := saveOutcome(t, []byte(body), false)
		got, gotErr := saveOutcome(t, []byte(body), true)
		if gotErr != wantErr || !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %v %q\nwant %v %q", body, got, gotErr, want, wantErr)
		}
	}
}

func TestWithoutRunResultsReplacesOnlyResults(t *testing.T) {
	body := `{"project":{"runs":[{"name":"A","results":{"slices":[[0,1]]}},{"name":"B"},{"results":"x","name":"C"}]},"results":[9]}`
	want := `{"project":{"runs":[{"name":"A","results":null},{"name":"B"},{"results":null,"name":"C"}]},"results":[9]}`
	if got := string(withoutRunResults([]byte(body))); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	bad := `{"project":{"runs":[{"results":[1,,2]}]}}`
	if got := string(withoutRunResults([]byte(bad))); got != bad {
		t.Errorf("invalid JSON was changed: %s", got)
	}
}

func TestSaveBodyTooLarge(t *testing.T) {
	body := `{"project":{"runs":[{"name":"A","results":"` + strings.Repeat("x", maxBody) + `"}]}}`
	_, msg := saveOutcome(t, []byte(body), true)
	if !strings.Contains(msg, "larger than") {
		t.Errorf("message %q, want the size limit", msg)
	}
}

func FuzzSaveReadsResultsUnread(f *testing.F) {
	for _, b := range saveBodies {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		want, wantErr := saveOutcome(t, body, false)
		got, gotErr := saveOutcome(t, body, true)
		if gotErr != wantErr || !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\n got %v %q\nwant %v %q", body, got, gotErr, want, wantErr)
		}
	})
}

// BenchmarkSaveDecode: the save call's body of one run with its results as
// the calculate call answered them, decoded whole (before) and with the
// results validated but not decoded (decodeSave).
func BenchmarkSaveDecode(b *testing.B) {
	for _, tc := range []struct {
		name   string
		inputs map[string]any
	}{
		{"small 35 m", map[string]any{"channel_group": "poly-100", "loading": "C250", "grating": "poly-100-slot-iron", "stepped": false, "channel_length_m": 35.5, "drainage_area_m2": 355, "rainfall": map[string]any{"rainfall_mm_per_hr": 50}, "ground_slope": 0.2}},
		{"stepped 300 m", map[string]any{"channel_group": "fibre", "loading": "C250", "grating": "fibre-std-mesh", "stepped": true, "channel_length_m": 300.5, "drainage_area_m2": 1803, "rainfall": map[string]any{"rainfall_mm_per_hr": 50}, "ground_slope": 0.2}},
		{"3000 m", map[string]any{"channel_group": "fibre", "loading": "C250", "grating": "fibre-std-mesh", "stepped": false, "channel_length_m": 2999.5, "drainage_area_m2": 30000, "rainfall": map[string]any{"rainfall_mm_per_hr": 10}, "ground_slope": 1}},
	} {
		body := saveBodyWithResults(b, tc.inputs)
		b.Run(tc.name+"/whole", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				var in savePayload
				if err := jsonobject.Decode(bytes.NewReader(body), &in, jsonobject.Strict); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/results unread", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				var in savePayload
				r := httptest.NewRequest("POST", "/api/drainage/save/", bytes.NewReader(body))
				if err := decodeSave(httptest.NewRecorder(), r, &in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func saveBodyWithResults(b *testing.B, inputs map[string]any) []byte {
	b.Helper()
	body, err := json.Marshal(inputs)
	if err != nil {
		b.Fatal(err)
	}
	req, err := design.DecodeRequest(body)
	if err != nil {
		b.Fatal(err)
	}
	ans, err := design.Calculate(catalogue.Default(), req)
	if err != nil {
		b.Fatal(err)
	}
	run := map[string]any{"name": "Run 1", "results": ans.Results}
	for k, v := range inputs {
		run[k] = v
	}
	out, err := json.Marshal(map[string]any{"share": false, "project": map[string]any{
		"saveID": "p", "version": 3, "details": map[string]any{"name": "Yard"}, "runs": []any{run}}})
	if err != nil {
		b.Fatal(err)
	}
	return out
}
