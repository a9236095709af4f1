package exchangelog

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each request goes through the recorder to a handler that echoes what it
// read; the handler must see the whole body, and the record must keep JSON
// bodies, leave out files and bodies over MaxBody (marked skipped), and
// leave out WebSocket upgrades and paths outside /api.
func TestMiddleware(t *testing.T) {
	big := `{"x":"` + strings.Repeat("a", MaxBody) + `"}`
	cases := []struct {
		name        string
		path        string
		reqType     string
		reqBody     string
		header      map[string]string
		answerType  string
		recorded    bool
		wantRequest string
		reqSkipped  bool
		wantAnswer  bool
		ansSkipped  bool
		cookie      bool
		bearer      bool
	}{
		{name: "json both ways", path: "/api/a/", reqType: "application/json", reqBody: `{"a":1}`, answerType: "application/json",
			recorded: true, wantRequest: `{"a":1}`, wantAnswer: true},
		{name: "session cookie", path: "/api/a/", header: map[string]string{"Cookie": "session-state=x"}, answerType: "application/json",
			recorded: true, wantAnswer: true, cookie: true},
		{name: "bearer token", path: "/api/a/", header: map[string]string{"Authorization": "Bearer t", "Cookie": "session-state=x"}, answerType: "application/json",
			recorded: true, wantAnswer: true, bearer: true},
		{name: "upload and file", path: "/api/b/", reqType: "multipart/form-data; boundary=x", reqBody: "--x\r\n\r\nbinary\r\n--x--", answerType: "application/pdf",
			recorded: true, reqSkipped: true, ansSkipped: true},
		{name: "too large", path: "/api/c/", reqType: "application/json", reqBody: big, answerType: "application/json",
			recorded: true, reqSkipped: true, ansSkipped: true},
		{name: "websocket", path: "/api/live/", header: map[string]string{"Upgrade": "websocket"}, answerType: "application/json"},
		{name: "outside the api", path: "/index.html", answerType: "text/html"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "x.jsonl")
			rec, err := Open(file)
			if err != nil {
				t.Fatal(err)
			}
			h := rec.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				w.Header().Set("Content-Type", tc.answerType)
				w.WriteHeader(http.StatusCreated)
				_, _ = w.Write(b)
				_, _ = w.Write([]byte("{}"))
			}))
			req := httptest.NewRequest("POST", tc.path+"?q=1", strings.NewReader(tc.reqBody))
			if tc.reqType != "" {
				req.Header.Set("Content-Type", tc.reqType)
			}
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if got := w.Body.String(); got != tc.reqBody+"{}" {
				t.Fatalf("the handler's answer came through as %d bytes, want %d", len(got), len(tc.reqBody)+2)
			}
			_ = rec.Close()
			list := readFile(t, file)
			if !tc.recorded {
				if len(list) != 0 {
					t.Fatalf("recorded %v, want nothing", list)
				}
				return
			}
			if len(list) != 1 {
				t.Fatalf("recorded %d exchanges, want 1", len(list))
			}
			e := list[0]
			if e.Method != "POST" || e.URL != tc.path+"?q=1" || e.Status != http.StatusCreated || e.Header.Get("Content-Type") != tc.answerType {
				t.Errorf("recorded %v with %v", e, e.Header)
			}
			if string(e.Request) != tc.wantRequest || e.RequestSkipped != tc.reqSkipped {
				t.Errorf("request %d bytes (skipped %v), want %q (skipped %v)", len(e.Request), e.RequestSkipped, tc.wantRequest, tc.reqSkipped)
			}
			if wantAnswer := tc.reqBody + "{}"; tc.wantAnswer && string(e.Answer) != wantAnswer || !tc.wantAnswer && len(e.Answer) != 0 || e.AnswerSkipped != tc.ansSkipped {
				t.Errorf("answer %d bytes (skipped %v), want kept %v (skipped %v)", len(e.Answer), e.AnswerSkipped, tc.wantAnswer, tc.ansSkipped)
			}
			if e.Cookie != tc.cookie || e.Bearer != tc.bearer {
				t.Errorf("cookie %v bearer %v, want %v %v", e.Cookie, e.Bearer, tc.cookie, tc.bearer)
			}
		})
	}
}

func readFile(t *testing.T, path string) []Exchange {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Exchange
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 8<<20)
	for sc.Scan() {
		var e Exchange
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}
