package aggregate_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"draindesign/domain/fault"
	"draindesign/eventstore"
	"draindesign/eventstore/aggregate"
	"draindesign/eventstore/sqlite"
)

// counter is a tiny aggregate: its events add to a total.
type counter struct {
	total   int
	version int64
}

type added struct {
	N    int    `json:"n"`
	Note string `json:"note,omitempty"`
}

func (c *counter) Apply(e added)        { c.total += e.N }
func (c *counter) SetVersion(v int64)   { c.version = v }
func (c *counter) StreamVersion() int64 { return c.version }
func newCounter() *counter              { return &counter{} }
func missing(id string) error           { return &fault.Error{K: fault.NotFound, Message: "no counter " + id} }
func stream(id string) string           { return "counter-" + id }
func newID() func() string              { n := 0; return func() string { n++; return fmt.Sprintf("ev-%d", n) } }
func (codec) Encode(e added) (eventstore.NewEvent, error) {
	b, err := json.Marshal(e)
	return eventstore.NewEvent{Type: "counter.added", Data: b}, err
}

type codec struct{}

func (codec) Decode(ev eventstore.Event) (added, error) {
	if ev.Type != "counter.added" {
		return added{}, fmt.Errorf("%w %q", aggregate.ErrUnknownType, ev.Type)
	}
	var e added
	err := json.Unmarshal(ev.Data, &e)
	return e, err
}

func setup(t *testing.T) (*aggregate.Repository[*counter, added], eventstore.Store, *[]string) {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "events.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	var skipped []string
	return &aggregate.Repository[*counter, added]{
		Store: store, Codec: codec{}, Stream: stream, New: newCounter, Missing: missing, NewID: newID(),
		Skipped:       func(_, typ string) { skipped = append(skipped, typ) },
		MaxEventBytes: 1024,
	}, store, &skipped
}

func add(n int) aggregate.Decide[*counter, added] {
	return func(*counter) ([]added, error) { return []added{{N: n}}, nil }
}

func TestUnknownEventsAreSkippedButCounted(t *testing.T) {
	ctx := context.Background()
	repo, store, skipped := setup(t)
	by := aggregate.Actor{UserID: "u1", CorrelationID: "corr", CausationID: "req-1"}
	if _, err := repo.Create(ctx, "a", by, []added{{N: 2}}); err != nil {
		t.Fatal(err)
	}
	// A later build wrote an event type this one does not know.
	if _, err := store.Append(ctx, stream("a"), eventstore.Exactly(1), eventstore.NewEvent{ID: "future", Type: "counter.reset_v9", Data: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	c, err := repo.Update(ctx, "a", -1, by, nil, add(3))
	if err != nil {
		t.Fatalf("a stream with an unknown event must still take commands: %v", err)
	}
	if c.total != 5 || c.version != 3 {
		t.Fatalf("total %d at version %d, want 5 at 3 (the unknown event still counts in the stream)", c.total, c.version)
	}
	if len(*skipped) == 0 || (*skipped)[0] != "counter.reset_v9" {
		t.Fatalf("skipped %v", *skipped)
	}
	evs, _ := store.ReadStream(ctx, stream("a"), 3, 0)
	if m := evs[0].Metadata; m.Author != "u1" || m.CorrelationID != "corr" || m.CausationID != "req-1" {
		t.Fatalf("metadata %+v lacks the actor, correlation or causation", m)
	}
}

func TestGuardRunsBeforeTheVersionCheck(t *testing.T) {
	ctx := context.Background()
	repo, _, _ := setup(t)
	if _, err := repo.Create(ctx, "a", aggregate.Actor{}, []added{{N: 1}}); err != nil {
		t.Fatal(err)
	}
	denied := errors.New("denied")
	guard := func(*counter) error { return denied }
	if _, err := repo.Update(ctx, "a", 7, aggregate.Actor{}, guard, add(1)); !errors.Is(err, denied) {
		t.Fatalf("a stale version checked before the guard tells an outsider the version: %v", err)
	}
	if _, err := repo.Update(ctx, "a", 7, aggregate.Actor{}, nil, add(1)); !errors.Is(err, aggregate.ErrStale) {
		t.Fatalf("stale version: %v", err)
	}
	if _, err := repo.Update(ctx, "a", 1, aggregate.Actor{}, nil, add(1)); err != nil {
		t.Fatalf("right version: %v", err)
	}
	if _, err := repo.Load(ctx, "nobody"); fault.Of(err) != fault.NotFound {
		t.Fatalf("missing stream: %v", err)
	}
}

func TestOversizedEventIsRefusedAndNothingWritten(t *testing.T) {
	ctx := context.Background()
	repo, store, _ := setup(t)
	if _, err := repo.Create(ctx, "a", aggregate.Actor{}, []added{{N: 1}}); err != nil {
		t.Fatal(err)
	}
	big := func(*counter) ([]added, error) { return []added{{N: 1}, {N: 2, Note: strings.Repeat("x", 2000)}}, nil }
	_, err := repo.Update(ctx, "a", -1, aggregate.Actor{}, nil, big)
	if fault.Of(err) != fault.TooLarge {
		t.Fatalf("oversized event: %v", err)
	}
	if v, _ := store.StreamVersion(ctx, stream("a")); v != 1 {
		t.Fatalf("stream at version %d after a refused batch, want 1", v)
	}
}

// UpdateFrom starts from an aggregate loaded earlier and catches it up:
// the decision sees what another writer appended since, and the write
// lands after it.
func TestUpdateFromCatchesUpTheLoadedAggregate(t *testing.T) {
	ctx := context.Background()
	repo, _, _ := setup(t)
	by := aggregate.Actor{UserID: "u"}
	if _, err := repo.Create(ctx, "c", by, []added{{N: 1}}); err != nil {
		t.Fatal(err)
	}
	loaded, err := repo.Load(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.Update(ctx, "c", -1, by, nil, add(10)); err != nil {
		t.Fatal(err)
	}
	var seen int
	got, err := repo.UpdateFrom(ctx, "c", &loaded, -1, by, nil, func(c *counter) ([]added, error) {
		seen = c.total
		return []added{{N: 100}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != 11 || got.total != 111 || got.version != 3 {
		t.Errorf("decided on total %d, ended at %d v%d; want 11, then 111 at v3", seen, got.total, got.version)
	}
	fresh, _ := repo.Load(ctx, "c")
	if fresh.total != 111 || fresh.version != 3 {
		t.Errorf("stored: %d v%d, want 111 v3", fresh.total, fresh.version)
	}
}
