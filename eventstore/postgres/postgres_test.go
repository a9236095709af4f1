package postgres_test

import (
	"testing"

	"github.com/jackc/pgx/v5"

	"draindesign/eventstore"
	"draindesign/eventstore/eventstoretest"
	"draindesign/eventstore/pgtest"
	"draindesign/eventstore/postgres"
	"draindesign/migrations"
)

func open(t testing.TB, url string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(t.Context(), url)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return s
}

func TestConformance(t *testing.T) {
	eventstoretest.Factory{
		Storage: func(t *testing.T) string { return pgtest.NewDatabase(t) },
		Open:    func(t *testing.T, url string) eventstore.Store { return open(t, url) },
	}.Run(t)
}

func TestMigrateIsIdempotentAndSerialised(t *testing.T) {
	url := pgtest.NewDatabase(t)
	errs := make(chan error, 3)
	for range 3 {
		go func() { errs <- postgres.Migrate(t.Context(), url) }()
	}
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatalf("concurrent migrate: %v", err)
		}
	}
	if err := postgres.Migrate(t.Context(), url); err != nil {
		t.Fatalf("migrate again: %v", err)
	}
	ms, err := migrations.List(migrations.Postgres)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	var n int
	if err := conn.QueryRow(t.Context(), `SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(ms) {
		t.Errorf("%d migrations recorded (%v), want %d", n, err, len(ms))
	}
}
