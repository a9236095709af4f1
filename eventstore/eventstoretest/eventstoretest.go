// Package eventstoretest is the conformance suite every eventstore.Store
// implementation must pass.
//
//	func TestConformance(t *testing.T) {
//		eventstoretest.Factory{
//			Storage: func(t *testing.T) string { return filepath.Join(t.TempDir(), "events.db") },
//			Open:    func(t *testing.T, path string) eventstore.Store { … },
//		}.Run(t)
//	}
package eventstoretest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"draindesign/eventstore"
)

// Factory opens stores on storage that outlives them, which lets the suite
// close a store and open it again.
type Factory struct {
	// Storage returns fresh, empty storage for t: a file path, a database
	// URL, …
	Storage func(t *testing.T) string
	// Open opens a store on storage, failing t if it cannot. The suite closes
	// the store.
	Open func(t *testing.T, storage string) eventstore.Store
	// NoAppendPosition says the store's appends do not tell the position
	// (AppendResult.Position is zero); any position told is still checked.
	NoAppendPosition bool
}

// Run runs the whole suite, reopening included.
func (f Factory) Run(t *testing.T) {
	run(t, func(t *testing.T) eventstore.Store { return f.Open(t, f.Storage(t)) }, !f.NoAppendPosition)
	t.Run("Reopen", func(t *testing.T) {
		t.Parallel()
		testReopen(t, f)
	})
}

// Run runs the suite on stores from open, which must give a new store on
// fresh, empty storage each time. Run closes the stores. The appends must
// tell their position.
func Run(t *testing.T, open func(t *testing.T) eventstore.Store) {
	run(t, open, true)
}

func run(t *testing.T, open func(t *testing.T) eventstore.Store, positions bool) {
	t.Run("AppendPosition", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		closeAtEnd(t, s)
		testAppendPosition(t, s, positions)
	})
	tests := []struct {
		name string
		test func(t *testing.T, s eventstore.Store)
	}{
		{"ExpectedVersion", testExpectedVersion},
		{"InvalidAppend", testInvalidAppend},
		{"ConflictRace", testConflictRace},
		{"ConcurrentWritersTailingReader", testConcurrentWritersTailingReader},
		{"IdempotentRetry", testIdempotentRetry},
		{"ConcurrentRetry", testConcurrentRetry},
		{"DuplicateID", testDuplicateID},
		{"LargePayload", testLargePayload},
		{"ManyEventsInOneAppend", testManyEvents},
		{"Metadata", testMetadata},
		{"SchemaVersion", testSchemaVersion},
		{"ReadStream", testReadStream},
		{"ReadAllPaging", testReadAllPaging},
		{"ReadAllOf", testReadAllOf},
		{"Head", testHead},
		{"CountAfter", testCountAfter},
		{"StreamVersions", testStreamVersions},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := open(t)
			closeAtEnd(t, s)
			tt.test(t, s)
		})
	}
}

func closeAtEnd(t *testing.T, s eventstore.Store) {
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
}

// timeout bounds every wait in the suite, so that a store that hangs fails
// rather than stalls the run.
const timeout = 30 * time.Second

func newID() string { return uuid.NewString() }

func event(typ, data string) eventstore.NewEvent {
	return eventstore.NewEvent{ID: newID(), Type: typ, Data: json.RawMessage(data)}
}

// events makes n events whose schema versions run 0 (stored as 1), 1, 2,
// 3, 0, …, so that every test checks the version is kept.
func events(n int) []eventstore.NewEvent {
	evs := make([]eventstore.NewEvent, n)
	for i := range evs {
		evs[i] = event("Counted", fmt.Sprintf(`{"i":%d}`, i))
		evs[i].Schema = i % 4
	}
	return evs
}

// storedSchema is the schema version a store gives back for one appended.
func storedSchema(e eventstore.NewEvent) int { return max(e.Schema, 1) }

func mustAppend(t *testing.T, s eventstore.Store, stream string, expected eventstore.ExpectedVersion, evs ...eventstore.NewEvent) eventstore.AppendResult {
	t.Helper()
	res, err := s.Append(t.Context(), stream, expected, evs...)
	if err != nil {
		t.Fatalf("append %d events to %s at %d: %v", len(evs), stream, expected, err)
	}
	return res
}

func mustReadStream(t *testing.T, s eventstore.Store, stream string, from int64, limit int) []eventstore.Event {
	t.Helper()
	evs, err := s.ReadStream(t.Context(), stream, from, limit)
	if err != nil {
		t.Fatalf("read stream %s from %d limit %d: %v", stream, from, limit, err)
	}
	return evs
}

func mustVersion(t *testing.T, s eventstore.Store, stream string) int64 {
	t.Helper()
	v, err := s.StreamVersion(t.Context(), stream)
	if err != nil {
		t.Fatalf("version of %s: %v", stream, err)
	}
	return v
}

// ReadAll reads the whole log once it holds want events. ReadAll may lag
// behind appends (see eventstore.Store; in PostgreSQL another database's
// open transaction holds the log's horizon back), hence the polling.
func ReadAll(t *testing.T, s eventstore.Store, want int) []eventstore.Event {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		evs, err := s.ReadAll(t.Context(), eventstore.Position{}, 0)
		if err != nil {
			t.Fatalf("read all: %v", err)
		}
		if len(evs) >= want || time.Now().After(deadline) {
			if len(evs) != want {
				t.Fatalf("log has %d events, want %d", len(evs), want)
			}
			return evs
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func ids(evs []eventstore.Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.ID
	}
	return out
}

func newIDs(evs []eventstore.NewEvent) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.ID
	}
	return out
}

// checkStored checks that got is what was appended as want, at version.
func checkStored(t *testing.T, got eventstore.Event, stream string, version int64, want eventstore.NewEvent) {
	t.Helper()
	if got.ID != want.ID || got.Stream != stream || got.Version != version || got.Type != want.Type {
		t.Errorf("stored event %s %s v%d %s, want %s %s v%d %s", got.ID, got.Stream, got.Version, got.Type, want.ID, stream, version, want.Type)
	}
	if got.Schema != storedSchema(want) {
		t.Errorf("event %s schema version %d, appended as %d, want %d", got.ID, got.Schema, want.Schema, storedSchema(want))
	}
	if !bytes.Equal(got.Data, want.Data) {
		t.Errorf("event %s data %.80q…, want %.80q…", got.ID, got.Data, want.Data)
	}
}

// sameEvent compares events read at different times.
func sameEvent(a, b eventstore.Event) bool {
	return a.ID == b.ID && a.Stream == b.Stream && a.Version == b.Version && a.Position == b.Position &&
		a.Type == b.Type && a.Schema == b.Schema && bytes.Equal(a.Data, b.Data) &&
		a.Metadata.Author == b.Metadata.Author && a.Metadata.CorrelationID == b.Metadata.CorrelationID &&
		a.Metadata.CausationID == b.Metadata.CausationID && a.Metadata.Time.Equal(b.Metadata.Time)
}

func checkConflict(t *testing.T, err error, stream string, expected eventstore.ExpectedVersion, actual int64) {
	t.Helper()
	var ce *eventstore.ConflictError
	switch {
	case err == nil:
		t.Errorf("append to %s at %d succeeded, want a conflict", stream, expected)
	case !errors.As(err, &ce):
		t.Errorf("append to %s at %d: %v (%T), want *eventstore.ConflictError", stream, expected, err, err)
	case !errors.Is(err, eventstore.ErrConflict):
		t.Errorf("append to %s at %d: errors.Is(%v, ErrConflict) is false", stream, expected, err)
	case ce.Stream != stream || ce.Expected != expected || ce.Actual != actual:
		t.Errorf("conflict %+v, want stream %s expected %d actual %d", *ce, stream, expected, actual)
	}
}

func testExpectedVersion(t *testing.T, s eventstore.Store) {
	tests := []struct {
		name     string
		existing int // events in the stream before the append
		expected eventstore.ExpectedVersion
		conflict bool
	}{
		{"NoStream on new stream", 0, eventstore.NoStream, false},
		{"NoStream on existing stream", 2, eventstore.NoStream, true},
		{"0 on new stream", 0, eventstore.Exactly(0), false},
		{"0 on existing stream", 1, eventstore.Exactly(0), true},
		{"exact current version", 3, eventstore.Exactly(3), false},
		{"version behind", 3, eventstore.Exactly(2), true},
		{"version ahead", 3, eventstore.Exactly(4), true},
		{"version on new stream", 0, eventstore.Exactly(1), true},
		{"Any on new stream", 0, eventstore.Any, false},
		{"Any on existing stream", 4, eventstore.Any, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			stream := "expected-" + newID()
			if tt.existing > 0 {
				mustAppend(t, s, stream, eventstore.NoStream, events(tt.existing)...)
			}
			evs := events(2)
			res, err := s.Append(t.Context(), stream, tt.expected, evs...)
			if tt.conflict {
				checkConflict(t, err, stream, tt.expected, int64(tt.existing))
				if v := mustVersion(t, s, stream); v != int64(tt.existing) {
					t.Errorf("after a conflict the stream is at %d, want %d", v, tt.existing)
				}
				if got := mustReadStream(t, s, stream, 1, 0); len(got) != tt.existing {
					t.Errorf("after a conflict the stream has %d events, want %d", len(got), tt.existing)
				}
				return
			}
			if err != nil {
				t.Fatalf("append at %d: %v", tt.expected, err)
			}
			want := eventstore.AppendResult{FirstVersion: int64(tt.existing) + 1, LastVersion: int64(tt.existing) + 2}
			if WithoutPosition(res) != want {
				t.Errorf("result %+v, want %+v", res, want)
			}
			if v := mustVersion(t, s, stream); v != want.LastVersion {
				t.Errorf("stream at version %d, want %d", v, want.LastVersion)
			}
			got := mustReadStream(t, s, stream, 1, 0)
			if len(got) != tt.existing+2 {
				t.Fatalf("stream has %d events, want %d", len(got), tt.existing+2)
			}
			for i, e := range evs {
				checkStored(t, got[tt.existing+i], stream, int64(tt.existing+i+1), e)
			}
		})
	}
	t.Run("unknown stream is at version 0", func(t *testing.T) {
		t.Parallel()
		if v := mustVersion(t, s, "unknown-"+newID()); v != 0 {
			t.Errorf("version %d, want 0", v)
		}
	})
}

func testInvalidAppend(t *testing.T, s eventstore.Store) {
	valid := func() eventstore.NewEvent { return event("Valid", `{}`) }
	tests := []struct {
		name     string
		stream   string
		expected eventstore.ExpectedVersion
		events   []eventstore.NewEvent
	}{
		{"no events", "s", eventstore.Any, nil},
		{"empty stream name", "", eventstore.Any, []eventstore.NewEvent{valid()}},
		{"no ID", "s", eventstore.Any, []eventstore.NewEvent{{Type: "T", Data: json.RawMessage(`{}`)}}},
		{"no type", "s", eventstore.Any, []eventstore.NewEvent{{ID: newID(), Data: json.RawMessage(`{}`)}}},
		{"no data", "s", eventstore.Any, []eventstore.NewEvent{{ID: newID(), Type: "T"}}},
		{"data not JSON", "s", eventstore.Any, []eventstore.NewEvent{{ID: newID(), Type: "T", Data: json.RawMessage(`{"a":`)}}},
		{"negative schema version", "s", eventstore.Any, []eventstore.NewEvent{{ID: newID(), Type: "T", Schema: -1, Data: json.RawMessage(`{}`)}}},
		{"invalid expected version", "s", eventstore.ExpectedVersion(-3), []eventstore.NewEvent{valid()}},
		{"invalid event after a valid one", "s", eventstore.Any, []eventstore.NewEvent{valid(), {ID: newID(), Type: "T"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stream := tt.stream
			if stream != "" {
				stream += newID()
			}
			if _, err := s.Append(t.Context(), stream, tt.expected, tt.events...); err == nil {
				t.Fatal("append succeeded, want an error")
			}
			if v := mustVersion(t, s, stream); v != 0 {
				t.Errorf("a rejected append left the stream at version %d", v)
			}
		})
	}
	t.Run("ID twice in one append", func(t *testing.T) {
		a := valid()
		_, err := s.Append(t.Context(), "twice-"+newID(), eventstore.Any, a, a)
		if !errors.Is(err, eventstore.ErrDuplicateEvent) {
			t.Errorf("append: %v, want ErrDuplicateEvent", err)
		}
	})
	if evs, err := s.ReadAll(t.Context(), eventstore.Position{}, 0); err != nil || len(evs) != 0 {
		t.Errorf("rejected appends wrote %d events (err %v)", len(evs), err)
	}
}

// testConflictRace has 16 writers append to one stream at the same expected
// version, round after round: exactly one must win each round.
func withSchema(e eventstore.NewEvent, schema int) eventstore.NewEvent {
	e.Schema = schema
	return e
}

func testConflictRace(t *testing.T, s eventstore.Store) {
	const writers, rounds = 16, 5
	stream := "race-" + newID()
	var winners []string
	for round := range rounds {
		expected := eventstore.Exactly(int64(round))
		if round == 0 {
			expected = eventstore.NoStream
		}
		start := make(chan struct{})
		type outcome struct {
			id  string
			res eventstore.AppendResult
			err error
		}
		outcomes := make(chan outcome, writers)
		var wg sync.WaitGroup
		for range writers {
			e := event("Raced", fmt.Sprintf(`{"round":%d}`, round))
			wg.Go(func() {
				<-start
				res, err := s.Append(t.Context(), stream, expected, e)
				outcomes <- outcome{e.ID, res, err}
			})
		}
		close(start)
		wg.Wait()
		close(outcomes)
		var won []string
		for o := range outcomes {
			if o.err == nil {
				won = append(won, o.id)
				if want := (eventstore.AppendResult{FirstVersion: int64(round) + 1, LastVersion: int64(round) + 1}); WithoutPosition(o.res) != want {
					t.Errorf("round %d: winner's result %+v, want %+v", round, o.res, want)
				}
				continue
			}
			checkConflict(t, o.err, stream, expected, int64(round)+1)
		}
		if len(won) != 1 {
			t.Fatalf("round %d: %d appends won, want exactly 1", round, len(won))
		}
		winners = append(winners, won[0])
	}
	if got := ids(mustReadStream(t, s, stream, 1, 0)); !slices.Equal(got, winners) {
		t.Errorf("stream holds %v, want the winners %v", got, winners)
	}
	if v := mustVersion(t, s, stream); v != rounds {
		t.Errorf("stream at version %d, want %d", v, rounds)
	}
}

// testConcurrentWritersTailingReader has writers append to shared streams,
// half at Any and half at the version they read (retrying conflicts), while
// a reader pages through the log: it must see every event once, the log
// positions increasing and each stream in version order.
func testConcurrentWritersTailingReader(t *testing.T, s eventstore.Store) {
	const writers, appendsPerWriter, streams, pageSize = 8, 20, 5, 7
	prefix := "tail-" + newID() + "-"
	ctx, cancel := context.WithTimeout(t.Context(), timeout)
	defer cancel()

	var (
		mu       sync.Mutex
		written  = map[string]eventstore.NewEvent{}
		streamOf = map[string]string{}
	)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			for a := range appendsPerWriter {
				stream := fmt.Sprintf("%s%d", prefix, rng.IntN(streams))
				evs := make([]eventstore.NewEvent, 1+rng.IntN(3))
				for i := range evs {
					evs[i] = event("Tailed", fmt.Sprintf(`{"writer":%d,"append":%d,"i":%d}`, w, a, i))
				}
				if err := appendRetrying(ctx, s, stream, w%2 == 0, evs); err != nil {
					t.Errorf("writer %d: %v", w, err)
					return
				}
				mu.Lock()
				for _, e := range evs {
					written[e.ID] = e
					streamOf[e.ID] = stream
				}
				mu.Unlock()
			}
		})
	}
	writersDone := make(chan struct{})
	go func() { wg.Wait(); close(writersDone) }()

	var (
		seen     = map[string]bool{}
		log      []eventstore.Event
		after    eventstore.Position
		lastVer  = map[string]int64{}
		finished bool
	)
	for {
		select {
		case <-writersDone:
			finished = true
		default:
		}
		page, err := s.ReadAll(ctx, after, pageSize)
		if err != nil {
			t.Fatalf("read all after %s: %v", after, err)
		}
		if len(page) > pageSize {
			t.Fatalf("page of %d events, limit %d", len(page), pageSize)
		}
		for _, e := range page {
			if !after.Less(e.Position) {
				t.Fatalf("event %s at %s after %s: positions must increase", e.ID, e.Position, after)
			}
			after = e.Position
			if seen[e.ID] {
				t.Fatalf("event %s seen twice", e.ID)
			}
			seen[e.ID] = true
			if e.Version != lastVer[e.Stream]+1 {
				t.Fatalf("stream %s: version %d follows %d in the log", e.Stream, e.Version, lastVer[e.Stream])
			}
			lastVer[e.Stream] = e.Version
			log = append(log, e)
		}
		mu.Lock()
		total := len(written)
		mu.Unlock()
		if finished && len(seen) == total {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("reader saw %d of %d events before the timeout", len(seen), total)
		}
		if len(page) < pageSize {
			time.Sleep(time.Millisecond)
		}
	}
	if t.Failed() {
		return
	}
	for _, e := range log {
		w, ok := written[e.ID]
		if !ok {
			t.Fatalf("reader saw event %s nobody wrote", e.ID)
		}
		checkStored(t, e, streamOf[e.ID], e.Version, w)
	}
	if extra, err := s.ReadAll(t.Context(), after, pageSize); err != nil || len(extra) != 0 {
		t.Errorf("after the last event the log gave %d more (err %v)", len(extra), err)
	}
	again := ReadAll(t, s, len(log))
	for i := range log {
		if !sameEvent(again[i], log[i]) {
			t.Fatalf("log read again differs at %d: %+v, tailed %+v", i, again[i], log[i])
		}
	}
}

// appendRetrying appends at Any, or at the version it reads, retrying
// conflicts.
func appendRetrying(ctx context.Context, s eventstore.Store, stream string, atAny bool, evs []eventstore.NewEvent) error {
	for {
		expected := eventstore.Any
		if !atAny {
			v, err := s.StreamVersion(ctx, stream)
			if err != nil {
				return err
			}
			expected = eventstore.Exactly(v)
		}
		_, err := s.Append(ctx, stream, expected, evs...)
		if !errors.Is(err, eventstore.ErrConflict) {
			return err
		}
	}
}

func testIdempotentRetry(t *testing.T, s eventstore.Store) {
	stream := "retry-" + newID()
	a := event("A", `{"a":1}`)
	a.Metadata = eventstore.Metadata{Author: "ann", CorrelationID: "c1", Time: time.Date(2025, 1, 2, 3, 4, 5, 6000, time.UTC)}
	b := event("B", `{"b":[1,2]}`) // zero Time: stamped anew on each try
	first := mustAppend(t, s, stream, eventstore.NoStream, a, b)
	want := eventstore.AppendResult{FirstVersion: 1, LastVersion: 2}
	if WithoutPosition(first) != want {
		t.Fatalf("first append: %+v, want %+v", first, want)
	}
	retry := func(name string, expected eventstore.ExpectedVersion) {
		t.Helper()
		res, err := s.Append(t.Context(), stream, expected, a, b)
		if err != nil {
			t.Errorf("%s: retry at %d: %v", name, expected, err)
		} else if res != first {
			t.Errorf("%s: retry at %d gave %+v, want the original %+v", name, expected, res, first)
		}
	}
	time.Sleep(2 * time.Millisecond) // so that b's stamped time differs
	retry("same expected version", eventstore.NoStream)
	retry("Any", eventstore.Any)
	// Schema 0 is stored as 1, so naming 1 repeats the same append.
	if res, err := s.Append(t.Context(), stream, eventstore.NoStream, a, withSchema(b, 1)); err != nil || res != first {
		t.Errorf("retry naming schema 1 for the stored 0: %+v, %v; want the original %+v", res, err, first)
	}
	c := event("C", `{}`)
	mustAppend(t, s, stream, eventstore.Exactly(2), c)
	retry("stream moved on", eventstore.NoStream)
	retry("at the current version", eventstore.Exactly(3))
	retry("at a wrong version", eventstore.Exactly(7))

	got := mustReadStream(t, s, stream, 1, 0)
	if want := []string{a.ID, b.ID, c.ID}; !slices.Equal(ids(got), want) {
		t.Errorf("stream holds %v, want %v", ids(got), want)
	}
	if v := mustVersion(t, s, stream); v != 3 {
		t.Errorf("stream at version %d, want 3", v)
	}
	ReadAll(t, s, 3)
}

// testConcurrentRetry sends the same append from several goroutines at
// once, as a client retrying a timed-out request might: all succeed with
// the same result and the events are stored once.
func testConcurrentRetry(t *testing.T, s eventstore.Store) {
	const tries = 8
	for _, expected := range []eventstore.ExpectedVersion{eventstore.NoStream, eventstore.Any} {
		stream := "concurrent-retry-" + newID()
		evs := events(3)
		results := make(chan error, tries)
		var wg sync.WaitGroup
		for range tries {
			wg.Go(func() {
				res, err := s.Append(t.Context(), stream, expected, evs...)
				if err == nil && WithoutPosition(res) != (eventstore.AppendResult{FirstVersion: 1, LastVersion: 3}) {
					err = fmt.Errorf("result %+v", res)
				}
				results <- err
			})
		}
		wg.Wait()
		close(results)
		for err := range results {
			if err != nil {
				t.Errorf("append at %d: %v", expected, err)
			}
		}
		if got := ids(mustReadStream(t, s, stream, 1, 0)); !slices.Equal(got, newIDs(evs)) {
			t.Errorf("stream holds %v, want %v once", got, newIDs(evs))
		}
	}
}

func testDuplicateID(t *testing.T, s eventstore.Store) {
	owner, other := "owner-"+newID(), "other-"+newID()
	x := event("X", `{"x":1}`)
	x.Metadata.Author = "ann"
	mustAppend(t, s, owner, eventstore.NoStream, x)
	mustAppend(t, s, other, eventstore.NoStream, event("O", `{}`))

	with := func(change func(e *eventstore.NewEvent)) eventstore.NewEvent {
		e := x
		change(&e)
		return e
	}
	tests := []struct {
		name     string
		stream   string
		expected eventstore.ExpectedVersion
		events   []eventstore.NewEvent
	}{
		{"different data", owner, eventstore.Any, []eventstore.NewEvent{with(func(e *eventstore.NewEvent) { e.Data = json.RawMessage(`{"x":2}`) })}},
		{"different data at a stale version", owner, eventstore.NoStream, []eventstore.NewEvent{with(func(e *eventstore.NewEvent) { e.Data = json.RawMessage(`{"x":2}`) })}},
		{"different type", owner, eventstore.Exactly(1), []eventstore.NewEvent{with(func(e *eventstore.NewEvent) { e.Type = "Y" })}},
		{"different schema version", owner, eventstore.Any, []eventstore.NewEvent{with(func(e *eventstore.NewEvent) { e.Schema = 2 })}},
		{"different author", owner, eventstore.Any, []eventstore.NewEvent{with(func(e *eventstore.NewEvent) { e.Metadata.Author = "bob" })}},
		{"same event in another stream", other, eventstore.Any, []eventstore.NewEvent{x}},
		{"same event in a new stream", "new-" + newID(), eventstore.NoStream, []eventstore.NewEvent{x}},
		{"stored ID after a new one", owner, eventstore.Any, []eventstore.NewEvent{event("N", `{}`), x}},
		{"stored ID before a new one", owner, eventstore.Exactly(1), []eventstore.NewEvent{x, event("N", `{}`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			version := mustVersion(t, s, tt.stream)
			_, err := s.Append(t.Context(), tt.stream, tt.expected, tt.events...)
			if v := mustVersion(t, s, tt.stream); v != version {
				t.Errorf("stream %s moved from version %d to %d", tt.stream, version, v)
			}
			if !errors.Is(err, eventstore.ErrDuplicateEvent) {
				t.Errorf("append: %v, want ErrDuplicateEvent", err)
			}
			if errors.Is(err, eventstore.ErrConflict) {
				t.Errorf("append: %v is a conflict as well", err)
			}
		})
	}
	if v := mustVersion(t, s, owner); v != 1 {
		t.Errorf("owner stream at version %d, want 1", v)
	}
	if v := mustVersion(t, s, other); v != 1 {
		t.Errorf("other stream at version %d, want 1", v)
	}
	ReadAll(t, s, 2)
}

func testLargePayload(t *testing.T, s eventstore.Store) {
	stream := "large-" + newID()
	big := func(seed uint64) eventstore.NewEvent {
		rng := rand.New(rand.NewPCG(seed, 2))
		var b bytes.Buffer
		b.WriteString(`{"points":[`)
		for i := 0; b.Len() < 1<<20; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"x":%.6f,"y":%.6f,"label":"n%d ü \"q\""}`, rng.Float64()*1e4, rng.Float64()*1e4, i)
		}
		b.WriteString(`]}`)
		return event("Large", b.String())
	}
	evs := []eventstore.NewEvent{big(1), big(2)}
	mustAppend(t, s, stream, eventstore.NoStream, evs...)
	got := mustReadStream(t, s, stream, 1, 0)
	if len(got) != 2 {
		t.Fatalf("stream has %d events, want 2", len(got))
	}
	all := ReadAll(t, s, 2)
	for i, e := range evs {
		checkStored(t, got[i], stream, int64(i+1), e)
		checkStored(t, all[i], stream, int64(i+1), e)
	}
}

// testManyEvents appends more events at once than a store may handle with
// its usual statement.
func testManyEvents(t *testing.T, s eventstore.Store) {
	stream := "many-" + newID()
	mustAppend(t, s, stream, eventstore.NoStream, events(3)...)
	evs := events(500)
	want := eventstore.AppendResult{FirstVersion: 4, LastVersion: 503}
	if res := mustAppend(t, s, stream, eventstore.Exactly(3), evs...); WithoutPosition(res) != want {
		t.Errorf("result %+v, want %+v", res, want)
	}
	if res, err := s.Append(t.Context(), stream, eventstore.Exactly(3), evs...); err != nil || WithoutPosition(res) != want {
		t.Errorf("retry: %+v, %v; want %+v", res, err, want)
	}
	got := mustReadStream(t, s, stream, 4, 0)
	if len(got) != len(evs) {
		t.Fatalf("stream has %d events from version 4, want %d", len(got), len(evs))
	}
	all := ReadAll(t, s, 503)
	for i, e := range evs {
		checkStored(t, got[i], stream, int64(i+4), e)
		checkStored(t, all[i+3], stream, int64(i+4), e)
	}
}

func testMetadata(t *testing.T, s eventstore.Store) {
	stream := "metadata-" + newID()
	at := time.Date(2024, 3, 5, 10, 11, 12, 123456789, time.FixedZone("CET", 3600))
	full := event("Full", `{}`)
	full.Metadata = eventstore.Metadata{Author: "Zoë Brunner", CorrelationID: newID(), CausationID: newID(), Time: at}
	stamped := event("Stamped", `{}`)
	stamped.Metadata.Author = "system"

	before := time.Now()
	mustAppend(t, s, stream, eventstore.NoStream, full, stamped)
	after := time.Now()

	check := func(how string, got []eventstore.Event) {
		t.Helper()
		if len(got) != 2 {
			t.Fatalf("%s: %d events, want 2", how, len(got))
		}
		m := got[0].Metadata
		if m.Author != full.Metadata.Author || m.CorrelationID != full.Metadata.CorrelationID || m.CausationID != full.Metadata.CausationID {
			t.Errorf("%s: metadata %+v, want %+v", how, m, full.Metadata)
		}
		if want := at.Truncate(time.Microsecond); !m.Time.Equal(want) || m.Time.Location() != time.UTC {
			t.Errorf("%s: time %v, want %v in UTC", how, m.Time, want.UTC())
		}
		m = got[1].Metadata
		if m.Author != "system" || m.CorrelationID != "" || m.CausationID != "" {
			t.Errorf("%s: metadata %+v, want only the author", how, m)
		}
		if m.Time.Before(before.Truncate(time.Microsecond)) || m.Time.After(after) || m.Time.Location() != time.UTC {
			t.Errorf("%s: zero time stored as %v, want the time of the append (%v to %v) in UTC", how, m.Time, before, after)
		}
	}
	check("ReadStream", mustReadStream(t, s, stream, 1, 0))
	check("ReadAll", ReadAll(t, s, 2))
}

// testSchemaVersion appends events naming no schema version (stored as 1)
// and higher ones, in small and large appends, and reads them back from
// the stream and the log.
func testSchemaVersion(t *testing.T, s eventstore.Store) {
	stream := "schema-" + newID()
	small := []eventstore.NewEvent{withSchema(event("V", `{}`), 0), withSchema(event("V", `{}`), 1),
		withSchema(event("V", `{}`), 2), withSchema(event("V", `{}`), 1<<20)}
	large := make([]eventstore.NewEvent, 100)
	for i := range large {
		large[i] = withSchema(event("V", fmt.Sprintf(`{"i":%d}`, i)), 1+i%5)
	}
	mustAppend(t, s, stream, eventstore.NoStream, small...)
	mustAppend(t, s, stream, eventstore.Exactly(int64(len(small))), large...)
	want := append(slices.Clone(small), large...)
	got := mustReadStream(t, s, stream, 1, 0)
	all := ReadAll(t, s, len(want))
	if len(got) != len(want) {
		t.Fatalf("stream has %d events, want %d", len(got), len(want))
	}
	for i, e := range want {
		checkStored(t, got[i], stream, int64(i+1), e)
		checkStored(t, all[i], stream, int64(i+1), e)
	}
	if got[0].Schema != 1 || got[3].Schema != 1<<20 {
		t.Errorf("schema versions %d and %d, want 1 for none given and %d", got[0].Schema, got[3].Schema, 1<<20)
	}
}

func testReadStream(t *testing.T, s eventstore.Store) {
	stream, noise := "read-"+newID(), "noise-"+newID()
	var evs []eventstore.NewEvent
	for i := range 5 {
		pair := events(2)
		evs = append(evs, pair...)
		mustAppend(t, s, stream, eventstore.Exactly(int64(2*i)), pair...)
		mustAppend(t, s, noise, eventstore.Any, event("Noise", `{}`))
	}
	positions := map[string]eventstore.Position{}
	for _, e := range ReadAll(t, s, 15) {
		positions[e.ID] = e.Position
	}
	tests := []struct {
		stream      string
		from        int64
		limit       int
		first, last int64 // versions expected; last < first: none
	}{
		{stream, 1, 0, 1, 10},
		{stream, 0, -1, 1, 10},
		{stream, 1, 10, 1, 10},
		{stream, 1, 100, 1, 10},
		{stream, 4, 3, 4, 6},
		{stream, 9, 5, 9, 10},
		{stream, 10, 1, 10, 10},
		{stream, 11, 5, 1, 0},
		{"unknown-" + newID(), 1, 0, 1, 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("from %d limit %d", tt.from, tt.limit), func(t *testing.T) {
			got := mustReadStream(t, s, tt.stream, tt.from, tt.limit)
			want := int(max(0, tt.last-tt.first+1))
			if len(got) != want {
				t.Fatalf("%d events, want %d", len(got), want)
			}
			for i, e := range got {
				v := tt.first + int64(i)
				checkStored(t, e, tt.stream, v, evs[v-1])
				if e.Position != positions[e.ID] {
					t.Errorf("event %s at %s in its stream, %s in the log", e.ID, e.Position, positions[e.ID])
				}
			}
		})
	}
}

func testReadAllPaging(t *testing.T, s eventstore.Store) {
	var streams [3]string
	for i := range streams {
		streams[i] = fmt.Sprintf("page-%d-%s", i, newID())
	}
	var appended []string
	for i := range 8 {
		evs := events(1 + i%3)
		mustAppend(t, s, streams[i%3], eventstore.Any, evs...)
		appended = append(appended, newIDs(evs)...)
	}
	all := ReadAll(t, s, len(appended))
	if !slices.Equal(ids(all), appended) {
		t.Fatalf("log %v, want the appends in order %v", ids(all), appended)
	}
	for i := 1; i < len(all); i++ {
		if !all[i-1].Position.Less(all[i].Position) {
			t.Fatalf("positions %s then %s do not increase", all[i-1].Position, all[i].Position)
		}
	}
	for _, size := range []int{1, 3, 7, len(all), 100} {
		t.Run(fmt.Sprintf("pages of %d", size), func(t *testing.T) {
			var got []eventstore.Event
			var after eventstore.Position
			for {
				page, err := s.ReadAll(t.Context(), after, size)
				if err != nil {
					t.Fatalf("read all after %s: %v", after, err)
				}
				if want := min(size, len(all)-len(got)); len(page) != want {
					t.Fatalf("page after %s has %d events, want %d", after, len(page), want)
				}
				if len(page) == 0 {
					break
				}
				got = append(got, page...)
				after = page[len(page)-1].Position
			}
			for i := range all {
				if !sameEvent(got[i], all[i]) {
					t.Fatalf("paged event %d is %+v, want %+v", i, got[i], all[i])
				}
			}
		})
	}
	t.Run("after an event's position", func(t *testing.T) {
		got, err := s.ReadAll(t.Context(), all[4].Position, 2)
		if err != nil {
			t.Fatal(err)
		}
		if want := ids(all[5:7]); !slices.Equal(ids(got), want) {
			t.Errorf("got %v, want %v", ids(got), want)
		}
	})
}

func testReopen(t *testing.T, f Factory) {
	storage := f.Storage(t)
	s := f.Open(t, storage)
	closeAtEnd(t, s) // closing twice must do no harm
	a, b := "reopen-a-"+newID(), "reopen-b-"+newID()
	first := events(3)
	mustAppend(t, s, a, eventstore.NoStream, first...)
	mustAppend(t, s, b, eventstore.NoStream, events(2)...)
	mustAppend(t, s, a, eventstore.Exactly(3), events(1)...)
	before := ReadAll(t, s, 6)
	if err := s.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}

	s = f.Open(t, storage)
	closeAtEnd(t, s)
	after := ReadAll(t, s, len(before))
	for i := range before {
		if !sameEvent(after[i], before[i]) {
			t.Fatalf("event %d after reopening is %+v, was %+v", i, after[i], before[i])
		}
	}
	if v := mustVersion(t, s, a); v != 4 {
		t.Errorf("stream a at version %d after reopening, want 4", v)
	}
	if res, err := s.Append(t.Context(), a, eventstore.NoStream, first...); err != nil || res.FirstVersion != 1 {
		t.Errorf("retry of the first append after reopening: %+v, %v; want the original result", res, err)
	}
	_, err := s.Append(t.Context(), b, eventstore.NoStream, events(1)...)
	checkConflict(t, err, b, eventstore.NoStream, 2)
	more := events(1)
	mustAppend(t, s, b, eventstore.Exactly(2), more...)
	all := ReadAll(t, s, len(before)+1)
	if last := all[len(all)-1]; last.ID != more[0].ID || !before[len(before)-1].Position.Less(last.Position) {
		t.Errorf("append after reopening landed at %s (%s), want after %s", last.Position, last.ID, before[len(before)-1].Position)
	}
}

// WithoutPosition is an append's result without its position, for tests
// that compare results and check the position apart (testAppendPosition).
func WithoutPosition(res eventstore.AppendResult) eventstore.AppendResult {
	res.Position = eventstore.Position{}
	return res
}

// An append tells where its last event landed in the log, as the reads
// show it: for one event, for many, and for a retry of a stored append
// (the original's). A store that cannot tell (positions false) gives the
// zero position; a position it gives is still checked.
func testAppendPosition(t *testing.T, s eventstore.Store, positions bool) {
	stream := "position-" + newID()
	check := func(name string, res eventstore.AppendResult) {
		t.Helper()
		if res.Position == (eventstore.Position{}) {
			if positions {
				t.Errorf("%s: no position told", name)
			}
			return
		}
		got := mustReadStream(t, s, stream, res.LastVersion, 1)
		if len(got) != 1 || got[0].Position != res.Position {
			t.Errorf("%s: told position %s, the event at version %d reads %+v", name, res.Position, res.LastVersion, got)
		}
	}
	check("one event", mustAppend(t, s, stream, eventstore.NoStream, event("A", `{}`)))
	many := events(3)
	first := mustAppend(t, s, stream, eventstore.Exactly(1), many...)
	check("three events", first)
	mustAppend(t, s, "other-"+newID(), eventstore.NoStream, event("B", `{}`))
	retried, err := s.Append(t.Context(), stream, eventstore.Exactly(1), many...)
	if err != nil {
		t.Fatalf("retry: %v", err)
	}
	check("a retry", retried)
	if retried.Position != first.Position {
		t.Errorf("a retry told %s, the original %s", retried.Position, first.Position)
	}
}

// testReadAllOf: eventstore.ReadAllOf pages through the log as ReadAll does,
// with the data of the types asked for; a store that implements
// TypedReader leaves out the data of the others.
func testReadAllOf(t *testing.T, s eventstore.Store) {
	_, typed := s.(eventstore.TypedReader)
	streams := []string{"typed-a-" + newID(), "typed-b-" + newID()}
	for i := range 4 {
		evs := []eventstore.NewEvent{event("Kept", fmt.Sprintf(`{"i":%d}`, i)), event("Bulky", fmt.Sprintf(`{"i":%d,"results":[1,2,3]}`, i)), event("Also'kept", `{"quote":"'"}`)}
		evs[0].Schema = 2
		mustAppend(t, s, streams[i%2], eventstore.Any, evs...)
	}
	want := ReadAll(t, s, 12)
	types := []string{"Kept", "Also'kept"}
	var got []eventstore.Event
	for after := (eventstore.Position{}); ; {
		page, err := eventstore.ReadAllOf(t.Context(), s, after, 5, types)
		if err != nil {
			t.Fatalf("ReadAllOf after %s: %v", after, err)
		}
		got = append(got, page...)
		if len(page) < 5 {
			break
		}
		after = page[len(page)-1].Position
	}
	if len(got) != len(want) {
		t.Fatalf("ReadAllOf paged through %d events, ReadAll %d", len(got), len(want))
	}
	for i, g := range got {
		w := want[i]
		if g.Position != w.Position || g.ID != w.ID || g.Stream != w.Stream || g.Version != w.Version || g.Type != w.Type ||
			g.Schema != w.Schema || !g.Metadata.Time.Equal(w.Metadata.Time) || g.Metadata.Author != w.Metadata.Author {
			t.Errorf("event %d: ReadAllOf %+v, ReadAll %+v", i, g, w)
		}
		switch {
		case w.Type != "Bulky" && !bytes.Equal(g.Data, w.Data):
			t.Errorf("event %d (%s): data %s, want %s", i, w.Type, g.Data, w.Data)
		case w.Type == "Bulky" && typed && len(g.Data) != 0:
			t.Errorf("event %d (%s, not asked for): data %s, want none", i, w.Type, g.Data)
		case w.Type == "Bulky" && !typed && !bytes.Equal(g.Data, w.Data):
			t.Errorf("event %d (%s, through ReadAll): data %s, want %s", i, w.Type, g.Data, w.Data)
		}
	}
}

// testCountAfter: a store that counts its log (Counter) gives, for every
// position of the log and limit, how many events ReadAll would return.
func testCountAfter(t *testing.T, s eventstore.Store) {
	c, ok := s.(eventstore.Counter)
	if !ok {
		t.Skip("the store does not count its log")
	}
	if n, err := c.CountAfter(t.Context(), eventstore.Position{}, 0); err != nil || n != 0 {
		t.Fatalf("count of an empty log = %d, %v; want 0", n, err)
	}
	for i := range 4 {
		mustAppend(t, s, fmt.Sprintf("count-%d-%s", i%2, newID()), eventstore.NoStream, events(1+i%3)...)
	}
	all := ReadAll(t, s, 1+2+3+1)
	from := append([]eventstore.Position{{}}, positionsOf(all)...)
	for _, after := range from {
		for _, limit := range []int{0, 1, 3, 100} {
			evs, err := s.ReadAll(t.Context(), after, limit)
			if err != nil {
				t.Fatal(err)
			}
			n, err := c.CountAfter(t.Context(), after, limit)
			if err != nil {
				t.Fatal(err)
			}
			if n != len(evs) {
				t.Errorf("CountAfter(%s, %d) = %d; ReadAll gives %d", after, limit, n, len(evs))
			}
		}
	}
}

func positionsOf(evs []eventstore.Event) []eventstore.Position {
	out := make([]eventstore.Position, len(evs))
	for i, e := range evs {
		out[i] = e.Position
	}
	return out
}

// testHead: a store that tells its head (HeadReader) gives the position of
// the last event appended, at once after the append returns, even before
// ReadAll shows it.
func testHead(t *testing.T, s eventstore.Store) {
	h, ok := s.(eventstore.HeadReader)
	if !ok {
		t.Skip("the store does not tell its head")
	}
	if head, err := h.Head(t.Context()); err != nil || head != (eventstore.Position{}) {
		t.Fatalf("head of an empty log = %s, %v; want the zero position", head, err)
	}
	for i := range 3 {
		res := mustAppend(t, s, fmt.Sprintf("head-%d-%s", i%2, newID()), eventstore.NoStream, events(2)...)
		head, err := h.Head(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if res.Position != (eventstore.Position{}) && head != res.Position {
			t.Errorf("append %d: head %s, the append landed at %s", i, head, res.Position)
		}
		all := ReadAll(t, s, 2*(i+1))
		if want := all[len(all)-1].Position; head != want {
			t.Errorf("append %d: head %s, the log ends at %s", i, head, want)
		}
	}
}

// testStreamVersions: eventstore.StreamVersions gives each existing
// stream's version and leaves out unknown ones, through the store's
// VersionsReader where it has one and StreamVersion where not.
func testStreamVersions(t *testing.T, s eventstore.Store) {
	a, b, none := "versions-a-"+newID(), "versions-b-"+newID(), "versions-none-"+newID()
	if got, err := eventstore.StreamVersions(t.Context(), s, nil); err != nil || len(got) != 0 {
		t.Fatalf("versions of no streams = %v, %v; want none", got, err)
	}
	mustAppend(t, s, a, eventstore.NoStream, events(3)...)
	mustAppend(t, s, b, eventstore.NoStream, events(1)...)
	check := func(want map[string]int64) {
		t.Helper()
		got, err := eventstore.StreamVersions(t.Context(), s, []string{a, none, b, a})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Errorf("versions = %v; want %v", got, want)
		}
		for stream, v := range want {
			if got[stream] != v {
				t.Errorf("version of %s = %d; want %d", stream, got[stream], v)
			}
		}
	}
	check(map[string]int64{a: 3, b: 1})
	mustAppend(t, s, a, eventstore.Exactly(3), events(2)...)
	check(map[string]int64{a: 5, b: 1})
}
