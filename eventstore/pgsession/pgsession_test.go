package pgsession_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"draindesign/eventstore/pgsession"
	"draindesign/eventstore/pgtest"
)

func TestUnsupported(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"built without lz4", &pgconn.PgError{Code: "22023"}, true},
		{"before PostgreSQL 14", fmt.Errorf("set: %w", &pgconn.PgError{Code: "42704"}), true},
		{"permission denied", &pgconn.PgError{Code: "42501"}, false},
		{"connection lost", errors.New("unexpected EOF"), false},
		{"none", nil, false},
	} {
		if got := pgsession.Unsupported(c.err); got != c.want {
			t.Errorf("%s: Unsupported = %v, want %v", c.name, got, c.want)
		}
	}
}

// compressionOf stores a large, compressible value through a pool made
// from url with PreferLZ4 and returns how the server compressed it.
func compressionOf(t *testing.T, url string, chained *int) string {
	t.Helper()
	ctx := t.Context()
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	cfg.AfterConnect = func(context.Context, *pgx.Conn) error { *chained++; return nil }
	pgsession.PreferLZ4(cfg)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, `CREATE TABLE IF NOT EXISTS big (id serial PRIMARY KEY, v text NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	// About the size of a calculation's record: above the 2 KB from
	// which PostgreSQL compresses a row's values.
	var id int
	err = pool.QueryRow(ctx, `INSERT INTO big (v) VALUES ($1) RETURNING id`,
		strings.Repeat(`{"chainage_m":12.5,"depth_mm":48.2},`, 120)).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	// NULL for a value stored as it was.
	var how *string
	if err := pool.QueryRow(ctx, `SELECT pg_column_compression(v) FROM big WHERE id = $1`, id).Scan(&how); err != nil {
		t.Fatal(err)
	}
	if how == nil {
		return "none"
	}
	return *how
}

func TestPreferLZ4(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var chained int
	if how := compressionOf(t, url, &chained); how != "lz4" {
		t.Errorf("a large value was compressed with %q, want lz4", how)
	}
	if chained == 0 {
		t.Error("the pool's own AfterConnect was not called")
	}
	// A URL that chooses keeps its choice.
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	if how := compressionOf(t, url+sep+"default_toast_compression=pglz", &chained); how != "pglz" {
		t.Errorf("with pglz in the URL a large value was compressed with %q", how)
	}
}
