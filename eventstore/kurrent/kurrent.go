// Package kurrent is the event store on a KurrentDB server
// (github.com/kurrent-io/KurrentDB-Client-Go), the third implementation of
// eventstore.Store beside SQLite and PostgreSQL, held to the same
// conformance suite (eventstoretest) when KURRENTDB_URL names a server.
//
// Mapping:
//   - A stream s is the KurrentDB stream <namespace>s-<s>; versions are
//     KurrentDB revisions plus one. The namespace keeps several stores (the
//     suite's, one per test) apart on one server.
//   - The global log is $all, filtered to this namespace's streams; a
//     Position is KurrentDB's (commit, prepare) pair.
//   - Event IDs are unique across the whole store, not per stream as in
//     KurrentDB: every append also creates, in the same atomic
//     multi-stream append (KurrentDB 25.1 or newer), one marker stream
//     <namespace>i-<event uuid> per event that must not exist yet. A
//     marker already there means a retry (the same events in the same
//     stream: the original result is returned) or a reused ID
//     (ErrDuplicateEvent).
//   - Schema, the caller's ID (which need not be a UUID) and the metadata
//     travel in the event's user metadata, a JSON map of strings as
//     multi-stream appends require.
package kurrent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/kurrent-io/KurrentDB-Client-Go/kurrentdb"

	"draindesign/eventstore"
)

// idSpace derives a UUID for a caller's event ID that is not one
// (KurrentDB identifies events by UUID).
var idSpace = uuid.MustParse("6f1c2a9e-4b7d-4e2a-9c1f-3d5e7a9b1c2d")

// markerType is the type of the ID marker events; not an event of the
// product, so ReadAll and ReadStream never return it.
const markerType = "draindesign.event-id"

// readPage is how many events of $all one read asks for.
const readPage = 512

// Store is an eventstore.Store on a KurrentDB server.
type Store struct {
	client *kurrentdb.Client
	ns     string
}

var _ eventstore.Store = (*Store)(nil)

// Open connects to the server at url (a kurrentdb:// connection string)
// and keeps this store's streams under namespace.
func Open(_ context.Context, url, namespace string) (*Store, error) {
	if namespace == "" || strings.ContainsAny(namespace, "$ ") {
		return nil, fmt.Errorf("kurrentdb: namespace %q must be non-empty, without $ or spaces", namespace)
	}
	cfg, err := kurrentdb.ParseConnectionString(url)
	if err != nil {
		return nil, fmt.Errorf("kurrentdb: connection string: %w", err)
	}
	c, err := kurrentdb.NewClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("kurrentdb: connect: %w", err)
	}
	return &Store{client: c, ns: namespace}, nil
}

// Close releases the connection.
func (s *Store) Close() error { return s.client.Close() }

func (s *Store) streamName(stream string) string { return s.ns + "s-" + stream }
func (s *Store) markerName(id uuid.UUID) string  { return s.ns + "i-" + id.String() }

func eventUUID(id string) uuid.UUID {
	if u, err := uuid.Parse(id); err == nil {
		return u
	}
	return uuid.NewSHA1(idSpace, []byte(id))
}

// prepared is a validated event as it is written.
type prepared struct {
	in   eventstore.NewEvent
	uid  uuid.UUID
	data []byte // compacted
	meta map[string]string
}

func prepare(stream string, expected eventstore.ExpectedVersion, events []eventstore.NewEvent) ([]prepared, error) {
	if stream == "" {
		return nil, errors.New("eventstore: empty stream name")
	}
	if len(events) == 0 {
		return nil, errors.New("eventstore: append of no events")
	}
	if expected < eventstore.Any {
		return nil, fmt.Errorf("eventstore: invalid expected version %d", expected)
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	seen := map[string]bool{}
	out := make([]prepared, 0, len(events))
	for i, e := range events {
		switch {
		case e.ID == "":
			return nil, fmt.Errorf("eventstore: event %d has no ID", i)
		case e.Type == "":
			return nil, fmt.Errorf("eventstore: event %s has no type", e.ID)
		case e.Schema < 0:
			return nil, fmt.Errorf("eventstore: event %s has schema %d", e.ID, e.Schema)
		case seen[e.ID]:
			return nil, fmt.Errorf("%w: %s twice in one append", eventstore.ErrDuplicateEvent, e.ID)
		}
		seen[e.ID] = true
		var data bytes.Buffer
		if len(e.Data) == 0 || json.Compact(&data, e.Data) != nil {
			return nil, fmt.Errorf("eventstore: event %s: data is not JSON", e.ID)
		}
		at := e.Metadata.Time
		if at.IsZero() {
			at = now
		}
		meta := map[string]string{
			"id":     e.ID,
			"schema": strconv.Itoa(max(e.Schema, 1)),
			"time":   at.UTC().Truncate(time.Microsecond).Format(time.RFC3339Nano),
		}
		for k, v := range map[string]string{"author": e.Metadata.Author, "correlation_id": e.Metadata.CorrelationID, "causation_id": e.Metadata.CausationID} {
			if v != "" {
				meta[k] = v
			}
		}
		out = append(out, prepared{in: e, uid: eventUUID(e.ID), data: data.Bytes(), meta: meta})
	}
	return out, nil
}

func streamState(expected eventstore.ExpectedVersion) kurrentdb.StreamState {
	switch {
	case expected == eventstore.Any:
		return kurrentdb.Any{}
	case expected == eventstore.NoStream || expected == 0:
		return kurrentdb.NoStream{}
	default:
		return kurrentdb.StreamRevision{Value: uint64(expected) - 1}
	}
}

// Append writes events and their ID markers in one atomic multi-stream
// append.
func (s *Store) Append(ctx context.Context, stream string, expected eventstore.ExpectedVersion, events ...eventstore.NewEvent) (eventstore.AppendResult, error) {
	evs, err := prepare(stream, expected, events)
	if err != nil {
		return eventstore.AppendResult{}, err
	}
	reqs := []kurrentdb.AppendStreamRequest{{
		StreamName:          s.streamName(stream),
		ExpectedStreamState: streamState(expected),
		Events: func(yield func(kurrentdb.EventData) bool) {
			for _, e := range evs {
				meta, _ := json.Marshal(e.meta) // a map of strings always encodes
				if !yield(kurrentdb.EventData{EventID: e.uid, EventType: e.in.Type, ContentType: kurrentdb.ContentTypeJson, Data: e.data, Metadata: meta}) {
					return
				}
			}
		},
	}}
	for _, e := range evs {
		marker, _ := json.Marshal(map[string]string{"stream": stream, "id": e.in.ID})
		reqs = append(reqs, kurrentdb.AppendStreamRequest{
			StreamName:          s.markerName(e.uid),
			ExpectedStreamState: kurrentdb.NoStream{},
			Events: func(yield func(kurrentdb.EventData) bool) {
				yield(kurrentdb.EventData{EventID: uuid.New(), EventType: markerType, ContentType: kurrentdb.ContentTypeJson, Data: marker})
			},
		})
	}
	res, err := s.client.MultiStreamAppend(ctx, slices.Values(reqs))
	if err == nil {
		for _, r := range res.Responses {
			if r.Stream == s.streamName(stream) {
				last := r.StreamRevision + 1
				return eventstore.AppendResult{FirstVersion: last - int64(len(evs)) + 1, LastVersion: last}, nil
			}
		}
		return eventstore.AppendResult{}, fmt.Errorf("kurrentdb: append to %s: no result for the stream", stream)
	}
	if !isConflict(err) {
		return eventstore.AppendResult{}, fmt.Errorf("kurrentdb: append to %s: %w", stream, err)
	}
	// A marker that exists makes this a retry or a reused ID; otherwise
	// the stream was not at the expected version.
	if res, retried, err := s.retried(ctx, stream, evs); err != nil || retried {
		return res, err
	}
	actual, verr := s.StreamVersion(ctx, stream)
	if verr != nil {
		return eventstore.AppendResult{}, verr
	}
	return eventstore.AppendResult{}, &eventstore.ConflictError{Stream: stream, Expected: expected, Actual: actual}
}

func isConflict(err error) bool {
	var ke *kurrentdb.Error
	return errors.As(err, &ke) && (ke.IsErrorCode(kurrentdb.ErrorCodeWrongExpectedVersion) || ke.IsErrorCode(kurrentdb.ErrorCodeStreamRevisionConflict))
}

// retried tells whether evs are all stored already, the same, consecutive,
// in stream (a retry: their original result), or whether some ID is taken
// by another event (ErrDuplicateEvent), or neither (retried false).
func (s *Store) retried(ctx context.Context, stream string, evs []prepared) (eventstore.AppendResult, bool, error) {
	taken := 0
	for _, e := range evs {
		got, err := s.read(ctx, s.markerName(e.uid), kurrentdb.ReadStreamOptions{}, 1)
		if err != nil {
			return eventstore.AppendResult{}, false, err
		}
		if len(got) > 0 {
			taken++
		}
	}
	if taken == 0 {
		return eventstore.AppendResult{}, false, nil
	}
	dup := fmt.Errorf("%w: an ID of this append is stored for another event", eventstore.ErrDuplicateEvent)
	if taken < len(evs) {
		return eventstore.AppendResult{}, true, dup
	}
	stored, err := s.ReadStream(ctx, stream, 1, 0)
	if err != nil {
		return eventstore.AppendResult{}, true, err
	}
	at := slices.IndexFunc(stored, func(e eventstore.Event) bool { return e.ID == evs[0].in.ID })
	if at < 0 || at+len(evs) > len(stored) {
		return eventstore.AppendResult{}, true, dup
	}
	for i, e := range evs {
		if !same(stored[at+i], e) {
			return eventstore.AppendResult{}, true, dup
		}
	}
	return eventstore.AppendResult{FirstVersion: stored[at].Version, LastVersion: stored[at+len(evs)-1].Version}, true, nil
}

// same compares a stored event with one appended again: ID, type, schema,
// data and metadata, the time only when the retry gives one.
func same(stored eventstore.Event, e prepared) bool {
	m := stored.Metadata
	if stored.ID != e.in.ID || stored.Type != e.in.Type || stored.Schema != max(e.in.Schema, 1) || !bytes.Equal(stored.Data, e.data) ||
		m.Author != e.in.Metadata.Author || m.CorrelationID != e.in.Metadata.CorrelationID || m.CausationID != e.in.Metadata.CausationID {
		return false
	}
	return e.in.Metadata.Time.IsZero() || m.Time.Equal(e.in.Metadata.Time.UTC().Truncate(time.Microsecond))
}

// read reads up to count events of a KurrentDB stream; a stream that does
// not exist has none.
func (s *Store) read(ctx context.Context, name string, opts kurrentdb.ReadStreamOptions, count uint64) ([]*kurrentdb.RecordedEvent, error) {
	rs, err := s.client.ReadStream(ctx, name, opts, count)
	if err != nil {
		if notFound(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("kurrentdb: read %s: %w", name, err)
	}
	defer rs.Close()
	var out []*kurrentdb.RecordedEvent
	for {
		ev, err := rs.Recv()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			if notFound(err) {
				return nil, nil
			}
			return nil, fmt.Errorf("kurrentdb: read %s: %w", name, err)
		}
		out = append(out, ev.OriginalEvent())
	}
}

func notFound(err error) bool {
	var ke *kurrentdb.Error
	return errors.As(err, &ke) && ke.IsErrorCode(kurrentdb.ErrorCodeResourceNotFound)
}

// ReadStream returns up to limit events of stream from version from.
func (s *Store) ReadStream(ctx context.Context, stream string, from int64, limit int) ([]eventstore.Event, error) {
	opts := kurrentdb.ReadStreamOptions{Direction: kurrentdb.Forwards, From: kurrentdb.Start{}}
	if from > 1 {
		opts.From = kurrentdb.Revision(uint64(from - 1))
	}
	count := uint64(1 << 62)
	if limit > 0 {
		count = uint64(limit)
	}
	recs, err := s.read(ctx, s.streamName(stream), opts, count)
	if err != nil {
		return nil, err
	}
	out := make([]eventstore.Event, 0, len(recs))
	for _, r := range recs {
		e, err := s.decode(r)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// ReadAll returns up to limit events of this store after the position, in
// $all's order, skipping other namespaces, markers and system events.
func (s *Store) ReadAll(ctx context.Context, after eventstore.Position, limit int) ([]eventstore.Event, error) {
	var from kurrentdb.AllPosition = kurrentdb.Start{}
	if after != (eventstore.Position{}) {
		from = kurrentdb.Position{Commit: after.Commit, Prepare: after.Seq}
	}
	prefix := s.ns + "s-"
	var out []eventstore.Event
	for {
		rs, err := s.client.ReadAll(ctx, kurrentdb.ReadAllOptions{Direction: kurrentdb.Forwards, From: from}, readPage)
		if err != nil {
			return nil, fmt.Errorf("kurrentdb: read $all: %w", err)
		}
		n := 0
		var last kurrentdb.Position
		for {
			ev, err := rs.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				rs.Close()
				return nil, fmt.Errorf("kurrentdb: read $all: %w", err)
			}
			n++
			r := ev.OriginalEvent()
			last = r.Position
			pos := eventstore.Position{Commit: r.Position.Commit, Seq: r.Position.Prepare}
			if !after.Less(pos) || !strings.HasPrefix(r.StreamID, prefix) || strings.HasPrefix(r.EventType, "$") {
				continue
			}
			e, err := s.decode(r)
			if err != nil {
				rs.Close()
				return nil, err
			}
			out = append(out, e)
			if limit > 0 && len(out) == limit {
				rs.Close()
				return out, nil
			}
		}
		rs.Close()
		if n < readPage {
			return out, nil
		}
		// The next page starts at the last event read, which the
		// position check then skips, like every event up to it.
		from = last
		after = eventstore.Position{Commit: last.Commit, Seq: last.Prepare}
	}
}

// StreamVersion is the version of stream's last event, 0 if none.
func (s *Store) StreamVersion(ctx context.Context, stream string) (int64, error) {
	recs, err := s.read(ctx, s.streamName(stream), kurrentdb.ReadStreamOptions{Direction: kurrentdb.Backwards, From: kurrentdb.End{}}, 1)
	if err != nil || len(recs) == 0 {
		return 0, err
	}
	return int64(recs[0].EventNumber) + 1, nil
}

func (s *Store) decode(r *kurrentdb.RecordedEvent) (eventstore.Event, error) {
	var meta map[string]string
	if err := json.Unmarshal(r.UserMetadata, &meta); err != nil {
		return eventstore.Event{}, fmt.Errorf("kurrentdb: event %s in %s: metadata: %w", r.EventID, r.StreamID, err)
	}
	schema, err := strconv.Atoi(meta["schema"])
	if err != nil {
		return eventstore.Event{}, fmt.Errorf("kurrentdb: event %s in %s: schema %q", r.EventID, r.StreamID, meta["schema"])
	}
	at, err := time.Parse(time.RFC3339Nano, meta["time"])
	if err != nil {
		return eventstore.Event{}, fmt.Errorf("kurrentdb: event %s in %s: time: %w", r.EventID, r.StreamID, err)
	}
	return eventstore.Event{
		ID:       meta["id"],
		Stream:   strings.TrimPrefix(r.StreamID, s.ns+"s-"),
		Version:  int64(r.EventNumber) + 1,
		Position: eventstore.Position{Commit: r.Position.Commit, Seq: r.Position.Prepare},
		Type:     r.EventType,
		Schema:   schema,
		Data:     json.RawMessage(r.Data),
		Metadata: eventstore.Metadata{Author: meta["author"], CorrelationID: meta["correlation_id"], CausationID: meta["causation_id"], Time: at.UTC()},
	}, nil
}
