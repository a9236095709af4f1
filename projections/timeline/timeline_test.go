package timeline_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/projections"
	"draindesign/projections/internal/testkit"
	"draindesign/projections/timeline"
)

func TestList(t *testing.T) {
	t.Parallel()
	for _, b := range testkit.Backends {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			store, database := b.New(t)
			db := database.Open(t)
			runner, err := projections.NewRunner(projections.Config{
				Store: store, DB: db, Projections: []projections.Projection{timeline.New()},
			})
			if err != nil {
				t.Fatal(err)
			}
			at := time.Date(2026, 3, 4, 5, 6, 7, 891011121, time.UTC)
			n := 0
			appendTo := func(stream string, events ...project.Event) {
				var evs []eventstore.NewEvent
				for i, e := range events {
					n++
					typ, schema, data, err := project.Encode(e)
					if err != nil {
						t.Fatal(err)
					}
					evs = append(evs, eventstore.NewEvent{
						ID: fmt.Sprintf("%s-%d", t.Name(), n), Type: typ, Schema: schema, Data: data,
						Metadata: eventstore.Metadata{Author: "user-7", Time: at.Add(time.Duration(i) * time.Second)},
					})
				}
				if _, err := store.Append(ctx, stream, eventstore.Any, evs...); err != nil {
					t.Fatal(err)
				}
			}
			appendTo("project-a", project.Created{ProjectID: "a", Owner: "user-7", At: at}, project.RunAdded{RunID: "r", Name: "Run 1 \"why?\""})
			appendTo("project-b", project.Created{ProjectID: "b", Owner: "user-7", At: at})
			appendTo("user-x", project.Created{ProjectID: "x"})
			appendTo("projectile-1", project.Created{ProjectID: "p"})
			appendTo("project-a", project.Saved{SaveID: "a", RunSaveIDs: []string{"r"}, At: at})
			// Writers do not wait for the timeline: its readers bring it
			// to the version they need.
			if err := runner.WaitForStream(ctx, "project-a", 3); err != nil {
				t.Fatal(err)
			}
			if n := timelineRows(t, db); n != 0 {
				t.Fatalf("WaitForStream applied %d timeline rows, want none (the timeline is refreshed on read)", n)
			}
			if err := runner.Show(ctx, "project-a", 3, timeline.New().Name()); err != nil {
				t.Fatal(err)
			}
			if err := runner.Show(ctx, "projectile-1", 1, timeline.New().Name()); err != nil {
				t.Fatal(err)
			}

			for _, tc := range []struct {
				project string
				stream  string // whose events the timeline must equal; "" for none
				types   []string
			}{
				{project: "a", stream: "project-a", types: []string{"project.created", "project.run_added", "project.saved"}},
				{project: "b", stream: "project-b", types: []string{"project.created"}},
				{project: "missing"}, // unknown project: empty, no error
			} {
				got, err := timeline.List(ctx, db, tc.project)
				if err != nil {
					t.Fatalf("List(%s): %v", tc.project, err)
				}
				if len(got) != len(tc.types) {
					t.Fatalf("List(%s) = %d entries, want %d", tc.project, len(got), len(tc.types))
				}
				if tc.stream == "" {
					continue
				}
				want, err := store.ReadStream(ctx, tc.stream, 1, 0)
				if err != nil {
					t.Fatal(err)
				}
				for i, e := range got {
					w := want[i]
					if e.Type != tc.types[i] || e.Stream != w.Stream || e.Version != int64(i+1) || e.Version != w.Version ||
						e.Position != w.Position || e.EventID != w.ID || e.Type != w.Type || e.Author != w.Metadata.Author ||
						!e.Time.Equal(w.Metadata.Time) || string(e.Data) != string(w.Data) {
						t.Errorf("List(%s)[%d] = %+v\nwant event %+v", tc.project, i, e, w)
					}
				}
			}
			// user-x and projectile-1 are not project streams.
			if rows := timelineRows(t, db); rows != 4 {
				t.Errorf("timeline holds %d rows, want the 4 project events", rows)
			}
		})
	}
}

// timelineRows counts the timeline's rows: 0 while its table does not
// exist yet (the runner creates it when it first catches a view up).
func timelineRows(t *testing.T, db *projections.DB) int {
	t.Helper()
	var rows int
	if err := db.QueryRow(context.Background(), `SELECT COUNT(*) FROM timeline`).Scan(&rows); err != nil {
		return 0
	}
	return rows
}
