package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

func TestLiveHeader(t *testing.T) {
	for _, tc := range []struct {
		in      string
		typ     string
		version int64
		bad     bool
	}{
		{`{"type":"project","project":"p1","version":12,"view":{"runs":[{"x":1}]}}`, "project", 12, false},
		// The view is not read: a truncated one does not matter.
		{`{"type":"project","project":"p1","version":7,"view":{"runs":[`, "project", 7, false},
		{`{"project":"p1","view":{"a":[1,2,{"b":"}"}]},"version":3,"type":"project"}`, "project", 3, false},
		{`{"type":"closed","project":"p1","reason":"deleted"}`, "closed", 0, false},
		{`[1,2]`, "", 0, true},
		{`{"version":3}`, "", 3, true},
		{`not json`, "", 0, true},
	} {
		var typ string
		var version int64
		err := liveHeader([]byte(tc.in), &typ, &version)
		if (err != nil) != tc.bad || typ != tc.typ || version != tc.version {
			t.Errorf("liveHeader(%s) = %q, %d, %v; want %q, %d, error %v", tc.in, typ, version, err, tc.typ, tc.version, tc.bad)
		}
	}
}

// The results are cut out of an answer as decoding would find them, and
// the save body spliced around them is the JSON the plain encoding gives.
func TestResultsAndSaveBody(t *testing.T) {
	results := `{"calculated":true,"profile":[{"x":0,"y":1.5},{"x":10,"y":2}],"note":"a \"quoted\" }"}`
	for _, answer := range []string{
		`{"results":` + results + `}`,
		"  {\"results\":" + results + "}\n",
		`{"other":1,"results":` + results + `}`, // not the usual shape: decoded
	} {
		got, err := resultsOf([]byte(answer))
		if err != nil || string(got) != results {
			t.Errorf("resultsOf(%s) = %s, %v", answer, got, err)
		}
	}
	if got, err := resultsOf(nil); err != nil || got != nil {
		t.Errorf("resultsOf(nothing) = %s, %v", got, err)
	}

	run := map[string]any{"name": "Run 1", "channel_length_m": 12.5}
	body, err := saveBody("p1", 7, "req-1", "ann save 3", run, json.RawMessage(results))
	if err != nil {
		t.Fatal(err)
	}
	withResults := map[string]any{"name": "Run 1", "channel_length_m": 12.5, "results": json.RawMessage(results)}
	want, _ := json.Marshal(map[string]any{"share": false, "request_id": "req-1", "project": map[string]any{
		"saveID": "p1", "version": 7, "details": map[string]any{"name": "ann save 3"}, "runs": []any{withResults}}})
	var a, b any
	if err := json.Unmarshal(body, &a); err != nil {
		t.Fatalf("save body %s: %v", body, err)
	}
	_ = json.Unmarshal(want, &b)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("save body\n%s\nwant\n%s", body, want)
	}
	if body, _ := saveBody("p1", 7, "r", "x", map[string]any{}, nil); !json.Valid(body) {
		t.Errorf("save body without results or fields: %s", body)
	}
	if body, _ := saveBody("p1", 7, "r", "x", map[string]any{}, json.RawMessage(results)); !json.Valid(body) {
		t.Errorf("save body with results and no fields: %s", body)
	}
}

// An answer is read whole wherever it is used: kept in a slice of its own
// (with or without an announced length), decoded from the reused buffer, or
// read for the error message; only an answer nobody reads is thrown away.
func TestReadAnswer(t *testing.T) {
	const body = `{"results":{"calculated":true}}`
	var kept []byte
	var decoded struct{}
	for _, tc := range []struct {
		name   string
		length int64
		ok     bool
		out    any
		want   string
	}{
		{"kept, length announced", int64(len(body)), true, &kept, body},
		{"kept, chunked", -1, true, &kept, body},
		{"decoded", int64(len(body)), true, &decoded, body},
		{"unread", int64(len(body)), true, nil, ""},
		{"failed, unread otherwise", int64(len(body)), false, nil, body},
		{"failed, kept otherwise", int64(len(body)), false, &kept, body},
	} {
		closed := false
		resp := &http.Response{ContentLength: tc.length, Body: closeCounter{strings.NewReader(body), &closed}}
		d := &designer{}
		got, err := d.read(resp, tc.ok, tc.out)
		if err != nil || string(got) != tc.want || !closed {
			t.Errorf("%s: %q, %v, closed %v; want %q", tc.name, got, err, closed, tc.want)
		}
	}
	// A kept answer is not the reused buffer: the next call cannot change it.
	d := &designer{}
	first, _ := d.read(&http.Response{ContentLength: -1, Body: io.NopCloser(strings.NewReader(body))}, true, &kept)
	_, _ = d.read(&http.Response{ContentLength: 3, Body: io.NopCloser(strings.NewReader("xyz"))}, false, nil)
	if string(first) != body {
		t.Errorf("kept answer changed to %q", first)
	}
}

type closeCounter struct {
	io.Reader
	closed *bool
}

func (c closeCounter) Close() error { *c.closed = true; return nil }

// A refused upgrade is reported with the status that refused it, so that
// the report tells a balancer's 503 from the server's own refusal.
func TestHandshakeError(t *testing.T) {
	if got, want := handshakeError(websocket.ErrBadHandshake, &http.Response{StatusCode: 503}), "websocket: bad handshake: status 503 (Service Unavailable)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := handshakeError(websocket.ErrBadHandshake, nil), "websocket: bad handshake"; got != want {
		t.Errorf("without an answer: got %q, want %q", got, want)
	}
}

// A call whose try gets no answer (the instance stopped under it: the
// connection closed unanswered, or the balancer's 502) is sent again, up
// to twice, without an error when the web client would repeat it (reads,
// calculations, edits, named saves); a sign-in's or a new draft's failure
// is the designer's to see.
func TestCallRepeatsAfterNoAnswer(t *testing.T) {
	for _, tc := range []struct {
		name, method string
		first        string // "drop", "502", "503" (the database unreachable) or "503 then drop"
		failing      int    // tries that get no answer, or 503
		wantErrors   int
		wantRepeated int
		wantWaited   int
	}{
		{"calculate small", "POST", "drop", 1, 0, 1, 0},
		{"calculate stepped", "POST", "drop", 2, 0, 2, 0},
		{"calculate 3000m", "POST", "502", 3, 1, 2, 0},
		{"edit", "POST", "502", 1, 0, 1, 0},
		{"projects", "GET", "drop", 1, 0, 1, 0},
		{"save", "POST", "drop", 1, 0, 1, 0},
		{"sign-in", "POST", "drop", 1, 1, 0, 0},
		{"create", "POST", "502", 1, 1, 0, 0},
		{"edit", "POST", "503", 3, 0, 0, 3},
		{"calculate small", "POST", "503", 1, 0, 0, 1},
		{"create", "POST", "503", 1, 1, 0, 0},
		// A 503, then resets (the balancer refusing a large save unread):
		// the failover's two tries, then waited out as the 503 was.
		{"save", "POST", "503 then drop", 4, 0, 2, 2},
	} {
		t.Run(tc.name+" "+tc.first, func(t *testing.T) {
			var mu sync.Mutex
			tries := 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				tries++
				n := tries
				mu.Unlock()
				if n <= tc.failing && (tc.first == "drop" || (tc.first == "503 then drop" && n > 1)) {
					conn, _, err := http.NewResponseController(w).Hijack()
					if err == nil {
						conn.Close()
					}
					return
				}
				if n <= tc.failing && strings.HasPrefix(tc.first, "503") {
					w.Header().Set("Retry-After", "0")
					http.Error(w, `{"error":"The server cannot reach its database at the moment."}`, http.StatusServiceUnavailable)
					return
				}
				if n <= tc.failing {
					http.Error(w, "no server answered", http.StatusBadGateway)
					return
				}
				_, _ = io.WriteString(w, `{"version":5}`)
			}))
			defer srv.Close()
			e := &env{base: srv.URL, rec: NewRecorder(time.Now()), start: time.Now(), repeated: map[string]int{}, waitedOut: map[string]int{}, transport: srv.Client().Transport}
			d := newDesigner(e, "ann", 1)
			var ans struct {
				Version int64 `json:"version"`
			}
			status, err := d.call(t.Context(), tc.name, tc.method, "/x", map[string]any{}, &ans)
			if err != nil || status != http.StatusOK || ans.Version != 5 {
				t.Fatalf("call = %d, %v, %+v; want 200 and the second try's answer", status, err, ans)
			}
			if len(e.errs) != tc.wantErrors || e.repeated[tc.name] != tc.wantRepeated || e.waitedOut[tc.name] != tc.wantWaited || tries != tc.failing+1 {
				t.Errorf("errors %v, repeated %v, waited out %v, tries %d; want %d errors, %d repeated, %d waited out, %d tries",
					e.errs, e.repeated, e.waitedOut, tries, tc.wantErrors, tc.wantRepeated, tc.wantWaited, tc.failing+1)
			}
		})
	}
}
