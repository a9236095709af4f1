package sqlite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"draindesign/eventstore"
)

// The key and erasure calls write on the one connection that the appends'
// batches hold for good: they must take their turn between batches, while
// appends go on, and never wait for a connection that is never given back
// (they once did, and every first write of a new user hung).
func TestKeyWritesTakeTurnsWithBatches(t *testing.T) {
	s, _ := openStore(t)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()

	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 4 {
		wg.Go(func() {
			for i := range 20 {
				if _, err := s.Append(ctx, fmt.Sprintf("w%d-%d", w, i), eventstore.NoStream, ev("Busy")); err != nil {
					errs <- err
				}
			}
		})
	}
	_, err := s.Append(ctx, "subject-stream", eventstore.NoStream, ev("Personal"))
	if err != nil {
		t.Fatal(err)
	}
	key := bytes.Repeat([]byte{7}, 32)
	got, err := s.SubjectKey(ctx, "user-1", key)
	if err != nil {
		t.Fatalf("subject key while appends run: %v", err)
	}
	if !bytes.Equal(got, key) {
		t.Fatalf("stored key %x, want %x", got, key)
	}
	if again, err := s.SubjectKey(ctx, "user-1", bytes.Repeat([]byte{9}, 32)); err != nil || !bytes.Equal(again, key) {
		t.Fatalf("second call gave %x, %v; want the first key", again, err)
	}
	evs, err := s.ReadStream(ctx, "subject-stream", 1, 0)
	if err != nil || len(evs) != 1 {
		t.Fatalf("read subject stream: %v, %d events", err, len(evs))
	}
	if err := s.RedactEvent(ctx, evs[0].ID, json.RawMessage(`{"n":"erased"}`)); err != nil {
		t.Fatalf("redact: %v", err)
	}
	if err := s.EraseSubjectKey(ctx, "user-1"); err != nil {
		t.Fatalf("erase key: %v", err)
	}
	if _, err := s.SubjectKey(ctx, "user-1", key); !errors.Is(err, eventstore.ErrSubjectErased) {
		t.Fatalf("key after erasure: %v, want ErrSubjectErased", err)
	}
	if err := s.DeleteStream(ctx, "w0-0"); err != nil {
		t.Fatalf("delete stream: %v", err)
	}
	if err := s.Checkpoint(ctx); err != nil {
		t.Fatalf("checkpoint: %v", err)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("append beside the key writes: %v", err)
	}
	// Appends still work after the exclusive calls handed the lead back.
	if _, err := s.Append(ctx, "after", eventstore.NoStream, ev("After")); err != nil {
		t.Fatalf("append after: %v", err)
	}
	redacted, err := s.ReadStream(ctx, "subject-stream", 1, 0)
	if err != nil || string(redacted[0].Data) != `{"n":"erased"}` {
		t.Fatalf("redacted event reads %s, %v", redacted[0].Data, err)
	}
}

// A closed store refuses the key writes as it refuses appends.
func TestKeyWritesAfterClose(t *testing.T) {
	s, _ := openStore(t)
	s.Close()
	if err := s.EraseSubjectKey(t.Context(), "user-1"); err == nil {
		t.Fatal("erase on a closed store: no error")
	}
}
