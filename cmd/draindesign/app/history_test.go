package app

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"draindesign/domain/account"
)

type historyAnswer struct {
	Project  string `json:"project"`
	Version  int64  `json:"version"`
	Editable bool   `json:"editable"`
	Entries  []struct {
		From, Version int64
		Author, Kind  string
		Undoable      bool
		Undone        bool
		Changes       []struct {
			Type   string
			Run    string
			Fields []string
		}
	} `json:"entries"`
	Undo    *struct{ Entry, Target int64 } `json:"undo"`
	Redo    *struct{ Entry, Target int64 } `json:"redo"`
	Authors map[string]string              `json:"authors"`
}

// lengthOf reads a run's channel length from a live view.
func lengthOf(t *testing.T, v *liveView) string {
	t.Helper()
	if len(v.Runs) == 0 {
		t.Fatal("no runs")
	}
	return string(v.Runs[0].Inputs["channel_length_m"])
}

// The designer's history through the API: every edit is a version, undo
// and redo are new events found again from the stream (a second tab sees
// each at once), a restore brings back an old version, and only who may
// read the project by its id reads its history; only the owner changes it.
func TestHistoryUndoRedoRestore(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.signUp(t, "hana")
	var d editAnswer
	u.must(http.StatusCreated, "POST", "/api/projects/", map[string]any{}, &d)
	tab2 := p.dial(t, u)
	if err := tab2.WriteJSON(map[string]any{"type": "subscribe", "project": d.ID, "from": d.Version}); err != nil {
		t.Fatal(err)
	}
	base := "/api/projects/" + d.ID
	cmd := func(body map[string]any) editAnswer {
		t.Helper()
		var a editAnswer
		u.must(http.StatusOK, "POST", base+"/commands", body, &a)
		return a
	}
	// follow reads the second tab's view after a command answered at version v.
	follow := func(v int64) *liveView {
		t.Helper()
		return wantView(t, next(t, tab2), d.ID, v)
	}
	a := cmd(map[string]any{"type": "change_inputs", "run_id": d.RunID, "fields": map[string]any{
		"channel_group": "concrete", "concreteChannel": map[string]any{"width": 100, "depth": 300},
		"channel_length_m": 20, "drainage_area_m2": 144}})
	follow(a.Version)
	for _, length := range []int{21, 22} {
		a = cmd(map[string]any{"type": "change_inputs", "run_id": d.RunID, "fields": map[string]any{"channel_length_m": length}})
		follow(a.Version)
	}
	var h historyAnswer
	u.must(http.StatusOK, "GET", base+"/history", nil, &h)
	if len(h.Entries) != 4 || h.Entries[0].Kind != "created" || h.Entries[3].Kind != "edit" || !h.Editable || h.Version != a.Version {
		t.Fatalf("history %+v", h)
	}
	if h.Authors[h.Entries[0].Author] != "hana" || h.Entries[3].Changes[0].Run != "Run 1" || h.Entries[3].Changes[0].Fields[0] != "channel_length_m" {
		t.Errorf("entry %+v, authors %v", h.Entries[3], h.Authors)
	}
	if h.Undo == nil || h.Undo.Entry != a.Version || h.Undo.Target != a.Version-1 || h.Redo != nil {
		t.Fatalf("undo %+v redo %+v", h.Undo, h.Redo)
	}

	for _, step := range []struct{ do, want string }{{"undo", "21"}, {"undo", "20"}, {"redo", "21"}} {
		a = cmd(map[string]any{"type": step.do})
		if got := lengthOf(t, follow(a.Version)); got != step.want {
			t.Fatalf("%s: the second tab shows %s, want %s", step.do, got, step.want)
		}
	}
	// The history read afresh (a reload) finds the same steps.
	u.must(http.StatusOK, "GET", base+"/history", nil, &h)
	if h.Undo == nil || h.Redo == nil || !h.Entries[3].Undone || h.Entries[2].Undone || h.Entries[len(h.Entries)-1].Kind != "redo" {
		t.Fatalf("after undo, undo, redo: %+v", h)
	}
	a = cmd(map[string]any{"type": "redo"})
	if got := lengthOf(t, follow(a.Version)); got != "22" {
		t.Fatalf("second redo: %s", got)
	}
	var nothing map[string]string
	u.must(http.StatusConflict, "POST", base+"/commands", map[string]any{"type": "redo"}, &nothing)
	if nothing["error"] != "Nothing to redo" {
		t.Errorf("redo with nothing undone: %v", nothing)
	}

	// Restoring the version of the first edit: a new event, the log kept.
	first := h.Entries[1].Version
	a = cmd(map[string]any{"type": "restore", "version": first})
	if got := lengthOf(t, follow(a.Version)); got != "20" {
		t.Fatalf("restore: %s", got)
	}
	var tl struct {
		Events []struct{ Type string } `json:"events"`
		State  struct {
			Runs []map[string]json.RawMessage `json:"runs"`
		} `json:"state"`
	}
	u.must(http.StatusOK, "GET", fmt.Sprintf("%s/timeline?version=%d", base, first+2), nil, &tl)
	if int64(len(tl.Events)) != a.Version || tl.Events[len(tl.Events)-1].Type != "project.restored" || string(tl.State.Runs[0]["channel_length_m"]) != "22" {
		t.Fatalf("the log after the restore: %d events, last %v; version %d holds %s", len(tl.Events), tl.Events[len(tl.Events)-1], first+2, tl.State.Runs[0]["channel_length_m"])
	}
	u.must(http.StatusBadRequest, "POST", base+"/commands", map[string]any{"type": "restore", "version": a.Version + 1}, nil)
	u.must(http.StatusBadRequest, "POST", base+"/commands", map[string]any{"type": "restore"}, nil)

	var diff struct {
		Runs []struct {
			Status string
			Fields []struct {
				Field         string
				Before, After json.RawMessage
			}
		}
	}
	u.must(http.StatusOK, "GET", fmt.Sprintf("%s/diff?from=%d&to=%d", base, first, first+2), nil, &diff)
	if len(diff.Runs) != 1 || diff.Runs[0].Status != "changed" || len(diff.Runs[0].Fields) != 1 ||
		string(diff.Runs[0].Fields[0].Before) != "20" || string(diff.Runs[0].Fields[0].After) != "22" {
		t.Fatalf("diff %+v", diff)
	}
	u.must(http.StatusBadRequest, "GET", base+"/diff?from=1", nil, nil)
	u.must(http.StatusBadRequest, "GET", fmt.Sprintf("%s/diff?from=1&to=%d", base, a.Version+1), nil, nil)

	// Nobody else changes it; only who reads it by its id reads its past.
	stranger := p.signUp(t, "ivo")
	support := p.staff(t, "sam", account.GroupSupport)
	admin := p.staff(t, "ada", account.GroupAdmin)
	for name, who := range map[string]*user{"stranger": stranger, "support": support} {
		who.must(http.StatusNotFound, "GET", base+"/history", nil, nil)
		who.must(http.StatusNotFound, "GET", base+"/diff?from=1&to=2", nil, nil)
		who.must(http.StatusNotFound, "POST", base+"/copy", map[string]any{"version": 2}, nil)
		if got := who.call("POST", base+"/commands", map[string]any{"type": "undo"}, nil); got != http.StatusNotFound {
			t.Errorf("%s undoes: %d", name, got)
		}
	}
	var ah historyAnswer
	admin.must(http.StatusOK, "GET", base+"/history", nil, &ah)
	if ah.Editable || len(ah.Entries) != len(h.Entries)+2 {
		t.Errorf("admin's history: editable %v, %d entries", ah.Editable, len(ah.Entries))
	}
	admin.must(http.StatusNotFound, "POST", base+"/commands", map[string]any{"type": "undo"}, nil)
	admin.must(http.StatusNotFound, "POST", base+"/commands", map[string]any{"type": "restore", "version": 2}, nil)

	// Shared with the provider, support reads the history and copies a
	// version into a project of their own; the designer's is untouched.
	var saved saveAnswer
	u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"saveID": d.ID, "version": a.Version, "details": map[string]any{"name": "Hana's yard"},
		"runs": []any{calculatedRun("Run 1", 20, d.RunID)}}, "share": true}, &saved)
	follow(saved.Version)
	var sh historyAnswer
	support.must(http.StatusOK, "GET", base+"/history", nil, &sh)
	if sh.Editable || sh.Entries[len(sh.Entries)-1].Kind != "save" {
		t.Errorf("support's history %+v", sh.Entries[len(sh.Entries)-1])
	}
	support.must(http.StatusNotFound, "POST", base+"/commands", map[string]any{"type": "undo"}, nil)
	var c editAnswer
	support.must(http.StatusCreated, "POST", base+"/copy", map[string]any{"version": first + 2}, &c)
	if c.ID == d.ID || len(c.Runs) != 1 || c.Runs[0].ID == d.RunID || c.Runs[0].State != "ready" {
		t.Fatalf("copy %+v", c)
	}
	var copied struct {
		Editable bool   `json:"editable"`
		Owner    string `json:"owner"`
		Schedule []string
	}
	support.must(http.StatusOK, "POST", "/api/drainage/load/", map[string]string{"id": c.ID}, &copied)
	if !copied.Editable || copied.Owner != "sam" || len(copied.Schedule) != 1 {
		t.Errorf("the copy as its owner loads it: %+v", copied)
	}
	var run struct{ Run map[string]json.RawMessage }
	support.must(http.StatusOK, "GET", "/api/drainage/load/"+copied.Schedule[0]+"/", nil, &run)
	if string(run.Run["channel_length_m"]) != "22" {
		t.Errorf("the copied run has length %s, want the version's 22", run.Run["channel_length_m"])
	}
	var ch historyAnswer
	support.must(http.StatusOK, "GET", "/api/projects/"+c.ID+"/history", nil, &ch)
	if len(ch.Entries) != 1 || ch.Entries[0].Kind != "copy" || ch.Undo != nil {
		t.Errorf("the copy's history %+v", ch)
	}
	u.must(http.StatusNotFound, "GET", "/api/projects/"+c.ID+"/history", nil, nil)
	// The designer's project did not move.
	var after historyAnswer
	u.must(http.StatusOK, "GET", base+"/history", nil, &after)
	if after.Version != saved.Version {
		t.Errorf("the designer's project moved to %d after the copy (saved at %d)", after.Version, saved.Version)
	}

	// A share-link holder opens the project, not its past.
	link := shareLink(t, u, d.ID)
	holder := p.signUp(t, "lou")
	holder.must(http.StatusOK, "POST", "/api/drainage/load/", map[string]string{"shareID": link[len(link)-36:]}, nil)
	holder.must(http.StatusNotFound, "GET", base+"/history", nil, nil)
}

// Restores and copies feed the read models like any edit: the project list
// follows them, and a rebuild from the first event gives the same rows.
func TestHistoryReadModelsRebuild(t *testing.T) {
	opts := Options{DataDir: t.TempDir()}
	p := start(t, opts)
	u := p.signUp(t, "rita")
	var s saveAnswer
	u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"details": map[string]any{"name": "First"}, "runs": []any{calculatedRun("Run 1", 10, "")}}, "share": true}, &s)
	first := s.Version
	u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"saveID": s.SaveID, "version": s.Version, "details": map[string]any{"name": "Second", "location": "Leeds"},
		"runs": []any{calculatedRun("Gate", 12, s.RunSaveIDs[0]), calculatedRun("Run 2", 14, "")}}}, &s)
	var list []struct {
		ID, Name, Location string
		IsEmpty            bool `json:"is_empty"`
	}
	u.must(http.StatusOK, "GET", "/api/drainage/projects/", nil, &list)
	if len(list) != 1 || list[0].Name != "Second" {
		t.Fatalf("list %+v", list)
	}
	u.must(http.StatusOK, "POST", "/api/projects/"+s.SaveID+"/commands", map[string]any{"type": "restore", "version": first}, nil)
	u.must(http.StatusOK, "GET", "/api/drainage/projects/", nil, &list)
	if list[0].Name != "First" || list[0].Location != "" {
		t.Errorf("the list after the restore: %+v", list)
	}
	u.must(http.StatusOK, "POST", "/api/projects/"+s.SaveID+"/commands", map[string]any{"type": "undo"}, nil)
	u.must(http.StatusCreated, "POST", "/api/projects/"+s.SaveID+"/copy", map[string]any{"version": first}, nil)
	if err := p.Runner.CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	live := dump(t, p.DB)
	p.stop()

	assertRebuildEqualsLive(t, opts, live)
}
