package projections_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"draindesign/projections"
)

func TestRebind(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, postgres string
	}{
		{"SELECT 1", "SELECT 1"},
		{"SELECT a FROM t WHERE b = ? AND c = ?", "SELECT a FROM t WHERE b = $1 AND c = $2"},
		{"INSERT INTO t VALUES (?, 'why?', ?)", "INSERT INTO t VALUES ($1, 'why?', $2)"},
		{"SELECT 'it''s ?' , ?", "SELECT 'it''s ?' , $1"},
		{`SELECT "odd?col" FROM t WHERE x = ?`, `SELECT "odd?col" FROM t WHERE x = $1`},
		{"SELECT ? -- what?\n, ?", "SELECT $1 -- what?\n, $2"},
		{"SELECT 'unterminated ?", "SELECT 'unterminated ?"},
	} {
		pg := &projections.DB{Dialect: projections.Postgres}
		if got := pg.Rebind(tc.in); got != tc.postgres {
			t.Errorf("postgres Rebind(%q) = %q, want %q", tc.in, got, tc.postgres)
		}
		lite := &projections.DB{Dialect: projections.SQLite}
		if got := lite.Rebind(tc.in); got != tc.in {
			t.Errorf("sqlite Rebind(%q) = %q, want it unchanged", tc.in, got)
		}
	}
}

func TestOpenSQLiteOddPath(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "read?models#1%.db")
	db, err := projections.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(context.Background(), `CREATE TABLE t (x TEXT)`); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("database not at the given path: %v", err)
	}
}
