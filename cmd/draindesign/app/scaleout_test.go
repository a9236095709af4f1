package app

import (
	"net"
	"net/http"
	"net/url"
	"os"
	"testing"
	"time"

	"draindesign/eventstore/pgtest"
)

func natsURL(t *testing.T) string {
	u := os.Getenv("NATS_URL")
	if u == "" {
		u = "nats://127.0.0.1:4222"
	}
	parsed, err := url.Parse(u)
	if err == nil {
		var c net.Conn
		if c, err = net.DialTimeout("tcp", parsed.Host, 2*time.Second); err == nil {
			c.Close()
			return u
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("NATS at %s unreachable under CI: %v", u, err)
	}
	t.Skipf("NATS at %s unreachable: %v", u, err)
	return ""
}

// Two app instances share PostgreSQL and NATS JetStream, as behind a load
// balancer: a user signed up on one is served by the other, and a save
// through one reaches a live client of the other within a second; a loss
// of access on one closes the other's subscriptions.
func TestTwoInstances(t *testing.T) {
	nats := natsURL(t)
	db := pgtest.NewDatabase(t)
	a := start(t, Options{DataDir: t.TempDir(), DatabaseURL: db, NATSURL: nats})
	b := start(t, Options{DataDir: a.opts.DataDir, DatabaseURL: db, NATSURL: nats})

	onA := a.signUp(t, "lena")
	onB := b.newUser(t)
	onB.must(http.StatusOK, "POST", "/api/auth/login/", map[string]string{"username": "lena", "password": "a long password"}, nil)

	s := onA.saveNew("Scaled")
	conn := b.dial(t, onB)
	if err := conn.WriteJSON(map[string]any{"type": "subscribe", "project": s.SaveID, "from": s.Version}); err != nil {
		t.Fatal(err)
	}
	var s2 saveAnswer
	onA.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"saveID": s.SaveID, "version": s.Version, "details": map[string]any{"name": "Scaled 2"},
		"runs": []any{calculatedRun("Run 1", 12, s.RunSaveIDs[0])}}}, &s2)
	if v := wantView(t, next(t, conn), s.SaveID, s2.Version); v.Details.Name != "Scaled 2" {
		t.Fatalf("instance B's client got %+v", v)
	}

	deadline := time.Now().Add(5 * time.Second)
	for {
		var mine []listItem
		onB.must(http.StatusOK, "GET", "/api/drainage/projects/", nil, &mine)
		if it := listed(mine, s.SaveID); it != nil && it.Name == "Scaled 2" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("instance B's list never showed the save made on A: %+v", mine)
		}
		time.Sleep(50 * time.Millisecond)
	}

	// Access is re-checked against the shared database and store, so a loss
	// on one instance closes subscriptions on the other: a project deleted
	// through A, then the session of B's client ended through A.
	other := onA.saveNew("Doomed")
	subscribe(t, conn, map[string]any{"project": other.SaveID, "from": 0})
	wantView(t, next(t, conn), other.SaveID, other.Version)
	onA.must(http.StatusOK, "DELETE", "/api/drainage/delete/", map[string]string{"id": other.SaveID}, nil)
	if m := nextWithin(t, conn, 5*time.Second); m.Type != "closed" || m.Project != other.SaveID || m.Reason != "deleted" {
		t.Fatalf("instance B's client after a delete on A: %+v", m)
	}
	viaA := &user{t: t, base: a.srv.URL, http: onB.http}
	viaA.must(http.StatusOK, "POST", "/api/auth/logout/", nil, nil)
	wantSessionClosed(t, conn)
}
