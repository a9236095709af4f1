package projections_test

import (
	"context"
	"testing"
	"time"

	"draindesign/projections/internal/testkit"
)

// CatchUp applies an append that returned before it was called even while
// the log still holds it back behind an older open transaction (PostgreSQL
// shows an event only once every transaction begun before it has ended):
// reading to the end of what the log showed returned without it.
func TestCatchUpWaitsForEventsTheLogHoldsBack(t *testing.T) {
	t.Parallel()
	var backend testkit.Backend
	for _, b := range testkit.Backends {
		if b.Name == "postgres" {
			backend = b
		}
	}
	store, database := backend.New(t)
	db := database.Open(t)
	counter := testkit.NewCounter("counted")
	runner := startRunner(t, store, db, counter)

	// The store and the read models share the database: an open read-model
	// transaction with an id holds back every later append.
	ctx := context.Background()
	blocker, err := db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var xid string
	if err := blocker.QueryRow(ctx, `SELECT pg_current_xact_id()::text`).Scan(&xid); err != nil {
		t.Fatal(err)
	}
	ids := testkit.IDs(testkit.Append(t, store, "project-held", 2))

	const held = 300 * time.Millisecond
	go func() {
		time.Sleep(held)
		_ = blocker.Rollback(context.Background())
	}()
	start := time.Now()
	if err := runner.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	if err := counter.ExactlyOnce(t, db, ids); err != nil {
		t.Fatalf("after CatchUp, %v elapsed: %v", time.Since(start), err)
	}
}
