package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/mail"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"draindesign/api/usecase"
	"draindesign/domain/account"
	"draindesign/eventstore/pgtest"
)

// backend is one way of running the product: the embedded store, or
// PostgreSQL.
type backend struct {
	name string
	opts func(t *testing.T) Options
}

func backends() []backend {
	return []backend{
		{"sqlite", func(t *testing.T) Options { return Options{DataDir: t.TempDir()} }},
		{"postgres", func(t *testing.T) Options {
			return Options{DataDir: t.TempDir(), DatabaseURL: pgtest.NewDatabase(t)}
		}},
	}
}

// product is a started product behind a real HTTP server.
type product struct {
	*App
	opts Options
	srv  *httptest.Server
}

var testClient = fstest.MapFS{
	"index.html":         {Data: []byte("<!doctype html><div id=app></div>")},
	"apidocs/index.html": {Data: []byte("<!doctype html><title>API reference</title><div id=apidocs></div>")},
}

func start(t *testing.T, opts Options) *product {
	t.Helper()
	opts.Client = testClient
	opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	// Listen first, so that the public address (the base of mailed links)
	// is the test server's own, as serve makes it on loopback.
	srv := httptest.NewUnstartedServer(nil)
	if opts.PublicURL == "" {
		opts.PublicURL = "http://" + srv.Listener.Addr().String()
	}
	a, err := Start(context.Background(), opts)
	if err != nil {
		srv.Close()
		t.Fatalf("start: %v", err)
	}
	srv.Config = a.Server()
	srv.Start()
	p := &product{App: a, opts: opts, srv: srv}
	t.Cleanup(p.stop)
	return p
}

func (p *product) stop() {
	p.srv.Close()
	_ = p.App.Close()
}

// user is a browser-like client with its own cookie jar.
type user struct {
	t    *testing.T
	base string
	http *http.Client
	// bearer is the API token a script-like user sends instead of cookies.
	bearer string
}

func (p *product) newUser(t *testing.T) *user {
	jar, _ := cookiejar.New(nil)
	return &user{t: t, base: p.srv.URL, http: &http.Client{
		// Every exchange is recorded and, once the package's tests have
		// run, held to the OpenAPI document (openapi_exchanges_test.go).
		Jar: jar, Timeout: 30 * time.Second, Transport: recording{http.DefaultTransport},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// call sends a JSON request and decodes a JSON answer into out (if non-nil).
func (u *user) call(method, path string, body any, out any) int {
	u.t.Helper()
	status, _, data := u.exchange(method, path, body)
	if out != nil && len(data) > 0 {
		if err := json.Unmarshal(data, out); err != nil {
			u.t.Fatalf("%s %s: answer %d %q: %v", method, path, status, data, err)
		}
	}
	return status
}

// exchange sends a JSON request and returns the answer's status, headers
// and body.
func (u *user) exchange(method, path string, body any) (int, http.Header, []byte) {
	u.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			u.t.Fatal(err)
		}
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequest(method, u.base+path, rd)
	if err != nil {
		u.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if u.bearer != "" {
		req.Header.Set("Authorization", "Bearer "+u.bearer)
	}
	resp, err := u.http.Do(req)
	if err != nil {
		u.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, data
}

// scripted is a client like a script calling with an API token: no
// cookies, the token in every request.
func (p *product) scripted(t *testing.T, token string) *user {
	return &user{t: t, base: p.srv.URL, bearer: token, http: &http.Client{
		Timeout: 30 * time.Second, Transport: recording{http.DefaultTransport},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// createToken makes an API token for the signed-in user through the API.
func (u *user) createToken(name string) (token, id string) {
	u.t.Helper()
	var created struct{ ID, Token string }
	u.must(http.StatusCreated, "POST", "/api/auth/tokens/", map[string]string{"name": name}, &created)
	if created.Token == "" || created.ID == "" {
		u.t.Fatalf("token creation answered %+v", created)
	}
	return created.Token, created.ID
}

// must calls and fails the test unless the status is want.
func (u *user) must(want int, method, path string, body any, out any) {
	u.t.Helper()
	var raw json.RawMessage
	if got := u.call(method, path, body, &raw); got != want {
		u.t.Fatalf("%s %s: status %d, want %d: %s", method, path, got, want, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			u.t.Fatalf("%s %s: %v in %s", method, path, err, raw)
		}
	}
}

// saveNew saves a new project named name, of one calculated run, and
// answers the save.
func (u *user) saveNew(name string) saveAnswer {
	u.t.Helper()
	var s saveAnswer
	u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"details": map[string]any{"name": name}, "runs": []any{calculatedRun("Run 1", 10, "")}}}, &s)
	return s
}

func registration(name string) map[string]string {
	return map[string]string{
		"username": name, "password": "a long password", "passwordConfirmation": "a long password",
		"firstName": "Ann", "lastName": "Example", "email": name + "@example.com", "company": "Drains Ltd",
		"telephone": "", "country": "GB", "address": "1 High Street", "city": "Leeds", "postcode": "LS1 1AA",
	}
}

var linkRE = regexp.MustCompile(`https?://[^\s"<>]+`)

// mailedLink finds the link in the newest mail to the address, decoding the
// MIME parts as a mail client would.
func mailedLink(t *testing.T, dataDir, to string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dataDir, "mail", "*.eml"))
	for i := len(files) - 1; i >= 0; i-- {
		f, err := os.Open(files[i])
		if err != nil {
			t.Fatal(err)
		}
		msg, err := mail.ReadMessage(f)
		if err != nil {
			f.Close()
			t.Fatalf("mail %s: %v", files[i], err)
		}
		if !strings.Contains(msg.Header.Get("To"), to) {
			f.Close()
			continue
		}
		text := mailText(t, msg)
		f.Close()
		if l := linkRE.FindString(text); l != "" {
			return l
		}
		t.Fatalf("mail to %s has no link: %s", to, text)
	}
	t.Fatalf("no mail to %s in %s", to, dataDir)
	return ""
}

func mailText(t *testing.T, msg *mail.Message) string {
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(mt, "multipart/") {
		b, _ := io.ReadAll(msg.Body)
		return string(b)
	}
	r := multipart.NewReader(msg.Body, params["boundary"])
	for {
		part, err := r.NextPart() // decodes quoted-printable
		if err != nil {
			t.Fatalf("no text part: %v", err)
		}
		if strings.HasPrefix(part.Header.Get("Content-Type"), "text/plain") {
			b, _ := io.ReadAll(part)
			return string(b)
		}
	}
}

// signUp registers through the API, confirms through the mailed link and
// logs in.
func (p *product) signUp(t *testing.T, name string) *user {
	t.Helper()
	u := p.newUser(t)
	u.must(http.StatusCreated, "POST", "/api/drainage/register/", registration(name), nil)
	link := mailedLink(t, p.opts.DataDir, name+"@example.com")
	req, _ := http.NewRequest("GET", link, nil)
	resp, err := u.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/?confirmed=1" {
		t.Fatalf("confirmation link: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	u.must(http.StatusOK, "POST", "/api/auth/login/", map[string]string{"username": name, "password": "a long password"}, nil)
	return u
}

// staff makes a confirmed account in group g directly (as `users add` does)
// and logs it in.
func (p *product) staff(t *testing.T, name string, g account.Group) *user {
	t.Helper()
	svc := usecase.NewAccounts(usecase.Config{Store: p.Store}, nil, nil)
	in := account.RegisterInput{}
	b, _ := json.Marshal(registration(name))
	_ = json.Unmarshal(b, &in)
	if _, err := svc.AddUser(context.Background(), usecase.Actor{}, in, g); err != nil {
		t.Fatal(err)
	}
	u := p.newUser(t)
	u.must(http.StatusOK, "POST", "/api/auth/login/", map[string]string{"username": name, "password": "a long password"}, nil)
	return u
}

// userID is the id of the account with that username.
func (p *product) userID(t *testing.T, name string) string {
	t.Helper()
	a, err := usecase.NewAccounts(usecase.Config{Store: p.Store}, nil, nil).ByUsername(context.Background(), name)
	if err != nil {
		t.Fatalf("user %s: %v", name, err)
	}
	return a.ID
}

// calculatedRun is a run as the client sends it after a calculation.
func calculatedRun(name string, length float64, saveID string) map[string]any {
	run := map[string]any{
		"name": name, "channel_group": "concrete", "channel_length_m": length, "drainage_area_m2": 144,
		"concreteChannel":    map[string]any{"width": 100, "depth": 300, "roughness": 0.011},
		"calculation_method": "GVF", "rainfall": map[string]any{"rainfall_mm_per_hr": 50},
		"results": map[string]any{"calculated": true, "overflowed": false, "channel_discharge": 2.0},
	}
	if saveID != "" {
		run["saveID"] = saveID
	}
	return run
}
