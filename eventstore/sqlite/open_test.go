package sqlite

import (
	"path/filepath"
	"testing"

	"draindesign/migrations"
)

func TestOpenConfiguresAndMigratesOnce(t *testing.T) {
	// A name that breaks a naively built DSN.
	path := filepath.Join(t.TempDir(), "odd ?name#1%.db")
	for range 2 {
		s, err := Open(t.Context(), path)
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		t.Cleanup(func() { s.Close() })
		var mode string
		var fk, sync int
		if err := s.write.QueryRowContext(t.Context(), `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
			t.Errorf("journal_mode %q (%v), want wal", mode, err)
		}
		if err := s.write.QueryRowContext(t.Context(), `PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
			t.Errorf("foreign_keys %d (%v), want 1", fk, err)
		}
		if err := s.write.QueryRowContext(t.Context(), `PRAGMA synchronous`).Scan(&sync); err != nil || sync != 1 {
			t.Errorf("synchronous %d (%v), want 1 (NORMAL)", sync, err)
		}
		if _, err := s.read.ExecContext(t.Context(), `DELETE FROM streams`); err == nil {
			t.Error("the read pool can write")
		}
		ms, err := migrations.List(migrations.SQLite, "sqlite")
		if err != nil {
			t.Fatal(err)
		}
		var applied int
		if err := s.write.QueryRowContext(t.Context(), `SELECT count(*) FROM schema_migrations`).Scan(&applied); err != nil || applied != len(ms) {
			t.Errorf("%d migrations recorded (%v), want %d", applied, err, len(ms))
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if matches, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*")); len(matches) == 0 || filepath.Base(matches[0]) != filepath.Base(path) {
		t.Errorf("files %v, want the database at %s", matches, path)
	}
}
