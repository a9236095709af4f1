package memory_test

import (
	"encoding/json"
	"errors"
	"testing"

	"draindesign/eventstore"
	"draindesign/eventstore/eventstoretest"
	"draindesign/eventstore/memory"
)

func TestConformance(t *testing.T) {
	eventstoretest.Run(t, func(t *testing.T) eventstore.Store { return memory.New() })
}

// The store keeps its own copy of event data: changing what was appended,
// or what was read, changes nothing stored.
func TestDataIsCopied(t *testing.T) {
	s := memory.New()
	data := json.RawMessage(`{"a":1}`)
	if _, err := s.Append(t.Context(), "s", eventstore.NoStream, eventstore.NewEvent{ID: "e", Type: "T", Data: data}); err != nil {
		t.Fatal(err)
	}
	data[5] = '2'
	read, err := s.ReadStream(t.Context(), "s", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	read[0].Data[5] = '3'
	all, err := s.ReadAll(t.Context(), eventstore.Position{}, 0)
	if err != nil || len(all) != 1 || string(all[0].Data) != `{"a":1}` {
		t.Fatalf("stored data %s (%v), want {\"a\":1}", all[0].Data, err)
	}
}

func TestClosed(t *testing.T) {
	s := memory.New()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second close: %v", err)
	}
	if _, err := s.Append(t.Context(), "s", eventstore.Any, eventstore.NewEvent{ID: "e", Type: "T", Data: []byte(`{}`)}); !errors.Is(err, memory.ErrClosed) {
		t.Errorf("append after close: %v, want ErrClosed", err)
	}
	if _, err := s.ReadAll(t.Context(), eventstore.Position{}, 0); !errors.Is(err, memory.ErrClosed) {
		t.Errorf("read after close: %v, want ErrClosed", err)
	}
}
