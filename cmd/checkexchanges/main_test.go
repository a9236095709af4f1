package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"draindesign/api/exchangelog"
)

// record serves the given answers through the server's recorder (the one
// E2E_RECORD_EXCHANGES switches on) and returns the file it wrote.
func record(t *testing.T, answers map[string]string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "exchanges.jsonl")
	rec, err := exchangelog.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	h := rec.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := answers[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	for path := range answers {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil))
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// The program passes a record that matches the document, and fails one
// with an answer the document does not allow or a call it does not know,
// naming each; an empty record fails too.
func TestCheckExchanges(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		files   []string
		wantOut string
		wantErr []string
	}{
		{"matching", []string{record(t, map[string]string{"/api/health/": `{"status":"ok"}`})}, "1 recorded exchanges match", nil},
		{"answer off the schema", []string{record(t, map[string]string{"/api/health/": `{"status":"down"}`})}, "",
			[]string{"GET /api/health/ 200 (1 of 1 exchanges)", "the answer does not match the document"}},
		{"undocumented call", []string{record(t, map[string]string{"/api/health/": `{"status":"ok"}`, "/api/no-such-call/": `{}`})}, "",
			[]string{"GET /api/no-such-call/ 200 (1 of 2 exchanges)", "not in the document"}},
		{"one call, two ids", []string{record(t, map[string]string{"/api/projects/a/timeline": `{"id":1}`, "/api/projects/b/timeline": `{"id":2}`})}, "",
			[]string{"GET /api/projects/{id}/timeline 200 (2 of 2 exchanges)"}},
		{"nothing recorded", []string{empty}, "", []string{"no exchanges recorded"}},
		{"missing file", []string{filepath.Join(t.TempDir(), "none.jsonl")}, "", []string{"no such file"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := run(tc.files, &out)
			if tc.wantErr == nil {
				if err != nil || !strings.Contains(out.String(), tc.wantOut) {
					t.Fatalf("%v, output %q, want %q", err, out.String(), tc.wantOut)
				}
				return
			}
			if err == nil {
				t.Fatalf("passed (%q), want an error containing %q", out.String(), tc.wantErr)
			}
			for _, want := range tc.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
		})
	}
}
