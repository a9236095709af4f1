package postgres_test

import (
	"testing"

	"draindesign/eventstore"
	"draindesign/eventstore/eventstoretest"
	"draindesign/eventstore/pgtest"
	"draindesign/eventstore/postgres"
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
