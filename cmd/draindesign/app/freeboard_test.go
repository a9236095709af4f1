package app

import (
	"net/http"
	"testing"

	"draindesign/domain/account"
)

// The project's freeboard margin travels like its other settings: set by a
// change_details command, seen by the project's live followers, kept by a
// save and given back by a load; a bad margin is refused with a readable
// message and writes nothing.
func TestFreeboardMarginIsAProjectSetting(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.staff(t, "fiona", account.GroupStandard)
	var d editAnswer
	u.must(http.StatusCreated, "POST", "/api/projects/", map[string]any{}, &d)
	tab := p.dial(t, u)
	if err := tab.WriteJSON(map[string]any{"type": "subscribe", "project": d.ID, "from": d.Version}); err != nil {
		t.Fatal(err)
	}
	var a editAnswer
	u.must(http.StatusOK, "POST", "/api/projects/"+d.ID+"/commands", map[string]any{
		"type": "change_details", "details": map[string]any{"name": "Yard"}, "rainfall_units": "mm/h",
		"freeboard_min_mm": 35, "freeboard_min_percent": 0}, &a)
	v := wantView(t, next(t, tab), d.ID, a.Version)
	if v.FreeboardMinMM == nil || *v.FreeboardMinMM != 35 || v.FreeboardMinPercent == nil || *v.FreeboardMinPercent != 0 {
		t.Fatalf("the follower saw margin %v mm, %v %%", v.FreeboardMinMM, v.FreeboardMinPercent)
	}

	before := head(t, p.Store)
	var refused map[string]string
	u.must(http.StatusBadRequest, "POST", "/api/projects/"+d.ID+"/commands", map[string]any{
		"type": "change_details", "details": map[string]any{"name": "Yard"}, "freeboard_min_percent": 150}, &refused)
	if refused["error"] != "The freeboard margin must be between 0 and 100 % of the channel depth" {
		t.Errorf("refusal %v", refused)
	}
	if after := head(t, p.Store); after != before {
		t.Fatalf("a refused margin wrote events: %s -> %s", before, after)
	}

	var saved saveAnswer
	u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"details": map[string]any{"name": "Margins"}, "freeboard_min_mm": 40, "runs": []any{calculatedRun("Run 1", 20, "")}}}, &saved)
	var loaded map[string]any
	u.must(http.StatusOK, "POST", "/api/drainage/load/", map[string]string{"id": saved.SaveID}, &loaded)
	if loaded["freeboard_min_mm"] != 40.0 || loaded["freeboard_min_percent"] != nil {
		t.Errorf("loaded margin %v mm, %v %%; want 40 mm and the default percentage (null)", loaded["freeboard_min_mm"], loaded["freeboard_min_percent"])
	}
}
