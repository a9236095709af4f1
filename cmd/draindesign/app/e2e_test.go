package app

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"draindesign/domain/account"
)

type saveAnswer struct {
	SaveID     string   `json:"saveID"`
	RunSaveIDs []string `json:"runSaveIDs"`
	Version    int64    `json:"version"`
}

type listItem struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	CreatedBy string     `json:"created_by"`
	SavedBy   string     `json:"saved_by"`
	DeletedAt *time.Time `json:"deleted_at"`
}

type loadAnswer struct {
	SaveID   string   `json:"saveID"`
	Version  int64    `json:"version"`
	Schedule []string `json:"schedule"`
	Editable bool     `json:"editable"`
}

func listed(items []listItem, id string) *listItem {
	for i := range items {
		if items[i].ID == id {
			return &items[i]
		}
	}
	return nil
}

// TestDesignerJourney drives the real server over HTTP through the life of
// a project, on each store: register, confirm by the mailed link, log in,
// save, list, load, share (a second registered user may open the link, an
// anonymous one may not), delete (gone from the list, still in the staff
// view with its deleted date), and the timeline of it all.
func TestDesignerJourney(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			p := start(t, b.opts(t))
			alice := p.newUser(t)
			alice.must(http.StatusCreated, "POST", "/api/drainage/register/", registration("alice"), nil)
			// Not confirmed yet: no log-in.
			alice.must(http.StatusForbidden, "POST", "/api/auth/login/", map[string]string{"username": "alice", "password": "a long password"}, nil)
			alice = p.signUp(t, "alice2")

			var saved saveAnswer
			alice.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{
				"project": map[string]any{
					"details": map[string]any{"name": "Depot yard", "location": "Leeds", "reference": "P-17"},
					"runs":    []any{calculatedRun("Run 1", 20, ""), calculatedRun("Gate", 35, "")},
				},
				"share": true,
			}, &saved)
			if saved.SaveID == "" || len(saved.RunSaveIDs) != 2 {
				t.Fatalf("save answer %+v", saved)
			}

			var mine []listItem
			alice.must(http.StatusOK, "GET", "/api/drainage/projects/", nil, &mine)
			if it := listed(mine, saved.SaveID); it == nil || it.Name != "Depot yard" || it.CreatedBy != "alice2" {
				t.Fatalf("project list %+v", mine)
			}

			var loaded loadAnswer
			alice.must(http.StatusOK, "POST", "/api/drainage/load/", map[string]string{"id": saved.SaveID}, &loaded)
			if len(loaded.Schedule) != 2 || !loaded.Editable || loaded.Version != saved.Version {
				t.Fatalf("load answer %+v", loaded)
			}
			var names []string
			for _, key := range loaded.Schedule {
				var run struct {
					ID  string         `json:"id"`
					Run map[string]any `json:"run"`
				}
				alice.must(http.StatusOK, "GET", "/api/drainage/load/"+key+"/", nil, &run)
				names = append(names, run.Run["name"].(string))
				if run.Run["state"] != "calculated" || run.Run["channel_length_m"] == nil {
					t.Fatalf("loaded run %+v", run.Run)
				}
			}
			if !slices.Equal(names, []string{"Run 1", "Gate"}) {
				t.Fatalf("loaded runs %v", names)
			}

			var link string
			alice.must(http.StatusOK, "POST", "/api/drainage/share/", map[string]string{"id": saved.SaveID}, &link)
			shareID := link[strings.LastIndex(link, "/")+1:]
			if !strings.HasPrefix(link, p.srv.URL+"/") || len(shareID) != 36 {
				t.Fatalf("share link %q", link)
			}
			bob := p.signUp(t, "bob")
			var viewed loadAnswer
			bob.must(http.StatusOK, "POST", "/api/drainage/load/", map[string]string{"shareID": shareID}, &viewed)
			if viewed.SaveID != saved.SaveID || viewed.Editable {
				t.Fatalf("bob's view %+v", viewed)
			}
			anon := p.newUser(t)
			anon.must(http.StatusUnauthorized, "POST", "/api/drainage/load/", map[string]string{"shareID": shareID}, nil)
			// Bob may look but not save over Alice's project, and a refused
			// save says no more than a missing project would.
			bob.must(http.StatusNotFound, "POST", "/api/drainage/save/", map[string]any{
				"project": map[string]any{"saveID": saved.SaveID, "version": viewed.Version, "details": map[string]any{"name": "Mine now"},
					"runs": []any{calculatedRun("Run 1", 20, saved.RunSaveIDs[0])}},
			}, nil)

			alice.must(http.StatusOK, "DELETE", "/api/drainage/delete/", map[string]string{"id": saved.SaveID}, nil)
			alice.must(http.StatusOK, "GET", "/api/drainage/projects/", nil, &mine)
			if listed(mine, saved.SaveID) != nil {
				t.Fatal("deleted project still listed")
			}
			bob.must(http.StatusNotFound, "POST", "/api/drainage/load/", map[string]string{"shareID": shareID}, nil)

			admin := p.staff(t, "root", account.GroupAdmin)
			alice.must(http.StatusForbidden, "GET", "/api/staff/users/", nil, nil)
			var users []struct {
				ID, Username    string
				Projects        int `json:"projects"`
				DeletedProjects int `json:"deleted_projects"`
			}
			admin.must(http.StatusOK, "GET", "/api/staff/users/?search=alice2", nil, &users)
			if len(users) != 1 || users[0].Username != "alice2" || users[0].DeletedProjects != 1 {
				t.Fatalf("staff user list %+v", users)
			}
			var staffView []listItem
			admin.must(http.StatusOK, "GET", "/api/staff/users/"+users[0].ID+"/projects/", nil, &staffView)
			if it := listed(staffView, saved.SaveID); it == nil || it.DeletedAt == nil || time.Since(*it.DeletedAt) > time.Minute {
				t.Fatalf("staff view of deleted project %+v", staffView)
			}

			var tl struct {
				Events []struct {
					Type, Author string
					Version      int64
					Time         time.Time
				} `json:"events"`
				State struct {
					Details struct{ Name string } `json:"details"`
					Deleted bool                  `json:"deleted"`
				} `json:"state"`
			}
			// A deleted project is out of its owner's reach; support replays it.
			alice.must(http.StatusNotFound, "GET", "/api/projects/"+saved.SaveID+"/timeline", nil, nil)
			admin.must(http.StatusOK, "GET", "/api/projects/"+saved.SaveID+"/timeline?version="+itoa(saved.Version), nil, &tl)
			var types []string
			for _, e := range tl.Events {
				types = append(types, e.Type)
				if e.Author != users[0].ID || e.Time.IsZero() {
					t.Fatalf("timeline entry without author or time: %+v", e)
				}
			}
			for _, want := range []string{"project.created", "project.details_changed", "project.run_added", "project.run_calculated", "project.saved", "project.shared_by_link", "project.deleted"} {
				if !slices.Contains(types, want) {
					t.Fatalf("timeline %v lacks %s", types, want)
				}
			}
			if tl.State.Details.Name != "Depot yard" || tl.State.Deleted {
				t.Fatalf("state at version %d: %+v", saved.Version, tl.State)
			}
			bob.must(http.StatusNotFound, "GET", "/api/projects/"+saved.SaveID+"/timeline", nil, nil)
		})
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
