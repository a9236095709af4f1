package main

import (
	"strings"
	"testing"
)

// A run with a skipped PostgreSQL suite: the packages print as go test
// prints them, and the skip is listed with its reason at the end.
func TestSummaryListsSkips(t *testing.T) {
	in := strings.Join([]string{
		`{"Action":"start","Package":"draindesign/eventstore/postgres"}`,
		`{"Action":"run","Package":"draindesign/eventstore/postgres","Test":"TestConformance"}`,
		`{"Action":"output","Package":"draindesign/eventstore/postgres","Test":"TestConformance","Output":"=== RUN   TestConformance\n"}`,
		`{"Action":"output","Package":"draindesign/eventstore/postgres","Test":"TestConformance","Output":"    pgtest.go:67: pgtest: PostgreSQL unavailable, skipping (set DATABASE_URL, or CI=true to fail): dial tcp: refused\n"}`,
		`{"Action":"output","Package":"draindesign/eventstore/postgres","Test":"TestConformance","Output":"--- SKIP: TestConformance (0.00s)\n"}`,
		`{"Action":"skip","Package":"draindesign/eventstore/postgres","Test":"TestConformance","Elapsed":0}`,
		`{"Action":"pass","Package":"draindesign/eventstore/postgres","Elapsed":0.12}`,
		`{"Action":"run","Package":"draindesign/domain/design","Test":"TestA"}`,
		`{"Action":"pass","Package":"draindesign/domain/design","Test":"TestA","Elapsed":0.01}`,
		`{"Action":"pass","Package":"draindesign/domain/design","Elapsed":0.5}`,
	}, "\n")
	var out strings.Builder
	s, err := summarize(strings.NewReader(in), &out)
	if err != nil {
		t.Fatal(err)
	}
	if s.failed || len(s.skipped) != 1 {
		t.Fatalf("summary %+v", s)
	}
	want := "1 tests skipped (CI=true makes the service suites fail instead):\n" +
		"  SKIP draindesign/eventstore/postgres TestConformance: pgtest: PostgreSQL unavailable, skipping (set DATABASE_URL, or CI=true to fail): dial tcp: refused\n"
	got := out.String()
	if !strings.Contains(got, "ok  \tdraindesign/eventstore/postgres\t0.120s\n") || !strings.Contains(got, "ok  \tdraindesign/domain/design\t0.500s\n") || !strings.HasSuffix(got, want) {
		t.Errorf("output:\n%s", got)
	}
}

// A failing test's output is shown and the run fails; so does a build
// error, which go test prints as plain text.
func TestSummaryFails(t *testing.T) {
	in := strings.Join([]string{
		`{"Action":"output","Package":"p","Test":"TestB","Output":"    b_test.go:9: want 2, got 3\n"}`,
		`{"Action":"fail","Package":"p","Test":"TestB","Elapsed":0.01}`,
		`{"Action":"fail","Package":"p","Elapsed":0.02}`,
	}, "\n")
	var out strings.Builder
	s, err := summarize(strings.NewReader(in), &out)
	if err != nil || !s.failed || !strings.Contains(out.String(), "want 2, got 3") || !strings.Contains(out.String(), "FAIL\tp\t0.020s") {
		t.Errorf("summary %+v, %v:\n%s", s, err, out.String())
	}
	s, _ = summarize(strings.NewReader("# p\n./x.go:3:1: syntax error\n"), &out)
	if !s.failed {
		t.Error("a build error did not fail the run")
	}
}
