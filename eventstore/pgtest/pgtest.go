// Package pgtest gives each test its own, empty PostgreSQL database.
//
// The server is the one DATABASE_URL points at, else
// postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable. If it cannot
// be reached the test is skipped, except under CI=true, where that fails it:
// CI must not pass by running nothing.
package pgtest

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"draindesign/eventstore/pgoutage"
)

// DefaultURL is the server used when DATABASE_URL is unset.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// ServerURL is the URL of the server the databases are created on.
func ServerURL() string {
	if u := os.Getenv("DATABASE_URL"); u != "" {
		return u
	}
	return DefaultURL
}

// NewDatabase creates a database for t alone and returns its URL; the
// database is dropped when t's cleanups run, after any registered later
// (such as closing a pool on it).
func NewDatabase(t testing.TB) string {
	t.Helper()
	server := ServerURL()
	name := databaseName(t.Name())

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	admin, err := pgx.Connect(ctx, server)
	if err != nil {
		unreachable(t, fmt.Errorf("connect to %s: %w", redact(server), err))
		return ""
	}
	defer admin.Close(context.Background())
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatalf("pgtest: create database %s: %v", name, err)
	}
	t.Cleanup(func() { drop(t, server, name) })

	u, err := withDatabase(server, name)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	return u
}

func unreachable(t testing.TB, err error) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("pgtest: PostgreSQL is required under CI=true: %v", err)
	}
	t.Skipf("pgtest: PostgreSQL unavailable, skipping (set DATABASE_URL, or CI=true to fail): %v", err)
}

func drop(t testing.TB, server, name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	admin, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Errorf("pgtest: drop database %s: %v", name, err)
		return
	}
	defer admin.Close(context.Background())
	// FORCE ends connections a test leaked instead of failing on them.
	if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
		t.Errorf("pgtest: drop database %s: %v", name, err)
	}
}

var unsafeChars = regexp.MustCompile(`[^a-z0-9]+`)

// databaseName is unique, yet names the test so that a database left behind
// by a killed run can be traced to it.
func databaseName(test string) string {
	slug := strings.Trim(unsafeChars.ReplaceAllString(strings.ToLower(test), "_"), "_")
	if len(slug) > 30 {
		slug = slug[len(slug)-30:]
	}
	return "t_" + slug + "_" + strings.ToLower(rand.Text())
}

// withDatabase points a server URL, or a keyword/value connection string,
// at database name.
func withDatabase(server, name string) (string, error) {
	if strings.HasPrefix(server, "postgres://") || strings.HasPrefix(server, "postgresql://") {
		u, err := url.Parse(server)
		if err != nil {
			return "", fmt.Errorf("parse DATABASE_URL: %w", err)
		}
		u.Path = "/" + name
		u.RawPath = ""
		return u.String(), nil
	}
	// Later keywords override earlier ones.
	return server + " dbname=" + name, nil
}

// redact keeps a password out of the test log.
func redact(server string) string {
	u, err := url.Parse(server)
	if err != nil || u.Scheme == "" {
		return "the server in DATABASE_URL"
	}
	return u.Redacted()
}

// CutOff takes the database at databaseURL away from its clients as a
// restart of the server would, without restarting the shared server: new
// connections are refused and the open ones ended. The returned function
// lets connections in again; it also runs at t's cleanup, before the
// database is dropped.
func CutOff(t testing.TB, databaseURL string) (restore func()) {
	t.Helper()
	cfg, err := pgx.ParseConfig(databaseURL)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	outage := pgoutage.Outage{Server: ServerURL(), Database: cfg.Database}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := outage.Cut(ctx); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	restored := false
	restore = func() {
		if restored {
			return
		}
		restored = true
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := outage.Restore(ctx); err != nil {
			t.Fatalf("pgtest: %v", err)
		}
	}
	t.Cleanup(restore)
	return restore
}
