package app

import (
	"net/http"
	"strings"
	"testing"

	"draindesign/domain/account"
)

// Tests of the security findings of issue 8 that live in the use cases:
// each would fail on the code the probe found them in.

// Finding 4: a save naming an existing project must say which version it
// was decided on; "version": -1 once skipped the stale-save check, so an
// old tab overwrote newer work.
func TestSaveRefusesMissingOrNegativeVersion(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.staff(t, "vera", account.GroupStandard)
	first := u.saveNew("Yard")
	u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{"saveID": first.SaveID,
		"version": first.Version, "details": map[string]any{"name": "Newer work"}, "runs": []any{calculatedRun("Run 1", 10, first.RunSaveIDs[0])}}}, nil)
	before := head(t, p.Store)
	for _, v := range []any{-1, -2, 0, nil} {
		body := map[string]any{"project": map[string]any{"saveID": first.SaveID, "version": v,
			"details": map[string]any{"name": "Old tab"}, "runs": []any{calculatedRun("Run 1", 10, first.RunSaveIDs[0])}}}
		var answer map[string]string
		u.must(http.StatusBadRequest, "POST", "/api/drainage/save/", body, &answer)
		if !strings.Contains(answer["error"], "version") {
			t.Errorf("version %v: answer %v does not name the version", v, answer)
		}
	}
	if after := head(t, p.Store); after != before {
		t.Fatalf("refused saves wrote events: %s -> %s", before, after)
	}
	var mine []listItem
	u.must(http.StatusOK, "GET", "/api/drainage/projects/", nil, &mine)
	if it := listed(mine, first.SaveID); it == nil || it.Name != "Newer work" {
		t.Fatalf("the newer work was overwritten: %+v", mine)
	}
}

// Finding 10: saving over another user's project, with a right or a wrong
// version, answers exactly like saving over a project that does not exist:
// no 403, no 409, no version in the answer.
func TestSaveOverAnotherUsersProjectRevealsNothing(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	owner := p.staff(t, "olga", account.GroupStandard)
	other := p.staff(t, "oscar", account.GroupStandard)
	saved := owner.saveNew("Yard")
	save := func(id string, version int64) map[string]any {
		return map[string]any{"project": map[string]any{"saveID": id, "version": version,
			"details": map[string]any{"name": "Mine"}, "runs": []any{calculatedRun("Run 1", 10, "")}}}
	}
	var missing map[string]any
	other.must(http.StatusNotFound, "POST", "/api/drainage/save/", save("0195c0de-0000-7000-8000-000000000000", 3), &missing)
	before := head(t, p.Store)
	for _, v := range []int64{saved.Version, saved.Version + 5, 1} {
		var answer map[string]any
		other.must(http.StatusNotFound, "POST", "/api/drainage/save/", save(saved.SaveID, v), &answer)
		if answer["error"] != missing["error"] || len(answer) != len(missing) {
			t.Errorf("version %d: answer %v differs from a missing project's %v", v, answer, missing)
		}
	}
	if after := head(t, p.Store); after != before {
		t.Fatalf("refused saves wrote events: %s -> %s", before, after)
	}
}

// Finding 11: a share link is a capability. Its holder opens the project
// through the share id only, never its bare id, and once the owner stops
// sharing the old link opens nothing; sharing again makes a new link.
func TestShareLinkIsACapability(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			p := start(t, b.opts(t))
			owner := p.staff(t, "sam", account.GroupStandard)
			holder := p.staff(t, "hal", account.GroupStandard)
			saved := owner.saveNew("Yard")
			var link string
			owner.must(http.StatusOK, "POST", "/api/drainage/share/", map[string]string{"id": saved.SaveID}, &link)
			shareID := link[strings.LastIndex(link, "/")+1:]

			var viewed loadAnswer
			holder.must(http.StatusOK, "POST", "/api/drainage/load/", map[string]string{"shareID": shareID}, &viewed)
			if viewed.Editable || len(viewed.Schedule) != 1 || strings.Contains(viewed.Schedule[0], saved.SaveID) {
				t.Fatalf("link holder's view %+v: read only, run keys through the link", viewed)
			}
			holder.must(http.StatusOK, "GET", "/api/drainage/load/"+viewed.Schedule[0]+"/", nil, nil)
			// As the browser sends it: encodeURIComponent escapes the colon.
			holder.must(http.StatusOK, "GET", "/api/drainage/load/"+strings.ReplaceAll(viewed.Schedule[0], ":", "%3A")+"/", nil, nil)
			holder.must(http.StatusNotFound, "POST", "/api/drainage/load/", map[string]string{"id": saved.SaveID}, nil)
			holder.must(http.StatusNotFound, "GET", "/api/drainage/load/"+saved.SaveID+"."+saved.RunSaveIDs[0]+"/", nil, nil)
			holder.must(http.StatusNotFound, "GET", "/api/projects/"+saved.SaveID+"/timeline", nil, nil)

			// The super id is for admins only, whoever asks.
			holder.must(http.StatusNotFound, "POST", "/api/drainage/load/", map[string]string{"superID": saved.SaveID}, nil)
			owner.must(http.StatusNotFound, "POST", "/api/drainage/load/", map[string]string{"superID": saved.SaveID}, nil)
			p.staff(t, "adam", account.GroupAdmin).must(http.StatusOK, "POST", "/api/drainage/load/", map[string]string{"superID": saved.SaveID}, nil)

			holder.must(http.StatusNotFound, "POST", "/api/drainage/unshare/", map[string]string{"id": saved.SaveID}, nil)
			owner.must(http.StatusOK, "POST", "/api/drainage/unshare/", map[string]string{"id": saved.SaveID}, nil)
			holder.must(http.StatusNotFound, "POST", "/api/drainage/load/", map[string]string{"shareID": shareID}, nil)
			holder.must(http.StatusNotFound, "GET", "/api/drainage/load/"+viewed.Schedule[0]+"/", nil, nil)

			var again string
			owner.must(http.StatusOK, "POST", "/api/drainage/share/", map[string]string{"id": saved.SaveID}, &again)
			if again == link {
				t.Fatalf("sharing again gave the withdrawn link %s", link)
			}
			holder.must(http.StatusNotFound, "POST", "/api/drainage/load/", map[string]string{"shareID": shareID}, nil)
			holder.must(http.StatusOK, "POST", "/api/drainage/load/", map[string]string{"shareID": again[strings.LastIndex(again, "/")+1:]}, nil)
		})
	}
}

// Finding 5: a run's inputs (and any one event) are bounded: unknown
// fields no longer pile up megabytes per call. A change too large to store
// is refused with 413 and a readable message, and nothing is written.
func TestOversizedEventRefused(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.staff(t, "ola", account.GroupStandard)
	var d draft
	u.must(http.StatusCreated, "POST", "/api/projects/", map[string]any{}, &d)
	before := head(t, p.Store)
	var answer map[string]string
	u.must(http.StatusRequestEntityTooLarge, "POST", "/api/projects/"+d.ID+"/commands", map[string]any{
		"type": "change_inputs", "run_id": d.RunID, "fields": map[string]any{"location": strings.Repeat("n", 300<<10)}}, &answer)
	if !strings.Contains(answer["error"], "at most 64 KB") {
		t.Errorf("answer %v", answer)
	}
	if after := head(t, p.Store); after != before {
		t.Fatalf("an oversized change wrote events: %s -> %s", before, after)
	}
}

// Finding 12: a save never trusts the client's results, and project
// commands refuse inputs the engine could not read.
func TestSaveRecalculatesAndCommandsValidate(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.staff(t, "fred", account.GroupStandard)
	forged := calculatedRun("Run 1", 20, "")
	forged["results"] = map[string]any{"calculated": true, "channel_discharge": 99999, "overflowed": false}
	var saved saveAnswer
	u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"details": map[string]any{"name": "Forged"}, "runs": []any{forged}}}, &saved)
	var run struct {
		Run struct {
			Results map[string]any `json:"results"`
		} `json:"run"`
	}
	u.must(http.StatusOK, "GET", "/api/drainage/load/"+saved.SaveID+"."+saved.RunSaveIDs[0]+"/", nil, &run)
	// 144 m² at 50 mm/h is 144 × 50 / 3 600 000 m³/s = 2.0 l/s (the
	// rational method with full run-off): the server's own figure.
	if q, _ := run.Run.Results["channel_discharge"].(float64); q != 2 {
		t.Fatalf("stored discharge %v, want the recalculated 2 l/s, not the forged 99999", run.Run.Results["channel_discharge"])
	}

	uncalculable := calculatedRun("Run 1", 20, "")
	uncalculable["drainage_area_m2"] = 0
	u.must(http.StatusBadRequest, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"details": map[string]any{"name": "Forged"}, "runs": []any{uncalculable}}}, nil)

	var d draft
	u.must(http.StatusCreated, "POST", "/api/projects/", map[string]any{}, &d)
	before := head(t, p.Store)
	for name, cmd := range map[string]map[string]any{
		"text length":       {"type": "change_inputs", "run_id": d.RunID, "fields": map[string]any{"channel_length_m": "abc"}},
		"huge negative":     {"type": "change_inputs", "run_id": d.RunID, "fields": map[string]any{"channel_length_m": -1e308}},
		"unknown method":    {"type": "change_inputs", "run_id": d.RunID, "fields": map[string]any{"calculation_method": "guess"}},
		"default rainfall":  {"type": "change_details", "details": map[string]any{"name": "Yard"}, "default_rainfall": -1e308},
		"empty run name":    {"type": "rename_run", "run_id": d.RunID, "name": "  "},
		"unknown rain unit": {"type": "change_details", "details": map[string]any{"name": "Yard"}, "rainfall_units": "inches"},
	} {
		var answer map[string]string
		if got := u.call("POST", "/api/projects/"+d.ID+"/commands", cmd, &answer); got != http.StatusBadRequest || answer["error"] == "" {
			t.Errorf("%s: status %d %v, want 400 with a readable error", name, got, answer)
		}
	}
	if after := head(t, p.Store); after != before {
		t.Fatalf("refused commands wrote events: %s -> %s", before, after)
	}
}
