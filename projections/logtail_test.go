package projections

import (
	"context"
	"fmt"
	"testing"
	"time"

	"draindesign/eventstore"
	"draindesign/eventstore/eventstoretest"
	"draindesign/eventstore/memory"
)

func appendEvents(t *testing.T, s eventstore.Store, n int) []eventstore.Event {
	t.Helper()
	var out []eventstore.Event
	for i := range n {
		typ := []string{"a", "b"}[i%2]
		res, err := s.Append(context.Background(), fmt.Sprintf("project-%d", i%3), eventstore.Any,
			eventstore.NewEvent{ID: fmt.Sprintf("%s-%d-%d", t.Name(), i, time.Now().UnixNano()), Type: typ, Data: []byte(`{"n":1}`)})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, eventstore.Event{Type: typ, Position: res.Position})
	}
	return out
}

// The tail serves, from what one read brought, the reads of others that
// follow close behind: each from its own position, up to its limit or
// the position it needs, and the reads of one type with the other types'
// data left out; what it cannot know (the head) it reads.
func TestLogTailServesReadsFromOneRead(t *testing.T) {
	ctx := context.Background()
	store := &eventstoretest.Reads{Store: memory.New()}
	evs := appendEvents(t, store, 10)
	var tail logTail
	var reads recentReads

	// The first reader reads the store (all 10, to the head).
	got, err := tail.read(ctx, store, &reads, eventstore.Position{}, 100, nil, nil)
	if err != nil || len(got) != 10 {
		t.Fatalf("first read: %d events, %v", len(got), err)
	}
	before := store.Rows()
	for _, tc := range []struct {
		name  string
		after int // index of the event read last, -1: none
		limit int
		to    int // index of the event needed, -1: the head
		types []string
		want  int
	}{
		{"a full page from a later position", 2, 3, -1, nil, 3},
		{"up to the event needed", 4, 100, 7, nil, 5},
		{"one type, from the start", -1, 4, -1, []string{"a"}, 4},
		// These ask the store whether the log grew (it did not).
		{"to the head", 6, 100, -1, nil, 3},
		{"at the head", 9, 100, -1, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			after := eventstore.Position{}
			if tc.after >= 0 {
				after = evs[tc.after].Position
			}
			var to *eventstore.Position
			if tc.to >= 0 {
				to = &evs[tc.to].Position
			}
			got, err := tail.read(ctx, store, &reads, after, tc.limit, to, tc.types)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tc.want {
				t.Fatalf("%d events, want %d", len(got), tc.want)
			}
			for i, e := range got {
				if want := evs[tc.after+1+i]; e.Position != want.Position {
					t.Errorf("event %d at %s, want %s", i, e.Position, want.Position)
				}
				if withData := len(tc.types) == 0 || e.Type == tc.types[0]; withData != (len(e.Data) > 0) {
					t.Errorf("event %d of type %s: data %q", i, e.Type, e.Data)
				}
			}
		})
	}
	if n := store.Rows() - before; n != 0 {
		t.Errorf("the store returned %d more events; the tail held them all", n)
	}
	// A type's read left the shared stretch whole.
	if all, _ := tail.available(eventstore.Position{}, 100); len(all) != 10 || len(all[1].Data) == 0 {
		t.Errorf("the stretch lost data: %d events", len(all))
	}
}

// New events are read once, from the tail's end, and served to the
// others; a reader behind the stretch reads the store for itself.
func TestLogTailGrowsAndReadsBehindIt(t *testing.T) {
	ctx := context.Background()
	store := &eventstoretest.Reads{Store: memory.New()}
	evs := appendEvents(t, store, 4)
	var tail logTail
	var reads recentReads
	if _, err := tail.read(ctx, store, &reads, evs[1].Position, 100, nil, nil); err != nil {
		t.Fatal(err)
	}
	evs = append(evs, appendEvents(t, store, 3)...)
	read := store.Rows()
	got, err := tail.read(ctx, store, &reads, evs[2].Position, 100, nil, nil)
	if err != nil || len(got) != 4 || got[0].Position != evs[3].Position {
		t.Fatalf("read from inside the stretch: %d events, %v", len(got), err)
	}
	if n := store.Rows() - read; n != 3 {
		t.Errorf("the store returned %d events, want the 3 new ones", n)
	}
	read = store.Rows()
	got, err = tail.read(ctx, store, &reads, evs[0].Position, 100, nil, nil)
	if err != nil || len(got) != 6 || got[0].Position != evs[1].Position {
		t.Fatalf("read from behind the stretch: %d events, %v", len(got), err)
	}
	if n := store.Rows() - read; n != 6 {
		t.Errorf("a read behind the stretch got %d events from the store, want 6", n)
	}
}

// A reader a little ahead of the stretch (it read for itself) extends it
// from its end and is served from it; a page that starts inside the
// stretch and goes beyond it joins it.
func TestLogTailJoinsPagesAndServesReadersAhead(t *testing.T) {
	ctx := context.Background()
	store := &eventstoretest.Reads{Store: memory.New()}
	evs := appendEvents(t, store, 8)
	var tail logTail
	var reads recentReads
	tail.extend(eventstore.Position{}, mustRead(t, store, eventstore.Position{}, 3))
	// A page from inside the stretch, beyond its end: joined.
	tail.extend(evs[1].Position, mustRead(t, store, evs[1].Position, 3))
	if all, ok := tail.available(eventstore.Position{}, 100); !ok || len(all) != 5 || all[4].Position != evs[4].Position {
		t.Fatalf("joined stretch: %d events, covered %t", len(all), ok)
	}
	// A reader at evs[6], ahead of the stretch's end (evs[4]).
	got, err := tail.read(ctx, store, &reads, evs[6].Position, 100, nil, nil)
	if err != nil || len(got) != 1 || got[0].Position != evs[7].Position {
		t.Fatalf("reader ahead: %d events, %v", len(got), err)
	}
	if !tail.covers(evs[7].Position) || !tail.covers(evs[0].Position) {
		t.Error("the stretch did not grow from its end")
	}
}

func mustRead(t *testing.T, s eventstore.Store, after eventstore.Position, limit int) []eventstore.Event {
	t.Helper()
	evs, err := s.ReadAll(context.Background(), after, limit)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// The stretch keeps at most twice logTailKept events, cut back to
// logTailKept past that, and nothing once it is old or forgotten.
func TestLogTailIsBounded(t *testing.T) {
	var tail logTail
	page := make([]eventstore.Event, 2*logTailKept+10)
	for i := range page {
		page[i] = eventstore.Event{Position: eventstore.Position{Commit: uint64(i + 1), Seq: 1}, Data: []byte(`{}`)}
	}
	tail.extend(eventstore.Position{}, page[:logTailKept+10])
	if len(tail.evs) != logTailKept+10 {
		t.Fatalf("kept %d events of %d, under twice the bound", len(tail.evs), logTailKept+10)
	}
	tail.extend(page[logTailKept+9].Position, page[logTailKept+10:])
	cut := len(page) - logTailKept - 1 // the last position dropped
	if len(tail.evs) != logTailKept || tail.from != page[cut].Position {
		t.Fatalf("kept %d events from %s", len(tail.evs), tail.from)
	}
	if tail.covers(page[cut-1].Position) || !tail.covers(page[cut].Position) {
		t.Error("the trimmed stretch covers the wrong positions")
	}
	tail.at = time.Now().Add(-2 * logTailFor)
	if tail.covers(page[cut+100].Position) {
		t.Error("an old stretch still serves")
	}
	tail.at = time.Now()
	// A stretch begun long ago starts again from its end when it grows.
	tail.began = time.Now().Add(-2 * logTailMaxAge)
	last := page[len(page)-1].Position
	next := eventstore.Event{Position: eventstore.Position{Commit: last.Commit + 1, Seq: 1}, Data: []byte(`{}`)}
	tail.extend(last, []eventstore.Event{next})
	if len(tail.evs) != 1 || tail.from != last || tail.covers(page[cut+100].Position) || !tail.covers(last) {
		t.Errorf("an old stretch kept %d events from %s", len(tail.evs), tail.from)
	}
	tail.forget()
	if tail.covers(page[cut+100].Position) {
		t.Error("a forgotten stretch still serves")
	}
}
