// Package exchangelog records the server's /api exchanges (request and
// answer) to a file, one JSON object a line, so that a run of the browser
// tests can be held to the OpenAPI document afterwards (cmd/checkexchanges).
// It is off unless the server is started with E2E_RECORD_EXCHANGES set: a
// record holds request bodies, passwords included, so it is for test runs
// only.
package exchangelog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strings"
	"sync"
)

// EnvVar names the file the server records to when set.
const EnvVar = "E2E_RECORD_EXCHANGES"

// MaxBody is the largest body kept; a larger one, or one that is not JSON
// (files, multipart uploads), is left out and marked skipped, so that only
// its status and headers are checked.
const MaxBody = 1 << 20

// sessionCookie is the name of the log-in session's cookie (api/session.go).
const sessionCookie = "session-state"

// Exchange is one request and its answer.
type Exchange struct {
	Method      string `json:"method"`
	URL         string `json:"url"` // path and query
	RequestType string `json:"requestType,omitempty"`
	Request     []byte `json:"request,omitempty"`
	// RequestSkipped: the request had a body that was not kept.
	RequestSkipped bool        `json:"requestSkipped,omitempty"`
	Cookie         bool        `json:"cookie,omitempty"` // the request carried a session cookie
	Bearer         bool        `json:"bearer,omitempty"` // the request carried a bearer token
	Status         int         `json:"status"`
	Header         http.Header `json:"header,omitempty"`
	Answer         []byte      `json:"answer,omitempty"`
	// AnswerSkipped: the answer had a body that was not kept.
	AnswerSkipped bool `json:"answerSkipped,omitempty"`
}

func (e Exchange) String() string {
	return fmt.Sprintf("%s %s -> %d", e.Method, e.URL, e.Status)
}

// Recorder writes exchanges to a file.
type Recorder struct {
	mu   sync.Mutex
	file *os.File
}

// Open starts a record in path (appended to, so that restarts keep what
// was recorded before).
func Open(path string) (*Recorder, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("record exchanges: %w", err)
	}
	return &Recorder{file: f}, nil
}

// Close ends the record.
func (r *Recorder) Close() error { return r.file.Close() }

func (r *Recorder) write(e Exchange) {
	b, err := json.Marshal(e)
	if err != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	// One write a line: a line is whole even if the server stops after it.
	_, _ = r.file.Write(append(b, '\n'))
}

// Middleware records every exchange under /api/ except WebSocket upgrades,
// whose answer is a stream, not a document.
func (r *Recorder) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if !strings.HasPrefix(req.URL.Path, "/api/") || strings.EqualFold(req.Header.Get("Upgrade"), "websocket") {
			next.ServeHTTP(w, req)
			return
		}
		e := Exchange{Method: req.Method, URL: req.URL.RequestURI(), RequestType: req.Header.Get("Content-Type")}
		_, err := req.Cookie(sessionCookie)
		e.Bearer = strings.HasPrefix(strings.ToLower(req.Header.Get("Authorization")), "bearer ")
		e.Cookie = err == nil && !e.Bearer
		if req.Body != nil && req.Body != http.NoBody {
			body, rest := peek(req.Body)
			req.Body = rest
			if isJSON(e.RequestType) && len(body) <= MaxBody {
				e.Request = body
			} else if len(body) > 0 {
				e.RequestSkipped = true
			}
		}
		rec := &recording{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, req)
		e.Status, e.Header = rec.status, w.Header().Clone()
		if rec.body.Len() > 0 || rec.over {
			if isJSON(e.Header.Get("Content-Type")) && !rec.over {
				e.Answer = rec.body.Bytes()
			} else {
				e.AnswerSkipped = true
			}
		}
		r.write(e)
	})
}

// peek reads up to MaxBody+1 bytes of a body (more means "too large to
// keep") and gives back a body that still yields all of it.
func peek(body io.ReadCloser) ([]byte, io.ReadCloser) {
	br := bufio.NewReaderSize(body, 4096)
	var head bytes.Buffer
	_, _ = io.CopyN(&head, br, MaxBody+1)
	kept := head.Bytes()
	return kept, struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(kept), br), body}
}

func isJSON(contentType string) bool {
	mt, _, _ := mime.ParseMediaType(contentType)
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// recording passes the answer on and keeps up to MaxBody of it.
type recording struct {
	http.ResponseWriter
	status  int
	written bool
	body    bytes.Buffer
	over    bool
}

func (r *recording) WriteHeader(status int) {
	if !r.written {
		r.status, r.written = status, true
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recording) Write(b []byte) (int, error) {
	r.written = true
	if !r.over {
		if r.body.Len()+len(b) > MaxBody {
			r.over = true
			r.body.Reset()
		} else {
			r.body.Write(b)
		}
	}
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the real writer (flush,
// deadlines).
func (r *recording) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// Flush passes a flush on, for handlers that test for http.Flusher.
func (r *recording) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
