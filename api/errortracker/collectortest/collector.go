// Package collectortest is a fake error tracker for tests: an HTTP server
// that accepts the Sentry envelope endpoint of one project and keeps the
// error events that arrive.
package collectortest

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Event is one error event as it arrived: parsed, and the whole envelope
// as text (to search for what must not be there).
type Event struct {
	Fields   map[string]any
	Envelope string
}

// Collector is the fake tracker.
type Collector struct {
	srv    *httptest.Server
	mu     sync.Mutex
	events []Event
	got    chan struct{}
}

// New starts a collector, closed when the test ends.
func New(t testing.TB) *Collector {
	c := &Collector{got: make(chan struct{}, 64)}
	c.srv = httptest.NewServer(http.HandlerFunc(c.serve))
	t.Cleanup(c.srv.Close)
	return c
}

// DSN is the address an SDK reports to (project 42).
func (c *Collector) DSN() string {
	return strings.Replace(c.srv.URL, "http://", "http://publickey@", 1) + "/42"
}

func (c *Collector) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/api/42/envelope/" {
		http.NotFound(w, r)
		return
	}
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		z, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = z
	}
	b, err := io.ReadAll(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	// An envelope is a header line, then item header and payload lines.
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	sc.Scan()
	for sc.Scan() {
		var item struct{ Type string }
		if err := json.Unmarshal(sc.Bytes(), &item); err != nil || !sc.Scan() {
			break
		}
		if item.Type != "event" {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		c.mu.Lock()
		c.events = append(c.events, Event{Fields: ev, Envelope: string(b)})
		c.mu.Unlock()
		c.got <- struct{}{}
	}
	w.WriteHeader(http.StatusOK)
}

// Next waits for the next error event.
func (c *Collector) Next(t testing.TB) Event {
	t.Helper()
	select {
	case <-c.got:
	case <-time.After(10 * time.Second):
		t.Fatal("no event reached the collector")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ev := c.events[0]
	c.events = c.events[1:]
	return ev
}

// Texts are the event's messages and exception values; Frames the
// functions of every stack it holds (exceptions' and threads'). An error
// arrives as exceptions, a panic of a string as a message with the stack
// of its thread; the SDK writes lists bare, the protocol also allows
// {"values": [...]}.
func (e Event) Texts() (texts, frames []string) {
	if m, ok := e.Fields["message"].(string); ok {
		texts = append(texts, m)
	}
	for _, key := range []string{"exception", "threads"} {
		list, _ := e.Fields[key].([]any)
		if m, ok := e.Fields[key].(map[string]any); ok {
			list, _ = m["values"].([]any)
		}
		for _, x := range list {
			x, _ := x.(map[string]any)
			if v, ok := x["value"].(string); ok {
				texts = append(texts, v)
			}
			st, _ := x["stacktrace"].(map[string]any)
			fs, _ := st["frames"].([]any)
			for _, f := range fs {
				f, _ := f.(map[string]any)
				if fn, ok := f["function"].(string); ok {
					frames = append(frames, fn)
				}
			}
		}
	}
	return texts, frames
}
