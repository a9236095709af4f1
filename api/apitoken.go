package api

import (
	"context"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
)

// Personal API tokens (docs/permissions.md, "API tokens"). A request with
// "Authorization: Bearer <token>" is authenticated by the token alone: the
// session cookie is not read, so a request is either a browser's or a
// script's, never a mix. The token stands for its user on the calls listed
// in tokenCalls and on no other; the use cases also narrow such an actor
// to the user's own projects (usecase.Actor.Token).

// tokenCalls are the calls an API token may make: designing and
// calculating with the user's own projects. Everything else (the staff
// area, the account's settings and tokens, the live stream, the shared
// projects list) needs a signed-in session. A call added to the router is
// refused to tokens until it is listed here; the OpenAPI document marks the
// same calls with the bearer scheme, and a test keeps the two in step.
var tokenCalls = map[string]bool{
	"GET /api/auth/me/": true,
	// A script may fetch the user's own data export (docs/privacy.md).
	"GET /api/account/export/": true,

	"POST /api/drainage/save/":         true,
	"GET /api/drainage/projects/":      true,
	"POST /api/drainage/load/":         true,
	"GET /api/drainage/load/{key}/":    true,
	"POST /api/drainage/share/":        true,
	"POST /api/drainage/unshare/":      true,
	"DELETE /api/drainage/delete/":     true,
	"POST /api/projects/":              true,
	"POST /api/projects/{id}/commands": true,
	"GET /api/projects/{id}/timeline":  true,

	"GET /api/drainage/product/":             true,
	"POST /api/drainage/calculate/":          true,
	"POST /api/drainage/calculate_shared/":   true,
	"POST /api/drainage/materials/":          true,
	"GET /api/drainage/endcap/with_outlet/":  true,
	"GET /api/drainage/trashbox/discharges/": true,
	"GET /api/drainage/channel/subproducts/": true,
	"GET /api/drainage/channel/":             true,
	"POST /api/rainfall/findRainStats/":      true,
	"POST /api/rainfall/updateRainStats/":    true,
	"POST /api/drainage/calculate_storage/":  true,

	"POST /api/drainage/document/csv/{language}/hydraulics/{runIndex}/": true,
	"POST /api/drainage/document/pdf/{language}/{kind}/":                true,
	"POST /api/drainage/document/pdf/{language}/hydraulics/{runIndex}/": true,
	"POST /api/drainage/document/rtf/{language}/{kind}/":                true,
	"POST /api/drainage/document/rtf/{language}/hydraulics/{runIndex}/": true,
}

// TokenCalls lists the calls an API token may make ("METHOD /api/path"),
// for the test that holds the OpenAPI document to them.
func TokenCalls() []string {
	out := make([]string, 0, len(tokenCalls))
	for c := range tokenCalls {
		out = append(out, c)
	}
	return out
}

// tokenCallKeys are tokenCalls as chi reports a matched route: its
// RoutePattern drops the trailing slash.
var tokenCallKeys = func() map[string]bool {
	out := make(map[string]bool, len(tokenCalls))
	for c := range tokenCalls {
		out[strings.TrimSuffix(c, "/")] = true
	}
	return out
}()

// tokenCall says whether the request's route is one an API token may call.
func tokenCall(r *http.Request) bool {
	rc := chi.RouteContext(r.Context())
	return rc != nil && tokenCallKeys[r.Method+" "+strings.TrimSuffix(rc.RoutePattern(), "/")]
}

const viaTokenKey ctxKey = 1

// viaToken says whether the request was authenticated by an API token.
func viaToken(r *http.Request) bool {
	v, _ := r.Context().Value(viaTokenKey).(bool)
	return v
}

// bearerToken is the token of an "Authorization: Bearer" header.
func bearerToken(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(token), true
}

// tokenUser authenticates a bearer request, then applies the token's scope
// and its user's rate: an unknown or revoked token is 401, a call outside
// tokenCalls 403, a spent rate 429.
func (s *Server) tokenUser(w http.ResponseWriter, r *http.Request, token string, next http.Handler) {
	a, err := s.accounts.ByAPIToken(r.Context(), token)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if !tokenCall(r) {
		s.fail(w, r, forbidden("An API token cannot be used for this call; sign in to the web application instead."))
		return
	}
	if wait := s.tokenRate.take(a.ID); wait > 0 {
		s.tooManyRequests(w, r, wait, "Too many API calls with your tokens. Please try again in "+waitText(wait)+".")
		return
	}
	ctx := context.WithValue(context.WithValue(r.Context(), userKey, a), viaTokenKey, true)
	next.ServeHTTP(w, r.WithContext(ctx))
}

// crossOriginUnlessBearer applies the browser cross-origin check
// (CSRF protection) to every request but those carrying a bearer token.
// Cross-site request forgery works by making a victim's browser send the
// cookies it holds; a bearer token is never sent by a browser on its own,
// and a page on another origin cannot add an Authorization header without
// a CORS preflight, which this server never grants. Bearer requests are
// authenticated by the token alone (the cookie is ignored), so letting them
// past the check cannot lend them the browser's session.
func crossOriginUnlessBearer(next http.Handler) http.Handler {
	protect := http.NewCrossOriginProtection()
	// Refused in the API's error shape, as every other refusal.
	protect.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusForbidden, errorBody{Error: "This request came from another site and was refused. Please use draindesign's own pages."})
	}))
	checked := protect.Handler(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := bearerToken(r); ok {
			next.ServeHTTP(w, r)
			return
		}
		checked.ServeHTTP(w, r)
	})
}

// The token calls of the settings dialog: list, create (the answer is the
// only time the token is seen) and revoke.

func (s *Server) apiTokens(w http.ResponseWriter, r *http.Request) {
	list, err := s.accounts.APITokens(r.Context(), actorOf(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, list)
}

func (s *Server) createAPIToken(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name string `json:"name"`
	}
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	created, err := s.accounts.CreateAPIToken(r.Context(), actorOf(r), in.Name)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// The token must not linger in a cache between here and the user.
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, created)
}

func (s *Server) revokeAPIToken(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	if err := s.accounts.RevokeAPIToken(r.Context(), actorOf(r), id); err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "revoked": true})
}
