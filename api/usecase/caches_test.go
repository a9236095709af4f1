package usecase

import (
	"context"
	"testing"
	"time"

	"draindesign/domain/account"
	"draindesign/eventstore"
	"draindesign/eventstore/memory"
)

// While the log shows no erasure, the erasure watch keeps cached copies
// past their age limit; an account.deleted empties the caches and lets the
// copies age again for the block that follows.
func TestWatchErasuresVouchesUntilAnErasure(t *testing.T) {
	t.Parallel()
	const maxAge, blockFor, tick = 300 * time.Millisecond, time.Second, 20 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store := memory.New()
	caches := newCaches(maxAge, blockFor)
	u := NewProjects(Config{Store: store, Caches: caches})
	a := Actor{User: &account.Account{ID: "u1", Username: "designer", Country: "GB"}}
	// cached: the next load takes the cached copy (not loaded whole).
	cached := func(id string) bool {
		t.Helper()
		_, fresh, err := u.repo.LoadCached(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return !fresh
	}

	go caches.WatchErasures(ctx, store, tick)
	time.Sleep(blockFor + 5*tick) // the block after the start
	p, _, err := u.CreateDraft(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(maxAge + 5*tick)
	if !cached(p.ID) {
		t.Fatal("a copy older than the age limit was loaded whole with no erasure in the log")
	}

	if _, err := store.Append(ctx, account.Stream("u2"), eventstore.Any,
		eventstore.NewEvent{ID: "deleted-u2", Type: account.TypeDeleted, Data: []byte(`{"user_id":"u2"}`)}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * tick)
	if cached(p.ID) {
		t.Fatal("the caches kept a copy after an account was deleted")
	}
	// The load above cached it again; within the block it ages as before.
	time.Sleep(maxAge + 5*tick)
	if cached(p.ID) {
		t.Error("a copy outlived its age limit in the block after an erasure")
	}
}

// A store that cannot tell its head is not watched: the copies age.
func TestWatchErasuresNeedsTheHead(t *testing.T) {
	t.Parallel()
	done := make(chan struct{})
	go func() {
		newCaches(time.Second, time.Second).WatchErasures(context.Background(), struct{ eventstore.Store }{memory.New()}, time.Millisecond)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the watch ran on a store without a head")
	}
}
