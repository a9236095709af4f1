package sqlite_test

import (
	"path/filepath"
	"testing"

	"draindesign/eventstore"
	"draindesign/eventstore/eventstoretest"
	"draindesign/eventstore/sqlite"
)

func open(t testing.TB, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(t.Context(), path)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return s
}

func TestConformance(t *testing.T) {
	eventstoretest.Factory{
		Storage: func(t *testing.T) string { return filepath.Join(t.TempDir(), "events.db") },
		Open:    func(t *testing.T, path string) eventstore.Store { return open(t, path) },
	}.Run(t)
}
