package app

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"draindesign/api"
	"draindesign/domain/account"
)

// callWith sends a JSON request through u's client (cookies included) with
// extra headers, and answers the status and the Retry-After header.
func (u *user) callWith(method, path string, body any, header map[string]string) (int, string) {
	u.t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(context.Background(), method, u.base+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := u.http.Do(req)
	if err != nil {
		u.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Retry-After")
}

// A token is stored as its hash only, lists by name, and stops working the
// moment it is revoked, or its account is blocked.
func TestAPITokenLifecycle(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	owner := p.staff(t, "tess", account.GroupStandard)
	admin := p.staff(t, "adam", account.GroupAdmin)
	token, id := owner.createToken("nightly run")
	script := p.scripted(t, token)

	var me struct{ User struct{ Username string } }
	script.must(http.StatusOK, "GET", "/api/auth/me/", nil, &me)
	if me.User.Username != "tess" {
		t.Errorf("the token signs in as %q", me.User.Username)
	}
	var list []struct{ ID, Name, Token string }
	owner.must(http.StatusOK, "GET", "/api/auth/tokens/", nil, &list)
	if len(list) != 1 || list[0].ID != id || list[0].Name != "nightly run" || list[0].Token != "" {
		t.Errorf("token list %+v", list)
	}

	// Only the hash reaches the event log.
	events, err := p.Store.ReadStream(context.Background(), account.Stream(p.userID(t, "tess")), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	var stored bool
	for _, e := range events {
		if strings.Contains(string(e.Data), strings.TrimPrefix(token, "ddt.")[37:]) {
			t.Errorf("%s holds the token's secret: %s", e.Type, e.Data)
		}
		if e.Type == account.TypeAPITokenCreated && strings.Contains(string(e.Data), account.HashAPIToken(token)) {
			stored = true
		}
	}
	if !stored {
		t.Error("no account.api_token_created event with the token's hash")
	}

	// Another user cannot revoke it; its owner can, and then it is refused.
	admin.must(http.StatusNotFound, "DELETE", "/api/auth/tokens/"+id+"/", nil, nil)
	owner.must(http.StatusOK, "DELETE", "/api/auth/tokens/"+id+"/", nil, nil)
	var refused struct{ Error string }
	script.must(http.StatusUnauthorized, "GET", "/api/auth/me/", nil, &refused)
	if !strings.Contains(refused.Error, "revoked") {
		t.Errorf("revoked token answer: %q", refused.Error)
	}
	owner.must(http.StatusNotFound, "DELETE", "/api/auth/tokens/"+id+"/", nil, nil)

	// A blocked account's tokens stop at once, and work again on unblocking.
	second, _ := owner.createToken("second")
	other := p.scripted(t, second)
	other.must(http.StatusOK, "GET", "/api/drainage/projects/", nil, nil)
	admin.must(http.StatusOK, "POST", "/api/staff/users/"+p.userID(t, "tess")+"/block/", nil, nil)
	other.must(http.StatusUnauthorized, "GET", "/api/drainage/projects/", nil, nil)
	admin.must(http.StatusOK, "POST", "/api/staff/users/"+p.userID(t, "tess")+"/unblock/", nil, nil)
	other.must(http.StatusOK, "GET", "/api/drainage/projects/", nil, nil)

	// Malformed tokens, and tokens naming another account, are refused alike.
	for _, bad := range []string{"nonsense", "ddt.x.y", strings.Replace(second, p.userID(t, "tess"), p.userID(t, "adam"), 1)} {
		p.scripted(t, bad).must(http.StatusUnauthorized, "GET", "/api/auth/me/", nil, nil)
	}
}

// A bearer request is authenticated by its token alone (the session cookie
// is not read), and so the browser's cross-origin check does not apply to
// it: a forged cross-site request could not carry the token.
func TestBearerRequestsIgnoreCookiesAndSkipTheOriginCheck(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	browser := p.staff(t, "bea", account.GroupStandard)
	token, _ := browser.createToken("script")
	crossSite := map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}

	// The browser's own cookie with a wrong token: the token decides.
	if got, _ := browser.callWith("GET", "/api/auth/me/", nil, map[string]string{"Authorization": "Bearer ddt.nope"}); got != http.StatusUnauthorized {
		t.Errorf("a bad token beside a good cookie: %d, want 401", got)
	}
	// A cross-site write riding on the cookie is refused; with the token it
	// is a script's call and passes.
	if got, _ := browser.callWith("POST", "/api/projects/", map[string]any{}, crossSite); got != http.StatusForbidden {
		t.Errorf("cross-site write with the cookie: %d, want 403", got)
	}
	crossSite["Authorization"] = "Bearer " + token
	if got, _ := browser.callWith("POST", "/api/projects/", map[string]any{}, crossSite); got != http.StatusCreated {
		t.Errorf("cross-site write with the token: %d, want 201", got)
	}
	// Token management needs the session, even with a valid token.
	p.scripted(t, token).must(http.StatusForbidden, "POST", "/api/auth/tokens/", map[string]string{"name": "more"}, nil)
}

// Bearer requests share one bucket per user, whichever token they carry;
// past it they get 429 with Retry-After, while the user's browser session
// is not held back.
func TestAPITokenRateLimit(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir(), Limits: api.Limits{TokenBurst: 3, TokenEvery: time.Hour}})
	u := p.staff(t, "rita", account.GroupStandard)
	first, _ := u.createToken("one")
	second, _ := u.createToken("two")
	a, b := p.scripted(t, first), p.scripted(t, second)
	for i, s := range []*user{a, b, a} {
		if got := s.call("GET", "/api/drainage/projects/", nil, nil); got != http.StatusOK {
			t.Fatalf("call %d: %d", i+1, got)
		}
	}
	status, retry := b.callWith("GET", "/api/drainage/projects/", nil, map[string]string{"Authorization": "Bearer " + second})
	if secs, _ := strconv.Atoi(retry); status != http.StatusTooManyRequests || secs < 3000 {
		t.Errorf("fourth call: %d, Retry-After %q", status, retry)
	}
	u.must(http.StatusOK, "GET", "/api/drainage/projects/", nil, nil)
	// Another user's tokens have their own bucket.
	v := p.staff(t, "vic", account.GroupStandard)
	other, _ := v.createToken("v")
	p.scripted(t, other).must(http.StatusOK, "GET", "/api/drainage/projects/", nil, nil)
}
