package userlist_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/projections"
	"draindesign/projections/internal/testkit"
	"draindesign/projections/projectlist"
	"draindesign/projections/userlist"
)

var t0 = time.Date(2026, 4, 1, 8, 0, 0, 0, time.UTC)

func register(id, username, first, last, company, email, country string) account.Registered {
	return account.Registered{UserID: id, Username: username, FirstName: first, LastName: last, Company: company,
		Email: email, Country: country, Group: account.GroupStandard, At: t0}
}

// users writes five accounts: one blocked, one deleted, one moved to
// support, one with a saved and a deleted project.
func users(t *testing.T, s eventstore.Store) {
	enc := testkit.Encode(t)
	for _, r := range []account.Registered{
		register("u1", "anna", "Anna", "Berg", "Drains Ltd", "anna@example.com", "GB"),
		register("u2", "Bob", "Bob", "Stone", "Acme_Works", "bob@acme.example", "DE"),
		register("u3", "carla", "Carla", "Diaz", "Acme Works", "carla@example.com", "ES"),
		register("u4", "dave", "Dave", "Evans", "Drains Ltd", "dave@example.com", "GB"),
		register("u5", "eve", "Eve", "Fox", "Zed", "eve@example.com", "FR"),
	} {
		testkit.AppendAt(t, s, account.Stream(r.UserID), r.UserID, t0, enc(account.Encode(r)))
	}
	testkit.AppendAt(t, s, account.Stream("u2"), "admin", t0, enc(account.Encode(account.Blocked{UserID: "u2", By: "admin", At: t0})))
	testkit.AppendAt(t, s, account.Stream("u4"), "admin", t0, enc(account.Encode(account.Deleted{UserID: "u4", By: "admin", At: t0})))
	testkit.AppendAt(t, s, account.Stream("u3"), "admin", t0,
		enc(account.Encode(account.GroupChanged{UserID: "u3", From: account.GroupStandard, To: account.GroupSupport, By: "admin", At: t0})),
		enc(account.Encode(account.SettingsChanged{UserID: "u3", Company: ptr("Acme Works GmbH"), At: t0})))
	for i, id := range []string{"p1", "p2"} {
		evs := []testkit.Encoded{
			enc(project.Encode(project.Created{ProjectID: id, Owner: "u1", OwnerName: "anna", Country: "GB", At: t0})),
			enc(project.Encode(project.Saved{SaveID: id, SavedBy: "u1", SavedByName: "anna", At: t0})),
		}
		if i == 1 {
			evs = append(evs, enc(project.Encode(project.Deleted{At: t0})))
		}
		testkit.AppendAt(t, s, project.Stream(id), "u1", t0, evs...)
	}
}

func ptr[T any](v T) *T { return &v }

func TestPageOf(t *testing.T) {
	t.Parallel()
	for _, b := range testkit.Backends {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := testkit.RebuildMatchesLive(t, b, []projections.Projection{userlist.Projection{}, projectlist.Projection{}},
				userlist.Projection{}, func(s eventstore.Store) { users(t, s) })
			names := func(p userlist.Page) []string {
				out := []string{}
				for _, u := range p.Rows {
					out = append(out, u.Username)
				}
				return out
			}
			for _, tc := range []struct {
				name          string
				filter        userlist.Filter
				sort          string
				desc          bool
				offset, limit int
				want          []string
				total         int
			}{
				{name: "all live accounts by username, any case", limit: 10, want: []string{"anna", "Bob", "carla", "eve"}, total: 4},
				{name: "a page", offset: 1, limit: 2, want: []string{"Bob", "carla"}, total: 4},
				{name: "hide blocked", filter: userlist.Filter{HideBlocked: true}, limit: 10, want: []string{"anna", "carla", "eve"}, total: 3},
				{name: "search the company, after a change", filter: userlist.Filter{Search: "gmbh"}, limit: 10, want: []string{"carla"}, total: 1},
				{name: "search the e-mail", filter: userlist.Filter{Search: "ACME.EXAMPLE"}, limit: 10, want: []string{"Bob"}, total: 1},
				{name: "search the full name", filter: userlist.Filter{Search: "a ber"}, limit: 10, want: []string{"anna"}, total: 1},
				{name: "an underscore is no wildcard", filter: userlist.Filter{Search: "acme_"}, limit: 10, want: []string{"Bob"}, total: 1},
				{name: "a deleted account is not found", filter: userlist.Filter{Search: "dave"}, limit: 10, want: []string{}, total: 0},
				{name: "by country, descending", sort: "country", desc: true, limit: 10, want: []string{"anna", "eve", "carla", "Bob"}, total: 4},
				{name: "by group", sort: "group", limit: 10, want: []string{"anna", "Bob", "eve", "carla"}, total: 4},
				{name: "blocked first", sort: "blocked", desc: true, limit: 1, want: []string{"Bob"}, total: 4},
			} {
				p, err := userlist.PageOf(ctx, db, tc.filter, tc.offset, tc.limit, tc.sort, tc.desc)
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				if got := names(p); !reflect.DeepEqual(got, tc.want) || p.Total != tc.total {
					t.Errorf("%s: %v of %d, want %v of %d", tc.name, got, p.Total, tc.want, tc.total)
				}
			}
			p, _ := userlist.PageOf(ctx, db, userlist.Filter{Search: "anna"}, 0, 10, "", false)
			if len(p.Rows) != 1 || p.Rows[0].Projects != 1 || p.Rows[0].DeletedProjects != 1 || p.Rows[0].FullName != "Anna Berg" {
				t.Errorf("anna's row %+v", p.Rows)
			}
			u, ok, err := userlist.Get(ctx, db, "u4")
			if err != nil || !ok || u.Username != "dave" {
				t.Errorf("Get(deleted) = %+v %v %v", u, ok, err)
			}
			if n, err := userlist.CountLive(ctx, db); n != 4 || err != nil {
				t.Errorf("CountLive = %d, %v", n, err)
			}
			if m, err := userlist.ByCountry(ctx, db); err != nil || !reflect.DeepEqual(m, map[string]int{"GB": 1, "DE": 1, "ES": 1, "FR": 1}) {
				t.Errorf("ByCountry = %v, %v", m, err)
			}
		})
	}
}
