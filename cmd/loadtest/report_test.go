package main

import (
	"os"
	"path/filepath"
	"testing"
)

// The report says how the instances run calculations, from the line serve
// prints into an instance's log.
func TestProcsFromInstanceLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app1.log")
	log := "draindesign is running at http://127.0.0.1:1 (PostgreSQL); links point to http://127.0.0.1:2\n" +
		"calculations run 2 at a time, on 4 Go Ps, collector at GOGC=200 (cmd/draindesign/procs.go, collector.go)\n"
	if err := os.WriteFile(path, []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	said := lineWith(path, "calculations run ")
	if said != "calculations run 2 at a time, on 4 Go Ps, collector at GOGC=200 (cmd/draindesign/procs.go, collector.go)" {
		t.Fatalf("lineWith: %q", said)
	}
	if got, want := procsText(said), " In each instance calculations run 2 at a time, on 4 Go Ps, collector at GOGC=200."; got != want {
		t.Errorf("procsText: %q, want %q", got, want)
	}
	for _, missing := range []string{filepath.Join(t.TempDir(), "none.log"), path} {
		if got := procsText(lineWith(missing, "no such line")); got != "" {
			t.Errorf("nothing said: %q, want nothing in the report", got)
		}
	}
}
