// Package eventstore holds the append-only log every project and account
// change is written to. One interface, several implementations (SQLite,
// PostgreSQL), all held to the same conformance suite in eventstoretest.
package eventstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ExpectedVersion guards an append. Values >= 0 demand that exact current
// version (0 means the stream must not exist yet, like NoStream).
type ExpectedVersion int64

const (
	// Any appends whatever the stream's current version is.
	Any ExpectedVersion = -2
	// NoStream demands that the stream does not exist yet.
	NoStream ExpectedVersion = -1
)

// Exactly demands the stream be at version v.
func Exactly(v int64) ExpectedVersion { return ExpectedVersion(v) }

// Metadata travels with every event.
type Metadata struct {
	Author        string    `json:"author,omitempty"`
	CorrelationID string    `json:"correlation_id,omitempty"`
	CausationID   string    `json:"causation_id,omitempty"`
	Time          time.Time `json:"time"`
}

// NewEvent is an event to append. ID must be unique across the store; a
// retried append carrying the same IDs is recognised and not written twice.
type NewEvent struct {
	ID   string
	Type string
	// Schema is the version of Type's data shape the event is written in
	// (see the domain codecs); 0 means 1, the version of every event
	// written before schemas were recorded.
	Schema   int
	Data     json.RawMessage
	Metadata Metadata
}

// Position orders the global log. Commit identifies the writing transaction
// (PostgreSQL: its xid8; SQLite: a commit counter) and Seq the row within the
// whole log. The log is ordered by (Commit, Seq); the zero Position is before
// every event.
type Position struct {
	Commit uint64 `json:"commit"`
	Seq    uint64 `json:"seq"`
}

// Less reports whether p comes before q in the global log.
func (p Position) Less(q Position) bool {
	if p.Commit != q.Commit {
		return p.Commit < q.Commit
	}
	return p.Seq < q.Seq
}

func (p Position) String() string { return fmt.Sprintf("%d.%d", p.Commit, p.Seq) }

// Event is a stored event.
type Event struct {
	ID       string          `json:"id"`
	Stream   string          `json:"stream"`
	Version  int64           `json:"version"` // 1 for a stream's first event
	Position Position        `json:"position"`
	Type     string          `json:"type"`
	Schema   int             `json:"schema"` // 1 or more; 1 for events stored before schemas were recorded
	Data     json.RawMessage `json:"data"`
	Metadata Metadata        `json:"metadata"`
}

// AppendResult tells where an append landed.
type AppendResult struct {
	// FirstVersion and LastVersion are the versions given to the appended
	// events; NextExpected is LastVersion.
	FirstVersion int64
	LastVersion  int64
	// Position is the last appended event's place in the global log, as
	// ReadAll and ReadStream give it, so that a writer waiting for read
	// models to pass its event need not read it back; the zero Position
	// when the store cannot tell (the KurrentDB store).
	Position Position
}

// Store is the event store. Implementations are safe for concurrent use.
type Store interface {
	// Append writes events atomically at the end of stream if expected
	// holds, else returns a *ConflictError. An append of no events is an error.
	// Repeating an append whose events are all stored already (same IDs, in
	// the same stream, same type, schema, data and metadata other than
	// Time) returns
	// the original result and writes nothing; an ID stored for any other
	// event gives ErrDuplicateEvent. A zero Metadata.Time is set to the time
	// of the append; times come back in UTC, to the microsecond. A zero
	// Schema is stored as 1; a negative one is an error.
	Append(ctx context.Context, stream string, expected ExpectedVersion, events ...NewEvent) (AppendResult, error)
	// ReadStream returns up to limit events of stream with Version >= from,
	// in version order (limit <= 0: no limit). An unknown stream yields no
	// events and no error.
	ReadStream(ctx context.Context, stream string, from int64, limit int) ([]Event, error)
	// ReadAll returns up to limit committed events strictly after the given
	// position, in log order (limit <= 0: no limit). A reader that pages
	// through ReadAll never skips an event, even when concurrent writers
	// commit out of order. The price is that ReadAll may lag behind appends
	// that have returned: PostgreSQL holds events back while any transaction
	// that began writing before theirs is still running, so a reader that
	// must see an append polls.
	ReadAll(ctx context.Context, after Position, limit int) ([]Event, error)
	// StreamVersion is the current version of stream (0 if it does not exist).
	StreamVersion(ctx context.Context, stream string) (int64, error)
	// Close releases the store; calling it again does nothing.
	Close() error
}

// LowPriority marks the appends made with the returned context as ones that
// may wait behind the others: the record of a calculation, whose answer
// takes longer than the record anyway, beside an edit, which a designer
// watches land in their other tab. A store with a pool of connections
// gives such appends a few connections of their own (PostgreSQL: see
// lowConns there), so that at any moment only those few take part in the
// server's commits while edits do. Stores with one writer (SQLite) or no
// pool of their own ignore the mark.
func LowPriority(ctx context.Context) context.Context {
	return context.WithValue(ctx, lowPriorityKey{}, true)
}

// IsLowPriority reports whether ctx carries LowPriority's mark.
func IsLowPriority(ctx context.Context) bool {
	low, _ := ctx.Value(lowPriorityKey{}).(bool)
	return low
}

type lowPriorityKey struct{}

// ErrConflict is matched (errors.Is) by every *ConflictError.
var ErrConflict = errors.New("eventstore: version conflict")

// ErrDuplicateEvent is returned when an event ID is reused for a different
// event (not a retry of the same append).
var ErrDuplicateEvent = errors.New("eventstore: duplicate event id")

// ConflictError says the stream was not at the expected version.
type ConflictError struct {
	Stream   string
	Expected ExpectedVersion
	Actual   int64
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("eventstore: stream %s at version %d, expected %d", e.Stream, e.Actual, e.Expected)
}

func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// ErrSubjectErased is returned by SubjectKeys.SubjectKey for a subject
// whose key was erased: nothing personal may be sealed for it again.
var ErrSubjectErased = errors.New("eventstore: subject erased")

// SubjectKeys is implemented by stores that keep per-subject (per-user)
// data keys for crypto-shredding, and that allow the two narrow
// exceptions to append-only that erasure needs (docs/privacy.md).
type SubjectKeys interface {
	// SubjectKey returns subject's data key, storing newKey as that key
	// when the subject has none yet; ErrSubjectErased once it was erased.
	SubjectKey(ctx context.Context, subject string, newKey []byte) ([]byte, error)
	// LookupSubjectKeys returns the keys of those of subjects that have
	// one; erased and unknown subjects are absent.
	LookupSubjectKeys(ctx context.Context, subjects []string) (map[string][]byte, error)
	// EraseSubjectKey deletes subject's key for good, keeping a tombstone
	// so that no key is made for it again. Erasing twice is no error.
	EraseSubjectKey(ctx context.Context, subject string) error
	// RedactEvent replaces the data of one stored event, leaving its id,
	// stream, version, position, type and metadata. It exists only to
	// blank personal fields written in clear before sealing existed.
	RedactEvent(ctx context.Context, eventID string, data json.RawMessage) error
	// DeleteStream removes a stream and its events. It exists only for
	// reservation streams, whose names may be derived from personal data.
	DeleteStream(ctx context.Context, stream string) error
	// SubjectEvents returns every committed event of stream or written by
	// author, in log order, as stored. Unlike ReadAll it does not hold back
	// recent events, so an erasure misses none.
	SubjectEvents(ctx context.Context, stream, author string) ([]Event, error)
}

// Bare is store beneath the wrappers that only count or transform event
// data (each has an Unwrap method): for readers that need only streams,
// versions and positions, which no wrapper changes.
func Bare(store Store) Store {
	for {
		u, ok := store.(interface{ Unwrap() Store })
		if !ok {
			return store
		}
		store = u.Unwrap()
	}
}

// TypedReader is implemented by a store that can read the log leaving out
// the data of the events a reader ignores.
type TypedReader interface {
	// ReadAllOf is ReadAll, but the events whose type is not in types
	// come back without their data (Data empty): their place in the log,
	// stream, version, type, schema and metadata as ReadAll gives them.
	// A read model of a few event types reads the log's positions without
	// its bulk (a calculation's results are most of the log's bytes).
	ReadAllOf(ctx context.Context, after Position, limit int, types []string) ([]Event, error)
}

// ReadAllOf reads through store's ReadAllOf when it has one; otherwise it
// is ReadAll, with every event's data.
func ReadAllOf(ctx context.Context, store Store, after Position, limit int, types []string) ([]Event, error) {
	if t, ok := store.(TypedReader); ok {
		return t.ReadAllOf(ctx, after, limit, types)
	}
	return store.ReadAll(ctx, after, limit)
}

// Counter is implemented by a store that can count the log's events after
// a position without reading them: the projection lag gauge, which read up
// to LagLimit whole events per read model on every scrape before.
type Counter interface {
	// CountAfter is how many events ReadAll(ctx, after, limit) would
	// return now (limit <= 0: no limit).
	CountAfter(ctx context.Context, after Position, limit int) (int, error)
}

// HeadReader is implemented by a store that can tell where its log ends.
type HeadReader interface {
	// Head is the position of the last event committed, whether ReadAll
	// shows it yet or not (the zero Position for an empty log). Every
	// append that returned before Head was asked is at or before it, so a
	// reader that waits until a read model has passed Head sees them all.
	Head(ctx context.Context) (Position, error)
}

// VersionsReader is implemented by a store that can tell the versions of
// many streams in one read.
type VersionsReader interface {
	// StreamVersions is StreamVersion of each of streams, read together;
	// a stream that does not exist is absent (version 0).
	StreamVersions(ctx context.Context, streams []string) (map[string]int64, error)
}

// StreamVersions asks store's StreamVersions when it has one (beneath the
// wrappers, which change no version), else StreamVersion of each stream.
func StreamVersions(ctx context.Context, store Store, streams []string) (map[string]int64, error) {
	if v, ok := Bare(store).(VersionsReader); ok {
		return v.StreamVersions(ctx, streams)
	}
	out := make(map[string]int64, len(streams))
	for _, stream := range streams {
		v, err := store.StreamVersion(ctx, stream)
		if err != nil {
			return nil, err
		}
		if v > 0 {
			out[stream] = v
		}
	}
	return out, nil
}
