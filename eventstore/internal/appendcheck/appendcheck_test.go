package appendcheck

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"draindesign/eventstore"
)

func TestPrepare(t *testing.T) {
	now := time.Date(2025, 6, 7, 8, 9, 10, 123456789, time.FixedZone("X", 7200))
	given := time.Date(2020, 1, 1, 0, 0, 0, 999, time.UTC)
	in := []eventstore.NewEvent{
		{ID: "a", Type: "T", Data: json.RawMessage(`1`)},
		{ID: "b", Type: "T", Schema: 3, Data: json.RawMessage(`2`), Metadata: eventstore.Metadata{Time: given}},
	}
	out, err := Prepare("s", eventstore.Any, in, now)
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Schema != 1 || out[1].Schema != 3 {
		t.Errorf("schemas became %d and %d, want 1 (for 0) and 3", out[0].Schema, out[1].Schema)
	}
	bad := []eventstore.NewEvent{{ID: "c", Type: "T", Schema: -1, Data: json.RawMessage(`1`)}}
	if _, err := Prepare("s", eventstore.Any, bad, now); err == nil {
		t.Error("Prepare accepted a negative schema version")
	}
	if want := time.Date(2025, 6, 7, 6, 9, 10, 123456000, time.UTC); out[0].Metadata.Time != want {
		t.Errorf("zero time became %v, want %v", out[0].Metadata.Time, want)
	}
	if want := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC); out[1].Metadata.Time != want {
		t.Errorf("time became %v, want %v", out[1].Metadata.Time, want)
	}
	if !in[0].Metadata.Time.IsZero() {
		t.Error("Prepare changed the caller's events")
	}
}

func TestRetry(t *testing.T) {
	evs := []eventstore.NewEvent{
		{ID: "a", Type: "T", Data: json.RawMessage(`{"a":1}`), Metadata: eventstore.Metadata{Author: "ann"}},
		{ID: "b", Type: "T", Data: json.RawMessage(`{"b":1}`)},
	}
	stored := func(stream string, first int64, change func(*eventstore.Event)) []eventstore.Event {
		var out []eventstore.Event
		for i, e := range evs {
			s := eventstore.Event{ID: e.ID, Stream: stream, Version: first + int64(i), Type: e.Type, Data: e.Data, Metadata: e.Metadata}
			s.Metadata.Time = time.Now() // never compared
			if change != nil && i == 1 {
				change(&s)
			}
			out = append(out, s)
		}
		return out
	}
	tests := []struct {
		name   string
		stored []eventstore.Event
		ok     bool
		dup    bool
	}{
		{"nothing stored", nil, false, false},
		{"stored as given", stored("s", 4, nil), true, false},
		{"stored in reverse order", []eventstore.Event{stored("s", 4, nil)[1], stored("s", 4, nil)[0]}, true, false},
		{"other stream", stored("o", 4, nil), false, true},
		{"other type", stored("s", 4, func(e *eventstore.Event) { e.Type = "U" }), false, true},
		{"other schema", stored("s", 4, func(e *eventstore.Event) { e.Schema = 2 }), false, true},
		{"other data", stored("s", 4, func(e *eventstore.Event) { e.Data = json.RawMessage(`{"b":2}`) }), false, true},
		{"other causation", stored("s", 4, func(e *eventstore.Event) { e.Metadata.CausationID = "c" }), false, true},
		{"not contiguous", stored("s", 4, func(e *eventstore.Event) { e.Version = 9 }), false, true},
		{"only some stored", stored("s", 4, nil)[:1], false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, ok, err := Retry("s", evs, tt.stored)
			if ok != tt.ok || errors.Is(err, eventstore.ErrDuplicateEvent) != tt.dup || (err != nil && !tt.dup) {
				t.Fatalf("Retry = %+v, %v, %v; want ok %v, duplicate %v", res, ok, err, tt.ok, tt.dup)
			}
			if ok && res != (eventstore.AppendResult{FirstVersion: 4, LastVersion: 5}) {
				t.Errorf("result %+v, want versions 4 to 5", res)
			}
		})
	}
}
