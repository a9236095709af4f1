package testkit

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"

	"draindesign/eventstore"
	"draindesign/projections"
)

// Counter is a projection that records, per event, how many times it was
// applied and committed (column n), so exactly-once is checkable. Fail, when
// set, may refuse an event after its row was written, to prove the row goes
// away with the rollback.
type Counter struct {
	Table string

	mu    sync.Mutex
	fail  func(eventstore.Event) error
	calls int
	txs   map[*projections.Tx]bool
}

func NewCounter(table string) *Counter { return &Counter{Table: table} }

func (c *Counter) Name() string     { return c.Table }
func (c *Counter) Tables() []string { return []string{c.Table} }
func (c *Counter) Schema() []string {
	return []string{`CREATE TABLE IF NOT EXISTS ` + c.Table + ` (
		event_id   TEXT PRIMARY KEY,
		stream     TEXT NOT NULL,
		version    BIGINT NOT NULL,
		commit_pos BIGINT NOT NULL,
		seq_pos    BIGINT NOT NULL,
		n          BIGINT NOT NULL
	)`}
}

// SetFail installs (or with nil removes) the failure hook.
func (c *Counter) SetFail(f func(eventstore.Event) error) {
	c.mu.Lock()
	c.fail = f
	c.mu.Unlock()
}

// Calls counts Apply calls, including those rolled back.
func (c *Counter) Calls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}

// Transactions counts the transactions Apply was called in: the rounds in
// which the events were applied, rolled back ones included.
func (c *Counter) Transactions() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.txs)
}

func (c *Counter) Apply(ctx context.Context, tx *projections.Tx, ev eventstore.Event) error {
	err := tx.Exec(ctx, `INSERT INTO `+c.Table+` (event_id, stream, version, commit_pos, seq_pos, n) VALUES (?, ?, ?, ?, ?, 1)
		ON CONFLICT (event_id) DO UPDATE SET n = `+c.Table+`.n + 1`,
		ev.ID, ev.Stream, ev.Version, int64(ev.Position.Commit), int64(ev.Position.Seq))
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.calls++
	if c.txs == nil {
		c.txs = map[*projections.Tx]bool{}
	}
	c.txs[tx] = true
	fail := c.fail
	c.mu.Unlock()
	if fail != nil {
		return fail(ev)
	}
	return nil
}

// Seen maps event ID to n.
func (c *Counter) Seen(t testing.TB, db *projections.DB) map[string]int64 {
	t.Helper()
	rows, err := db.Query(context.Background(), `SELECT event_id, n FROM `+c.Table)
	if err != nil {
		t.Fatalf("read %s: %v", c.Table, err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var id string
		var n int64
		if err := rows.Scan(&id, &n); err != nil {
			t.Fatalf("read %s: %v", c.Table, err)
		}
		out[id] = n
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("read %s: %v", c.Table, err)
	}
	return out
}

// ExactlyOnce reports nil when the counter holds every one of ids exactly
// once and nothing else.
func (c *Counter) ExactlyOnce(t testing.TB, db *projections.DB, ids []string) error {
	seen := c.Seen(t, db)
	for _, id := range ids {
		if seen[id] != 1 {
			return fmt.Errorf("%s: event %s applied %d times, want 1 (%d of %d seen)", c.Table, id, seen[id], len(seen), len(ids))
		}
	}
	if len(seen) != len(ids) {
		return fmt.Errorf("%s: %d events applied, want %d", c.Table, len(seen), len(ids))
	}
	return nil
}

func sortStrings(s []string) { sort.Strings(s) }
