package app

import (
	"net/http"
	"testing"
)

type editAnswer struct {
	ID      string `json:"id"`
	Version int64  `json:"version"`
	RunID   string `json:"run_id"`
	Runs    []struct {
		ID, Name, State string
	} `json:"runs"`
}

// Editing a draft: every command is an event that another tab following
// the project sees within a second, with the run's state; the run list
// rules hold through the API; a stranger cannot edit.
func TestLiveEditing(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.signUp(t, "jo")
	var d editAnswer
	u.must(http.StatusCreated, "POST", "/api/projects/", map[string]any{}, &d)
	if len(d.Runs) != 1 || d.Runs[0].Name != "Run 1" || d.Runs[0].State != "unconfigured" {
		t.Fatalf("new draft %+v", d)
	}
	tab2 := p.dial(t, u)
	if err := tab2.WriteJSON(map[string]any{"type": "subscribe", "project": d.ID, "from": d.Version}); err != nil {
		t.Fatal(err)
	}
	cmd := func(body map[string]any) editAnswer {
		var a editAnswer
		u.must(http.StatusOK, "POST", "/api/projects/"+d.ID+"/commands", body, &a)
		return a
	}
	run := d.RunID
	a := cmd(map[string]any{"type": "change_inputs", "run_id": run, "fields": map[string]any{
		"channel_group": "concrete", "concreteChannel": map[string]any{"width": 100, "depth": 300},
		"channel_length_m": 20, "drainage_area_m2": 144}})
	if v := wantView(t, next(t, tab2), d.ID, a.Version); runState(v, run) != "ready" {
		t.Fatalf("second tab saw %+v", v)
	}
	a = cmd(map[string]any{"type": "add_run"})
	if a.RunID == "" || a.Runs[1].Name != "Run 2" {
		t.Fatalf("add_run %+v", a)
	}
	if v := wantView(t, next(t, tab2), d.ID, a.Version); len(v.Runs) != 2 || v.Runs[1].ID != a.RunID || v.Runs[1].Name != "Run 2" {
		t.Fatalf("second tab saw %+v", v)
	}
	a = cmd(map[string]any{"type": "rename_run", "run_id": a.RunID, "name": "Run 1"})
	if a.Runs[1].Name != "Run 1 (2)" {
		t.Fatalf("rename collision %+v", a)
	}
	var bad map[string]string
	u.must(http.StatusBadRequest, "POST", "/api/projects/"+d.ID+"/commands", map[string]any{"type": "duplicate_run", "run_id": run}, &bad)
	if bad["error"] != "Only a calculated run can be duplicated" {
		t.Fatalf("duplicate of uncalculated run: %v", bad)
	}
	u.must(http.StatusBadRequest, "POST", "/api/projects/"+d.ID+"/commands", map[string]any{"type": "explode"}, nil)
	stranger := p.signUp(t, "kit")
	stranger.must(http.StatusNotFound, "POST", "/api/projects/"+d.ID+"/commands", map[string]any{"type": "add_run"}, nil)
}
