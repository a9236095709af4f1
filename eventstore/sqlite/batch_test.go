package sqlite

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"draindesign/eventstore"
	"draindesign/eventstore/eventstoretest"
)

// These tests compose the batches themselves: holdLead makes the store
// believe a batch is being written, so that appends queue; releaseLead then
// hands the lead to the first of them, which writes all the queued ones in
// one transaction.

func openStore(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "events.db")
	s, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func holdLead(t *testing.T, s *Store) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.leading {
		t.Fatal("a batch is being written already")
	}
	s.leading = true
}

func releaseLead(s *Store) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.passLead()
}

// waitQueued waits until n appends are queued (or the test's deadline).
func waitQueued(t *testing.T, s *Store, n int) {
	t.Helper()
	for {
		s.mu.Lock()
		queued := len(s.queue)
		s.mu.Unlock()
		if queued == n {
			return
		}
		if queued > n {
			t.Fatalf("%d appends queued, want %d", queued, n)
		}
		select {
		case <-t.Context().Done():
			t.Fatalf("%d appends queued, want %d", queued, n)
		case <-time.After(time.Millisecond):
		}
	}
}

type appendCall struct {
	stream   string
	expected eventstore.ExpectedVersion
	events   []eventstore.NewEvent
	ctx      context.Context // nil: the test's
}

type appendOutcome struct {
	res eventstore.AppendResult
	err error
}

// queue starts the calls one after the other, each once the previous one
// is queued, so that the batch holds them in order, behind a held lead.
func queue(t *testing.T, s *Store, calls []appendCall) []chan appendOutcome {
	t.Helper()
	outs := make([]chan appendOutcome, len(calls))
	for i, c := range calls {
		outs[i] = make(chan appendOutcome, 1)
		ctx := c.ctx
		if ctx == nil {
			ctx = t.Context()
		}
		go func() {
			res, err := s.Append(ctx, c.stream, c.expected, c.events...)
			outs[i] <- appendOutcome{res, err}
		}()
		waitQueued(t, s, i+1)
	}
	return outs
}

// inOneBatch runs calls in one batch and returns their outcomes.
func inOneBatch(t *testing.T, s *Store, calls []appendCall) []appendOutcome {
	t.Helper()
	holdLead(t, s)
	outs := queue(t, s, calls)
	releaseLead(s)
	got := make([]appendOutcome, len(calls))
	for i, o := range outs {
		got[i] = <-o
	}
	return got
}

func ev(typ string) eventstore.NewEvent {
	return eventstore.NewEvent{ID: uuid.NewString(), Type: typ, Data: []byte(`{"n":1}`)}
}

func streamIDs(t *testing.T, s *Store, stream string) []string {
	t.Helper()
	evs, err := s.ReadStream(t.Context(), stream, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(evs))
	for i, e := range evs {
		ids[i] = e.ID
	}
	return ids
}

func TestBatchSameStreamOneWins(t *testing.T) {
	tests := []struct {
		name     string
		existing int
		expected eventstore.ExpectedVersion
	}{
		{"new stream", 0, eventstore.NoStream},
		{"existing stream", 2, eventstore.Exactly(2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := openStore(t)
			stream := "race-" + uuid.NewString()
			for i := range tt.existing {
				if _, err := s.Append(t.Context(), stream, eventstore.Exactly(int64(i)), ev("Before")); err != nil {
					t.Fatal(err)
				}
			}
			calls := make([]appendCall, 8)
			for i := range calls {
				calls[i] = appendCall{stream: stream, expected: tt.expected, events: []eventstore.NewEvent{ev("Raced")}}
			}
			got := inOneBatch(t, s, calls)
			// The batch runs in queue order: the first wins.
			want := eventstore.AppendResult{FirstVersion: int64(tt.existing) + 1, LastVersion: int64(tt.existing) + 1}
			if got[0].err != nil || eventstoretest.WithoutPosition(got[0].res) != want {
				t.Fatalf("first append: %+v, %v; want %+v", got[0].res, got[0].err, want)
			}
			checkPosition(t, s, stream, got[0].res)
			for i, o := range got[1:] {
				var ce *eventstore.ConflictError
				if !errors.As(o.err, &ce) || ce.Stream != stream || ce.Expected != tt.expected || ce.Actual != int64(tt.existing)+1 {
					t.Errorf("append %d: %+v, %v; want a conflict at version %d", i+2, o.res, o.err, tt.existing+1)
				}
			}
			ids := streamIDs(t, s, stream)
			if len(ids) != tt.existing+1 || ids[tt.existing] != calls[0].events[0].ID {
				t.Errorf("stream holds %v, want %d events ending with the winner %s", ids, tt.existing+1, calls[0].events[0].ID)
			}
		})
	}
}

// TestBatchMixedOutcomes puts appends that succeed, conflict, reuse an ID,
// retry a stored append or one of the batch and follow each other in one
// stream into one batch: each caller gets its own outcome, and only the successes are
// stored.
func TestBatchMixedOutcomes(t *testing.T) {
	s, _ := openStore(t)
	stored := ev("Stored")
	owner := "owner-" + uuid.NewString()
	if _, err := s.Append(t.Context(), owner, eventstore.NoStream, stored); err != nil {
		t.Fatal(err)
	}
	a, b, chain := "a-"+uuid.NewString(), "b-"+uuid.NewString(), "chain-"+uuid.NewString()
	reused := stored
	reused.Data = []byte(`{"other":true}`)
	calls := []appendCall{
		{stream: a, expected: eventstore.NoStream, events: []eventstore.NewEvent{ev("A1"), ev("A2")}},
		{stream: b, expected: eventstore.Exactly(3), events: []eventstore.NewEvent{ev("B")}},                // conflict
		{stream: owner, expected: eventstore.Any, events: []eventstore.NewEvent{ev("New"), reused}},         // duplicate ID after a new one
		{stream: owner, expected: eventstore.NoStream, events: []eventstore.NewEvent{stored}},               // retry of the stored append
		{stream: chain, expected: eventstore.NoStream, events: []eventstore.NewEvent{ev("C1")}},             // first of two in one stream
		{stream: chain, expected: eventstore.Exactly(1), events: []eventstore.NewEvent{ev("C2"), ev("C3")}}, // sees the first
		{stream: a, expected: eventstore.Exactly(2), events: []eventstore.NewEvent{ev("A3")}},               // sees the first call
		{stream: chain, expected: eventstore.Exactly(1), events: []eventstore.NewEvent{ev("C4")}},           // conflict: chain is at 3
	}
	// A retry at Any of the batch's first append: it finds the IDs taken
	// while inserting, so it is settled once the first is committed.
	calls = append(calls, appendCall{stream: a, expected: eventstore.Any, events: calls[0].events})
	got := inOneBatch(t, s, calls)
	type want struct {
		res       eventstore.AppendResult
		conflict  int64 // actual version of a conflict; -1: none
		duplicate bool
	}
	wants := []want{
		{eventstore.AppendResult{FirstVersion: 1, LastVersion: 2}, -1, false},
		{eventstore.AppendResult{}, 0, false},
		{eventstore.AppendResult{}, -1, true},
		{eventstore.AppendResult{FirstVersion: 1, LastVersion: 1}, -1, false},
		{eventstore.AppendResult{FirstVersion: 1, LastVersion: 1}, -1, false},
		{eventstore.AppendResult{FirstVersion: 2, LastVersion: 3}, -1, false},
		{eventstore.AppendResult{FirstVersion: 3, LastVersion: 3}, -1, false},
		{eventstore.AppendResult{}, 3, false},
		{eventstore.AppendResult{FirstVersion: 1, LastVersion: 2}, -1, false},
	}
	for i, w := range wants {
		o := got[i]
		var ce *eventstore.ConflictError
		switch {
		case w.conflict >= 0:
			if !errors.As(o.err, &ce) || ce.Stream != calls[i].stream || ce.Actual != w.conflict {
				t.Errorf("call %d: %v, want a conflict at version %d", i, o.err, w.conflict)
			}
		case w.duplicate:
			if !errors.Is(o.err, eventstore.ErrDuplicateEvent) || errors.Is(o.err, eventstore.ErrConflict) {
				t.Errorf("call %d: %v, want ErrDuplicateEvent", i, o.err)
			}
		case o.err != nil || eventstoretest.WithoutPosition(o.res) != w.res:
			t.Errorf("call %d: %+v, %v; want %+v", i, o.res, o.err, w.res)
		default:
			checkPosition(t, s, calls[i].stream, o.res)
		}
	}
	ids := func(cs ...int) []string {
		var out []string
		for _, c := range cs {
			for _, e := range calls[c].events {
				out = append(out, e.ID)
			}
		}
		return out
	}
	for _, c := range []struct {
		stream string
		want   []string
	}{
		{a, ids(0, 6)},
		{b, nil},
		{owner, []string{stored.ID}},
		{chain, ids(4, 5)},
	} {
		if got := streamIDs(t, s, c.stream); !slices.Equal(got, c.want) {
			t.Errorf("stream %s holds %v, want %v", c.stream, got, c.want)
		}
	}
	// The log holds the batch's appends in queue order, each with a
	// commit number of its own.
	log, err := s.ReadAll(t.Context(), eventstore.Position{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if wantLog := append([]string{stored.ID}, ids(0, 4, 5, 6)...); !slices.Equal(idsOf(log), wantLog) {
		t.Errorf("log %v, want %v", idsOf(log), wantLog)
	}
	commits := map[string]uint64{}
	for _, e := range log {
		commits[e.Type] = e.Position.Commit
	}
	if !(commits["A1"] == commits["A2"] && commits["A2"] < commits["C1"] && commits["C1"] < commits["C2"] &&
		commits["C2"] == commits["C3"] && commits["C3"] < commits["A3"]) {
		t.Errorf("commit numbers %v, want one per append, increasing", commits)
	}
}

func idsOf(evs []eventstore.Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.ID
	}
	return out
}

// TestBatchFailures makes one append of a batch fail with an error that is
// neither a conflict nor a duplicate (a trigger refuses its event): its
// caller gets the error and the others are written. An append whose
// transaction cannot commit (a deferred foreign key is left dangling) fails
// the whole batch: no caller is told of success, nothing is stored, and
// the store goes on.
func TestBatchFailures(t *testing.T) {
	s, _ := openStore(t)
	if _, err := s.conn.ExecContext(t.Context(), `
		CREATE TRIGGER refuse BEFORE INSERT ON events WHEN NEW.type = 'Refused' BEGIN SELECT RAISE(ABORT, 'refused by trigger'); END;
		CREATE TABLE parent (id TEXT PRIMARY KEY);
		CREATE TABLE child (parent_id TEXT REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED);
		CREATE TRIGGER dangle AFTER INSERT ON events WHEN NEW.type = 'Dangling' BEGIN INSERT INTO child VALUES ('nobody'); END;`); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		poison string
		// whether the others in the batch are written
		othersWritten bool
	}{
		{"failing append", "Refused", true},
		{"failing commit", "Dangling", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, y, z := "x-"+uuid.NewString(), "y-"+uuid.NewString(), "z-"+uuid.NewString()
			calls := []appendCall{
				{stream: x, expected: eventstore.NoStream, events: []eventstore.NewEvent{ev("X")}},
				{stream: y, expected: eventstore.NoStream, events: []eventstore.NewEvent{ev("Y"), ev(tt.poison)}},
				{stream: z, expected: eventstore.NoStream, events: []eventstore.NewEvent{ev("Z")}},
			}
			got := inOneBatch(t, s, calls)
			if got[1].err == nil || errors.Is(got[1].err, eventstore.ErrConflict) || errors.Is(got[1].err, eventstore.ErrDuplicateEvent) {
				t.Errorf("poisoned append: %+v, %v; want its failure", got[1].res, got[1].err)
			}
			for _, i := range []int{0, 2} {
				written := len(streamIDs(t, s, calls[i].stream)) == 1
				switch {
				case tt.othersWritten && (got[i].err != nil || !written):
					t.Errorf("append %d: %v, written %t; want it written", i, got[i].err, written)
				case !tt.othersWritten && (got[i].err == nil || written):
					t.Errorf("append %d: %+v, %v, written %t; want an error and nothing written", i, got[i].res, got[i].err, written)
				}
			}
			if ids := streamIDs(t, s, y); len(ids) != 0 {
				t.Errorf("the poisoned stream holds %v", ids)
			}
			if _, err := s.Append(t.Context(), "after-"+uuid.NewString(), eventstore.NoStream, ev("After")); err != nil {
				t.Errorf("append after the failed batch: %v", err)
			}
		})
	}
}

// TestCancelWhileQueued cancels an append that waits for its batch: it
// returns the context's error and is never written, while the appends
// around it are.
func TestCancelWhileQueued(t *testing.T) {
	s, _ := openStore(t)
	ctx, cancel := context.WithCancel(t.Context())
	before, cancelled, after := "before-"+uuid.NewString(), "cancelled-"+uuid.NewString(), "after-"+uuid.NewString()
	holdLead(t, s)
	outs := queue(t, s, []appendCall{
		{stream: before, expected: eventstore.NoStream, events: []eventstore.NewEvent{ev("B")}},
		{stream: cancelled, expected: eventstore.NoStream, events: []eventstore.NewEvent{ev("C")}, ctx: ctx},
		{stream: after, expected: eventstore.NoStream, events: []eventstore.NewEvent{ev("A")}},
	})
	cancel()
	if o := <-outs[1]; !errors.Is(o.err, context.Canceled) {
		t.Errorf("cancelled append: %+v, %v; want context.Canceled", o.res, o.err)
	}
	releaseLead(s)
	for _, i := range []int{0, 2} {
		if o := <-outs[i]; o.err != nil {
			t.Errorf("append %d: %v", i, o.err)
		}
	}
	for stream, want := range map[string]int{before: 1, cancelled: 0, after: 1} {
		if got := len(streamIDs(t, s, stream)); got != want {
			t.Errorf("stream %s holds %d events, want %d", stream, got, want)
		}
	}
}

// TestCloseWhileQueued closes the store while appends wait for their
// batch: Close writes them first, and refuses appends made after it began.
func TestCloseWhileQueued(t *testing.T) {
	s, path := openStore(t)
	holdLead(t, s)
	calls := make([]appendCall, 5)
	for i := range calls {
		calls[i] = appendCall{stream: fmt.Sprintf("queued-%d-%s", i, uuid.NewString()), expected: eventstore.NoStream, events: []eventstore.NewEvent{ev("Q")}}
	}
	outs := queue(t, s, calls)
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	for {
		s.mu.Lock()
		isClosed := s.closed
		s.mu.Unlock()
		if isClosed {
			break
		}
		select {
		case <-t.Context().Done():
			t.Fatal("Close did not begin")
		case <-time.After(time.Millisecond):
		}
	}
	if _, err := s.Append(t.Context(), "late-"+uuid.NewString(), eventstore.NoStream, ev("Late")); !errors.Is(err, ErrClosed) {
		t.Errorf("append after Close began: %v, want ErrClosed", err)
	}
	releaseLead(s)
	if err := <-closed; err != nil {
		t.Fatalf("close: %v", err)
	}
	for i, o := range outs {
		if r := <-o; r.err != nil || r.res.FirstVersion != 1 {
			t.Errorf("queued append %d: %+v, %v; want it written", i, r.res, r.err)
		}
	}
	reopened, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer reopened.Close()
	for _, c := range calls {
		if got := streamIDs(t, reopened, c.stream); !slices.Equal(got, []string{c.events[0].ID}) {
			t.Errorf("after reopening, stream %s holds %v, want %s", c.stream, got, c.events[0].ID)
		}
	}
}

// checkPosition checks that a batched append told its last event's place
// in the log.
func checkPosition(t *testing.T, s eventstore.Store, stream string, res eventstore.AppendResult) {
	t.Helper()
	evs, err := s.ReadStream(t.Context(), stream, res.LastVersion, 1)
	if err != nil || len(evs) != 1 || evs[0].Position != res.Position {
		t.Errorf("%s v%d: told position %s, read %+v (%v)", stream, res.LastVersion, res.Position, evs, err)
	}
}
