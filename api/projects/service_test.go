package projects_test

import (
	"reflect"
	"testing"
	"time"

	"draindesign/api/projects"
	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/eventstore/memory"
	"draindesign/projections"
)

// A project whose stream holds an event of a type this code does not know
// loads as if the event were absent, at the stream's version, so commands
// keep appending; the skip is counted.
func TestLoadSkipsUnknownEventTypes(t *testing.T) {
	ctx := t.Context()
	store := memory.New()
	at := time.Date(2025, 3, 3, 9, 0, 0, 0, time.UTC)
	svc := &projects.Service{Store: store, Now: func() time.Time { return at }}
	by := projects.Actor{UserID: "u1"}
	const unknown = "project.exploded_in_load_test"
	before := projections.UnknownCount("project", unknown)

	if _, err := svc.Create(ctx, "p1", "u1", "ann", "GB", by, func(p *project.Project) ([]project.Event, error) {
		return p.AddRun("r1")
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Append(ctx, project.Stream("p1"), eventstore.Exactly(2),
		eventstore.NewEvent{ID: "unknown-1", Type: unknown, Schema: 4, Data: []byte(`{"run_id":"r1"}`)}); err != nil {
		t.Fatal(err)
	}
	// A command decided on the load appends at the stream's version.
	p, err := svc.Execute(ctx, "p1", 3, by, func(p *project.Project) ([]project.Event, error) { return p.Rename("r1", "Gate") })
	if err != nil {
		t.Fatalf("command after an unknown event: %v", err)
	}
	if p.Version != 4 {
		t.Errorf("after the command the project is at version %d, want 4", p.Version)
	}

	got, err := svc.Load(ctx, "p1")
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	want := project.FromEvents([]project.Event{
		project.Created{ProjectID: "p1", Owner: "u1", OwnerName: "ann", Country: "GB", At: at},
		project.RunAdded{RunID: "r1", Name: "Run 1"},
		project.RunRenamed{RunID: "r1", Name: "Gate"},
	})
	want.Version = 4
	if !reflect.DeepEqual(got, want) {
		t.Errorf("loaded %+v\nwant   %+v (the known events, at the stream's version)", got, want)
	}
	at3, err := svc.LoadAt(ctx, "p1", 3)
	if err != nil || at3.Version != 3 || at3.Runs[0].Name != "Run 1" {
		t.Errorf("as of the unknown event: %+v, %v; want Run 1 at version 3", at3, err)
	}
	if n := projections.UnknownCount("project", unknown) - before; n != 3 {
		t.Errorf("counted %v skips, want 3 (one per load)", n)
	}
}
