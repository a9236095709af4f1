package app

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"draindesign/api/errortracker/collectortest"
)

// With SENTRY_DSN set, a real server error of the running product (its
// read-model database gone) reaches the tracker with its message and
// stack, and none of the user's e-mail, name, password, cookie or token.
func TestServerErrorReachesTheTracker(t *testing.T) {
	col := collectortest.New(t)
	p := start(t, Options{DataDir: t.TempDir(), SentryDSN: col.DSN(), SentryEnvironment: "test"})
	u := p.signUp(t, "trackeduser")
	token, _ := u.createToken("script")
	var cfg map[string]string
	u.must(http.StatusOK, "GET", "/api/client-config/", nil, &cfg)
	if cfg["sentryDsn"] != col.DSN() || cfg["sentryEnvironment"] != "test" {
		t.Errorf("client config %v, want the DSN %s", cfg, col.DSN())
	}

	// The deliberate fault: the read models' database closes under the
	// server, so the next call that reads them fails as a server error.
	if err := p.DB.Close(); err != nil {
		t.Fatal(err)
	}
	for _, who := range []*user{u, p.scripted(t, token)} {
		if got := who.call("GET", "/api/drainage/projects/", nil, nil); got != http.StatusInternalServerError {
			t.Fatalf("status %d, want 500", got)
		}
		ev := col.Next(t)
		texts, frames := ev.Texts()
		if !strings.Contains(strings.Join(texts, "|"), "database is closed") {
			t.Errorf("the event does not say what failed: %q", texts)
		}
		if !strings.Contains(strings.Join(frames, "|"), "writeError") {
			t.Errorf("the stack does not reach writeError: %q", frames)
		}
		secrets := []string{"trackeduser@example.com", "trackeduser", "Ann", "Example", "a long password", token, "Authorization", "Bearer " + token}
		base, _ := url.Parse(p.srv.URL)
		for _, c := range u.http.Jar.Cookies(base) {
			secrets = append(secrets, c.Value)
		}
		if len(secrets) < 9 {
			t.Fatal("the signed-in user has no cookie to look for")
		}
		for _, secret := range secrets {
			if strings.Contains(ev.Envelope, secret) {
				i := strings.Index(ev.Envelope, secret)
				t.Errorf("the envelope holds %q: %s", secret, ev.Envelope[max(0, i-200):min(len(ev.Envelope), i+100)])
			}
		}
	}
}
