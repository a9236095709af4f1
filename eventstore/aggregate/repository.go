// Package aggregate is the one generic repository every aggregate is loaded
// and changed through: load the stream, let the domain decide, append the
// decided events at the version it decided on, with the actor, correlation
// and causation ids in their metadata. A concurrent writer is a conflict,
// never a lost write; a command that did not name a version is re-decided
// on a fresh load.
package aggregate

import (
	"context"
	"errors"
	"fmt"
	"time"

	"draindesign/domain/fault"
	"draindesign/eventstore"
)

// Root is an aggregate as the repository needs it: events move it on, and
// the repository tells it the stream version it stands at (which counts
// events of types this build does not know, skipped while loading).
type Root[E any] interface {
	Apply(E)
	SetVersion(int64)
	StreamVersion() int64
}

// Codec turns an aggregate's events into stored ones and back.
type Codec[E any] interface {
	Encode(E) (eventstore.NewEvent, error)
	// Decode gives the event, or an error matching ErrUnknownType for an
	// event type this build does not know (skipped and counted).
	Decode(eventstore.Event) (E, error)
}

// ErrUnknownType marks an event type the codec does not know.
var ErrUnknownType = errors.New("unknown event type")

// ErrCorrupt marks a stored event of a known type that does not decode (or
// is at a schema newer than this build knows): reading again will not help.
var ErrCorrupt = errors.New("stored event cannot be read")

// Actor is who acts, for the events' metadata.
type Actor struct {
	UserID        string
	CorrelationID string
	CausationID   string
}

// DefaultMaxEventBytes bounds one stored event: a whole project save of
// many runs is written as many events, each well under this.
const DefaultMaxEventBytes = 256 << 10

// Repository loads and changes aggregates of one kind.
type Repository[A Root[E], E any] struct {
	Store  eventstore.Store
	Codec  Codec[E]
	Stream func(id string) string
	// New makes the empty aggregate events are applied to.
	New func() A
	// Missing is the error for a stream with no events.
	Missing func(id string) error
	// Appended is told after each successful append, of the stream,
	// where the append landed (its versions, its last event's position)
	// and the types of the events appended.
	Appended func(stream string, res eventstore.AppendResult, types []string)
	// Skipped is told of each event of an unknown type while loading.
	Skipped func(stream, eventType string)
	// MaxEventBytes bounds one event's data (0: DefaultMaxEventBytes).
	MaxEventBytes int
	NewID         func() string
	Now           func() time.Time
	// Cache (nil: none) keeps recently loaded aggregates, so that loading
	// the latest version reads only the events since.
	Cache *Cache[A]
}

// ErrStale says the caller decided on an older version than the stored one.
var ErrStale = &fault.Error{K: fault.Conflict, Message: "The project was changed elsewhere since you loaded it; load it again before saving"}

// Load rebuilds the aggregate as it stands now: from its whole stream, or
// from the cached copy and the events since.
func (r *Repository[A, E]) Load(ctx context.Context, id string) (A, error) {
	return r.LoadSeen(ctx, id, -1)
}

// LoadSeen is Load for a caller who knows the stream has reached version
// (a live stream told of an append): a cached copy at that version or
// later is taken as it is, without asking the store for anything newer.
// Several live streams of one project, told of the same append, then read
// the stream once between them. A negative version trusts no copy.
func (r *Repository[A, E]) LoadSeen(ctx context.Context, id string, version int64) (A, error) {
	if r.Cache == nil {
		return r.LoadAt(ctx, id, 0)
	}
	if version >= 0 {
		if agg, ok := r.sharedCatchUp(ctx, id, version); ok {
			return agg, nil
		}
	}
	if agg, loaded, ok := r.Cache.get(id); ok {
		err := r.CatchUp(ctx, id, agg)
		switch {
		case err == nil && (r.Cache.keep == nil || r.Cache.keep(agg)):
			r.Cache.put(id, agg, agg.StreamVersion(), loaded)
			return agg, nil
		case err != nil && !errors.Is(err, ErrCorrupt):
			// The store failed, not the copy: keep it, for the next load
			// to catch up from. Dropping it made every aggregate in use
			// load whole at once when the database came back (`make
			// load`: an instance at full CPU for six seconds after a
			// five-second PostgreSQL outage, decoding whole projects).
			var none A
			return none, err
		}
		// A refused copy, or events it cannot take: load the whole
		// stream instead.
		r.Cache.Forget(id)
	}
	started := r.Cache.now()
	agg, err := r.LoadAt(ctx, id, 0)
	if err == nil {
		r.Cache.put(id, agg, agg.StreamVersion(), started)
	}
	return agg, err
}

// sharedCatchUp brings the cached copy to at least version, one catch-up
// per aggregate at a time: the live streams of one project on an instance
// (a designer's two tabs, colleagues) are told of an append together, and
// each reading it on its own made as many reads of the same events. A
// caller joining a catch-up that started earlier checks that it reached
// its version; ok is false when it did not (or there is no copy, or the
// read failed), for the caller to load on its own.
func (r *Repository[A, E]) sharedCatchUp(ctx context.Context, id string, version int64) (A, bool) {
	if agg, _, ok := r.Cache.get(id); ok && agg.StreamVersion() >= version {
		return agg, true
	}
	_, err, _ := r.Cache.flight.Do(id, func() (any, error) {
		agg, loaded, ok := r.Cache.get(id)
		if !ok || agg.StreamVersion() >= version {
			return nil, nil
		}
		if err := r.CatchUp(ctx, id, agg); err != nil {
			return nil, err
		}
		r.Cache.put(id, agg, agg.StreamVersion(), loaded)
		return nil, nil
	})
	agg, _, ok := r.Cache.get(id)
	if err != nil || !ok || agg.StreamVersion() < version {
		var zero A
		return zero, false
	}
	return agg, true
}

// LoadRecent is Load for a caller content with the aggregate as this
// instance found it current within the last within: a cached copy that
// recent is taken without asking the store (the account behind each
// request, see api's authTrust). This instance's own appends keep the copy
// current; another instance's show after within at most. A within of 0
// is Load.
func (r *Repository[A, E]) LoadRecent(ctx context.Context, id string, within time.Duration) (A, error) {
	if r.Cache != nil && within > 0 {
		if agg, ok := r.Cache.getChecked(id, within); ok {
			return agg, nil
		}
	}
	return r.Load(ctx, id)
}

// Recheck asks the store, in one read, whether the cached aggregates that
// LoadRecent was asked for within the last active are still at their
// versions, and takes each that is as found current when the read began.
// Run every half within, it lets LoadRecent serve an instance's busy
// aggregates without a read of its own: the account behind each request
// was read again by the first request after authTrust, a query for each
// active user and second (`make load`: a fifth of the waits for an event
// store connection), against one a tick here for them all. The guarantee
// is LoadRecent's: what another instance appended shows within within.
func (r *Repository[A, E]) Recheck(ctx context.Context, active time.Duration) error {
	if r.Cache == nil {
		return nil
	}
	started := r.Cache.now()
	ids, versions := r.Cache.usedSince(started.Add(-active))
	if len(ids) == 0 {
		return nil
	}
	streams := make([]string, len(ids))
	for i, id := range ids {
		streams[i] = r.Stream(id)
	}
	stored, err := eventstore.StreamVersions(ctx, r.Store, streams)
	if err != nil {
		return fmt.Errorf("recheck %d cached: %w", len(ids), err)
	}
	for i, id := range ids {
		if stored[streams[i]] == versions[i] {
			r.Cache.confirm(id, versions[i], started)
		}
	}
	return nil
}

// LoadAt rebuilds the aggregate as it stood at stream version (0: latest).
func (r *Repository[A, E]) LoadAt(ctx context.Context, id string, version int64) (A, error) {
	agg := r.New()
	limit := 0
	if version > 0 {
		limit = int(version)
	}
	stream := r.Stream(id)
	evs, err := r.Store.ReadStream(ctx, stream, 1, limit)
	if err != nil {
		return agg, fmt.Errorf("load %s: %w", stream, err)
	}
	if len(evs) == 0 {
		return agg, r.Missing(id)
	}
	for _, stored := range evs {
		if err := r.apply(agg, stored); err != nil {
			return agg, fmt.Errorf("load %s at version %d: %w", stream, stored.Version, err)
		}
	}
	return agg, nil
}

// CatchUp applies to agg the events of its stream after the version it
// stands at: a live follower keeps one aggregate up to date this way.
func (r *Repository[A, E]) CatchUp(ctx context.Context, id string, agg A) error {
	stream := r.Stream(id)
	evs, err := r.Store.ReadStream(ctx, stream, agg.StreamVersion()+1, 0)
	if err != nil {
		return fmt.Errorf("read %s after version %d: %w", stream, agg.StreamVersion(), err)
	}
	for _, stored := range evs {
		if err := r.apply(agg, stored); err != nil {
			return fmt.Errorf("%s at version %d: %w", stream, stored.Version, err)
		}
	}
	return nil
}

// apply folds one stored event into agg, skipping unknown types.
func (r *Repository[A, E]) apply(agg A, stored eventstore.Event) error {
	e, err := r.Codec.Decode(stored)
	switch {
	case errors.Is(err, ErrUnknownType):
		if r.Skipped != nil {
			r.Skipped(stored.Stream, stored.Type)
		}
	case err != nil:
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	default:
		agg.Apply(e)
	}
	agg.SetVersion(stored.Version)
	return nil
}

// Decide is a command's decision on a loaded aggregate.
type Decide[A any, E any] func(A) ([]E, error)

// Update loads, guards, decides and appends. guard (may be nil) runs first,
// so a caller without the right learns nothing, not even the version. With
// expected >= 0 the caller decided on that version (a save from a client
// tab) and any other is ErrStale; with expected < 0 the command is
// re-decided on a fresh load when another writer got in first.
func (r *Repository[A, E]) Update(ctx context.Context, id string, expected int64, by Actor, guard func(A) error, decide Decide[A, E]) (A, error) {
	return r.UpdateFrom(ctx, id, nil, expected, by, guard, decide)
}

// UpdateFrom is Update starting from loaded, the aggregate as the caller
// loaded it a moment ago (nil: the cached copy, if any). loaded is changed.
//
// Such a copy is not read again first: it is decided on as it stands, and
// appended on at its version, which the store refuses if the stream moved
// since, so a stale copy cannot write. Whatever else is decided on it (a
// refusal, a stale version, nothing to do) is decided again on a fresh
// load, as is a refused append. With an instance's cache kept current by
// its own writes, a designer's edits then read nothing back (`make load`:
// the catch-ups before each write were a fifth of an instance's reads).
func (r *Repository[A, E]) UpdateFrom(ctx context.Context, id string, loaded *A, expected int64, by Actor, guard func(A) error, decide Decide[A, E]) (A, error) {
	for attempt := 0; ; attempt++ {
		agg, fresh, err := r.startFrom(ctx, id, loaded, attempt)
		if err != nil {
			return agg, err
		}
		evs, err := r.decideOn(agg, expected, guard, decide)
		if err != nil || len(evs) == 0 {
			if !fresh {
				continue
			}
			return agg, err
		}
		err = r.appendOn(ctx, id, eventstore.Exactly(agg.StreamVersion()), by, evs, &agg)
		if errors.Is(err, eventstore.ErrConflict) {
			switch {
			case !fresh:
				continue // the copy was behind
			case expected >= 0:
				return agg, ErrStale
			case attempt < 3:
				continue
			}
		}
		return agg, err
	}
}

// startFrom is the aggregate an UpdateFrom attempt decides on: on the
// first, the caller's copy or the cache's (fresh false: not read again);
// after that, or without either, a load (fresh).
func (r *Repository[A, E]) startFrom(ctx context.Context, id string, loaded *A, attempt int) (agg A, fresh bool, err error) {
	if attempt == 0 {
		if loaded != nil {
			return *loaded, false, nil
		}
		if r.Cache != nil {
			if agg, _, ok := r.Cache.get(id); ok {
				return agg, false, nil
			}
		}
	}
	agg, err = r.Load(ctx, id)
	return agg, true, err
}

// decideOn guards, checks the version the caller decided on, and decides.
func (r *Repository[A, E]) decideOn(agg A, expected int64, guard func(A) error, decide Decide[A, E]) ([]E, error) {
	if guard != nil {
		if err := guard(agg); err != nil {
			return nil, err
		}
	}
	if expected >= 0 && agg.StreamVersion() != expected {
		return nil, ErrStale
	}
	return decide(agg)
}

// LoadCached is the cached copy as it stands, not read again (fresh
// false), or a load when there is none. For a caller that writes on what
// it read: the append at the copy's version is the check (UpdateFrom).
func (r *Repository[A, E]) LoadCached(ctx context.Context, id string) (agg A, fresh bool, err error) {
	return r.startFrom(ctx, id, nil, 0)
}

// Create starts a new stream with evs, decided on an empty aggregate.
func (r *Repository[A, E]) Create(ctx context.Context, id string, by Actor, evs []E) (A, error) {
	agg := r.New()
	err := r.appendOn(ctx, id, eventstore.NoStream, by, evs, &agg)
	return agg, err
}

func (r *Repository[A, E]) applyNew(agg A, evs []E) {
	v := agg.StreamVersion()
	for _, e := range evs {
		agg.Apply(e)
		v++
		agg.SetVersion(v)
	}
}

// Append encodes and appends events with the actor's metadata. It leaves
// the cached copy as it was, since it has no aggregate the events were
// decided on: a later load catches the copy up.
func (r *Repository[A, E]) Append(ctx context.Context, id string, expected eventstore.ExpectedVersion, by Actor, evs []E) error {
	return r.appendOn(ctx, id, expected, by, evs, nil)
}

// appendOn is Append for events decided on *agg (nil: none known). Once
// stored, they are applied to *agg, and the cache keeps a copy of it
// before the Appended hook tells the live streams, so that they find the
// new version there instead of reading the stream back (`make load`: each
// write was read again by the writer's own instance).
func (r *Repository[A, E]) appendOn(ctx context.Context, id string, expected eventstore.ExpectedVersion, by Actor, evs []E, agg *A) error {
	batch, err := r.encode(by, evs)
	if err != nil {
		return err
	}
	stream := r.Stream(id)
	res, err := r.Store.Append(ctx, stream, expected, batch...)
	if err != nil {
		return fmt.Errorf("append to %s: %w", stream, err)
	}
	if agg != nil {
		r.applyNew(*agg, evs)
		r.advanceCache(id, res, *agg)
	}
	if r.Appended != nil {
		types := make([]string, len(batch))
		for i, ne := range batch {
			types[i] = ne.Type
		}
		r.Appended(stream, res, types)
	}
	return nil
}

// encode turns evs into stored events with the actor's metadata, each
// within the size bound.
func (r *Repository[A, E]) encode(by Actor, evs []E) ([]eventstore.NewEvent, error) {
	limit := r.MaxEventBytes
	if limit <= 0 {
		limit = DefaultMaxEventBytes
	}
	meta := eventstore.Metadata{Author: by.UserID, CorrelationID: by.CorrelationID, CausationID: by.CausationID, Time: r.now()}
	batch := make([]eventstore.NewEvent, len(evs))
	for i, e := range evs {
		ne, err := r.Codec.Encode(e)
		if err != nil {
			return nil, err
		}
		if len(ne.Data) > limit {
			return nil, &fault.Error{K: fault.TooLarge, Message: fmt.Sprintf(
				"This change is too large to store (%d KB; at most %d KB at a time)", len(ne.Data)>>10, limit>>10)}
		}
		ne.ID, ne.Metadata = r.NewID(), meta
		batch[i] = ne
	}
	return batch, nil
}

// advanceCache caches agg, the aggregate just appended on, when the
// cached copy stood just before the append (or there was none and the
// stream is new). The events were applied to agg as decided, not decoded
// from what was stored: the codecs give back every event exactly as
// encoded (their round-trip tests), so the copy is the one a load would
// give, with one copy where decoding the write again took two (in a
// `make load` profile the old way was 4.6 % of an instance, the decoding
// most of it; the read models still decode each event once per instance,
// through the codec's memo). A cache at another version is left for a
// load to catch up.
func (r *Repository[A, E]) advanceCache(id string, res eventstore.AppendResult, agg A) {
	if r.Cache == nil {
		return
	}
	version, loaded, ok := r.Cache.at(id)
	switch {
	case ok && version == res.FirstVersion-1:
	case !ok && res.FirstVersion == 1:
		loaded = r.Cache.now()
	default:
		return
	}
	r.Cache.put(id, agg, agg.StreamVersion(), loaded)
}

func (r *Repository[A, E]) now() time.Time {
	if r.Now != nil {
		return r.Now().UTC()
	}
	return time.Now().UTC()
}
