// Package testkit holds what the projections tests share: an in-memory
// event store, read-model databases on every dialect, and a projection that
// counts how often it saw each event.
package testkit

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"draindesign/eventstore"
)

// MemStore is an in-memory eventstore.Store. Each append is one commit.
type MemStore struct {
	mu      sync.Mutex
	log     []eventstore.Event
	streams map[string][]eventstore.Event
	ids     map[string]eventstore.Event
	commit  uint64
}

func NewMemStore() *MemStore {
	return &MemStore{streams: map[string][]eventstore.Event{}, ids: map[string]eventstore.Event{}}
}

func (s *MemStore) Append(ctx context.Context, stream string, expected eventstore.ExpectedVersion, events ...eventstore.NewEvent) (eventstore.AppendResult, error) {
	if len(events) == 0 {
		return eventstore.AppendResult{}, errors.New("memstore: append of no events")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if prev, ok := s.ids[events[0].ID]; ok {
		if prev.Stream != stream {
			return eventstore.AppendResult{}, eventstore.ErrDuplicateEvent
		}
		return eventstore.AppendResult{FirstVersion: prev.Version, LastVersion: prev.Version + int64(len(events)) - 1}, nil
	}
	cur := int64(len(s.streams[stream]))
	switch {
	case expected == eventstore.Any:
	case expected == eventstore.NoStream && cur == 0:
	case expected >= 0 && int64(expected) == cur:
	default:
		return eventstore.AppendResult{}, &eventstore.ConflictError{Stream: stream, Expected: expected, Actual: cur}
	}
	s.commit++
	res := eventstore.AppendResult{FirstVersion: cur + 1}
	for _, ne := range events {
		if _, dup := s.ids[ne.ID]; dup {
			return eventstore.AppendResult{}, eventstore.ErrDuplicateEvent
		}
	}
	for _, ne := range events {
		cur++
		ev := eventstore.Event{
			ID: ne.ID, Stream: stream, Version: cur, Type: ne.Type, Schema: max(ne.Schema, 1), Data: ne.Data, Metadata: ne.Metadata,
			Position: eventstore.Position{Commit: s.commit, Seq: uint64(len(s.log)) + 1},
		}
		s.log = append(s.log, ev)
		s.streams[stream] = append(s.streams[stream], ev)
		s.ids[ev.ID] = ev
	}
	res.LastVersion = cur
	return res, nil
}

func (s *MemStore) ReadStream(ctx context.Context, stream string, from int64, limit int) ([]eventstore.Event, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	evs := s.streams[stream]
	if from < 1 {
		from = 1
	}
	if from > int64(len(evs)) {
		return nil, nil
	}
	evs = evs[from-1:]
	if limit > 0 && len(evs) > limit {
		evs = evs[:limit]
	}
	return append([]eventstore.Event(nil), evs...), nil
}

func (s *MemStore) ReadAll(ctx context.Context, after eventstore.Position, limit int) ([]eventstore.Event, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i := sort.Search(len(s.log), func(i int) bool { return after.Less(s.log[i].Position) })
	evs := s.log[i:]
	if limit > 0 && len(evs) > limit {
		evs = evs[:limit]
	}
	return append([]eventstore.Event(nil), evs...), nil
}

func (s *MemStore) StreamVersion(ctx context.Context, stream string) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int64(len(s.streams[stream])), nil
}

func (s *MemStore) Close() error { return nil }

// Head is the position of the last event, for tests.
func (s *MemStore) Head() eventstore.Position {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.log) == 0 {
		return eventstore.Position{}
	}
	return s.log[len(s.log)-1].Position
}

var _ eventstore.Store = (*MemStore)(nil)

// String is for test failure messages.
func (s *MemStore) String() string { return fmt.Sprintf("memstore(%d events)", len(s.log)) }
