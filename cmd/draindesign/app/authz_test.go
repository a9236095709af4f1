package app

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"draindesign/api"
	"draindesign/domain/account"
)

// The authorization matrix: every call the API registers, tried by every
// kind of person, with the status each must get. A call added to the router
// without a row here fails the test, so nobody adds a call without saying
// who may use it.

// The people who try each call, in the order they try it: whoever may
// change the fixture (an admin acting on a user, the owner deleting the
// project) comes last.
//
// Three of them call with an API token instead of a session (no cookies):
// the owner's own token, an admin's token, and a token its user revoked.
// A token acts as its user on the calls api.TokenCalls lists, on the
// user's own projects only: an admin's token has no staff reach and a
// token never reaches the account's settings or tokens (403).
var actors = []string{"anonymous", "other", "link", "support", "marketing", "translator", "blocked", "deleted", "revoked", "admintoken", "admin", "token", "owner"}

// tokenActors call with an API token.
var tokenActors = map[string]bool{"token": true, "admintoken": true, "revoked": true}

// fixture is what one row's calls act on: a saved project of the owner's,
// shared by link (not with the provider), and a user for staff to act on.
type fixture struct {
	project, run, shareID, victim string
	version                       int64
	// spareToken is an API token id of the owner's, for the revoke row.
	spareToken string
	// calculation is a calculation in the staff history.
	calculation string
}

type call struct {
	path string
	body any
}

type matrixRow struct {
	method, pattern string
	// request builds the call for one actor; the link holder uses the
	// share link where a call takes one, everyone else the bare id.
	request func(f fixture, actor string) call
	// want is the status for each actor; "rest" covers everyone signed in
	// and not named, "out" the anonymous, blocked and deleted.
	want map[string]int
}

// freshRows names the calls that change the project in a way later rows must
// not see (a new version, a withdrawn link, a deletion): each gets a
// project of its own.
var freshRows = map[string]bool{"POST /api/drainage/save/": true, "POST /api/drainage/unshare/": true, "DELETE /api/drainage/delete/": true,
	"DELETE /api/auth/tokens/{id}/": true}

const rest, out = "rest", "out"

func same(path string, body any) func(fixture, string) call {
	return func(fixture, string) call { return call{path, body} }
}

func (r matrixRow) status(actor string) int {
	if s, ok := r.want[actor]; ok {
		return s
	}
	if tokenActors[actor] {
		_, public := r.want[out]
		switch {
		case public:
			return r.status("anonymous") // a token sends no cookie
		case actor == "revoked":
			return http.StatusUnauthorized
		case !slices.Contains(api.TokenCalls(), r.method+" "+r.pattern):
			return http.StatusForbidden
		case actor == "token":
			return r.status("owner")
		}
		// An admin's token has a designer's reach: the admin as any other
		// user who does not own the project.
		return r.status("other")
	}
	if actor == "anonymous" || actor == "blocked" || actor == "deleted" {
		if s, ok := r.want[out]; ok {
			return s
		}
		return http.StatusUnauthorized
	}
	return r.want[rest]
}

func matrix() []matrixRow {
	type w = map[string]int
	ok, created, bad, unauth, forbid, missing := http.StatusOK, http.StatusCreated, http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound
	// Calls only the owner may make answer everyone else as if the project
	// did not exist; reads are open to the owner, admins, and (through the
	// link) its link holders.
	ownerOnly := w{"owner": ok, rest: missing}
	readers := w{"owner": ok, "admin": ok, "link": ok, rest: missing}
	anyUser := w{rest: ok}
	badForAll := w{rest: bad}
	staffOnly := w{"admin": ok, rest: forbid}
	// An admin's token keeps the admin's advanced mode: it is a feature
	// of the group, not a staff right.
	rtfUsers := w{"admin": ok, "admintoken": ok, "support": ok, "marketing": ok, "translator": ok, rest: forbid}
	marketingOrAdmin := w{"admin": ok, "marketing": ok, rest: forbid}
	translators := w{"admin": ok, "translator": ok, rest: forbid}
	byID := func(f fixture) string { return f.project }
	return []matrixRow{
		{"GET", "/api/health", same("/api/health", nil), w{rest: ok, out: ok}},
		{"GET", "/api/health/", same("/api/health/", nil), w{rest: ok, out: ok}},
		// The load balancer's probes ask no account.
		{"GET", "/api/health/live/", same("/api/health/live/", nil), w{rest: ok, out: ok}},
		{"GET", "/api/health/ready/", same("/api/health/ready/", nil), w{rest: ok, out: ok}},
		{"GET", "/api/client-config/", same("/api/client-config/", nil), w{rest: ok, out: ok}},
		{"POST", "/api/auth/login/", same("/api/auth/login/", map[string]string{"username": "nobody", "password": ""}), w{rest: bad, out: bad}},
		{"POST", "/api/auth/token/refresh/", same("/api/auth/token/refresh/", nil), w{rest: ok, out: unauth}},
		{"POST", "/api/auth/password/reset/", same("/api/auth/password/reset/", map[string]string{"email": "nobody@example.com"}), w{rest: ok, out: ok}},
		{"POST", "/api/auth/password/reset/confirm/", same("/api/auth/password/reset/confirm/",
			map[string]string{"uid": "x", "token": "y", "new_password1": "a long new password", "new_password2": "a long new password"}), w{rest: bad, out: bad}},
		{"GET", "/api/auth/confirm/", same("/api/auth/confirm/?uid=x&token=y", nil), w{rest: http.StatusSeeOther, out: http.StatusSeeOther}},
		{"POST", "/api/drainage/register/", same("/api/drainage/register/", map[string]string{}), w{rest: bad, out: bad}},
		{"GET", "/api/drainage/countries/", same("/api/drainage/countries/", nil), w{rest: ok, out: ok}},
		// Catalogues and help are read by everyone, signed in or not.
		{"GET", "/api/locales/", same("/api/locales/", nil), w{rest: ok, out: ok}},
		{"GET", "/api/locales/{lang}.json", same("/api/locales/de.json", nil), w{rest: ok, out: ok}},
		{"GET", "/api/drainage/help-topics", same("/api/drainage/help-topics", nil), w{rest: ok, out: ok}},
		{"GET", "/api/drainage/feature-sheet/{version}/{language}/", same("/api/drainage/feature-sheet/uk/en/", nil), w{rest: ok, out: ok}},

		{"GET", "/api/openapi.json", same("/api/openapi.json", nil), w{rest: ok, out: ok}},
		{"GET", "/api/docs/", same("/api/docs/", nil), w{rest: ok, out: ok}},

		{"GET", "/api/auth/me/", same("/api/auth/me/", nil), anyUser},
		// Tokens are managed from a session only (token actors: 403).
		{"GET", "/api/auth/tokens/", same("/api/auth/tokens/", nil), anyUser},
		{"POST", "/api/auth/tokens/", same("/api/auth/tokens/", map[string]string{"name": "matrix"}), w{rest: created}},
		{"DELETE", "/api/auth/tokens/{id}/", func(f fixture, _ string) call { return call{"/api/auth/tokens/" + f.spareToken + "/", nil} }, ownerOnly},
		{"PATCH", "/api/drainage/user_settings/", same("/api/drainage/user_settings/", map[string]any{}), anyUser},
		// Everyone signed in downloads their own data; deleting one's own
		// account takes the password (a wrong one here: 400), from a
		// session only (token actors: 403).
		{"GET", "/api/account/export/", same("/api/account/export/", nil), anyUser},
		{"DELETE", "/api/account/", same("/api/account/", map[string]string{"password": "not the password"}), badForAll},
		{"PATCH", "/api/drainage/user_settings/country/", same("/api/drainage/user_settings/country/", map[string]string{"country": "GB"}),
			w{"owner": forbid, "other": forbid, "link": forbid, rest: ok}},
		{"POST", "/api/drainage/save/", func(f fixture, _ string) call {
			return call{"/api/drainage/save/", map[string]any{"project": map[string]any{"saveID": f.project, "version": f.version,
				"details": map[string]any{"name": "Mine now"}, "runs": []any{calculatedRun("Run 1", 20, f.run)}}}}
		}, ownerOnly},
		{"GET", "/api/drainage/projects/", same("/api/drainage/projects/", nil), anyUser},
		{"POST", "/api/drainage/load/", func(f fixture, actor string) call {
			if actor == "link" {
				return call{"/api/drainage/load/", map[string]string{"shareID": f.shareID}}
			}
			return call{"/api/drainage/load/", map[string]string{"id": f.project}}
		}, readers},
		{"GET", "/api/drainage/load/{key}/", func(f fixture, actor string) call {
			if actor == "link" {
				return call{"/api/drainage/load/share:" + f.shareID + "." + f.run + "/", nil}
			}
			return call{"/api/drainage/load/" + f.project + "." + f.run + "/", nil}
		}, readers},
		{"POST", "/api/drainage/share/", func(f fixture, _ string) call { return call{"/api/drainage/share/", map[string]string{"id": byID(f)}} }, ownerOnly},
		{"POST", "/api/drainage/unshare/", func(f fixture, _ string) call {
			return call{"/api/drainage/unshare/", map[string]string{"id": byID(f)}}
		}, ownerOnly},
		{"DELETE", "/api/drainage/delete/", func(f fixture, _ string) call { return call{"/api/drainage/delete/", map[string]string{"id": byID(f)}} }, ownerOnly},
		{"GET", "/api/drainage/shared_projects/", same("/api/drainage/shared_projects/", nil), w{"support": ok, "admin": ok, rest: forbid}},
		{"POST", "/api/projects/", same("/api/projects/", map[string]any{}), w{rest: created}},
		{"POST", "/api/projects/{id}/commands", func(f fixture, _ string) call {
			return call{"/api/projects/" + f.project + "/commands", map[string]string{"type": "add_run"}}
		}, ownerOnly},
		{"GET", "/api/projects/{id}/timeline", func(f fixture, _ string) call { return call{"/api/projects/" + f.project + "/timeline", nil} },
			w{"owner": ok, "admin": ok, rest: missing}},
		// The history reads like the timeline: never through a share link.
		// (Provider staff read it when the project is shared with the
		// provider, which the fixture's is not: history_test.go.)
		{"GET", "/api/projects/{id}/history", func(f fixture, _ string) call { return call{"/api/projects/" + f.project + "/history", nil} },
			w{"owner": ok, "admin": ok, rest: missing}},
		{"GET", "/api/projects/{id}/diff", func(f fixture, _ string) call {
			return call{"/api/projects/" + f.project + "/diff?from=1&to=" + strconv.FormatInt(f.version, 10), nil}
		}, w{"owner": ok, "admin": ok, rest: missing}},
		// A copy is a new project of the caller's; the source is untouched.
		{"POST", "/api/projects/{id}/copy", func(f fixture, _ string) call {
			return call{"/api/projects/" + f.project + "/copy", map[string]any{"version": f.version}}
		}, w{"owner": created, "admin": created, rest: missing}},
		// A plain GET is no WebSocket handshake: past the session check,
		// the upgrade refuses it.
		{"GET", "/api/ws", same("/api/ws", nil), badForAll},

		{"GET", "/api/drainage/weblinks/", same("/api/drainage/weblinks/", nil), anyUser},
		{"GET", "/api/drainage/product/", same("/api/drainage/product/", nil), anyUser},
		{"POST", "/api/drainage/calculate/", func(f fixture, _ string) call {
			return call{"/api/drainage/calculate/", map[string]any{"project_id": f.project, "run_id": f.run, "channel_group": "concrete",
				"concreteChannel": map[string]any{"width": 100, "depth": 300, "roughness": 0.011}, "channel_length_m": 20,
				"drainage_area_m2": 144, "rainfall": map[string]any{"rainfall_mm_per_hr": 50}, "calculation_method": "GVF"}}
		}, ownerOnly},
		{"POST", "/api/drainage/calculate_shared/", same("/api/drainage/calculate_shared/", map[string]any{}), badForAll},
		{"POST", "/api/drainage/materials/", same("/api/drainage/materials/", map[string]any{}), badForAll},
		{"GET", "/api/drainage/endcap/with_outlet/", same("/api/drainage/endcap/with_outlet/", nil), badForAll},
		{"GET", "/api/drainage/trashbox/discharges/", same("/api/drainage/trashbox/discharges/", nil), badForAll},
		{"GET", "/api/drainage/channel/subproducts/", same("/api/drainage/channel/subproducts/", nil), badForAll},
		{"GET", "/api/drainage/channel/", same("/api/drainage/channel/", nil), badForAll},
		{"POST", "/api/rainfall/findRainStats/", same("/api/rainfall/findRainStats/", map[string]any{}), badForAll},
		{"POST", "/api/rainfall/updateRainStats/", same("/api/rainfall/updateRainStats/", map[string]any{}), badForAll},
		{"POST", "/api/drainage/calculate_storage/", same("/api/drainage/calculate_storage/", map[string]any{}), badForAll},
		// Documents are made from the request's runs, not a stored project:
		// anyone signed in may have one.
		{"POST", "/api/drainage/document/csv/{language}/hydraulics/{runIndex}/", same("/api/drainage/document/csv/en/hydraulics/1/",
			map[string]any{"details": map[string]any{"name": "Yard"}, "runs": []any{calculatedRun("Run 1", 20, "")}}), anyUser},
		{"POST", "/api/drainage/document/pdf/{language}/{kind}/", same("/api/drainage/document/pdf/en/introduction/",
			map[string]any{"details": map[string]any{"name": "Yard"}, "runs": []any{calculatedRun("Run 1", 20, "")}}), anyUser},
		{"POST", "/api/drainage/document/pdf/{language}/hydraulics/{runIndex}/", same("/api/drainage/document/pdf/en/hydraulics/1/",
			map[string]any{"details": map[string]any{"name": "Yard"}, "runs": []any{calculatedRun("Run 1", 20, "")}}), anyUser},
		// RTF comes with advanced mode: the standard users get 403.
		{"POST", "/api/drainage/document/rtf/{language}/{kind}/", same("/api/drainage/document/rtf/en/introduction/",
			map[string]any{"details": map[string]any{"name": "Yard"}, "runs": []any{calculatedRun("Run 1", 20, "")}}), rtfUsers},
		{"POST", "/api/drainage/document/rtf/{language}/hydraulics/{runIndex}/", same("/api/drainage/document/rtf/en/hydraulics/1/",
			map[string]any{"details": map[string]any{"name": "Yard"}, "runs": []any{calculatedRun("Run 1", 20, "")}}), rtfUsers},

		// Translators and administrators change texts. Each change sets
		// the shipped text again, so that every actor's call is accepted
		// on its merits and changes nothing for the next.
		{"GET", "/api/translations/{kind}/{lang}/", same("/api/translations/message/de/", nil), translators},
		{"POST", "/api/translations/{kind}/{lang}/", same("/api/translations/message/de/", map[string]string{"key": "nav.home", "text": "Startseite"}), translators},
		{"POST", "/api/translations/{kind}/{lang}/reset/", same("/api/translations/message/de/reset/", map[string]string{"key": "nav.home"}), translators},
		{"POST", "/api/translations/{kind}/{lang}/import/", same("/api/translations/message/de/import/", map[string]string{"nav.home": "Startseite"}), translators},
		{"POST", "/api/translations/preview/", same("/api/translations/preview/", map[string]string{"markdown": "# Hi"}), translators},

		{"GET", "/api/staff/users/", same("/api/staff/users/", nil), staffOnly},
		{"GET", "/api/staff/users/{id}/projects/", func(f fixture, _ string) call { return call{"/api/staff/users/" + f.victim + "/projects/", nil} }, staffOnly},
		{"POST", "/api/staff/users/{id}/block/", func(f fixture, _ string) call { return call{"/api/staff/users/" + f.victim + "/block/", nil} }, staffOnly},
		{"POST", "/api/staff/users/{id}/unblock/", func(f fixture, _ string) call { return call{"/api/staff/users/" + f.victim + "/unblock/", nil} }, staffOnly},
		{"POST", "/api/staff/users/{id}/group/", func(f fixture, _ string) call {
			return call{"/api/staff/users/" + f.victim + "/group/", map[string]string{"group": "advanced"}}
		}, staffOnly},
		{"DELETE", "/api/staff/users/{id}/", func(f fixture, _ string) call { return call{"/api/staff/users/" + f.victim + "/", nil} }, staffOnly},
		{"GET", "/api/staff/calculations/", same("/api/staff/calculations/", nil), staffOnly},
		{"GET", "/api/staff/summary/", same("/api/staff/summary/", nil), staffOnly},
		{"GET", "/api/staff/users/page/", same("/api/staff/users/page/?search=v&hide_blocked=1&sort=company&limit=5", nil), staffOnly},
		{"GET", "/api/staff/users/{id}/", func(f fixture, _ string) call { return call{"/api/staff/users/" + f.victim + "/", nil} }, staffOnly},
		{"GET", "/api/staff/calculations/page/", same("/api/staff/calculations/page/?outcome=failed&from=2020-01-01", nil), staffOnly},
		{"GET", "/api/staff/calculations/csv/", same("/api/staff/calculations/csv/?system=concrete", nil), staffOnly},
		{"GET", "/api/staff/calculations/systems/", same("/api/staff/calculations/systems/", nil), staffOnly},
		{"GET", "/api/staff/calculations/{id}/", func(f fixture, _ string) call { return call{"/api/staff/calculations/" + f.calculation + "/", nil} }, staffOnly},
		// The whole staff history is the staff area's; its availability
		// changes are the availability page's too.
		{"GET", "/api/staff/history/", func(_ fixture, actor string) call {
			if actor == "marketing" {
				return call{"/api/staff/history/?kind=availability", nil}
			}
			return call{"/api/staff/history/", nil}
		}, w{"admin": ok, "marketing": ok, rest: forbid}},
		{"GET", "/api/staff/map/", same("/api/staff/map/", nil), staffOnly},
		{"GET", "/api/staff/availability/", same("/api/staff/availability/", nil), marketingOrAdmin},
		// Offering what is offered: allowed, and changes nothing.
		{"POST", "/api/staff/availability/", same("/api/staff/availability/", map[string]any{"country": "DE", "system": "poly-100", "offered": true}),
			marketingOrAdmin},

		// Last: logging out ends each actor's session.
		{"POST", "/api/auth/logout/", same("/api/auth/logout/", nil), w{rest: ok, out: ok}},
	}
}

func TestAuthorizationMatrix(t *testing.T) {
	rows := matrix()
	routes, err := api.Routes()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range routes {
		if !slices.ContainsFunc(rows, func(m matrixRow) bool { return m.method == r.Method && m.pattern == r.Pattern }) {
			t.Errorf("%s %s has no row in the authorization matrix: say who may call it", r.Method, r.Pattern)
		}
	}
	for _, m := range rows {
		if !slices.Contains(routes, api.Route{Method: m.method, Pattern: m.pattern}) {
			t.Errorf("matrix row %s %s names no registered call", m.method, m.pattern)
		}
	}
	if t.Failed() {
		return
	}
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			// Every person calls from 127.0.0.1: the per-address limits on
			// registration and resets would answer 429 before the rule this
			// test is about (their own tests are in security_test.go).
			opts := b.opts(t)
			opts.Limits = api.Limits{RequestsBurst: 1000}
			p := start(t, opts)
			people := map[string]*user{
				"anonymous":  p.newUser(t),
				"owner":      p.staff(t, "olive", account.GroupStandard),
				"other":      p.staff(t, "otto", account.GroupStandard),
				"link":       p.staff(t, "lina", account.GroupStandard),
				"support":    p.staff(t, "sue", account.GroupSupport),
				"marketing":  p.staff(t, "mia", account.GroupMarketing),
				"translator": p.staff(t, "tom", account.GroupTranslator),
				"admin":      p.staff(t, "ada", account.GroupAdmin),
				"blocked":    p.staff(t, "bert", account.GroupStandard),
				"deleted":    p.staff(t, "dora", account.GroupStandard),
			}
			people["admin"].must(http.StatusOK, "POST", "/api/staff/users/"+p.userID(t, "bert")+"/block/", nil, nil)
			people["admin"].must(http.StatusOK, "DELETE", "/api/staff/users/"+p.userID(t, "dora")+"/", nil, nil)

			ownerToken, _ := people["owner"].createToken("matrix script")
			adminToken, _ := people["admin"].createToken("admin script")
			revoked, revokedID := people["other"].createToken("old laptop")
			people["other"].must(http.StatusOK, "DELETE", "/api/auth/tokens/"+revokedID+"/", nil, nil)
			people["token"] = p.scripted(t, ownerToken)
			people["admintoken"] = p.scripted(t, adminToken)
			people["revoked"] = p.scripted(t, revoked)

			p.staff(t, "victor", account.GroupStandard)
			victim := p.userID(t, "victor")
			shared := newFixture(t, p, people["owner"], victim)
			var history struct {
				Rows []struct{ ID string } `json:"rows"`
			}
			people["admin"].must(http.StatusOK, "GET", "/api/staff/calculations/page/?limit=1", nil, &history)
			if len(history.Rows) != 1 {
				t.Fatalf("no calculation in the staff history: %+v", history)
			}
			shared.calculation = history.Rows[0].ID
			for _, m := range rows {
				for _, actor := range actors {
					f := shared
					if freshRows[m.method+" "+m.pattern] {
						// The owner's token changes the project as the
						// owner does: each actor gets a project of its own.
						f = newFixture(t, p, people["owner"], victim)
						f.calculation = shared.calculation
					}
					if m.pattern == "/api/auth/tokens/{id}/" {
						_, f.spareToken = people["owner"].createToken("spare")
					}
					c := m.request(f, actor)
					if got, want := people[actor].call(m.method, c.path, c.body, nil), m.status(actor); got != want {
						t.Errorf("%s %s as %s: status %d, want %d", m.method, m.pattern, actor, got, want)
					}
				}
			}
		})
	}
}

// newFixture saves a project of the owner's and shares it by link; staff
// calls act on the victim.
func newFixture(t *testing.T, p *product, owner *user, victim string) fixture {
	t.Helper()
	var saved saveAnswer
	owner.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"details": map[string]any{"name": "Yard"}, "runs": []any{calculatedRun("Run 1", 20, "")}}}, &saved)
	var link string
	owner.must(http.StatusOK, "POST", "/api/drainage/share/", map[string]string{"id": saved.SaveID}, &link)
	var l loadAnswer
	owner.must(http.StatusOK, "POST", "/api/drainage/load/", map[string]string{"id": saved.SaveID}, &l)
	return fixture{project: saved.SaveID, run: saved.RunSaveIDs[0], shareID: link[strings.LastIndex(link, "/")+1:],
		victim: victim, version: l.Version}
}
