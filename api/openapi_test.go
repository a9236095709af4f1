package api_test

import (
	"slices"
	"strings"
	"testing"

	"draindesign/api"
	"draindesign/api/openapi/openapitest"
)

// The OpenAPI document (api/openapi/openapi.json) names every call the
// router registers, and nothing else: a call added without documentation,
// or documentation left behind by a removed call, fails here. docs/api.md
// says how to document a call.
func TestOpenAPIDocumentsEveryRoute(t *testing.T) {
	v, err := openapitest.Load()
	if err != nil {
		t.Fatal(err)
	}
	routes, err := api.Routes()
	if err != nil {
		t.Fatal(err)
	}
	registered := make([]string, 0, len(routes))
	for _, r := range routes {
		registered = append(registered, r.Method+" "+r.Pattern)
	}
	documented := v.Operations()
	for _, r := range registered {
		if !slices.Contains(documented, r) {
			t.Errorf("%s is not in api/openapi/openapi.json: document it (docs/api.md, \"Adding a call\")", r)
		}
	}
	for _, d := range documented {
		if !slices.Contains(registered, d) {
			t.Errorf("api/openapi/openapi.json documents %s, which the router does not register", d)
		}
	}
	if len(documented) < 50 {
		t.Errorf("only %d operations documented", len(documented))
	}
}

// The calls the document marks with the bearer scheme are exactly those an
// API token may make (api.TokenCalls), so a reader of the document learns
// the token's real scope.
func TestOpenAPIBearerMatchesTokenScope(t *testing.T) {
	v, err := openapitest.Load()
	if err != nil {
		t.Fatal(err)
	}
	calls := api.TokenCalls()
	slices.Sort(calls)
	if got := v.Bearer(); !slices.Equal(got, calls) {
		t.Errorf("bearer in the document:\n  %s\ntoken calls in api/apitoken.go:\n  %s", strings.Join(got, "\n  "), strings.Join(calls, "\n  "))
	}
	for _, c := range calls {
		if strings.Contains(c, "/staff/") || strings.Contains(c, "/auth/tokens/") || strings.Contains(c, "user_settings") {
			t.Errorf("an API token may call %s", c)
		}
	}
}
