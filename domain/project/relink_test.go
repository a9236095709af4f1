package project

import (
	"testing"
)

// TestSaveRelinks: the runs of a save as new name each other by the ids
// they had (link ids); stored, and handed to the verifier, the links name
// the ids the runs are saved under.
func TestSaveRelinks(t *testing.T) {
	t.Parallel()
	yard := savedRun("", "Yard", 20)
	yard.LinkID = "old-yard"
	lane := savedRun("", "Lane", 10)
	lane.LinkID = "old-lane"
	lane.Inputs["dischargeSetting"] = raw("outflow-in-trashbox")
	lane.Inputs["outflowTrashbox"] = raw("old-yard")
	gate := savedRun("", "Gate", 5)
	gate.LinkID = "old-gate"
	gate.Inputs["inflows"] = raw([]map[string]any{
		{"id": "i1", "distance_m": 2, "source": "old-lane", "flow_lps": 0, "connection": "direct-pipe"},
		{"id": "i2", "distance_m": 3, "source": "elsewhere", "flow_lps": 1},
		{"id": "i3", "distance_m": 4, "flow_lps": 2},
	})
	// An advanced run's trash box chosen by its discharge is no link.
	box := savedRun("", "Box", 8)
	box.Inputs["dischargeSetting"] = raw("outflow-in-trashbox")
	box.Inputs["outflowTrashbox"] = raw(15)

	var seen Content
	calc := &fakeCalc{}
	verify := func(c Content, held func(int) (Held, bool)) ([]Summary, error) {
		seen = c
		return calc.verify(c, held)
	}
	p := FromEvents(New("p1", "u1", "alice", "GB", now))
	evs, ids, err := p.Save(Content{Details: Details{Name: "Depot"}, Runs: []SavedRun{yard, lane, gate, box}}, SaveBy{UserID: "u1", At: now}, counter(), verify)
	apply(t, p, evs, err)
	if len(ids) != 4 || ids[0] != "s1" || ids[1] != "s2" || ids[2] != "s3" {
		t.Fatalf("ids %v", ids)
	}
	tests := []struct {
		run, field, want string
	}{
		{"s2", "outflowTrashbox", `"s1"`},
		{"s3", "inflows", `[{"connection":"direct-pipe","distance_m":2,"flow_lps":0,"id":"i1","source":"s2"},{"distance_m":3,"flow_lps":1,"id":"i2","source":"elsewhere"},{"distance_m":4,"flow_lps":2,"id":"i3"}]`},
		{"s4", "outflowTrashbox", `15`},
	}
	for _, tc := range tests {
		r, ok := p.Run(tc.run)
		if !ok {
			t.Fatalf("no run %s", tc.run)
		}
		if got := string(r.Inputs[tc.field]); got != tc.want {
			t.Errorf("run %s %s: stored %s, want %s", tc.run, tc.field, got, tc.want)
		}
		if _, ok := r.Inputs["linkID"]; ok {
			t.Errorf("run %s stores its link id as an input", tc.run)
		}
	}
	// Named runs are known by their new ids; a run named by nothing stays unknown.
	for i, want := range []string{"s1", "s2", "s3", ""} {
		if seen.Runs[i].ID != want {
			t.Errorf("the verifier sees run %d as %q, want %q", i, seen.Runs[i].ID, want)
		}
	}
	if got := string(seen.Runs[1].Inputs["outflowTrashbox"]); got != `"s1"` {
		t.Errorf("the verifier sees the lane's trash box as %s", got)
	}
}

// TestSaveKeepsLinksOfKeptRuns: a save over the project keeps its runs'
// ids, and their links as they are.
func TestSaveKeepsLinksOfKeptRuns(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	evs, err := p.AddRun("r2")
	apply(t, p, evs, err)
	one := savedRun("r1", "Run 1", 20)
	two := savedRun("r2", "Run 2", 10)
	two.LinkID = "r2"
	two.Inputs["dischargeSetting"] = raw("outflow-in-trashbox")
	two.Inputs["outflowTrashbox"] = raw("r1")
	evs, ids, err := p.Save(Content{Details: Details{Name: "Depot"}, Runs: []SavedRun{one, two}}, SaveBy{UserID: "u1", At: now}, counter(), verifier())
	apply(t, p, evs, err)
	if ids[0] != "r1" || ids[1] != "r2" {
		t.Fatalf("ids %v", ids)
	}
	r, _ := p.Run("r2")
	if got := string(r.Inputs["outflowTrashbox"]); got != `"r1"` {
		t.Fatalf("stored %s", got)
	}
}
