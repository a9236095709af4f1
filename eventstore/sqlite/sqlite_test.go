package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"sync/atomic"
	"testing"

	"draindesign/eventstore"
	"draindesign/eventstore/eventstoretest"
	"draindesign/eventstore/sqlite"
)

func open(t testing.TB, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(t.Context(), path)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return s
}

func TestConformance(t *testing.T) {
	eventstoretest.Factory{
		Storage: func(t *testing.T) string { return filepath.Join(t.TempDir(), "events.db") },
		Open:    func(t *testing.T, path string) eventstore.Store { return open(t, path) },
	}.Run(t)
}

// BenchmarkStore measures the store beside plain INSERTs, one transaction
// per append, into a bare table shaped like events (no constraints but the
// rowid key) in a second file with the same settings: sharing the store's
// file would make the two writers wait for each other's lock.
func BenchmarkStore(b *testing.B) {
	dir := b.TempDir()
	s := open(b, filepath.Join(dir, "events.db"))
	defer s.Close()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "raw.db")+
		"?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE raw_events (
		seq INTEGER PRIMARY KEY, commit_id INTEGER NOT NULL, event_id TEXT NOT NULL, stream_id TEXT NOT NULL,
		version INTEGER NOT NULL, type TEXT NOT NULL, schema_version INTEGER NOT NULL, data TEXT NOT NULL, author TEXT NOT NULL,
		correlation_id TEXT NOT NULL, causation_id TEXT NOT NULL, occurred_at INTEGER NOT NULL)`); err != nil {
		b.Fatal(err)
	}
	insert, err := db.Prepare(`INSERT INTO raw_events (commit_id, event_id, stream_id, version, type, schema_version, data, author, correlation_id, causation_id, occurred_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		b.Fatal(err)
	}
	defer insert.Close()
	var commits atomic.Int64
	eventstoretest.Benchmark(b, s, func(ctx context.Context, stream string, version int64, evs []eventstore.NewEvent) error {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		commit := commits.Add(1)
		stmt := tx.StmtContext(ctx, insert)
		for i, e := range evs {
			if _, err := stmt.ExecContext(ctx, commit, e.ID, stream, version+int64(i), e.Type, max(e.Schema, 1), string(e.Data),
				e.Metadata.Author, e.Metadata.CorrelationID, e.Metadata.CausationID, e.Metadata.Time.UnixMicro()); err != nil {
				return err
			}
		}
		return tx.Commit()
	})
}
