package testkit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"draindesign/projections"
)

// Database is one read-model database; tests may open several handles to
// it, as several app instances would.
type Database struct {
	Dialect projections.Dialect
	open    func() (*projections.DB, error)
}

// Open opens a new handle, closed when the test ends.
func (d Database) Open(t testing.TB) *projections.DB {
	t.Helper()
	db, err := d.open()
	if err != nil {
		t.Fatalf("open read-model db: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// NewSQLite makes a read-model database file in the test's temp dir.
func NewSQLite(t testing.TB) Database {
	path := filepath.Join(t.TempDir(), "readmodels.db")
	return Database{Dialect: projections.SQLite, open: func() (*projections.DB, error) { return projections.OpenSQLite(path) }}
}

func postgresAt(url string) Database {
	return Database{Dialect: projections.Postgres, open: func() (*projections.DB, error) { return projections.OpenPostgres(url) }}
}

// Unavailable skips the test for a missing service, or fails it under CI,
// where every service must be there.
func Unavailable(t testing.TB, service string, err error) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s unavailable under CI=true: %v", service, err)
	}
	t.Skipf("%s unavailable, skipping: %v", service, err)
}

// Eventually polls cond until it returns nil or timeout passes.
func Eventually(t testing.TB, timeout time.Duration, cond func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := cond()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %v", timeout, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Dump renders every row of table, ordered by its columns, so that two read
// models can be compared.
func Dump(t testing.TB, db *projections.DB, table string) []string {
	t.Helper()
	rows, err := db.Query(context.Background(), "SELECT * FROM "+table)
	if err != nil {
		t.Fatalf("dump %s: %v", table, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatalf("dump %s: %v", table, err)
	}
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatalf("dump %s: %v", table, err)
		}
		var b strings.Builder
		for i, v := range vals {
			if bs, ok := v.([]byte); ok {
				v = string(bs)
			}
			fmt.Fprintf(&b, "%s=%v ", cols[i], v)
		}
		out = append(out, b.String())
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("dump %s: %v", table, err)
	}
	sortStrings(out)
	return out
}
