package app

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/eventstore/pgtest"
	"draindesign/projections"
)

// head is the last position of the log: a request that changed nothing
// leaves it where it was.
func head(t *testing.T, s eventstore.Store) eventstore.Position {
	t.Helper()
	var pos eventstore.Position
	for {
		evs, err := s.ReadAll(context.Background(), pos, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) == 0 {
			return pos
		}
		pos = evs[len(evs)-1].Position
	}
}

// Bad input gets a 400 with a readable error and writes nothing.
func TestBadInputChangesNothing(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.signUp(t, "carol")
	big := `{"project":{"details":{"name":"` + strings.Repeat("x", 5<<20) + `"},"runs":[]}}`
	tests := []struct {
		name, method, path, body, want string
	}{
		{"malformed", "POST", "/api/drainage/save/", `{"project": {`, "not complete JSON"},
		{"syntax", "POST", "/api/drainage/save/", `{"project": nope}`, "Malformed JSON"},
		{"not an object", "POST", "/api/drainage/save/", `[1,2]`, "must be a JSON object"},
		{"wrong type", "POST", "/api/drainage/save/", `{"project": {"details": {"name": 7}}}`, `"project.details.name" must be a string`},
		{"unknown field", "POST", "/api/drainage/save/", `{"project": {}, "sneaky": true}`, `Unknown field "sneaky"`},
		{"trailing data", "POST", "/api/drainage/save/", `{"project": {}} {}`, "single JSON object"},
		{"empty", "POST", "/api/drainage/save/", ``, "empty"},
		{"oversized", "POST", "/api/drainage/save/", big, "larger than"},
		{"no name", "POST", "/api/drainage/save/", `{"project": {"details": {"name": " "}, "runs": [{"name": "Run 1", "results": {"calculated": true}}]}}`, "The project needs a name"},
		{"uncalculated", "POST", "/api/drainage/save/", `{"project": {"details": {"name": "A"}, "runs": [{"name": "Run 1"}]}}`, "need to be calculated"},
		{"no runs", "POST", "/api/drainage/save/", `{"project": {"details": {"name": "A"}, "runs": []}}`, "No runs in project!"},
		{"run without name", "POST", "/api/drainage/save/", `{"project": {"details": {"name": "A"}, "runs": [{"results": {"calculated": true}}]}}`, "Run 1 needs a name"},
		{"run name wrong type", "POST", "/api/drainage/save/", `{"project": {"details": {"name": "A"}, "runs": [{"name": 5, "results": {"calculated": true}}]}}`, `Run 1: field "name"`},
		{"resave without version", "POST", "/api/drainage/save/", `{"project": {"saveID": "x", "details": {"name": "A"}, "runs": [{"name": "Run 1", "results": {"calculated": true}}]}}`, `"version" is required`},
		{"load none", "POST", "/api/drainage/load/", `{}`, "exactly one"},
		{"load two", "POST", "/api/drainage/load/", `{"id": "a", "shareID": "b"}`, "exactly one"},
		{"support id", "POST", "/api/drainage/load/", `{"supportID": "12a"}`, "must be a number"},
		{"register blank", "POST", "/api/drainage/register/", `{"username": ""}`, "Please enter a username"},
		{"register mismatch", "POST", "/api/drainage/register/", `{"username":"dan","password":"a long password","passwordConfirmation":"another one"}`, "Passwords do not match"},
		{"settings unit", "PATCH", "/api/drainage/user_settings/", `{"rainfall_units": "inches"}`, "valid rainfall unit"},
		{"reset email", "POST", "/api/auth/password/reset/", `{"email": "not-an-address"}`, "Please check the email address is valid."},
		{"login blank", "POST", "/api/auth/login/", `{"username": "", "password": ""}`, "Please enter"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := head(t, p.Store)
			var answer map[string]any
			if got := u.call(tc.method, tc.path, tc.body, &answer); got != http.StatusBadRequest {
				t.Fatalf("status %d, want 400: %v", got, answer)
			}
			msg, _ := answer["error"].(string)
			if !strings.Contains(fmt.Sprint(answer), tc.want) || msg == "" {
				t.Fatalf("answer %v lacks a readable error containing %q", answer, tc.want)
			}
			if after := head(t, p.Store); after != before {
				t.Fatalf("bad input wrote events: head %s -> %s", before, after)
			}
		})
	}
}

// Two tabs load the same version and both save: the second gets a conflict
// and the first one's content stands.
func TestConflictingSaves(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.signUp(t, "dora")
	first := u.saveNew("Yard")
	tab := func(name string) map[string]any {
		return map[string]any{"project": map[string]any{"saveID": first.SaveID, "version": first.Version,
			"details": map[string]any{"name": name}, "runs": []any{calculatedRun("Run 1", 10, first.RunSaveIDs[0])}}}
	}
	u.must(http.StatusOK, "POST", "/api/drainage/save/", tab("Yard (tab 1)"), nil)
	var conflict map[string]string
	u.must(http.StatusConflict, "POST", "/api/drainage/save/", tab("Yard (tab 2)"), &conflict)
	if !strings.Contains(conflict["error"], "changed elsewhere") {
		t.Fatalf("conflict answer %v", conflict)
	}
	var mine []listItem
	u.must(http.StatusOK, "GET", "/api/drainage/projects/", nil, &mine)
	if it := listed(mine, first.SaveID); it == nil || it.Name != "Yard (tab 1)" {
		t.Fatalf("after the conflict: %+v", mine)
	}
}

// A save sent again under its request_id, because its answer was lost
// (the instance stopped), gets the first answer instead of a conflict, and
// stores nothing more, even after the project moved on; another request,
// or a save in between, still meets the conflict.
func TestSaveSentAgain(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.signUp(t, "fern")
	first := u.saveNew("Yard")
	save := func(name, requestID string) map[string]any {
		return map[string]any{"request_id": requestID, "project": map[string]any{"saveID": first.SaveID, "version": first.Version,
			"details": map[string]any{"name": name}, "runs": []any{calculatedRun("Run 1", 10, first.RunSaveIDs[0])}}}
	}
	var saved saveAnswer
	u.must(http.StatusOK, "POST", "/api/drainage/save/", save("Yard 2", "req-1"), &saved)
	if saved.Version <= first.Version {
		t.Fatalf("save answered %+v after %+v", saved, first)
	}
	// The project moves on after the save.
	u.must(http.StatusOK, "POST", "/api/projects/"+first.SaveID+"/commands",
		map[string]any{"type": "change_notes", "run_id": first.RunSaveIDs[0], "notes": "kerb side"}, nil)

	before := head(t, p.Store)
	var again saveAnswer
	u.must(http.StatusOK, "POST", "/api/drainage/save/", save("Yard 2", "req-1"), &again)
	if !reflect.DeepEqual(again, saved) {
		t.Fatalf("sent again: %+v, want the first answer %+v", again, saved)
	}
	if after := head(t, p.Store); after != before {
		t.Fatalf("sent again, it stored more: head %s -> %s", before, after)
	}
	u.must(http.StatusConflict, "POST", "/api/drainage/save/", save("Yard 3", "req-2"), nil)
	u.must(http.StatusConflict, "POST", "/api/drainage/save/", save("Yard 3", ""), nil)

	// A save between: the first request is now a conflict like any other.
	u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"request_id": "req-3", "project": map[string]any{
		"saveID": first.SaveID, "version": again.Version + 1,
		"details": map[string]any{"name": "Yard 4"}, "runs": []any{calculatedRun("Run 1", 10, first.RunSaveIDs[0])}}}, nil)
	u.must(http.StatusConflict, "POST", "/api/drainage/save/", save("Yard 2", "req-1"), nil)

	// Another user sending the same request gets what any stranger gets.
	other := p.signUp(t, "gus")
	if got := other.call("POST", "/api/drainage/save/", save("Mine", "req-3"), nil); got == http.StatusOK {
		t.Fatalf("another user's save under the owner's request id: %d", got)
	}
	var tooLong map[string]string
	u.must(http.StatusBadRequest, "POST", "/api/drainage/save/", save("Yard", strings.Repeat("r", 101)), &tooLong)
	if !strings.Contains(tooLong["error"], "request_id") {
		t.Fatalf("a request id too long: %v", tooLong)
	}
}

// A calculation sent again under its request_id, because its answer was
// lost, is answered again but recorded once; calculations without a name,
// or under another, are each recorded. The name is never one of the run's
// inputs, and a bad one is refused before anything is calculated.
func TestCalculationSentAgain(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.signUp(t, "hal")
	first := u.saveNew("Forecourt")
	calc := func(requestID any) map[string]any {
		body := map[string]any{"project_id": first.SaveID, "run_id": first.RunSaveIDs[0], "channel_group": "concrete",
			"concreteChannel": map[string]any{"width": 100, "depth": 300, "roughness": 0.011}, "channel_length_m": 20,
			"drainage_area_m2": 144, "rainfall": map[string]any{"rainfall_mm_per_hr": 50}, "calculation_method": "GVF"}
		if requestID != nil {
			body["request_id"] = requestID
		}
		return body
	}
	var answer, again map[string]any
	u.must(http.StatusOK, "POST", "/api/drainage/calculate/", calc("calc-1"), &answer)
	before := head(t, p.Store)
	u.must(http.StatusOK, "POST", "/api/drainage/calculate/", calc("calc-1"), &again)
	if !reflect.DeepEqual(again, answer) {
		t.Fatal("sent again, the calculation answered differently")
	}
	if after := head(t, p.Store); after != before {
		t.Fatalf("sent again, it was recorded again: head %s -> %s", before, after)
	}
	for _, id := range []any{"calc-2", nil, nil} {
		before = head(t, p.Store)
		u.must(http.StatusOK, "POST", "/api/drainage/calculate/", calc(id), nil)
		if head(t, p.Store) == before {
			t.Fatalf("a calculation named %v was not recorded", id)
		}
	}
	before = head(t, p.Store)
	for _, bad := range []any{strings.Repeat("r", 101), 7} {
		var refused map[string]string
		u.must(http.StatusBadRequest, "POST", "/api/drainage/calculate/", calc(bad), &refused)
		if !strings.Contains(refused["error"], "request_id") {
			t.Fatalf("request_id %v: %v", bad, refused)
		}
	}
	if after := head(t, p.Store); after != before {
		t.Fatalf("refused calculations were recorded: head %s -> %s", before, after)
	}

	evs, err := p.Store.ReadStream(t.Context(), project.Stream(first.SaveID), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	for _, e := range evs {
		if e.Type != "project.run_calculated" {
			continue
		}
		var c project.RunCalculated
		if err := json.Unmarshal(e.Data, &c); err != nil {
			t.Fatal(err)
		}
		if _, ok := c.Inputs["request_id"]; ok {
			t.Fatalf("request_id stored as an input: %s", e.Data)
		}
		named = append(named, c.RequestID)
	}
	// The save's verification recorded the first, unnamed.
	if want := []string{"", "calc-1", "calc-2", "", ""}; !reflect.DeepEqual(named, want) {
		t.Fatalf("recorded calculations named %q, want %q", named, want)
	}
}

// While the database restarts, calls answer 503 with Retry-After and a
// sentence saying so, not a bare server error; once it is back, the same
// calls succeed.
func TestDatabaseRestartAnswers503(t *testing.T) {
	dbURL := pgtest.NewDatabase(t)
	p := start(t, Options{DataDir: t.TempDir(), DatabaseURL: dbURL})
	u := p.signUp(t, "ida")
	first := u.saveNew("Kerbside")
	edit := map[string]any{"type": "change_notes", "run_id": first.RunSaveIDs[0], "notes": "north side"}
	commands := "/api/projects/" + first.SaveID + "/commands"

	// A large save, by a user whose session the instance has not seen yet,
	// is answered alike (api's TestTryAgainAnswersReadTheBody: the body is
	// read before the answer, so that the connection is not reset).
	other := p.signUp(t, "jo")
	large := map[string]any{"project": map[string]any{"details": map[string]any{"name": "Yard"},
		"notes": strings.Repeat("n", 1<<20), "runs": []any{calculatedRun("Run 1", 10, "")}}}

	restore := pgtest.CutOff(t, dbURL)
	for _, c := range []struct {
		who          *user
		method, path string
		body         any
	}{
		{u, "POST", commands, edit},
		{u, "GET", "/api/drainage/projects/", nil},
		{other, "POST", "/api/drainage/save/", large},
	} {
		status, header, data := c.who.exchange(c.method, c.path, c.body)
		var answer map[string]string
		if err := json.Unmarshal(data, &answer); status != http.StatusServiceUnavailable || err != nil {
			t.Fatalf("%s %s with the database away: %d %s (%v)", c.method, c.path, status, data, err)
		}
		if header.Get("Retry-After") != "1" || !strings.Contains(answer["error"], "cannot reach its database") {
			t.Fatalf("%s %s: Retry-After %q, %v", c.method, c.path, header.Get("Retry-After"), answer)
		}
	}
	restore()
	// A pooled connection the restart ended may fail one call more, with
	// 503 again: as the web client does, try again after a moment.
	again := func(method, path string, body, out any) {
		t.Helper()
		status, data := 0, []byte(nil)
		for try := 0; try < 20; try++ {
			if status, _, data = u.exchange(method, path, body); status != http.StatusServiceUnavailable {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if status != http.StatusOK {
			t.Fatalf("%s %s after the restart: %d %s", method, path, status, data)
		}
		if out != nil {
			if err := json.Unmarshal(data, out); err != nil {
				t.Fatal(err)
			}
		}
	}
	again("POST", commands, edit, nil)
	var mine []listItem
	again("GET", "/api/drainage/projects/", nil, &mine)
	if listed(mine, first.SaveID) == nil {
		t.Fatalf("after the restart the project is not listed: %+v", mine)
	}
}

// Sessions: a session can be refreshed into a new one, logout ends it, and
// repeated failed log-ins are throttled.
func TestSessions(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.signUp(t, "erin")
	u.must(http.StatusOK, "GET", "/api/auth/me/", nil, nil)
	old := cookie(t, u, p)
	u.must(http.StatusOK, "POST", "/api/auth/token/refresh/", nil, nil)
	if now := cookie(t, u, p); now == old || now == "" {
		t.Fatal("refresh kept the session token")
	}
	u.must(http.StatusOK, "POST", "/api/auth/logout/", nil, nil)
	u.must(http.StatusUnauthorized, "GET", "/api/auth/me/", nil, nil)
	u.must(http.StatusUnauthorized, "POST", "/api/auth/token/refresh/", nil, nil)

	intruder := p.newUser(t)
	for i := 0; i < 5; i++ {
		intruder.must(http.StatusUnauthorized, "POST", "/api/auth/login/", map[string]string{"username": "erin", "password": "guess " + fmt.Sprint(i)}, nil)
	}
	intruder.must(http.StatusTooManyRequests, "POST", "/api/auth/login/", map[string]string{"username": "erin", "password": "a long password"}, nil)
}

func cookie(t *testing.T, u *user, p *product) string {
	t.Helper()
	base, _ := url.Parse(p.srv.URL)
	for _, c := range u.http.Jar.Cookies(base) {
		if c.Name == "session-state" {
			return c.Value
		}
	}
	return ""
}

// A password reset link works once.
func TestPasswordReset(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	p.signUp(t, "fred")
	anon := p.newUser(t)
	var ok map[string]string
	anon.must(http.StatusOK, "POST", "/api/auth/password/reset/", map[string]string{"email": "fred@example.com"}, &ok)
	if ok["detail"] != "A password reset e-mail has been sent." {
		t.Fatalf("reset answer %v", ok)
	}
	// An unknown address gets the same answer and no mail.
	anon.must(http.StatusOK, "POST", "/api/auth/password/reset/", map[string]string{"email": "nobody@example.com"}, nil)
	link, err := url.Parse(mailedLink(t, p.opts.DataDir, "fred@example.com"))
	if err != nil || !strings.HasPrefix(link.Path, "/password-reset/") {
		t.Fatalf("reset link %v (%v)", link, err)
	}
	body := map[string]string{"uid": strings.TrimPrefix(link.Path, "/password-reset/"), "token": link.Query().Get("token"),
		"new_password1": "a brand new secret", "new_password2": "a brand new secret"}
	anon.must(http.StatusOK, "POST", "/api/auth/password/reset/confirm/", body, nil)
	var used map[string]any
	anon.must(http.StatusBadRequest, "POST", "/api/auth/password/reset/confirm/", body, &used)
	if used["token"] == nil {
		t.Fatalf("reused link answer %v has no token error", used)
	}
	anon.must(http.StatusUnauthorized, "POST", "/api/auth/login/", map[string]string{"username": "fred", "password": "a long password"}, nil)
	anon.must(http.StatusOK, "POST", "/api/auth/login/", map[string]string{"username": "fred", "password": "a brand new secret"}, nil)
}

// assertRebuildEqualsLive opens the stores of opts afresh (the app on them
// stopped), rebuilds every read model from zero and compares each table
// with live, the dump taken before the stop.
func assertRebuildEqualsLive(t *testing.T, opts Options, live map[string][]string) {
	t.Helper()
	store, db, err := OpenStores(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	defer db.Close()
	runner, err := projections.NewRunner(projections.Config{Store: store, DB: db, Projections: Projections()})
	if err != nil {
		t.Fatal(err)
	}
	if err := runner.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rebuilt := dump(t, db); !reflect.DeepEqual(live, rebuilt) {
		t.Fatalf("rebuilt read models differ\nlive:    %v\nrebuilt: %v", live, rebuilt)
	}
}

// dump reads every read-model table in a stable order.
func dump(t *testing.T, db *projections.DB) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, pr := range Projections() {
		for _, table := range pr.Tables() {
			out[table] = tableRows(t, db, table)
		}
	}
	return out
}

// tableRows is every row of a table as text, sorted.
func tableRows(t *testing.T, db *projections.DB, table string) []string {
	t.Helper()
	rows, err := db.Query(context.Background(), "SELECT * FROM "+table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(vals...))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// Read models rebuilt from position 0 equal the ones kept live.
func TestRebuildEqualsLive(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			opts := b.opts(t)
			p := start(t, opts)
			u := p.signUp(t, "gina")
			var s saveAnswer
			u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
				"details": map[string]any{"name": "One"}, "runs": []any{calculatedRun("Run 1", 10, ""), calculatedRun("Run 2", 12, "")}}, "share": true}, &s)
			u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
				"saveID": s.SaveID, "version": s.Version, "details": map[string]any{"name": "One, renamed"},
				"runs": []any{calculatedRun("Run 2", 14, s.RunSaveIDs[1])}}}, nil)
			u.must(http.StatusOK, "POST", "/api/drainage/share/", map[string]string{"id": s.SaveID}, nil)
			u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
				"details": map[string]any{"name": "Two"}, "runs": []any{calculatedRun("Run 1", 3, "")}}}, &s)
			u.must(http.StatusOK, "DELETE", "/api/drainage/delete/", map[string]string{"id": s.SaveID}, nil)
			if err := p.Runner.CatchUp(context.Background()); err != nil {
				t.Fatal(err)
			}
			live := dump(t, p.DB)
			if len(live["project_list"]) != 2 || len(live["calc_history"]) != 4 || len(live["timeline"]) == 0 {
				t.Fatalf("live read models look wrong: %v", live)
			}
			p.stop()

			assertRebuildEqualsLive(t, opts, live)
		})
	}
}
