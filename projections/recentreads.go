package projections

import (
	"context"
	"strings"
	"sync"
	"time"

	"draindesign/eventstore"
)

// recentReadsFor is how long a log read is handed to other projections
// asking for the same page. The read models of one instance move together
// (every event's message wakes all of them), so they mostly ask for the same
// page at the same moment; without sharing, each event was read, and
// decrypted, once per read model.
const recentReadsFor = 200 * time.Millisecond

// recentReadsKept bounds the pages kept.
const recentReadsKept = 16

// recentReads shares ReadAll pages between the projections of one runner:
// one read for all who ask for the same page while it is in flight or just
// done. A page of the log never changes once read: a later read from the
// same position may only return more events, never other ones. So a shared
// page is as true as a fresh one, but it may be shorter: it is shared only
// when it is full (the reader asks again from where it ends) or reaches the
// position the caller needs; otherwise the caller reads for itself, so that
// a page read before an event was committed never hides it.
type recentReads struct {
	mu    sync.Mutex
	pages map[recentKey]*recentPage
}

type recentKey struct {
	after eventstore.Position
	limit int
	types string // the types read with their data, joined; "": all
}

type recentPage struct {
	done chan struct{}
	evs  []eventstore.Event
	err  error
	at   time.Time // when the read finished
}

// readAll is store.ReadAll(after, limit), shared where it can be; to, when
// not nil, is the position the caller needs to reach. With types, it is
// eventstore.ReadAllOf: the other types' events come without their data.
func (c *recentReads) readAll(ctx context.Context, store eventstore.Store, after eventstore.Position, limit int, to *eventstore.Position, types []string) ([]eventstore.Event, error) {
	key := recentKey{after, limit, strings.Join(types, "\x00")}
	c.mu.Lock()
	if c.pages == nil {
		c.pages = map[recentKey]*recentPage{}
	}
	if p, ok := c.pages[key]; ok && p.fresh() {
		c.mu.Unlock()
		select {
		case <-p.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		// A failure may be the reader's own (its context ended), and a
		// short page may predate what this caller needs: read afresh,
		// and share that read instead.
		if p.err == nil && p.serves(limit, to) {
			return p.evs, nil
		}
		c.mu.Lock()
	}
	c.evict()
	p := &recentPage{done: make(chan struct{})}
	c.pages[key] = p
	c.mu.Unlock()

	if len(types) == 0 {
		p.evs, p.err = store.ReadAll(ctx, after, limit)
	} else {
		p.evs, p.err = eventstore.ReadAllOf(ctx, store, after, limit, types)
	}
	c.mu.Lock()
	p.at = time.Now()
	if p.err != nil && c.pages[key] == p {
		delete(c.pages, key) // a failure is not shared beyond those waiting now
	}
	c.mu.Unlock()
	close(p.done)
	return p.evs, p.err
}

// serves: the page can stand for a fresh read of limit events for a caller
// who needs to reach to (nil: the head).
func (p *recentPage) serves(limit int, to *eventstore.Position) bool {
	if limit > 0 && len(p.evs) == limit {
		return true
	}
	return to != nil && len(p.evs) > 0 && !p.evs[len(p.evs)-1].Position.Less(*to)
}

// fresh: still being read, or read within recentReadsFor. Called with mu held.
func (p *recentPage) fresh() bool {
	return p.at.IsZero() || time.Since(p.at) < recentReadsFor
}

// evict drops stale pages, and the oldest beyond recentReadsKept. Called
// with mu held.
func (c *recentReads) evict() {
	for k, p := range c.pages {
		if !p.fresh() {
			delete(c.pages, k)
		}
	}
	for len(c.pages) >= recentReadsKept {
		var oldest recentKey
		var at time.Time
		for k, p := range c.pages {
			if !p.at.IsZero() && (at.IsZero() || p.at.Before(at)) {
				oldest, at = k, p.at
			}
		}
		if at.IsZero() {
			return // all in flight: let the map grow for now
		}
		delete(c.pages, oldest)
	}
}
