package projections_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"draindesign/eventstore/pgtest"
	"draindesign/eventstore/postgres"
	"draindesign/projections"
	"draindesign/projections/internal/testkit"
)

// CatchUp applies an append that returned before it was called even while
// the log still holds it back behind an older open transaction (PostgreSQL
// shows an event only once every transaction begun before it has ended):
// reading to the end of what the log showed returned without it.
func TestCatchUpWaitsForEventsTheLogHoldsBack(t *testing.T) {
	t.Parallel()
	url := pgtest.NewDatabase(t)
	ctx := context.Background()
	store, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	db, err := projections.OpenPostgres(url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	counter := testkit.NewCounter("counted")
	runner := startRunner(t, store, db, counter)

	blocker, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer blocker.Close(ctx)
	tx, err := blocker.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT pg_current_xact_id()`); err != nil { // takes a transaction id
		t.Fatal(err)
	}
	ids := testkit.IDs(testkit.Append(t, store, "project-held", 2))

	const held = 300 * time.Millisecond
	go func() {
		time.Sleep(held)
		_ = tx.Rollback(context.Background())
	}()
	start := time.Now()
	if err := runner.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	if err := counter.ExactlyOnce(t, db, ids); err != nil {
		t.Fatalf("after CatchUp, %v elapsed: %v", time.Since(start), err)
	}
}
