package projections

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A catch-up waiter gives up when its context ends, however long the holder
// keeps the lock (a writer's one-second wait once lasted 30 s behind a
// follower's catch-up), and gets the lock once it is free.
func TestCatchUpLockHonoursTheContext(t *testing.T) {
	l := newCatchUpLock()
	if err := l.lock(context.Background()); err != nil {
		t.Fatal(err)
	}
	if l.tryLock() {
		t.Fatal("tryLock took a held lock")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	began := time.Now()
	if err := l.lock(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("lock of a held lock = %v, want the context's deadline", err)
	}
	if waited := time.Since(began); waited > time.Second {
		t.Errorf("the waiter gave up after %s", waited)
	}
	l.unlock()
	if !l.tryLock() {
		t.Fatal("tryLock failed on a free lock")
	}
	l.unlock()
}
