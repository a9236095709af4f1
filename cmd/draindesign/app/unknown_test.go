package app

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/projections"
)

// An event of a type this code does not know, in a project stream, is
// skipped by the live feed (counted): a client following the project gets
// the next event, and one catching up from the start gets every known one.
func TestLiveFeedSkipsUnknownEventTypes(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.signUp(t, "uma")
	var d editAnswer
	u.must(http.StatusCreated, "POST", "/api/projects/", map[string]any{}, &d)
	tab := p.dial(t, u)
	if err := tab.WriteJSON(map[string]any{"type": "subscribe", "project": d.ID, "from": d.Version}); err != nil {
		t.Fatal(err)
	}
	const unknown = "project.exploded_in_live_test"
	before := projections.UnknownCount("live", unknown)
	if _, err := p.Store.Append(context.Background(), project.Stream(d.ID), eventstore.Exactly(d.Version),
		eventstore.NewEvent{ID: "unknown-live-1", Type: unknown, Data: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	u.must(http.StatusOK, "POST", "/api/projects/"+d.ID+"/commands", map[string]any{"type": "rename_run", "run_id": d.RunID, "name": "Gate"}, nil)
	if m := next(t, tab); m.EventType != "project.run_renamed" || m.Version != d.Version+2 || m.Runs[d.RunID] == "" {
		t.Fatalf("following tab saw %+v, want the rename at version %d", m, d.Version+2)
	}

	fresh := p.dial(t, u)
	if err := fresh.WriteJSON(map[string]any{"type": "subscribe", "project": d.ID, "from": 0}); err != nil {
		t.Fatal(err)
	}
	// A draft is created with its first run: versions 1 and 2, the unknown
	// event 3, the rename 4.
	var versions []int64
	for range 3 {
		versions = append(versions, next(t, fresh).Version)
	}
	if !slices.Equal(versions, []int64{1, 2, 4}) {
		t.Fatalf("catch-up versions %v, want [1 2 4]", versions)
	}
	if n := projections.UnknownCount("live", unknown) - before; n < 2 {
		t.Errorf("live feed counted %v skips, want one per subscriber", n)
	}
}
