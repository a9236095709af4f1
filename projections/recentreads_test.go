package projections

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"draindesign/eventstore"
	"draindesign/eventstore/memory"
)

// countingReads counts ReadAll calls and can hold them until released.
type countingReads struct {
	eventstore.Store
	calls atomic.Int32
	hold  chan struct{}
	fail  atomic.Bool
}

func (s *countingReads) ReadAll(ctx context.Context, after eventstore.Position, limit int) ([]eventstore.Event, error) {
	s.calls.Add(1)
	if s.hold != nil {
		<-s.hold
	}
	if s.fail.Load() {
		return nil, errors.New("store down")
	}
	return s.Store.ReadAll(ctx, after, limit)
}

func TestRecentReadsShareOnePage(t *testing.T) {
	ctx := context.Background()
	mem := memory.New()
	for i := range 5 {
		if _, err := mem.Append(ctx, "project-a", eventstore.Any, eventstore.NewEvent{ID: string(rune('a' + i)), Type: "t", Data: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	store := &countingReads{Store: mem, hold: make(chan struct{})}
	var c recentReads
	var wg sync.WaitGroup
	got := make([]int, 4)
	for i := range got {
		wg.Go(func() {
			evs, err := c.readAll(ctx, store, eventstore.Position{}, 5, nil, nil)
			if err != nil {
				t.Error(err)
			}
			got[i] = len(evs)
		})
	}
	time.Sleep(50 * time.Millisecond) // all four ask while the first read is held
	close(store.hold)
	wg.Wait()
	if n := store.calls.Load(); n != 1 {
		t.Errorf("four readers of one page made %d store reads, want 1", n)
	}
	for i, n := range got {
		if n != 5 {
			t.Errorf("reader %d got %d events, want 5", i, n)
		}
	}
	// Another page is another read; the same page after recentReadsFor too.
	if _, err := c.readAll(ctx, store, eventstore.Position{}, 2, nil, nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(recentReadsFor + 50*time.Millisecond)
	if _, err := c.readAll(ctx, store, eventstore.Position{}, 5, nil, nil); err != nil {
		t.Fatal(err)
	}
	if n := store.calls.Load(); n != 3 {
		t.Errorf("store reads = %d, want 3 (one per page, one after the page went stale)", n)
	}
}

func TestRecentReadsDoNotKeepFailures(t *testing.T) {
	ctx := context.Background()
	store := &countingReads{Store: memory.New()}
	var c recentReads
	store.fail.Store(true)
	if _, err := c.readAll(ctx, store, eventstore.Position{}, 10, nil, nil); err == nil {
		t.Fatal("a failed read returned no error")
	}
	store.fail.Store(false)
	if _, err := c.readAll(ctx, store, eventstore.Position{}, 10, nil, nil); err != nil {
		t.Errorf("the read after a failure = %v, want it read again", err)
	}
	if n := store.calls.Load(); n != 2 {
		t.Errorf("store reads = %d, want 2", n)
	}
}

// A page shorter than asked for is shared only with a caller it brings to
// the position it needs: one who needs an event committed after that page
// was read must read again, or the event would be missed until the sweep.
func TestRecentReadsShortPageNotShared(t *testing.T) {
	ctx := context.Background()
	mem := memory.New()
	store := &countingReads{Store: mem}
	var c recentReads
	first, err := c.readAll(ctx, store, eventstore.Position{}, 100, nil, nil)
	if err != nil || len(first) != 0 {
		t.Fatalf("empty log: %v %v", first, err)
	}
	if _, err := mem.Append(ctx, "project-a", eventstore.Any, eventstore.NewEvent{ID: "e1", Type: "t", Data: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	all, _ := mem.ReadAll(ctx, eventstore.Position{}, 0)
	to := all[0].Position
	got, err := c.readAll(ctx, store, eventstore.Position{}, 100, &to, nil)
	if err != nil || len(got) != 1 {
		t.Fatalf("after an append, a reader needing it got %d events (%v), want 1", len(got), err)
	}
	// That page reaches to: shared with the next who needs the same.
	before := store.calls.Load()
	if got, _ := c.readAll(ctx, store, eventstore.Position{}, 100, &to, nil); len(got) != 1 || store.calls.Load() != before {
		t.Errorf("a page reaching to was not shared (%d events, %d reads)", len(got), store.calls.Load()-before)
	}
	// To the head (nil) only a full page is shared.
	if _, err := c.readAll(ctx, store, eventstore.Position{}, 100, nil, nil); err != nil {
		t.Fatal(err)
	}
	if store.calls.Load() != before+1 {
		t.Error("a short page was shared with a reader to the head")
	}
}
