package projections

import (
	"database/sql"
	"strings"
	"testing"

	"draindesign/eventstore/pgtest"
)

// TestReadModelsCompressWithLZ4: the read models' sessions compress large
// values with lz4 (pgsession.PreferLZ4): the timeline keeps a copy of
// every calculation's 4 KB record, which the server's default pglz
// compressed at a cost of 8 % of its CPU under `make load`.
func TestReadModelsCompressWithLZ4(t *testing.T) {
	db, err := OpenPostgres(pgtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := t.Context()
	if _, err := db.Exec(ctx, `CREATE TABLE big (id INTEGER PRIMARY KEY, data TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, `INSERT INTO big (id, data) VALUES (?, ?)`, 1, strings.Repeat(`{"chainage_m":12.5,"depth_mm":48.2},`, 120)); err != nil {
		t.Fatal(err)
	}
	var how sql.NullString
	if err := db.QueryRow(ctx, `SELECT pg_column_compression(data) FROM big WHERE id = ?`, 1).Scan(&how); err != nil {
		t.Fatal(err)
	}
	if how.String != "lz4" {
		t.Fatalf("a large value was compressed with %q, want lz4", how.String)
	}
}
