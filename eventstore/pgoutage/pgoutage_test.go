package pgoutage_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"draindesign/eventstore/pgoutage"
	"draindesign/eventstore/pgtest"
)

// A cut ends the database's connections and refuses new ones; Restore lets
// them in again. Another database of the same server is not touched.
func TestCutAndRestore(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewDatabase(t)
	otherURL := pgtest.NewDatabase(t)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	o := pgoutage.Outage{Server: pgtest.ServerURL(), Database: strings.TrimPrefix(u.Path, "/")}
	open, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer open.Close(ctx)
	other, err := pgx.Connect(ctx, otherURL)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(ctx)
	if err := o.Cut(ctx); err != nil {
		t.Fatal(err)
	}
	if err := open.Ping(ctx); err == nil {
		t.Error("a connection opened before the cut still works")
	}
	if c, err := pgx.Connect(ctx, dbURL); err == nil {
		c.Close(ctx)
		t.Error("a new connection was let in during the cut")
	}
	if err := other.Ping(ctx); err != nil {
		t.Errorf("the cut ended a connection to another database: %v", err)
	}
	if err := o.Restore(ctx); err != nil {
		t.Fatal(err)
	}
	c, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatalf("after Restore: %v", err)
	}
	c.Close(ctx)
}

// A database whose name needs quoting is cut and restored by that name.
func TestQuotedName(t *testing.T) {
	ctx := context.Background()
	_ = pgtest.NewDatabase(t) // skips without a server (fails under CI)
	admin, err := pgx.Connect(ctx, pgtest.ServerURL())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	name := fmt.Sprintf("pgoutage it's \"quoted\" %d", time.Now().UnixNano())
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec(context.Background(), "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
	})
	o := pgoutage.Outage{Server: pgtest.ServerURL(), Database: name}
	if err := o.Cut(ctx); err != nil {
		t.Fatal(err)
	}
	var allowed bool
	if err := admin.QueryRow(ctx, "SELECT datallowconn FROM pg_database WHERE datname = $1", name).Scan(&allowed); err != nil {
		t.Fatal(err)
	}
	if allowed {
		t.Error("after Cut the database still allows connections")
	}
	if err := o.Restore(ctx); err != nil {
		t.Fatal(err)
	}
	if err := admin.QueryRow(ctx, "SELECT datallowconn FROM pg_database WHERE datname = $1", name).Scan(&allowed); err != nil {
		t.Fatal(err)
	}
	if !allowed {
		t.Error("after Restore the database still refuses connections")
	}
}

// An error names the database and what failed.
func TestErrorNamesDatabase(t *testing.T) {
	_ = pgtest.NewDatabase(t) // skips without a server (fails under CI)
	o := pgoutage.Outage{Server: pgtest.ServerURL(), Database: "pgoutage_no_such_database"}
	err := o.Cut(context.Background())
	if err == nil {
		t.Fatal("cut of a database that does not exist succeeded")
	}
	if !strings.Contains(err.Error(), "cut database pgoutage_no_such_database") {
		t.Errorf("error %q does not say what was cut", err)
	}
}
