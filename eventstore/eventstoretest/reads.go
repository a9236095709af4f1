package eventstoretest

import (
	"context"
	"sync/atomic"

	"draindesign/eventstore"
)

// Reads wraps a store and counts the events its log reads return (ReadAll
// and ReadAllOf): all of them, and those that came with their data. Tests
// use it to show who reads what from the log. It hides every other
// optional interface of the store beneath (HeadReader, Counter).
type Reads struct {
	eventstore.Store
	rows, withData atomic.Int64
}

// Rows is how many events the log reads returned.
func (s *Reads) Rows() int64 { return s.rows.Load() }

// WithData is how many of them came with their data.
func (s *Reads) WithData() int64 { return s.withData.Load() }

// ReadAll implements eventstore.Store.
func (s *Reads) ReadAll(ctx context.Context, after eventstore.Position, limit int) ([]eventstore.Event, error) {
	evs, err := s.Store.ReadAll(ctx, after, limit)
	s.count(evs)
	return evs, err
}

// ReadAllOf implements eventstore.TypedReader, through the store beneath's
// when it has one.
func (s *Reads) ReadAllOf(ctx context.Context, after eventstore.Position, limit int, types []string) ([]eventstore.Event, error) {
	evs, err := eventstore.ReadAllOf(ctx, s.Store, after, limit, types)
	s.count(evs)
	return evs, err
}

func (s *Reads) count(evs []eventstore.Event) {
	s.rows.Add(int64(len(evs)))
	for _, e := range evs {
		if len(e.Data) > 0 {
			s.withData.Add(1)
		}
	}
}
