package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"draindesign/api/errortracker"
	"draindesign/api/errortracker/collectortest"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// A server error and a panic reach the tracker with their message and
// stack, and without the caller's e-mail, credentials or cookies.
func TestServerErrorsReachTheTrackerScrubbed(t *testing.T) {
	col := collectortest.New(t)
	client, err := errortracker.New(errortracker.Settings{DSN: col.DSN(), Environment: "test"})
	if err != nil || client == nil {
		t.Fatalf("tracker client: %v, %v", client, err)
	}

	const addr = "alice.designer@example.com"
	s := &Server{cfg: Config{Errors: client}, log: slog.New(slog.DiscardHandler)}
	r := chi.NewRouter()
	r.Use(middleware.RequestID, s.track, s.recoverer)
	r.Post("/api/fail/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, s.log, fmt.Errorf("saving the settings of %s: %w", addr, errors.New("disk on fire")))
	})
	r.Post("/api/panic/", func(http.ResponseWriter, *http.Request) { panicDeliberately(addr) })
	app := httptest.NewServer(r)
	defer app.Close()

	for _, tc := range []struct {
		path, message, frame string
	}{
		{"/api/fail/", "disk on fire", "TestServerErrorsReachTheTrackerScrubbed"},
		{"/api/panic/", "deliberate panic", "panicDeliberately"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, app.URL+tc.path+"?email="+addr,
				strings.NewReader(`{"password":"hunter2-secret","first_name":"Alice"}`))
			req.Header.Set("Authorization", "Bearer tok_supersecret")
			req.Header.Set("Cookie", "session=cookie-secret")
			req.Header.Set("User-Agent", "errortrack-test")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = res.Body.Close()
			if res.StatusCode != http.StatusInternalServerError {
				t.Fatalf("status %d, want 500", res.StatusCode)
			}
			got := col.Next(t)
			ev, raw := got.Fields, got.Envelope
			values, frames := got.Texts()
			if !strings.Contains(strings.Join(values, "|"), tc.message) {
				t.Errorf("exception values %q lack %q", values, tc.message)
			}
			if !strings.Contains(strings.Join(frames, "|"), tc.frame) {
				t.Errorf("stack frames %q lack %q", frames, tc.frame)
			}
			req2, _ := ev["request"].(map[string]any)
			if !strings.HasSuffix(fmt.Sprint(req2["url"]), tc.path) {
				t.Errorf("request url %v, want the path %s", req2["url"], tc.path)
			}
			if ev["environment"] != "test" {
				t.Errorf("environment %v", ev["environment"])
			}
			for _, secret := range []string{addr, "alice.designer", "tok_supersecret", "cookie-secret", "hunter2-secret", "Alice", "Authorization"} {
				if strings.Contains(raw, secret) {
					t.Errorf("the envelope holds %q:\n%s", secret, raw)
				}
			}
		})
	}
}

func panicDeliberately(who string) { panic("deliberate panic for " + who) }

// Without a DSN there is no tracker and the middleware is not in the way.
func TestNoTrackerWithoutDSN(t *testing.T) {
	for _, dsn := range []string{"", "  "} {
		c, err := errortracker.New(errortracker.Settings{DSN: dsn})
		if c != nil || err != nil {
			t.Errorf("DSN %q: client %v, err %v; want none", dsn, c, err)
		}
	}
	if _, err := errortracker.New(errortracker.Settings{DSN: "not a dsn"}); err == nil {
		t.Error("a malformed DSN was accepted")
	}
}

// The web client learns the tracker's DSN from the server, or that there
// is none, and the feedback page's address.
func TestClientConfigTellsTheDSN(t *testing.T) {
	for _, c := range []struct {
		ce       ClientErrors
		feedback string
	}{
		{},
		{ce: ClientErrors{DSN: "https://pub@tracker.example/7", Environment: "production"}, feedback: "feedback@provider.example"},
	} {
		ce := c.ce
		s := &Server{cfg: Config{ClientErrors: ce, FeedbackEmail: c.feedback}}
		rec := httptest.NewRecorder()
		s.clientConfig(rec, httptest.NewRequest(http.MethodGet, "/api/client-config/", nil))
		var got clientConfigBody
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || rec.Code != http.StatusOK {
			t.Fatalf("%d %s: %v", rec.Code, rec.Body, err)
		}
		if got.SentryDSN != ce.DSN || got.SentryEnvironment != ce.Environment {
			t.Errorf("told %+v, want %+v", got, ce)
		}
		if got.FeedbackEmail != c.feedback {
			t.Errorf("feedback address %q, want %q", got.FeedbackEmail, c.feedback)
		}
	}
}
