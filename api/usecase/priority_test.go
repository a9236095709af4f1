package usecase

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"

	"draindesign/domain/account"
	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/eventstore/memory"
)

// priorityStore notes, for each event type appended, whether its append
// was marked low priority.
type priorityStore struct {
	eventstore.Store
	mu  sync.Mutex
	low map[string][]bool
}

func (s *priorityStore) Append(ctx context.Context, stream string, expected eventstore.ExpectedVersion, evs ...eventstore.NewEvent) (eventstore.AppendResult, error) {
	s.mu.Lock()
	for _, e := range evs {
		s.low[e.Type] = append(s.low[e.Type], eventstore.IsLowPriority(ctx))
	}
	s.mu.Unlock()
	return s.Store.Append(ctx, stream, expected, evs...)
}

// The record of a calculation, successful or failed, yields to edits in
// the store; the draft and the edits themselves do not yield.
func TestCalculationRecordsYieldToEdits(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	store := &priorityStore{Store: memory.New(), low: map[string][]bool{}}
	u := NewProjects(Config{Store: store})
	a := Actor{User: &account.Account{ID: "u1", Username: "designer", Country: "GB"}}

	p, runID, err := u.CreateDraft(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	length := project.Inputs{"channel_length_m": json.RawMessage(`20`)}
	if _, _, err := u.EditProject(ctx, a, p.ID, Edit{Type: "change_inputs", RunID: runID, Fields: length}); err != nil {
		t.Fatal(err)
	}
	if err := u.RecordCalculation(ctx, a, Outcome{ProjectID: p.ID, RunID: runID, Inputs: length}); err != nil {
		t.Fatal(err)
	}
	if err := u.RecordCalculation(ctx, a, Outcome{ProjectID: p.ID, RunID: runID, Inputs: length, Failure: "no channel fits"}); err != nil {
		t.Fatal(err)
	}

	want := map[string]bool{
		project.RunCalculated{}.EventType():     true,
		project.CalculationFailed{}.EventType(): true,
		project.RunInputsChanged{}.EventType():  false,
	}
	for typ, low := range want {
		got := store.low[typ]
		if len(got) != 1 || got[0] != low {
			t.Errorf("%s appended with low priority %v, want [%v]", typ, got, low)
		}
	}
	for typ, got := range store.low {
		if _, ok := want[typ]; !ok && slices.Contains(got, true) {
			t.Errorf("%s appended with low priority %v", typ, got)
		}
	}
}
