package usecase

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/eventstore/memory"
	"draindesign/projections"
)

// stuckView is a read model whose Apply, once stuck, waits until released
// or its context ends: a follower in a long catch-up, as under load.
type stuckView struct {
	mu      sync.Mutex
	stuck   bool
	release chan struct{}
}

func (v *stuckView) Name() string     { return "stuck_view" }
func (v *stuckView) Tables() []string { return []string{"stuck_view"} }
func (v *stuckView) Schema() []string {
	return []string{`CREATE TABLE IF NOT EXISTS stuck_view (event_id TEXT PRIMARY KEY)`}
}

func (v *stuckView) Apply(ctx context.Context, tx *projections.Tx, ev eventstore.Event) error {
	v.mu.Lock()
	stuck := v.stuck
	v.mu.Unlock()
	if stuck {
		select {
		case <-v.release:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return tx.Exec(ctx, `INSERT INTO stuck_view (event_id) VALUES (?)`, ev.ID)
}

func (v *stuckView) stick() {
	v.mu.Lock()
	v.stuck = true
	v.mu.Unlock()
}

// TestRetriedWriteDoesNotWaitOutAStuckReadModel: a write that appends
// nothing (the retry of an edit already stored) waits for the read models
// only briefly (noopSettle). It waited for them without bound, and edits
// retried after an instance's SIGKILL hung until the client's 30 s
// timeout behind a follower's long catch-up (`make load`).
func TestRetriedWriteDoesNotWaitOutAStuckReadModel(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := memory.New()
	db, err := projections.OpenSQLite(filepath.Join(t.TempDir(), "read-models.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	view := &stuckView{release: make(chan struct{})}
	runner, err := projections.NewRunner(projections.Config{Store: store, DB: db, Projections: []projections.Projection{view}})
	if err != nil {
		t.Fatal(err)
	}
	if err := runner.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		close(view.release)
		runner.Close()
	})
	u := NewProjects(Config{Store: store, DB: db, Runner: runner,
		Appended: runner.Appended})
	a := Actor{User: &account.Account{ID: "u1", Username: "designer", Country: "GB"}}
	p, runID, err := u.CreateDraft(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	edit := Edit{Type: "change_inputs", RunID: runID, Fields: project.Inputs{"channel_length_m": json.RawMessage(`20`)}}

	// The edit is stored while the read model is stuck: its own wait ends
	// with its context (the client giving up), the edit stays stored.
	view.stick()
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	stored, _, err := u.EditProject(short, a, p.ID, edit)
	cancel()
	if err != nil {
		t.Fatalf("edit: %v", err)
	}
	if stored.Version <= p.Version {
		t.Fatalf("the edit appended nothing (version %d after %d)", stored.Version, p.Version)
	}

	// Its retry decides nothing and must answer soon, not wait for the
	// stuck read model to show the stored edit.
	patient, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	started := time.Now()
	again, _, err := u.EditProject(patient, a, p.ID, edit)
	took := time.Since(started)
	if err != nil {
		t.Fatalf("retried edit: %v", err)
	}
	if again.Version != stored.Version {
		t.Errorf("retried edit moved the project to version %d, want %d", again.Version, stored.Version)
	}
	if took > 10*noopSettle {
		t.Errorf("retried edit answered after %s; a write that appends nothing waits at most about %s", took, noopSettle)
	}
}
