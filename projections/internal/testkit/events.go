package testkit

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"draindesign/eventstore"
)

var idSeq atomic.Int64

// Append appends n events to stream and returns their IDs.
func Append(t testing.TB, s eventstore.Store, stream string, n int) []string {
	t.Helper()
	var evs []eventstore.NewEvent
	var ids []string
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("ev-%d-%d", time.Now().UnixNano(), idSeq.Add(1))
		data, _ := json.Marshal(map[string]any{"i": i, "stream": stream})
		evs = append(evs, eventstore.NewEvent{
			ID: id, Type: "TestHappened", Data: data,
			Metadata: eventstore.Metadata{Author: "tester", Time: time.Now().UTC()},
		})
		ids = append(ids, id)
	}
	if _, err := s.Append(context.Background(), stream, eventstore.Any, evs...); err != nil {
		t.Fatalf("append to %s: %v", stream, err)
	}
	return ids
}

// Head is the position of the last event in s.
func Head(t testing.TB, s eventstore.Store) eventstore.Position {
	t.Helper()
	var pos eventstore.Position
	for {
		evs, err := s.ReadAll(context.Background(), pos, 500)
		if err != nil {
			t.Fatalf("read all: %v", err)
		}
		if len(evs) == 0 {
			return pos
		}
		pos = evs[len(evs)-1].Position
	}
}

// StoreFactory makes a fresh event store for one test.
type StoreFactory struct {
	Name string
	New  func(t testing.TB) eventstore.Store
}

// StoreFactories lists the stores the tests run against.
var StoreFactories = []StoreFactory{
	{Name: "mem", New: func(testing.TB) eventstore.Store { return NewMemStore() }},
}
