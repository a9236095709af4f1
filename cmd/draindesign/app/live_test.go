package app

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"draindesign/api/usecase"
	"draindesign/domain/account"
	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/projections"

	"github.com/gorilla/websocket"
)

// liveView is the part of a project view these tests read.
type liveView struct {
	ID                string `json:"id"`
	Owner             string `json:"owner"`
	Editable          bool   `json:"editable"`
	Details           struct{ Name string }
	Saved             bool  `json:"saved"`
	ShareWithProvider *bool `json:"share_with_provider"`
	SharedByLink      *bool `json:"shared_by_link"`
	// The project's own freeboard margin, absent while it keeps the default.
	FreeboardMinMM      *float64 `json:"freeboard_min_mm"`
	FreeboardMinPercent *float64 `json:"freeboard_min_percent"`
	Runs                []struct {
		ID, Name, State string
		Inputs          map[string]json.RawMessage `json:"inputs"`
		Summary         map[string]json.RawMessage `json:"summary"`
		LastError       string                     `json:"last_error"`
	} `json:"runs"`
}

type liveMsg struct {
	Type    string    `json:"type"`
	Project string    `json:"project"`
	Share   string    `json:"share"`
	Version int64     `json:"version"`
	View    *liveView `json:"view"`
	Reason  string    `json:"reason"`
	Code    string    `json:"code"`
	Error   string    `json:"error"`
	// keys are the message's top-level fields, to show no raw event leaks.
	keys []string
}

func (p *product) dial(t *testing.T, u *user) *websocket.Conn {
	t.Helper()
	url := "ws" + strings.TrimPrefix(p.srv.URL, "http") + "/api/ws"
	d := websocket.Dialer{Jar: u.http.Jar, HandshakeTimeout: 5 * time.Second}
	conn, resp, err := d.Dial(url, http.Header{"Origin": {p.srv.URL}})
	if resp != nil {
		resp.Body.Close() // the handshake's answer; only its status is read
	}
	if err != nil {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		t.Fatalf("dial %s: %v (%d)", url, err, status)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// next is the next message, which a live change must bring within a second.
func next(t *testing.T, c *websocket.Conn) liveMsg {
	t.Helper()
	return nextWithin(t, c, time.Second)
}

// nextWithin waits up to d: a closing needs the connection's next session
// check, which comes every second.
func nextWithin(t *testing.T, c *websocket.Conn, d time.Duration) liveMsg {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(d))
	_, data, err := c.ReadMessage()
	if err != nil {
		t.Fatalf("no live message within %s: %v", d, err)
	}
	var m liveMsg
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("live message %s: %v", data, err)
	}
	var raw map[string]json.RawMessage
	_ = json.Unmarshal(data, &raw)
	for k := range raw {
		m.keys = append(m.keys, k)
	}
	sort.Strings(m.keys)
	return m
}

func subscribe(t *testing.T, c *websocket.Conn, req map[string]any) {
	t.Helper()
	req["type"] = "subscribe"
	if err := c.WriteJSON(req); err != nil {
		t.Fatal(err)
	}
}

// wantView checks m is a typed project message at version v, and nothing else.
func wantView(t *testing.T, m liveMsg, project string, v int64) *liveView {
	t.Helper()
	if m.Type != "project" || m.Project != project || m.Version != v || m.View == nil {
		t.Fatalf("want the view of %s at version %d, got %+v", project, v, m)
	}
	if got := strings.Join(m.keys, ","); got != "project,type,version,view" {
		t.Fatalf("a project message has fields %s", got)
	}
	return m.View
}

// wantSessionClosed reads the last message of a connection whose session
// ended, and the close code after it.
func wantSessionClosed(t *testing.T, c *websocket.Conn) {
	t.Helper()
	if m := nextWithin(t, c, 5*time.Second); m.Type != "closed" || m.Reason != "session" || m.Project != "" {
		t.Fatalf("want the session closed, got %+v", m)
	}
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, _, err := c.ReadMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != 4401 {
		t.Fatalf("after the closed message: %v, want close code 4401", err)
	}
}

// runState is the state of run id in v, "" when v has no such run.
func runState(v *liveView, id string) string {
	for _, r := range v.Runs {
		if r.ID == id {
			return r.State
		}
	}
	return ""
}

func shareLink(t *testing.T, u *user, projectID string) string {
	t.Helper()
	var link string
	u.must(http.StatusOK, "POST", "/api/drainage/share/", map[string]string{"id": projectID}, &link)
	return link[strings.LastIndex(link, "/")+1:]
}

func userID(t *testing.T, admin *user, name string) string {
	t.Helper()
	var users []struct{ ID, Username string }
	admin.must(http.StatusOK, "GET", "/api/staff/users/?search="+name, nil, &users)
	for _, u := range users {
		if u.Username == name {
			return u.ID
		}
	}
	t.Fatalf("staff search for %s: %+v", name, users)
	return ""
}

// A client subscribed from a version receives, after each change, one typed
// view of the whole project at the new version (a save's many events in one
// message), sees another tab's save within a second, and after a reconnect
// resumes with the latest view.
func TestLiveProjectStream(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			p := start(t, b.opts(t))
			u := p.signUp(t, "hana")
			var s saveAnswer
			u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"share": true, "project": map[string]any{
				"details": map[string]any{"name": "Live"}, "runs": []any{calculatedRun("Run 1", 10, "")}}}, &s)
			if s.Version < 3 {
				t.Fatalf("a first save appends several events; version %d", s.Version)
			}

			conn := p.dial(t, u)
			subscribe(t, conn, map[string]any{"project": s.SaveID, "from": 0})
			v := wantView(t, next(t, conn), s.SaveID, s.Version)
			if v.ID != s.SaveID || v.Owner != "hana" || !v.Editable || !v.Saved || v.Details.Name != "Live" ||
				v.ShareWithProvider == nil || !*v.ShareWithProvider || v.SharedByLink == nil || *v.SharedByLink {
				t.Fatalf("owner's view %+v", v)
			}
			if len(v.Runs) != 1 || v.Runs[0].ID != s.RunSaveIDs[0] || v.Runs[0].Name != "Run 1" || v.Runs[0].State != "calculated" ||
				string(v.Runs[0].Inputs["channel_length_m"]) != "10" || string(v.Runs[0].Summary["calculated"]) != "true" {
				t.Fatalf("run view %+v", v.Runs)
			}

			// Another tab saves a changed run and a second one: one message
			// at the save's version.
			last := s.Version
			u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
				"saveID": s.SaveID, "version": s.Version, "details": map[string]any{"name": "Live"},
				"runs": []any{calculatedRun("Run 1", 11, s.RunSaveIDs[0]), calculatedRun("Yard", 5, "")}}}, &s)
			if s.Version < last+3 {
				t.Fatalf("the second save appended %d events", s.Version-last)
			}
			v = wantView(t, next(t, conn), s.SaveID, s.Version)
			if len(v.Runs) != 2 || v.Runs[1].Name != "Yard" || string(v.Runs[0].Inputs["channel_length_m"]) != "11" {
				t.Fatalf("view after the second save %+v", v.Runs)
			}

			// An edit command: its version, larger than the last.
			var edit struct{ Version int64 }
			u.must(http.StatusOK, "POST", "/api/projects/"+s.SaveID+"/commands", map[string]any{
				"type": "change_inputs", "run_id": s.RunSaveIDs[0], "fields": map[string]any{"channel_length_m": 12}}, &edit)
			v = wantView(t, next(t, conn), s.SaveID, edit.Version)
			if v.Runs[0].State != "changed" || string(v.Runs[0].Inputs["channel_length_m"]) != "12" {
				t.Fatalf("view after an input change %+v", v.Runs[0])
			}
			conn.Close()

			// Offline, a third save; the reconnected client gets the latest
			// view only.
			u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
				"saveID": s.SaveID, "version": edit.Version, "details": map[string]any{"name": "Live 3"},
				"runs": []any{calculatedRun("Run 1", 12, s.RunSaveIDs[0])}}}, &s)
			conn = p.dial(t, u)
			subscribe(t, conn, map[string]any{"project": s.SaveID, "from": edit.Version})
			if v := wantView(t, next(t, conn), s.SaveID, s.Version); v.Details.Name != "Live 3" || len(v.Runs) != 1 {
				t.Fatalf("resumed view %+v", v)
			}

			// Someone without access is refused as if the project did not
			// exist, and so is a made-up share id.
			other := p.signUp(t, "ivan")
			oc := p.dial(t, other)
			subscribe(t, oc, map[string]any{"project": s.SaveID})
			hidden := next(t, oc)
			subscribe(t, oc, map[string]any{"project": usecase.NewID()})
			missing := next(t, oc)
			if hidden.Type != "error" || missing.Type != "error" || hidden.Code != "not_found" || hidden.Error != missing.Error || hidden.Code != missing.Code {
				t.Fatalf("stranger got %+v, a missing project %+v", hidden, missing)
			}
			subscribe(t, oc, map[string]any{"share": usecase.NewID()})
			if m := next(t, oc); m.Type != "error" || m.Error != missing.Error {
				t.Fatalf("unknown share id: %+v", m)
			}
		})
	}
}

// A share link opens the live project by its share id only, read-only and
// without the owner's sharing flags; when the owner stops sharing, the
// subscription is closed and the link opens nothing any more.
func TestLiveShareLink(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	owner := p.signUp(t, "olga")
	s := owner.saveNew("Shared")
	shareID := shareLink(t, owner, s.SaveID)

	viewer := p.signUp(t, "pavel")
	conn := p.dial(t, viewer)
	subscribe(t, conn, map[string]any{"project": s.SaveID, "from": 0})
	if m := next(t, conn); m.Type != "error" || m.Project != s.SaveID {
		t.Fatalf("the bare id opened a shared project: %+v", m)
	}
	subscribe(t, conn, map[string]any{"share": shareID, "from": 0})
	m := next(t, conn)
	v := wantView(t, m, s.SaveID, m.Version)
	if v.Editable || v.ShareWithProvider != nil || v.SharedByLink != nil || v.Details.Name != "Shared" || v.Owner != "olga" {
		t.Fatalf("share-link holder's view %+v", v)
	}

	// The owner's changes reach the link holder.
	owner.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"saveID": s.SaveID, "version": m.Version, "details": map[string]any{"name": "Shared 2"},
		"runs": []any{calculatedRun("Run 1", 10, s.RunSaveIDs[0])}}}, &s)
	if v := wantView(t, next(t, conn), s.SaveID, s.Version); v.Details.Name != "Shared 2" {
		t.Fatalf("view after the owner's save %+v", v)
	}

	owner.must(http.StatusOK, "POST", "/api/drainage/unshare/", map[string]string{"id": s.SaveID}, nil)
	if m := nextWithin(t, conn, 5*time.Second); m.Type != "closed" || m.Project != s.SaveID || m.Reason != "no_access" {
		t.Fatalf("after stop sharing: %+v", m)
	}
	// The connection stays; the old link opens nothing.
	subscribe(t, conn, map[string]any{"share": shareID, "from": 0})
	if m := next(t, conn); m.Type != "error" || m.Share != shareID || m.Code != "not_found" {
		t.Fatalf("the withdrawn link: %+v", m)
	}
}

// Provider support follows a project shared with the provider until the
// owner saves it unshared.
func TestLiveProviderShareWithdrawn(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	owner := p.signUp(t, "rita")
	var s saveAnswer
	owner.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"share": true, "project": map[string]any{
		"details": map[string]any{"name": "For support"}, "runs": []any{calculatedRun("Run 1", 10, "")}}}, &s)
	support := p.staff(t, "sam", account.GroupSupport)
	conn := p.dial(t, support)
	subscribe(t, conn, map[string]any{"project": s.SaveID, "from": 0})
	if v := wantView(t, next(t, conn), s.SaveID, s.Version); v.Editable || v.ShareWithProvider == nil || v.SharedByLink != nil {
		t.Fatalf("support's view %+v", v)
	}
	owner.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"share": false, "project": map[string]any{
		"saveID": s.SaveID, "version": s.Version, "details": map[string]any{"name": "Private now"},
		"runs": []any{calculatedRun("Run 1", 10, s.RunSaveIDs[0])}}}, nil)
	if m := next(t, conn); m.Type != "closed" || m.Project != s.SaveID || m.Reason != "no_access" {
		t.Fatalf("support after the owner withdrew sharing: %+v (the new name must not be shown)", m)
	}
}

// Deleting a project closes its subscriptions with reason "deleted"; the
// connection carries on.
func TestLiveProjectDeleted(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.signUp(t, "tom")
	var a, b saveAnswer
	for _, out := range []*saveAnswer{&a, &b} {
		u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
			"details": map[string]any{"name": "Doomed"}, "runs": []any{calculatedRun("Run 1", 10, "")}}}, out)
	}
	conn := p.dial(t, u)
	// Subscribed from the version before the last, each answers with a
	// view: the subscription is in place before the delete.
	subscribe(t, conn, map[string]any{"project": a.SaveID, "from": a.Version - 1})
	wantView(t, next(t, conn), a.SaveID, a.Version)
	subscribe(t, conn, map[string]any{"project": b.SaveID, "from": b.Version - 1})
	wantView(t, next(t, conn), b.SaveID, b.Version)
	u.must(http.StatusOK, "DELETE", "/api/drainage/delete/", map[string]string{"id": a.SaveID}, nil)
	if m := next(t, conn); m.Type != "closed" || m.Project != a.SaveID || m.Reason != "deleted" {
		t.Fatalf("after delete: %+v", m)
	}
	var edit struct{ Version int64 }
	u.must(http.StatusOK, "POST", "/api/projects/"+b.SaveID+"/commands", map[string]any{"type": "add_run"}, &edit)
	if v := wantView(t, next(t, conn), b.SaveID, edit.Version); len(v.Runs) != 2 {
		t.Fatalf("the other project's view %+v", v)
	}
}

// A connection whose session ends (logout, block, account deleted) gets a
// last "closed" message with reason "session" and the close code 4401.
func TestLiveSessionEnded(t *testing.T) {
	cases := []struct {
		name string
		end  func(t *testing.T, p *product, u *user, name string)
	}{
		{"logout", func(t *testing.T, _ *product, u *user, _ string) {
			u.must(http.StatusOK, "POST", "/api/auth/logout/", nil, nil)
		}},
		{"blocked", func(t *testing.T, p *product, _ *user, name string) {
			admin := p.staff(t, "root-"+name, account.GroupAdmin)
			admin.must(http.StatusOK, "POST", "/api/staff/users/"+userID(t, admin, name)+"/block/", nil, nil)
		}},
		{"account deleted", func(t *testing.T, p *product, _ *user, name string) {
			admin := p.staff(t, "root-"+name, account.GroupAdmin)
			admin.must(http.StatusOK, "DELETE", "/api/staff/users/"+userID(t, admin, name)+"/", nil, nil)
		}},
	}
	p := start(t, Options{DataDir: t.TempDir()})
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			name := "user" + itoa(int64(i))
			u := p.signUp(t, name)
			s := u.saveNew("Mine")
			conn := p.dial(t, u)
			subscribe(t, conn, map[string]any{"project": s.SaveID, "from": 0})
			wantView(t, next(t, conn), s.SaveID, s.Version)
			tc.end(t, p, u, name)
			wantSessionClosed(t, conn)
		})
	}
}

// An event of a type this build does not know (written by a newer version)
// is skipped by the live stream: it still counts as a version, and the
// project keeps its content.
func TestLiveSkipsUnknownEventTypes(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.signUp(t, "uma")
	s := u.saveNew("Future")
	conn := p.dial(t, u)
	subscribe(t, conn, map[string]any{"project": s.SaveID, "from": 0})
	wantView(t, next(t, conn), s.SaveID, s.Version)

	before := projections.UnknownCount("project", "project.from_the_future")
	if _, err := p.Store.Append(context.Background(), project.Stream(s.SaveID), eventstore.Exactly(s.Version), eventstore.NewEvent{
		ID: usecase.NewID(), Type: "project.from_the_future", Data: json.RawMessage(`{"x":1}`),
		Metadata: eventstore.Metadata{Time: time.Now().UTC()},
	}); err != nil {
		t.Fatal(err)
	}
	if v := wantView(t, nextWithin(t, conn, 5*time.Second), s.SaveID, s.Version+1); v.Details.Name != "Future" || len(v.Runs) != 1 {
		t.Fatalf("view after an unknown event %+v", v)
	}
	fresh := p.dial(t, u)
	subscribe(t, fresh, map[string]any{"project": s.SaveID, "from": 0})
	wantView(t, next(t, fresh), s.SaveID, s.Version+1)
	// Counted when read: the subscribers share the instance's copy of the
	// project (usecase.Projects.CatchUp), which read the event once.
	if n := projections.UnknownCount("project", "project.from_the_future") - before; n < 1 {
		t.Errorf("the live stream counted %v skips, want at least one", n)
	}
}
