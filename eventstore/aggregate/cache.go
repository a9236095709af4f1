package aggregate

import (
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// Cache keeps the aggregates of one kind an instance loaded recently, so
// that loading one again reads and decodes only the events appended since
// (found by `make load`: a designer's project is loaded on every edit,
// calculation and save, and decoding its whole, growing stream each time
// took a quarter of an instance's CPU).
//
// A cached aggregate is never handed out: Load gets a clone, caught up
// with its stream, so a caller may change its copy freely. Entries are
// as fresh as a full load (the catch-up reads the stream's tail), except
// for what changes stored events in place, which only erasure does: the
// eraser forgets what it erased on its own instance (Forget, Clear), and
// MaxAge bounds how long another instance keeps a clear copy, since every
// entry is loaded afresh from the whole stream once it is that old.
type Cache[A any] struct {
	clone  func(A) A
	keep   func(A) bool
	maxAge time.Duration
	max    int
	now    func() time.Time

	mu sync.Mutex
	m  map[string]cacheEntry[A]
	// vouched: up to this time the stored events of every entry are known
	// unchanged (Vouch), so an entry counts as loaded no earlier.
	vouched time.Time

	// flight shares catch-ups of one aggregate (Repository.sharedCatchUp).
	flight singleflight.Group
}

type cacheEntry[A any] struct {
	agg     A
	version int64
	loaded  time.Time // when it was last loaded from the whole stream
	checked time.Time // when it was last found current (read, or appended on)
	used    time.Time // when LoadRecent last asked for it, or it was put
}

// NewCache makes a cache of at most max aggregates, each rebuilt from its
// whole stream when older than maxAge. clone must copy an aggregate deeply
// enough that applying events to the copy leaves the original unchanged.
// keep (nil: always) tells whether an aggregate may be cached at all: an
// erased account is not.
func NewCache[A any](clone func(A) A, keep func(A) bool, maxAge time.Duration, max int) *Cache[A] {
	return &Cache[A]{clone: clone, keep: keep, maxAge: maxAge, max: max, now: time.Now, m: map[string]cacheEntry[A]{}}
}

// get returns a copy of the cached aggregate and when it was loaded whole,
// or false when there is none young enough.
func (c *Cache[A]) get(id string) (A, time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[id]
	if !ok || c.tooOld(e, c.now()) {
		delete(c.m, id)
		var zero A
		return zero, time.Time{}, false
	}
	return c.clone(e.agg), e.loaded, true
}

// at is the version of the cached aggregate and when it was loaded whole,
// or false when there is none young enough; no copy is made.
func (c *Cache[A]) at(id string) (int64, time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[id]
	if !ok || c.tooOld(e, c.now()) {
		return 0, time.Time{}, false
	}
	return e.version, e.loaded, true
}

// put caches a copy of agg at version, loaded whole at loaded, unless the
// cache holds a newer one already or keep refuses it.
func (c *Cache[A]) put(id string, agg A, version int64, loaded time.Time) {
	if c.keep != nil && !c.keep(agg) {
		c.Forget(id)
		return
	}
	cp := c.clone(agg)
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[id]; ok && e.version > version {
		return
	}
	if _, ok := c.m[id]; !ok && len(c.m) >= c.max {
		// Full: start again rather than track use. The entries are cheap
		// to rebuild, and a busy instance refills with the ones in use.
		clear(c.m)
	}
	now := c.now()
	c.m[id] = cacheEntry[A]{agg: cp, version: version, loaded: loaded, checked: now, used: now}
}

// getChecked is get for an entry found current within the last within.
func (c *Cache[A]) getChecked(id string, within time.Duration) (A, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[id]
	now := c.now()
	if ok {
		e.used = now
		c.m[id] = e
	}
	if !ok || c.tooOld(e, now) || now.Sub(e.checked) >= within || now.Before(e.checked) {
		var zero A
		return zero, false
	}
	return c.clone(e.agg), true
}

// usedSince lists the entries young enough to serve that were used at or
// after since, with their versions.
func (c *Cache[A]) usedSince(since time.Time) (ids []string, versions []int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	for id, e := range c.m {
		if !e.used.Before(since) && !c.tooOld(e, now) {
			ids = append(ids, id)
			versions = append(versions, e.version)
		}
	}
	return ids, versions
}

// confirm records that the entry was current at at, if it is still at
// version.
func (c *Cache[A]) confirm(id string, version int64, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[id]; ok && e.version == version && at.After(e.checked) {
		e.checked = at
		c.m[id] = e
	}
}

// tooOld: the entry was loaded whole, or vouched for, longer than maxAge
// ago. Called with mu held.
func (c *Cache[A]) tooOld(e cacheEntry[A], now time.Time) bool {
	since := e.loaded
	if c.vouched.After(since) {
		since = c.vouched
	}
	return now.Sub(since) > c.maxAge
}

// Vouch says that no stored event of any cached aggregate changed in place
// up to at (an erasure is the only thing that does): every entry then
// counts as loaded whole at at, if it was loaded before, and lives maxAge
// from there. The caller must Clear first whenever it cannot say so.
func (c *Cache[A]) Vouch(at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	// An entry already too old stays so: the vouch speaks for the copies
	// that were still young enough to serve, not for one it would revive
	// (one loaded right after an erasure, with a key cached before it).
	now := c.now()
	for id, e := range c.m {
		if c.tooOld(e, now) {
			delete(c.m, id)
		}
	}
	if at.After(c.vouched) {
		c.vouched = at
	}
}

// Forget drops the aggregate's entry.
func (c *Cache[A]) Forget(id string) {
	c.mu.Lock()
	delete(c.m, id)
	c.mu.Unlock()
}

// Clear drops every entry.
func (c *Cache[A]) Clear() {
	c.mu.Lock()
	clear(c.m)
	c.mu.Unlock()
}

// Len is the number of entries.
func (c *Cache[A]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
