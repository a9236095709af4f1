package testkit

import (
	"context"
	"testing"

	"draindesign/eventstore"
	"draindesign/projections"
)

// Seed creates the projections' tables in db and folds the events gen
// yields into them in one transaction, by calling each projection's Apply
// as the runner would: a quick way to a large read model for benchmarks.
// Checkpoints are not kept: the tables are not for a runner.
func Seed(tb testing.TB, db *projections.DB, ps []projections.Projection, gen func(yield func(eventstore.Event))) {
	tb.Helper()
	ctx := context.Background()
	err := db.InTx(ctx, func(tx *projections.Tx) error {
		for _, p := range ps {
			for _, s := range p.Schema() {
				if err := tx.Exec(ctx, s); err != nil {
					return err
				}
			}
		}
		var failed error
		gen(func(ev eventstore.Event) {
			if failed != nil {
				return
			}
			for _, p := range ps {
				if err := p.Apply(ctx, tx, ev); err != nil {
					failed = err
					return
				}
			}
		})
		return failed
	})
	if err != nil {
		tb.Fatalf("seed: %v", err)
	}
	// PostgreSQL's autovacuum keeps statistics of a long-running
	// database; the app never analyses SQLite, so neither does this.
	if db.Dialect == projections.Postgres {
		if _, err := db.Exec(ctx, `ANALYZE`); err != nil {
			tb.Fatal(err)
		}
	}
}
