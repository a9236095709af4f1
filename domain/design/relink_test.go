package design

import (
	"testing"

	"draindesign/domain/catalogue"
	"draindesign/domain/project"
)

// A save as new sends no save ids; its runs name each other by their link
// ids. The fed run is then checked together with its feeder under the new
// ids, as a save over the project would check it.
func TestSaveAsNewKeepsTheSharedTrashBox(t *testing.T) {
	t.Parallel()
	up := body(t, standardBody, m{"dischargeSetting": "outflow-in-trashbox", "outflowTrashbox": "old-b"})
	down := body(t, standardBody, m{"channel_length_m": 30, "drainage_area_m2": 300, "dischargeSetting": "outflow-in-trashbox"})
	p := draft(t)
	err := save(t, p, project.Settings{},
		project.SavedRun{LinkID: "old-a", Name: "Upstream", Inputs: inputs(t, up)},
		project.SavedRun{LinkID: "old-b", Name: "Downstream", Inputs: inputs(t, down)},
	)
	if err != nil {
		t.Fatal(err)
	}
	// The upstream run now names the downstream run by its new id (new2).
	r, _ := p.Run("new1")
	if got := string(r.Inputs["outflowTrashbox"]); got != `"new2"` {
		t.Fatalf("stored link %s", got)
	}
	ra, rb := decoded(t, up), decoded(t, down)
	ra.RunID, ra.OutflowTrashbox, rb.RunID = "a", "b", "b"
	want, err := CalculateShared(catalogue.Default(), &SharedRequest{Main: ra, Second: rb})
	if err != nil {
		t.Fatal(err)
	}
	alone := mustCalc(t, down)
	if got := stored(t, p, "new2", "channel_discharge"); got != want.Second.Results.ChannelDischarge || got == alone.ChannelDischarge {
		t.Errorf("fed run stored %v l/s; together %v, alone %v", got, want.Second.Results.ChannelDischarge, alone.ChannelDischarge)
	}
}
