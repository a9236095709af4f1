package api

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"draindesign/domain/project"
)

// Each viewer sees the project's content, and of its sharing only what is
// theirs to know: the owner and admins both flags, provider staff the
// provider flag, a share-link holder neither.
func TestProjectViewByViewer(t *testing.T) {
	at := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	p := project.FromEvents([]project.Event{
		project.Created{ProjectID: "p1", Owner: "u1", OwnerName: "olga", At: at},
		project.DetailsChanged{Details: project.Details{Name: "Yard"}, Settings: project.Settings{RainfallUnits: "mm/h"}},
		project.RunAdded{RunID: "r1", Name: "Run 1", Inputs: project.Inputs{"channel_length_m": json.RawMessage(`10`)}},
		project.RunCalculated{RunID: "r1", Inputs: project.Inputs{"channel_length_m": json.RawMessage(`10`)}, Summary: project.Summary{"calculated": json.RawMessage(`true`)}},
		project.RunAdded{RunID: "r2", Name: "Run 2"},
		project.Saved{SaveID: "p1", ShareWithProvider: true, SavedByName: "olga", At: at},
		project.SharedByLink{ShareID: "s1"},
	})
	cases := []struct {
		name             string
		viewer           project.Viewer
		editable         bool
		provider, byLink *bool
	}{
		{"owner", project.Viewer{UserID: "u1"}, true, ptr(true), ptr(true)},
		{"admin", project.Viewer{UserID: "a", Admin: true}, false, ptr(true), ptr(true)},
		{"provider staff", project.Viewer{UserID: "s", SharedProjects: true}, false, ptr(true), nil},
		{"share-link holder", project.Viewer{UserID: "x", ShareID: "s1"}, false, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !p.CanRead(tc.viewer) {
				t.Fatal("the case needs a viewer who may read")
			}
			v := projectView(p, tc.viewer)
			if v.ID != "p1" || v.Owner != "olga" || v.Details.Name != "Yard" || v.RainfallUnits != "mm/h" || !v.Saved ||
				v.LastSaved == nil || !v.LastSaved.Equal(at) || v.Editable != tc.editable {
				t.Errorf("view %+v", v)
			}
			if !sameFlag(v.ShareWithProvider, tc.provider) || !sameFlag(v.SharedByLink, tc.byLink) {
				t.Errorf("sharing flags %v %v, want %v %v", v.ShareWithProvider, v.SharedByLink, tc.provider, tc.byLink)
			}
			if len(v.Runs) != 2 || v.Runs[0].State != project.Calculated || v.Runs[1].State != project.Unconfigured ||
				v.Runs[1].Inputs == nil || v.Runs[1].Summary != nil {
				t.Errorf("runs %+v", v.Runs)
			}
			// The share id itself is never part of a view.
			b, _ := json.Marshal(v)
			if strings.Contains(string(b), `"s1"`) {
				t.Errorf("the share id leaked: %s", b)
			}
		})
	}
}

func ptr(b bool) *bool { return &b }

func sameFlag(a, b *bool) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
