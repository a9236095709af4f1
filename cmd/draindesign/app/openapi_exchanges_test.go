package app

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"draindesign/api/openapi/openapitest"
	"draindesign/domain/account"
)

// The OpenAPI document is held to what the server really does: every
// request the HTTP tests of this package send through user (harness_test.go)
// and every answer they get is recorded, and after the tests have run,
// TestMain replays the recordings through kin-openapi's validator. An
// answer whose status, headers or body the document does not describe, or
// an accepted request it would refuse, fails the package's run with the
// exchange named.

// recorded holds the exchanges of this test binary's run.
var recorded struct {
	sync.Mutex
	list []openapitest.Exchange
}

// maxRecordedBody bounds what one recording keeps of a JSON body; files
// (PDF, RTF, CSV) keep none, as the document describes them only as files.
const maxRecordedBody = 1 << 20

// recording is the test client's transport: it passes every request on
// and records the exchanges under /api.
type recording struct{ next http.RoundTripper }

func (r recording) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil && strings.HasPrefix(req.URL.Path, "/api/") {
		var err error
		if body, req.Body, err = openapitest.ReadAll(req.Body); err != nil {
			return nil, err
		}
	}
	resp, err := r.next.RoundTrip(req)
	if err != nil || !strings.HasPrefix(req.URL.Path, "/api/") {
		return resp, err
	}
	answer, rest, err := openapitest.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	resp.Body = rest
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt != "application/json" || len(answer) > maxRecordedBody {
		answer = []byte("file")
	}
	bearer := strings.HasPrefix(strings.ToLower(req.Header.Get("Authorization")), "bearer ")
	_, cookieErr := req.Cookie("session-state")
	recorded.Lock()
	recorded.list = append(recorded.list, openapitest.Exchange{
		Method: req.Method, URL: req.URL.RequestURI(), RequestType: req.Header.Get("Content-Type"), Request: body,
		Cookie: cookieErr == nil && !bearer, Bearer: bearer,
		Status: resp.StatusCode, Header: resp.Header.Clone(), Answer: answer,
	})
	recorded.Unlock()
	return resp, nil
}

func TestMain(m *testing.M) {
	code := m.Run()
	// Replayed even after a failure: a mismatch is worth knowing either way.
	{
		if err := replayRecorded(); err != nil {
			fmt.Fprintln(os.Stderr, "FAIL: recorded exchanges against api/openapi/openapi.json:")
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	os.Exit(code)
}

// replayRecorded validates every recorded exchange; the mismatches are
// reported by operation and status, a few examples each.
func replayRecorded() error {
	v, err := openapitest.Load()
	if err != nil {
		return err
	}
	recorded.Lock()
	defer recorded.Unlock()
	bad := map[string][]string{}
	for _, e := range recorded.list {
		if err := v.Check(e); err != nil {
			key := v.Operation(e) + " " + fmt.Sprint(e.Status)
			bad[key] = append(bad[key], err.Error())
		}
	}
	if len(bad) == 0 {
		fmt.Fprintf(os.Stderr, "openapi: %d recorded exchanges match the document\n", len(recorded.list))
		return nil
	}
	keys := make([]string, 0, len(bad))
	for k := range bad {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s (%d times): %s\n", k, len(bad[k]), bad[k][0])
	}
	return fmt.Errorf("%s", b.String())
}

// The validator the replay relies on does refuse what the document does
// not describe: an answer with a field of the wrong type, a status the
// call does not document, an accepted request missing a required field,
// and a token used where the document admits only a session.
func TestOpenAPIValidatorRefusesMismatches(t *testing.T) {
	v, err := openapitest.Load()
	if err != nil {
		t.Fatal(err)
	}
	p := start(t, Options{DataDir: t.TempDir()})
	ann := p.staff(t, "vera", account.GroupStandard)
	req, _ := http.NewRequestWithContext(context.Background(), "GET", p.srv.URL+"/api/auth/me/", nil)
	resp, err := ann.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	good := openapitest.Exchange{Method: "GET", URL: "/api/auth/me/", Cookie: true, Status: resp.StatusCode, Header: resp.Header, Answer: raw}
	if err := v.Check(good); err != nil {
		t.Fatalf("a real answer is refused: %v", err)
	}
	wrongType := good
	wrongType.Answer = []byte(strings.Replace(string(raw), `"username":"vera"`, `"username":7`, 1))
	undocumented := good
	undocumented.Status = http.StatusTeapot
	extraField := good
	extraField.Answer = []byte(`{"user":` + strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(string(raw)), `{"user":`), "}") + `,"extra":1}`)
	missing := openapitest.Exchange{Method: "POST", URL: "/api/auth/tokens/", RequestType: "application/json", Request: []byte(`{}`),
		Cookie: true, Status: http.StatusCreated, Header: http.Header{"Content-Type": {"application/json"}},
		Answer: []byte(`{"id":"a","name":"n","created":"2026-01-02T03:04:05Z","token":"t"}`)}
	bearerOnSession := missing
	bearerOnSession.Request, bearerOnSession.Cookie, bearerOnSession.Bearer = []byte(`{"name":"n"}`), false, true
	for name, e := range map[string]openapitest.Exchange{"wrong type": wrongType, "undocumented status": undocumented,
		"undocumented field": extraField, "missing required field": missing, "token on a session call": bearerOnSession} {
		if err := v.Check(e); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	fine := bearerOnSession
	fine.Cookie, fine.Bearer = true, false
	if err := v.Check(fine); err != nil {
		t.Errorf("a well-formed token creation is refused: %v", err)
	}
}
