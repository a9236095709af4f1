package main

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"draindesign/eventstore/pgtest"
)

// A cut ends the database's connections and refuses new ones; Restore lets
// them in again.
func TestDBOutage(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewDatabase(t)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	o := dbOutage{server: pgtest.ServerURL(), db: strings.TrimPrefix(u.Path, "/")}
	open, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer open.Close(ctx)
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
	if err := o.Restore(ctx); err != nil {
		t.Fatal(err)
	}
	c, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatalf("after Restore: %v", err)
	}
	c.Close(ctx)
	if got := quoteLiteral("it's"); got != "'it''s'" {
		t.Errorf("quoteLiteral = %s", got)
	}
}
