package projections_test

import (
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
