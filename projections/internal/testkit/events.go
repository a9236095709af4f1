// Package testkit holds what the projections tests share: event stores
// (the in-memory one among them), read-model databases on every dialect,
// and a projection that counts how often it saw each event.
package testkit

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/eventstore/memory"
	"draindesign/eventstore/pgtest"
	"draindesign/eventstore/postgres"
	"draindesign/eventstore/sqlite"
)

var idSeq atomic.Int64

// Append appends n events to stream in one call and returns them as
// stored, positions included (read back with ReadStream, which unlike
// ReadAll shows a committed event at once). Their schema versions run
// 1, 2, 3, 1, … so that delivery of the version shows.
func Append(t testing.TB, s eventstore.Store, stream string, n int) []eventstore.Event {
	t.Helper()
	ctx := context.Background()
	var evs []eventstore.NewEvent
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("ev-%d-%d", time.Now().UnixNano(), idSeq.Add(1))
		data, _ := json.Marshal(map[string]any{"i": i, "stream": stream})
		evs = append(evs, eventstore.NewEvent{
			ID: id, Type: "TestHappened", Schema: 1 + i%3, Data: data,
			Metadata: eventstore.Metadata{Author: "tester", Time: time.Now().UTC()},
		})
	}
	res, err := s.Append(ctx, stream, eventstore.Any, evs...)
	if err != nil {
		t.Fatalf("append to %s: %v", stream, err)
	}
	stored, err := s.ReadStream(ctx, stream, res.FirstVersion, n)
	if err != nil || len(stored) != n {
		t.Fatalf("read back %s from v%d: %d events, %v", stream, res.FirstVersion, len(stored), err)
	}
	return stored
}

// AppendProject appends n real project events (notes of run "r") to
// stream in one call, for read models that decode what they keep, and
// returns them as stored.
func AppendProject(t testing.TB, s eventstore.Store, stream string, n int) []eventstore.Event {
	t.Helper()
	ctx := context.Background()
	var evs []eventstore.NewEvent
	for i := 0; i < n; i++ {
		typ, schema, data, err := project.Encode(project.RunNotesChanged{RunID: "r", Notes: fmt.Sprintf("note %d of %s", i, stream)})
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, eventstore.NewEvent{
			ID: fmt.Sprintf("ev-%d-%d", time.Now().UnixNano(), idSeq.Add(1)), Type: typ, Schema: schema, Data: data,
			Metadata: eventstore.Metadata{Author: "tester", Time: time.Now().UTC()},
		})
	}
	res, err := s.Append(ctx, stream, eventstore.Any, evs...)
	if err != nil {
		t.Fatalf("append to %s: %v", stream, err)
	}
	stored, err := s.ReadStream(ctx, stream, res.FirstVersion, n)
	if err != nil || len(stored) != n {
		t.Fatalf("read back %s from v%d: %d events, %v", stream, res.FirstVersion, len(stored), err)
	}
	return stored
}

// IDs lists the IDs of evs.
func IDs(evs []eventstore.Event) []string {
	ids := make([]string, len(evs))
	for i, ev := range evs {
		ids[i] = ev.ID
	}
	return ids
}

// Last is the position of the last of evs.
func Last(evs []eventstore.Event) eventstore.Position { return evs[len(evs)-1].Position }

// WaitVisible waits until ReadAll shows the event at pos.
func WaitVisible(t testing.TB, s eventstore.Store, pos eventstore.Position) {
	t.Helper()
	Eventually(t, 10*time.Second, func() error {
		if head := Head(t, s); head.Less(pos) {
			return fmt.Errorf("ReadAll ends at %s, before %s", head, pos)
		}
		return nil
	})
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

// Backend is an event store with a read-model database, paired as the app
// runs them.
type Backend struct {
	Name string
	New  func(t testing.TB) (eventstore.Store, Database)
}

// Backends lists the pairings every runner test covers: the in-memory store
// (independent of the real stores), the embedded mode (SQLite files) and the
// scale-out mode (PostgreSQL holding both the
// event store and the read models in one database, which also shows that
// their tables coexist).
var Backends = []Backend{
	{Name: "mem", New: func(t testing.TB) (eventstore.Store, Database) { return memory.New(), NewSQLite(t) }},
	{Name: "sqlite", New: func(t testing.TB) (eventstore.Store, Database) {
		s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "events.db"))
		if err != nil {
			t.Fatalf("open sqlite event store: %v", err)
		}
		t.Cleanup(func() { s.Close() })
		return s, NewSQLite(t)
	}},
	{Name: "postgres", New: func(t testing.TB) (eventstore.Store, Database) {
		url := pgtest.NewDatabase(t)
		s, err := postgres.Open(context.Background(), url)
		if err != nil {
			t.Fatalf("open postgres event store: %v", err)
		}
		t.Cleanup(func() { s.Close() })
		return s, postgresAt(url)
	}},
}
