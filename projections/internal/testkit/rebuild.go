package testkit

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"draindesign/eventstore"
	"draindesign/projections"
)

// Encoded is an event as an aggregate's codec gives it.
type Encoded struct {
	Type   string
	Schema int
	Data   []byte
}

// Encode adapts a codec's Encode (type, schema, data, error) for
// AppendAt, failing the test on an error.
func Encode(t testing.TB) func(typ string, schema int, data []byte, err error) Encoded {
	return func(typ string, schema int, data []byte, err error) Encoded {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return Encoded{typ, schema, data}
	}
}

// AppendAt appends encoded events to stream in one call, by author at the
// given time, and returns them as stored.
func AppendAt(t testing.TB, s eventstore.Store, stream, author string, at time.Time, evs ...Encoded) []eventstore.Event {
	t.Helper()
	ctx := context.Background()
	batch := make([]eventstore.NewEvent, len(evs))
	for i, e := range evs {
		batch[i] = eventstore.NewEvent{
			ID: fmt.Sprintf("ev-%d-%d", time.Now().UnixNano(), idSeq.Add(1)), Type: e.Type, Schema: e.Schema, Data: e.Data,
			Metadata: eventstore.Metadata{Author: author, Time: at.UTC()},
		}
	}
	res, err := s.Append(ctx, stream, eventstore.Any, batch...)
	if err != nil {
		t.Fatalf("append to %s: %v", stream, err)
	}
	stored, err := s.ReadStream(ctx, stream, res.FirstVersion, len(evs))
	if err != nil || len(stored) != len(evs) {
		t.Fatalf("read back %s: %d events, %v", stream, len(stored), err)
	}
	return stored
}

// RebuildMatchesLive runs projections live on an instance while write
// appends to the store, then rebuilds them from position 0 and fails the
// test unless every table of check holds the same rows as live, and every
// checkpoint stands at the head of the log. It returns the live instance's
// database for the caller's own checks of the read model.
func RebuildMatchesLive(t *testing.T, b Backend, ps []projections.Projection, check projections.Projection, write func(store eventstore.Store)) *projections.DB {
	t.Helper()
	ctx := context.Background()
	store, database := b.New(t)
	db := database.Open(t)
	inst := StartInstance(t, InstanceConfig{Store: store, DB: db, Projections: ps})
	counted := &countingStore{Store: store}
	write(counted)
	inst.Relay.Notify()
	// PostgreSQL may show a committed event to ReadAll a moment later.
	var head eventstore.Position
	Eventually(t, 10*time.Second, func() error {
		var n int
		head, n = headAndCount(t, store)
		if n < counted.n {
			return fmt.Errorf("ReadAll shows %d of %d events", n, counted.n)
		}
		return nil
	})
	if err := inst.Runner.WaitFor(ctx, head); err != nil {
		t.Fatal(err)
	}
	live := map[string][]string{}
	for _, table := range check.Tables() {
		live[table] = Dump(t, db, table)
	}
	if err := inst.Runner.Rebuild(ctx); err != nil {
		t.Fatalf("rebuild: %v", err)
	}
	for table, want := range live {
		if got := Dump(t, db, table); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s rebuilt from position 0:\n%s\nlive:\n%s", table, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	var c, s int64
	if err := db.QueryRow(ctx, `SELECT commit_pos, seq_pos FROM projection_checkpoints WHERE name = ?`, check.Name()).Scan(&c, &s); err != nil {
		t.Fatal(err)
	}
	if got := (eventstore.Position{Commit: uint64(c), Seq: uint64(s)}); got != head {
		t.Errorf("checkpoint of %s after rebuild %s, want the head %s", check.Name(), got, head)
	}
	return db
}

// countingStore counts the events appended through it.
type countingStore struct {
	eventstore.Store
	n int
}

func (s *countingStore) Append(ctx context.Context, stream string, expected eventstore.ExpectedVersion, evs ...eventstore.NewEvent) (eventstore.AppendResult, error) {
	res, err := s.Store.Append(ctx, stream, expected, evs...)
	if err == nil {
		s.n += len(evs)
	}
	return res, err
}

func headAndCount(t testing.TB, s eventstore.Store) (eventstore.Position, int) {
	t.Helper()
	var pos eventstore.Position
	n := 0
	for {
		evs, err := s.ReadAll(context.Background(), pos, 500)
		if err != nil {
			t.Fatalf("read all: %v", err)
		}
		if len(evs) == 0 {
			return pos, n
		}
		n += len(evs)
		pos = evs[len(evs)-1].Position
	}
}
