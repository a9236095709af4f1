package aggregate_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"draindesign/eventstore"
	"draindesign/eventstore/aggregate"
)

// countingCodec counts the events it decodes.
type countingCodec struct {
	codec
	n *atomic.Int64
}

func (c countingCodec) Decode(ev eventstore.Event) (added, error) {
	c.n.Add(1)
	return c.codec.Decode(ev)
}

func cloneCounter(c *counter) *counter { cp := *c; return &cp }

// cachedPair is a repository without a cache (another instance) and one
// with the given cache over the same store, whose decodings are counted.
func cachedPair(t *testing.T, keep func(*counter) bool, maxAge time.Duration, max int) (plain, cached *aggregate.Repository[*counter, added], decoded *atomic.Int64) {
	t.Helper()
	plain, _, _ = setup(t)
	decoded = new(atomic.Int64)
	c := *plain
	c.Codec = countingCodec{n: decoded}
	c.Cache = aggregate.NewCache(cloneCounter, keep, maxAge, max)
	return plain, &c, decoded
}

// A cached repository loads the latest version from its copy and the
// events since, whoever appended them, and hands out copies.
func TestCacheReadsOnlyTheEventsSince(t *testing.T) {
	ctx := context.Background()
	plain, cached, decoded := cachedPair(t, nil, time.Minute, 100)
	by := aggregate.Actor{UserID: "u1"}
	if _, err := plain.Create(ctx, "a", by, []added{{N: 1}, {N: 2}, {N: 3}}); err != nil {
		t.Fatal(err)
	}
	c, err := cached.Load(ctx, "a")
	if err != nil || c.total != 6 || decoded.Load() != 3 {
		t.Fatalf("first load: %+v %v after %d decodes, want 6 from 3", c, err, decoded.Load())
	}
	c.total = 1000 // the caller's copy: not the cache's
	// Another instance (no cache) appends.
	if _, err := plain.Update(ctx, "a", -1, by, nil, add(10)); err != nil {
		t.Fatal(err)
	}
	c, err = cached.Load(ctx, "a")
	if err != nil || c.total != 16 || c.version != 4 {
		t.Fatalf("second load: %+v %v, want 16 at version 4", c, err)
	}
	if decoded.Load() != 4 {
		t.Errorf("%d events decoded in all, want 4: the second load reads only the new one", decoded.Load())
	}
	if cached.Cache.Len() != 1 {
		t.Errorf("cache holds %d, want 1", cached.Cache.Len())
	}
	// An update through the cached repository decides on the caught-up
	// copy, and a stale one is still a conflict.
	if _, err := cached.Update(ctx, "a", 3, by, nil, add(1)); !errors.Is(err, aggregate.ErrStale) {
		t.Errorf("update at version 3 of 4: %v, want ErrStale", err)
	}
	if c, err := cached.Update(ctx, "a", 4, by, nil, add(1)); err != nil || c.total != 17 {
		t.Errorf("update at version 4: %+v %v, want 17", c, err)
	}
	cached.Cache.Forget("a")
	before := decoded.Load()
	if c, err := cached.Load(ctx, "a"); err != nil || c.total != 17 || decoded.Load()-before != 5 {
		t.Errorf("after Forget: %+v %v, %d decodes; want 17 from the whole stream of 5", c, err, decoded.Load()-before)
	}
}

// An aggregate keep refuses is not cached: each load reads the whole
// stream (an erased account must not be served from a copy in clear).
func TestCacheKeepsOnlyWhatKeepAllows(t *testing.T) {
	ctx := context.Background()
	plain, cached, decoded := cachedPair(t, func(c *counter) bool { return c.total < 10 }, time.Minute, 100)
	by := aggregate.Actor{UserID: "u1"}
	if _, err := plain.Create(ctx, "a", by, []added{{N: 1}}); err != nil {
		t.Fatal(err)
	}
	if _, err := cached.Load(ctx, "a"); err != nil || cached.Cache.Len() != 1 {
		t.Fatalf("load: %v, %d cached", err, cached.Cache.Len())
	}
	if _, err := plain.Update(ctx, "a", -1, by, nil, add(20)); err != nil {
		t.Fatal(err)
	}
	c, err := cached.Load(ctx, "a")
	if err != nil || c.total != 21 {
		t.Fatalf("load: %+v %v", c, err)
	}
	if cached.Cache.Len() != 0 {
		t.Error("an aggregate keep refuses stayed cached")
	}
	before := decoded.Load()
	if _, err := cached.Load(ctx, "a"); err != nil || decoded.Load()-before != 2 {
		t.Errorf("reload: %v, %d decodes; want the whole stream (2)", err, decoded.Load()-before)
	}
}

// Entries older than the cache's age are loaded whole again; a full cache
// starts afresh.
func TestCacheAgeAndSize(t *testing.T) {
	ctx := context.Background()
	plain, cached, decoded := cachedPair(t, nil, 50*time.Millisecond, 2)
	by := aggregate.Actor{UserID: "u1"}
	for _, id := range []string{"a", "b", "c"} {
		if _, err := plain.Create(ctx, id, by, []added{{N: 1}, {N: 1}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"a", "b", "c"} {
		if _, err := cached.Load(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	if n := cached.Cache.Len(); n != 1 {
		t.Errorf("a cache of 2 holds %d after a third entry, want 1 (emptied, then the third)", n)
	}
	time.Sleep(60 * time.Millisecond)
	before := decoded.Load()
	if _, err := cached.Load(ctx, "c"); err != nil || decoded.Load()-before != 2 {
		t.Errorf("an old entry: %v, %d decodes; want the whole stream (2)", err, decoded.Load()-before)
	}
}

// LoadSeen trusts a cached copy at the version the caller knows of, and
// reads the stream for anything newer.
func TestLoadSeen(t *testing.T) {
	ctx := context.Background()
	plain, cached, _ := cachedPair(t, nil, time.Minute, 100)
	by := aggregate.Actor{UserID: "u1"}
	if _, err := plain.Create(ctx, "a", by, []added{{N: 1}, {N: 2}}); err != nil {
		t.Fatal(err)
	}
	if _, err := cached.Load(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := plain.Update(ctx, "a", -1, by, nil, add(4)); err != nil {
		t.Fatal(err)
	}
	if c, err := cached.LoadSeen(ctx, "a", 2); err != nil || c.version != 2 || c.total != 3 {
		t.Errorf("LoadSeen(2) = %+v %v, want the cached copy at version 2", c, err)
	}
	if c, err := cached.LoadSeen(ctx, "a", 3); err != nil || c.version != 3 || c.total != 7 {
		t.Errorf("LoadSeen(3) = %+v %v, want version 3 read from the stream", c, err)
	}
	if c, err := cached.LoadSeen(ctx, "a", -1); err != nil || c.version != 3 {
		t.Errorf("LoadSeen(-1) = %+v %v, want the latest", c, err)
	}
}

// An entry lives maxAge from when it was loaded whole, or from the last
// Vouch after that; a Vouch older than the load changes nothing.
func TestCacheVouch(t *testing.T) {
	ctx := context.Background()
	plain, cached, decoded := cachedPair(t, nil, 30*time.Second, 100)
	now := time.Date(2026, 11, 29, 6, 0, 0, 0, time.UTC)
	cached.Cache.SetClock(func() time.Time { return now })
	by := aggregate.Actor{UserID: "u1"}
	if _, err := plain.Create(ctx, "a", by, []added{{N: 1}, {N: 2}}); err != nil {
		t.Fatal(err)
	}
	if _, err := cached.Load(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	loads := func() int64 {
		t.Helper()
		before := decoded.Load()
		if _, err := cached.Load(ctx, "a"); err != nil {
			t.Fatal(err)
		}
		return decoded.Load() - before
	}
	cached.Cache.Vouch(now.Add(-time.Minute)) // before the load: no effect
	now = now.Add(20 * time.Second)
	cached.Cache.Vouch(now)
	now = now.Add(25 * time.Second) // 45 s after the load, 25 s after the vouch
	if n := loads(); n != 0 {
		t.Errorf("a vouched entry was loaded whole again (%d events decoded)", n)
	}
	now = now.Add(10 * time.Second) // 35 s after the vouch
	if n := loads(); n != 2 {
		t.Errorf("an entry 35 s past its vouch decoded %d events, want the whole stream of 2", n)
	}
	// A vouch does not revive an entry already past its age.
	now = now.Add(31 * time.Second)
	cached.Cache.Vouch(now)
	if n := loads(); n != 2 {
		t.Errorf("an entry past its age before the vouch decoded %d events, want the whole stream of 2", n)
	}
}

// failingReads fails every stream read while down is set.
type failingReads struct {
	eventstore.Store
	down atomic.Bool
}

func (s *failingReads) ReadStream(ctx context.Context, stream string, from int64, limit int) ([]eventstore.Event, error) {
	if s.down.Load() {
		return nil, errors.New("database unreachable")
	}
	return s.Store.ReadStream(ctx, stream, from, limit)
}

// A load that fails because the store does keeps the cached copy: once
// the store is back, the next load reads only the events since, not the
// whole stream (every aggregate in use loaded whole at once after a
// database outage).
func TestCacheOutlivesAStoreOutage(t *testing.T) {
	ctx := context.Background()
	plain, cached, decoded := cachedPair(t, nil, time.Minute, 100)
	by := aggregate.Actor{UserID: "u1"}
	if _, err := plain.Create(ctx, "a", by, []added{{N: 1}, {N: 2}, {N: 3}}); err != nil {
		t.Fatal(err)
	}
	if _, err := cached.Load(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	store := &failingReads{Store: cached.Store}
	cached.Store = store
	store.down.Store(true)
	if _, err := cached.Load(ctx, "a"); err == nil {
		t.Fatal("a load with the store down succeeded")
	}
	store.down.Store(false)
	if _, err := plain.Update(ctx, "a", -1, by, nil, add(10)); err != nil {
		t.Fatal(err)
	}
	before := decoded.Load()
	c, err := cached.Load(ctx, "a")
	if err != nil || c.total != 16 || c.version != 4 {
		t.Fatalf("load after the outage: %+v %v, want 16 at version 4", c, err)
	}
	if n := decoded.Load() - before; n != 1 {
		t.Errorf("the load after the outage decoded %d events, want the 1 appended since", n)
	}
}

// readGate counts stream reads and holds each until the gate opens.
type readGate struct {
	eventstore.Store
	reads atomic.Int64
	gate  chan struct{}
}

// gateReads puts a readGate under repo's store, its gate open or held.
func gateReads(repo *aggregate.Repository[*counter, added], open bool) *readGate {
	g := &readGate{Store: repo.Store, gate: make(chan struct{})}
	if open {
		close(g.gate)
	}
	repo.Store = g
	return g
}

func (s *readGate) ReadStream(ctx context.Context, stream string, from int64, limit int) ([]eventstore.Event, error) {
	s.reads.Add(1)
	<-s.gate
	return s.Store.ReadStream(ctx, stream, from, limit)
}

// A cached repository's own appends move its copy on: loading the version
// it wrote reads nothing and decodes nothing (the events are applied as
// decided), and gives what a load from the stream gives. Another
// instance's append in between leaves the copy for a load to catch up.
func TestCacheFollowsOwnAppends(t *testing.T) {
	ctx := context.Background()
	plain, cached, decoded := cachedPair(t, nil, time.Minute, 100)
	gate := gateReads(cached, true)
	by := aggregate.Actor{UserID: "u1"}
	if _, err := cached.Create(ctx, "a", by, []added{{N: 1}, {N: 2}}); err != nil {
		t.Fatal(err)
	}
	if _, err := cached.Update(ctx, "a", -1, by, nil, add(4)); err != nil {
		t.Fatal(err)
	}
	reads := gate.reads.Load()
	c, err := cached.LoadSeen(ctx, "a", 3)
	if err != nil || c.version != 3 || c.total != 7 || gate.reads.Load() != reads || decoded.Load() != 0 {
		t.Errorf("LoadSeen(3) after its own writes = %+v %v with %d reads and %d decodes, want version 3, total 7, none",
			c, err, gate.reads.Load()-reads, decoded.Load())
	}
	want, err := plain.Load(ctx, "a")
	if err != nil || *want != *c {
		t.Errorf("cached %+v, loaded from the stream %+v %v", c, want, err)
	}

	// Another instance writes version 4; this one's write of 5 finds its
	// copy at 3 and leaves it, and a load reads what it lacks.
	if _, err := plain.Update(ctx, "a", -1, by, nil, add(8)); err != nil {
		t.Fatal(err)
	}
	if _, err := cached.Update(ctx, "a", 4, by, nil, add(16)); err != nil {
		t.Fatal(err)
	}
	if c, err := cached.LoadSeen(ctx, "a", 5); err != nil || c.version != 5 || c.total != 31 {
		t.Errorf("LoadSeen(5) after another instance's write = %+v %v, want version 5, total 31", c, err)
	}
}

// Callers told of the same version together share one read of the stream.
func TestLoadSeenSharesTheCatchUp(t *testing.T) {
	ctx := context.Background()
	plain, cached, _ := cachedPair(t, nil, time.Minute, 100)
	by := aggregate.Actor{UserID: "u1"}
	if _, err := plain.Create(ctx, "a", by, []added{{N: 1}}); err != nil {
		t.Fatal(err)
	}
	if _, err := cached.Load(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := plain.Update(ctx, "a", -1, by, nil, add(2)); err != nil {
		t.Fatal(err)
	}
	gate := gateReads(cached, false)
	const callers = 10
	got := make(chan int64, callers)
	for range callers {
		go func() {
			c, err := cached.LoadSeen(ctx, "a", 2)
			if err != nil {
				t.Error(err)
			}
			got <- c.version
		}()
	}
	// Let them all arrive while the first read is held; a latecomer finds
	// the copy caught up and reads nothing either.
	time.Sleep(100 * time.Millisecond)
	close(gate.gate)
	for range callers {
		if v := <-got; v != 2 {
			t.Errorf("a caller got version %d, want 2", v)
		}
	}
	if n := gate.reads.Load(); n != 1 {
		t.Errorf("%d stream reads for %d callers told of the same version, want 1", n, callers)
	}
}

// A write decides on the cached copy without reading the stream first;
// the append at the copy's version is the check. A copy left behind by
// another instance's write is found out, and the command decided again on
// a fresh load: the outcome is what it would be without the cache.
func TestUpdateFromTheCachedCopy(t *testing.T) {
	errLow := errors.New("total too low")
	atLeast := func(n int) func(*counter) error {
		return func(c *counter) error {
			if c.total < n {
				return errLow
			}
			return nil
		}
	}
	addIfBelow := func(limit, n int) aggregate.Decide[*counter, added] {
		return func(c *counter) ([]added, error) {
			if c.total >= limit {
				return nil, nil
			}
			return []added{{N: n}}, nil
		}
	}
	for _, tc := range []struct {
		name      string
		behind    bool // another instance writes +10 after the copy was cached
		expected  int64
		guard     func(*counter) error
		decide    aggregate.Decide[*counter, added]
		wantTotal int
		wantReads bool
		wantErr   error
	}{
		{name: "current copy", expected: -1, decide: add(1), wantTotal: 4},
		{name: "copy behind", behind: true, expected: -1, decide: add(1), wantTotal: 14, wantReads: true},
		{name: "copy behind, version named", behind: true, expected: 3, decide: add(1), wantTotal: 14, wantReads: true},
		{name: "stale version named", expected: 1, decide: add(1), wantTotal: 3, wantReads: true, wantErr: aggregate.ErrStale},
		{name: "refused on the copy only", behind: true, expected: -1, guard: atLeast(10), decide: add(1), wantTotal: 14, wantReads: true},
		{name: "refused on both", expected: -1, guard: atLeast(10), decide: add(1), wantTotal: 3, wantReads: true, wantErr: errLow},
		{name: "nothing to do on the copy only", behind: true, expected: -1, decide: addIfBelow(1, 100), wantTotal: 13, wantReads: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			plain, cached, _ := cachedPair(t, nil, time.Minute, 100)
			gate := gateReads(cached, true)
			by := aggregate.Actor{UserID: "u1"}
			if _, err := cached.Create(ctx, "a", by, []added{{N: 1}, {N: 2}}); err != nil {
				t.Fatal(err)
			}
			if tc.behind {
				if _, err := plain.Update(ctx, "a", -1, by, nil, add(10)); err != nil {
					t.Fatal(err)
				}
			}
			reads := gate.reads.Load()
			c, err := cached.Update(ctx, "a", tc.expected, by, tc.guard, tc.decide)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Update: %v, want %v", err, tc.wantErr)
			}
			if (gate.reads.Load() > reads) != tc.wantReads {
				t.Errorf("%d stream reads, want reads %v", gate.reads.Load()-reads, tc.wantReads)
			}
			if c.total != tc.wantTotal {
				t.Errorf("total %d, want %d", c.total, tc.wantTotal)
			}
			stored, err := plain.Load(ctx, "a")
			if err != nil || stored.total != tc.wantTotal {
				t.Errorf("stored total %d (%v), want %d", stored.total, err, tc.wantTotal)
			}
		})
	}
}

// LoadRecent takes a copy found current within the window as it is, and
// reads the stream once the window is up: another instance's write shows
// then.
func TestLoadRecent(t *testing.T) {
	ctx := context.Background()
	plain, cached, _ := cachedPair(t, nil, time.Minute, 100)
	gate := gateReads(cached, true)
	by := aggregate.Actor{UserID: "u1"}
	if _, err := plain.Create(ctx, "a", by, []added{{N: 1}}); err != nil {
		t.Fatal(err)
	}
	const window = 80 * time.Millisecond
	if c, err := cached.LoadRecent(ctx, "a", window); err != nil || c.total != 1 {
		t.Fatalf("first load: %+v %v", c, err)
	}
	if _, err := plain.Update(ctx, "a", -1, by, nil, add(2)); err != nil {
		t.Fatal(err)
	}
	reads := gate.reads.Load()
	if c, err := cached.LoadRecent(ctx, "a", window); err != nil || c.total != 1 || gate.reads.Load() != reads {
		t.Errorf("within the window: %+v %v after %d reads, want the copy (total 1) and no read", c, err, gate.reads.Load()-reads)
	}
	time.Sleep(window + 20*time.Millisecond)
	if c, err := cached.LoadRecent(ctx, "a", window); err != nil || c.total != 3 || gate.reads.Load() == reads {
		t.Errorf("after the window: %+v %v, want the other instance's write read (total 3)", c, err)
	}
	// Its own write keeps the copy current, and counts as a check.
	if _, err := cached.Update(ctx, "a", -1, by, nil, add(4)); err != nil {
		t.Fatal(err)
	}
	reads = gate.reads.Load()
	if c, err := cached.LoadRecent(ctx, "a", window); err != nil || c.total != 7 || gate.reads.Load() != reads {
		t.Errorf("after its own write: %+v %v after %d reads, want total 7 and no read", c, err, gate.reads.Load()-reads)
	}
}

// versionReads counts the streams whose versions a store was asked.
type versionReads struct {
	*readGate
	asked []string
}

func (s *versionReads) StreamVersion(ctx context.Context, stream string) (int64, error) {
	s.asked = append(s.asked, stream)
	return s.Store.StreamVersion(ctx, stream)
}

// Recheck asks the versions of the copies in use, in one go, and a copy
// still at its stored version then serves LoadRecent for another window
// without a read of its own; a copy not in use is not asked, and one that
// another instance wrote to is read again once its window is up.
func TestRecheck(t *testing.T) {
	ctx := context.Background()
	plain, cached, _ := cachedPair(t, nil, time.Minute, 100)
	gate := gateReads(cached, true)
	store := &versionReads{readGate: gate}
	cached.Store = store
	now := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	cached.Cache.SetClock(func() time.Time { return now })
	by := aggregate.Actor{UserID: "u1"}
	for _, id := range []string{"a", "b"} {
		if _, err := plain.Create(ctx, id, by, []added{{N: 1}}); err != nil {
			t.Fatal(err)
		}
		if _, err := cached.LoadRecent(ctx, id, time.Second); err != nil {
			t.Fatal(err)
		}
	}
	load := func(id string, wantTotal int, wantRead bool) {
		t.Helper()
		reads := gate.reads.Load()
		c, err := cached.LoadRecent(ctx, id, time.Second)
		if err != nil || c.total != wantTotal || (gate.reads.Load() > reads) != wantRead {
			t.Errorf("LoadRecent(%s) at %s: %+v %v after %d reads; want total %d, read %v",
				id, now.Format("05.000"), c, err, gate.reads.Load()-reads, wantTotal, wantRead)
		}
	}
	now = now.Add(600 * time.Millisecond)
	load("a", 1, false)
	now = now.Add(200 * time.Millisecond)
	if err := cached.Recheck(ctx, 500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if len(store.asked) != 1 || store.asked[0] != "counter-a" {
		t.Errorf("rechecked %v, want only the copy in use (counter-a)", store.asked)
	}
	now = now.Add(700 * time.Millisecond) // 1.5 s after the loads
	load("a", 1, false)
	load("b", 1, true)

	if _, err := plain.Update(ctx, "a", -1, by, nil, add(2)); err != nil {
		t.Fatal(err)
	}
	now = now.Add(100 * time.Millisecond)
	if err := cached.Recheck(ctx, 500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	now = now.Add(300 * time.Millisecond) // 1.1 s after a's last check
	load("a", 3, true)
}
