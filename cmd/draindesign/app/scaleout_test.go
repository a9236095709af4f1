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
// through one reaches a live client of the other within a second.
func TestTwoInstances(t *testing.T) {
	nats := natsURL(t)
	db := pgtest.NewDatabase(t)
	a := start(t, Options{DataDir: t.TempDir(), DatabaseURL: db, NATSURL: nats})
	b := start(t, Options{DataDir: a.opts.DataDir, DatabaseURL: db, NATSURL: nats})

	onA := a.signUp(t, "lena")
	onB := b.newUser(t)
	onB.must(http.StatusOK, "POST", "/api/auth/login/", map[string]string{"username": "lena", "password": "a long password"}, nil)

	var s saveAnswer
	onA.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"details": map[string]any{"name": "Scaled"}, "runs": []any{calculatedRun("Run 1", 10, "")}}}, &s)
	conn := b.dial(t, onB)
	if err := conn.WriteJSON(map[string]any{"type": "subscribe", "project": s.SaveID, "from": s.Version}); err != nil {
		t.Fatal(err)
	}
	onA.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"saveID": s.SaveID, "version": s.Version, "details": map[string]any{"name": "Scaled 2"},
		"runs": []any{calculatedRun("Run 1", 12, s.RunSaveIDs[0])}}}, nil)
	if m := next(t, conn); m.Version != s.Version+1 {
		t.Fatalf("instance B's client got %+v, want version %d", m, s.Version+1)
	}

	deadline := time.Now().Add(5 * time.Second)
	for {
		var mine []listItem
		onB.must(http.StatusOK, "GET", "/api/drainage/projects/", nil, &mine)
		if it := listed(mine, s.SaveID); it != nil && it.Name == "Scaled 2" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("instance B's list never showed the save made on A: %+v", mine)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
