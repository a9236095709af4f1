package projections

import (
	"context"
	"slices"
	"sort"
	"sync"
	"time"

	"draindesign/eventstore"
)

// logTailKept is how many events the tail keeps at least once it has
// grown that far, and twice it at most: about five to ten seconds of the
// log under `make load` (a few MiB), enough for the read models that
// follow together, the slower ones (the timeline) included; one further
// behind reads the store.
const logTailKept = 4096

// logTailFor is how long the tail is kept once nobody extends it. It
// holds events as the store gave them, personal data opened, so it must
// not outlive the instance's other short-lived copies (the codec's memo);
// an erasure or a rebuild drops it at once (forget).
const logTailFor = 5 * time.Second

// logTailMaxAge bounds how long an event stays in the stretch however
// busy or quiet the log: a stretch begun longer ago is started again from
// its end, as the instance's aggregate caches are reloaded
// (usecase.CacheMaxAge).
const logTailMaxAge = 30 * time.Second

// logTail keeps the newest stretch of the log that this instance's read
// models read, so that each event is read from the store once per
// instance rather than once per read model. Under `make load`, with
// pg_stat_statements on, the catch-ups' log reads were the largest part
// of PostgreSQL's time after the appends: each event came back with its
// data about nine times and without it nine more (read models woken
// together, each from its own checkpoint, so that recentReads, which
// shares identical reads only, rarely applied).
//
// The stretch is contiguous: every event after from, up to the last one
// kept, as the store showed them. A page of the log never changes once
// read (ReadAll never skips an event, and later reads only add events
// after the page), so serving a part of the stretch is as true as reading
// it again. Only reads with every event's data extend it; a read model
// that reads some types only gets the others without their data, as
// eventstore.ReadAllOf would give them.
type logTail struct {
	mu    sync.Mutex
	from  eventstore.Position // exclusive start
	evs   []eventstore.Event
	at    time.Time // last extended
	began time.Time // when the stretch was started
}

// read is step's log read: the events after "after", at most limit, for
// a caller that needs to reach to (nil: the head), the events of types
// outside types (nil: all) without data. From the tail where it holds
// enough; otherwise from the store (shared through reads), extending the
// tail with what comes back.
func (t *logTail) read(ctx context.Context, store eventstore.Store, reads *recentReads, after eventstore.Position, limit int, to *eventstore.Position, types []string) ([]eventstore.Event, error) {
	if evs, ok := t.serve(after, limit, to); ok {
		return withDataOf(evs, types), nil
	}
	end, ok := t.reaches(after)
	if !ok {
		// Behind the stretch, or none kept: read for itself, as before.
		// A read of every type's data may start a newer stretch.
		evs, err := reads.readAll(ctx, store, after, limit, to, types)
		if err == nil && len(types) == 0 {
			t.extend(after, evs)
		}
		return evs, err
	}
	// The stretch ends before what the caller needs (or before where it
	// stands: a read model that read for itself may be a little ahead):
	// read on from its end, with every type's data, and serve from the
	// longer stretch.
	more, err := reads.readAll(ctx, store, end, limit, to, nil)
	if err != nil {
		return nil, err
	}
	t.extend(end, more)
	// The stretch now reaches as far as the store showed, or a page
	// further: what it holds after "after" is what a read would return
	// (possibly nothing), or a part of it.
	if evs, ok := t.available(after, limit); ok {
		return withDataOf(evs, types), nil
	}
	// Dropped meanwhile (forget), or still short of after: read directly.
	return reads.readAll(ctx, store, after, limit, to, types)
}

// reaches is where the stretch ends, when it starts at or before after:
// a read from its end then serves after too, or comes closer.
func (t *logTail) reaches(after eventstore.Position) (eventstore.Position, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	last, ok := t.lastLocked()
	if !ok || after.Less(t.from) {
		return eventstore.Position{}, false
	}
	return last, true
}

// lastLocked is the stretch's last position, when it holds any and has
// grown within logTailFor. Called with mu held.
func (t *logTail) lastLocked() (eventstore.Position, bool) {
	if len(t.evs) == 0 || time.Since(t.at) > logTailFor {
		return eventstore.Position{}, false
	}
	return t.evs[len(t.evs)-1].Position, true
}

// available is the part of the stretch after "after", at most limit
// events, when the stretch covers after.
func (t *logTail) available(after eventstore.Position, limit int) ([]eventstore.Event, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.coversLocked(after) {
		return nil, false
	}
	i := sort.Search(len(t.evs), func(i int) bool { return after.Less(t.evs[i].Position) })
	evs := t.evs[i:]
	if limit > 0 && len(evs) > limit {
		evs = evs[:limit]
	}
	return slices.Clip(evs), true
}

// serve is the part of the stretch a read from after would return, when
// the stretch holds all of it: a full page, or one that reaches to.
// After a read that reached the head, the stretch ends there; a later
// read that needs the head is not served (the log may have grown).
func (t *logTail) serve(after eventstore.Position, limit int, to *eventstore.Position) ([]eventstore.Event, bool) {
	evs, ok := t.available(after, limit)
	switch {
	case !ok:
		return nil, false
	case limit > 0 && len(evs) == limit:
		return evs, true
	case to != nil && len(evs) > 0 && !evs[len(evs)-1].Position.Less(*to):
		return evs, true
	}
	return nil, false
}

// covers: the stretch starts at or before after and reaches it, so that it
// holds every event right after it that it holds at all.
func (t *logTail) covers(after eventstore.Position) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.coversLocked(after)
}

func (t *logTail) coversLocked(after eventstore.Position) bool {
	last, ok := t.lastLocked()
	return ok && !after.Less(t.from) && !last.Less(after)
}

// extend adds evs, read from the store after "after" with every type's
// data: to the stretch when they continue it, or as a new stretch when
// they are newer than it ends. Older pages are left alone.
func (t *logTail) extend(after eventstore.Position, evs []eventstore.Event) {
	if len(evs) == 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	last, fresh := t.lastLocked()
	switch {
	case fresh && !last.Less(evs[len(evs)-1].Position):
		return // nothing newer than the stretch holds
	case fresh && !after.Less(t.from) && !last.Less(after):
		// The page starts inside the stretch (or at its end) and goes
		// beyond: both are all the log holds there, so they join.
		i := sort.Search(len(evs), func(i int) bool { return last.Less(evs[i].Position) })
		if time.Since(t.began) > logTailMaxAge {
			t.from, t.evs, t.began = last, slices.Clone(evs[i:]), time.Now()
			break
		}
		t.evs = append(t.evs, evs[i:]...)
	default:
		t.from, t.evs, t.began = after, slices.Clone(evs), time.Now()
	}
	t.at = time.Now()
	if len(t.evs) > 2*logTailKept {
		// Cut back to logTailKept only once twice that has gathered, so
		// that the copy is paid once per logTailKept events rather than
		// on every extension (a copy of the whole stretch per page was a
		// seventh of an instance's allocations under `make load`).
		// Served slices keep their own view of the old array.
		n := len(t.evs) - logTailKept
		t.from = t.evs[n-1].Position
		t.evs = slices.Clone(t.evs[n:])
	}
}

// forget drops the stretch: after an erasure (it may hold personal data
// in the clear) and a rebuild.
func (t *logTail) forget() {
	t.mu.Lock()
	t.from, t.evs = eventstore.Position{}, nil
	t.mu.Unlock()
}

// withDataOf is evs with the data of the events whose type is not in
// types removed (types nil: evs as they are), in a copy: the stretch is
// shared.
func withDataOf(evs []eventstore.Event, types []string) []eventstore.Event {
	if len(types) == 0 {
		return evs
	}
	out := make([]eventstore.Event, len(evs))
	for i, e := range evs {
		if _, ok := slices.BinarySearch(types, e.Type); !ok {
			e.Data = nil
		}
		out[i] = e
	}
	return out
}
