package app

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

type liveMsg struct {
	Type      string            `json:"type"`
	Project   string            `json:"project"`
	Version   int64             `json:"version"`
	EventType string            `json:"event_type"`
	Author    string            `json:"author"`
	Runs      map[string]string `json:"runs"`
	Error     string            `json:"error"`
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

func next(t *testing.T, c *websocket.Conn) liveMsg {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(time.Second))
	var m liveMsg
	if err := c.ReadJSON(&m); err != nil {
		t.Fatalf("no live message within a second: %v", err)
	}
	return m
}

// A client subscribed from a version receives every later event in order
// with each run's state, sees another tab's save within a second, and after
// a reconnect resumes from its last version with no gap and no repeat.
func TestLiveProjectStream(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			p := start(t, b.opts(t))
			u := p.signUp(t, "hana")
			var s saveAnswer
			u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
				"details": map[string]any{"name": "Live"}, "runs": []any{calculatedRun("Run 1", 10, "")}}}, &s)

			conn := p.dial(t, u)
			if err := conn.WriteJSON(map[string]any{"type": "subscribe", "project": s.SaveID, "from": 0}); err != nil {
				t.Fatal(err)
			}
			var last liveMsg
			for v := int64(1); v <= s.Version; v++ {
				last = next(t, conn)
				if last.Type != "event" || last.Version != v || last.Project != s.SaveID {
					t.Fatalf("catch-up message %d: %+v", v, last)
				}
			}
			if last.EventType != "project.saved" || last.Runs[s.RunSaveIDs[0]] != "calculated" {
				t.Fatalf("last catch-up event %+v", last)
			}

			// Another tab saves a changed run: it arrives live, in order.
			u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
				"saveID": s.SaveID, "version": s.Version, "details": map[string]any{"name": "Live"},
				"runs": []any{calculatedRun("Run 1", 11, s.RunSaveIDs[0])}}}, &s)
			for v := last.Version + 1; v <= s.Version; v++ {
				last = next(t, conn)
				if last.Version != v {
					t.Fatalf("live event %d out of order: %+v", v, last)
				}
			}
			conn.Close()

			// Offline, a third save; the reconnected client resumes after
			// its last version.
			seen := last.Version
			u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
				"saveID": s.SaveID, "version": s.Version, "details": map[string]any{"name": "Live 3"},
				"runs": []any{calculatedRun("Run 1", 12, s.RunSaveIDs[0])}}}, &s)
			conn = p.dial(t, u)
			if err := conn.WriteJSON(map[string]any{"type": "subscribe", "project": s.SaveID, "from": seen}); err != nil {
				t.Fatal(err)
			}
			for v := seen + 1; v <= s.Version; v++ {
				if m := next(t, conn); m.Version != v {
					t.Fatalf("resumed at %d, want %d", m.Version, v)
				}
			}

			// Someone without access is refused.
			other := p.signUp(t, "ivan")
			oc := p.dial(t, other)
			if err := oc.WriteJSON(map[string]any{"type": "subscribe", "project": s.SaveID}); err != nil {
				t.Fatal(err)
			}
			if m := next(t, oc); m.Type != "error" {
				t.Fatalf("stranger got %+v", m)
			}
		})
	}
}
