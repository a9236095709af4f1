// Package memory is an event store held in memory, for tests that want a
// real eventstore.Store without files or a server. It passes the same
// conformance suite as the SQLite and PostgreSQL stores: the same append
// rules (appendcheck), retries recognised the same way, times stamped and
// truncated alike. Each append is one commit; the log never lags behind
// an append.
package memory

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"draindesign/eventstore"
	"draindesign/eventstore/internal/appendcheck"
)

// Store is an in-memory eventstore.Store; the zero value is not usable,
// call New.
type Store struct {
	mu      sync.Mutex
	log     []eventstore.Event
	streams map[string][]int // stream → indexes into log, in version order
	ids     map[string]int   // event ID → index into log
	commit  uint64
	closed  bool
}

var _ eventstore.Store = (*Store)(nil)

// ErrClosed is returned by every call on a closed store.
var ErrClosed = errors.New("memory event store: closed")

// New returns an empty store.
func New() *Store {
	return &Store{streams: map[string][]int{}, ids: map[string]int{}}
}

// Append implements eventstore.Store.
func (s *Store) Append(ctx context.Context, stream string, expected eventstore.ExpectedVersion, events ...eventstore.NewEvent) (eventstore.AppendResult, error) {
	if err := ctx.Err(); err != nil {
		return eventstore.AppendResult{}, err
	}
	evs, err := appendcheck.Prepare(stream, expected, events, time.Now())
	if err != nil {
		return eventstore.AppendResult{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return eventstore.AppendResult{}, ErrClosed
	}
	current := int64(len(s.streams[stream]))
	taken := false
	for _, e := range evs {
		if _, ok := s.ids[e.ID]; ok {
			taken = true
			break
		}
	}
	if taken || (expected != eventstore.Any && current != max(int64(expected), 0)) {
		// As in the other stores: a retry of a stored append succeeds with
		// its original result whatever the stream's version now; otherwise
		// a taken ID is a duplicate and a moved stream a conflict.
		res, ok, err := appendcheck.Retry(stream, evs, s.byID(evs))
		switch {
		case err != nil:
			return eventstore.AppendResult{}, fmt.Errorf("append to %s: %w", stream, err)
		case ok:
			return res, nil
		}
		return eventstore.AppendResult{}, &eventstore.ConflictError{Stream: stream, Expected: expected, Actual: current}
	}
	s.commit++
	for i, e := range evs {
		idx := len(s.log)
		s.log = append(s.log, eventstore.Event{
			ID: e.ID, Stream: stream, Version: current + int64(i) + 1, Type: e.Type, Schema: e.Schema,
			Data: bytes.Clone(e.Data), Metadata: e.Metadata,
			Position: eventstore.Position{Commit: s.commit, Seq: uint64(idx) + 1},
		})
		s.streams[stream] = append(s.streams[stream], idx)
		s.ids[e.ID] = idx
	}
	return eventstore.AppendResult{FirstVersion: current + 1, LastVersion: current + int64(len(evs)), Position: s.log[len(s.log)-1].Position}, nil
}

// byID returns the stored events holding any of the IDs of evs.
func (s *Store) byID(evs []eventstore.NewEvent) []eventstore.Event {
	var out []eventstore.Event
	for _, e := range evs {
		if idx, ok := s.ids[e.ID]; ok {
			out = append(out, s.log[idx])
		}
	}
	return out
}

// ReadStream implements eventstore.Store.
func (s *Store) ReadStream(ctx context.Context, stream string, from int64, limit int) ([]eventstore.Event, error) {
	if err := s.lockOpen(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	idxs := s.streams[stream]
	from = max(from, 1)
	if from > int64(len(idxs)) {
		return nil, nil
	}
	idxs = idxs[from-1:]
	if limit > 0 && len(idxs) > limit {
		idxs = idxs[:limit]
	}
	out := make([]eventstore.Event, len(idxs))
	for i, idx := range idxs {
		out[i] = copyEvent(s.log[idx])
	}
	return out, nil
}

// ReadAll implements eventstore.Store.
func (s *Store) ReadAll(ctx context.Context, after eventstore.Position, limit int) ([]eventstore.Event, error) {
	if err := s.lockOpen(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	i := sort.Search(len(s.log), func(i int) bool { return after.Less(s.log[i].Position) })
	evs := s.log[i:]
	if limit > 0 && len(evs) > limit {
		evs = evs[:limit]
	}
	out := make([]eventstore.Event, len(evs))
	for i, e := range evs {
		out[i] = copyEvent(e)
	}
	return out, nil
}

// CountAfter implements eventstore.Counter.
func (s *Store) CountAfter(ctx context.Context, after eventstore.Position, limit int) (int, error) {
	if err := s.lockOpen(ctx); err != nil {
		return 0, err
	}
	defer s.mu.Unlock()
	n := len(s.log) - sort.Search(len(s.log), func(i int) bool { return after.Less(s.log[i].Position) })
	if limit > 0 {
		n = min(n, limit)
	}
	return n, nil
}

// Head implements eventstore.HeadReader.
func (s *Store) Head(ctx context.Context) (eventstore.Position, error) {
	if err := s.lockOpen(ctx); err != nil {
		return eventstore.Position{}, err
	}
	defer s.mu.Unlock()
	if len(s.log) == 0 {
		return eventstore.Position{}, nil
	}
	return s.log[len(s.log)-1].Position, nil
}

// ReadAllOf implements eventstore.TypedReader.
func (s *Store) ReadAllOf(ctx context.Context, after eventstore.Position, limit int, types []string) ([]eventstore.Event, error) {
	evs, err := s.ReadAll(ctx, after, limit)
	for i := range evs {
		if !slices.Contains(types, evs[i].Type) {
			evs[i].Data = nil
		}
	}
	return evs, err
}

// lockOpen takes the store's lock for a call whose context is alive, on a
// store not closed; on an error the lock is not held.
func (s *Store) lockOpen(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	return nil
}

// copyEvent gives the caller its own Data, as the other stores do, so that
// a caller changing it cannot change the log.
func copyEvent(e eventstore.Event) eventstore.Event {
	e.Data = bytes.Clone(e.Data)
	return e
}

// StreamVersion implements eventstore.Store.
func (s *Store) StreamVersion(ctx context.Context, stream string) (int64, error) {
	if err := s.lockOpen(ctx); err != nil {
		return 0, err
	}
	defer s.mu.Unlock()
	return int64(len(s.streams[stream])), nil
}

// Close implements eventstore.Store; later calls fail with ErrClosed.
func (s *Store) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	return nil
}

// String is for test failure messages.
func (s *Store) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprintf("memory event store (%d events)", len(s.log))
}
