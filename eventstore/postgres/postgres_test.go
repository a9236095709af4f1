package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

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
	ms, err := migrations.List(migrations.Postgres, "postgres")
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

// BenchmarkStore measures the store beside plain batched INSERTs, one
// implicit transaction per append, on the same database and pool settings,
// into a bare copy of the events table: its columns and its primary key,
// the log order, but none of what the version check and idempotency need
// (no streams row, no unique index on event ID or on stream and version).
func BenchmarkStore(b *testing.B) {
	url := pgtest.NewDatabase(b)
	s := open(b, url)
	defer s.Close()
	pool, err := pgxpool.New(b.Context(), url)
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(b.Context(), `CREATE TABLE raw_events (LIKE events INCLUDING DEFAULTS INCLUDING IDENTITY, PRIMARY KEY (tx_id, seq))`); err != nil {
		b.Fatal(err)
	}
	eventstoretest.Benchmark(b, s, func(ctx context.Context, stream string, version int64, evs []eventstore.NewEvent) error {
		batch := &pgx.Batch{}
		for i, e := range evs {
			batch.Queue(`INSERT INTO raw_events (event_id, stream_id, version, type, data, author, correlation_id, causation_id, occurred_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
				e.ID, stream, version+int64(i), e.Type, e.Data, e.Metadata.Author, e.Metadata.CorrelationID, e.Metadata.CausationID, e.Metadata.Time)
		}
		// One round trip; the queries of a batch run in one implicit transaction.
		return pool.SendBatch(ctx, batch).Close()
	})
}
