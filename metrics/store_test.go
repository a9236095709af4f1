package metrics_test

import (
	"encoding/json"
	"testing"

	"draindesign/eventstore"
	"draindesign/eventstore/eventstoretest"
	"draindesign/eventstore/memory"
	"draindesign/metrics"
)

// The counting wrapper is a store like the one it wraps: it passes the
// conformance suite, typed reads included (the read models' catch-ups go
// through it).
func TestCountingStoreConformance(t *testing.T) {
	eventstoretest.Run(t, func(t *testing.T) eventstore.Store { return metrics.CountAppends(memory.New()) })
}

// A typed read through the wrapper leaves the other types' data out, as the
// store beneath does.
func TestCountingStorePassesTypedReadsOn(t *testing.T) {
	s := metrics.CountAppends(memory.New())
	if _, err := s.Append(t.Context(), "s", eventstore.NoStream,
		eventstore.NewEvent{ID: "1", Type: "Kept", Data: json.RawMessage(`{"a":1}`)},
		eventstore.NewEvent{ID: "2", Type: "Bulky", Data: json.RawMessage(`{"b":2}`)}); err != nil {
		t.Fatal(err)
	}
	evs, err := eventstore.ReadAllOf(t.Context(), s, eventstore.Position{}, 0, []string{"Kept"})
	if err != nil || len(evs) != 2 || string(evs[0].Data) != `{"a":1}` || len(evs[1].Data) != 0 {
		t.Fatalf("ReadAllOf through the wrapper = %+v, %v", evs, err)
	}
}
