package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/websocket"
)

// env is what every simulated designer shares.
type env struct {
	base      string // the balancer, http://127.0.0.1:port
	transport http.RoundTripper
	rec       *Recorder
	mix       Mix
	think     time.Duration
	saveEvery int
	start     time.Time

	mu        sync.Mutex
	acks      []Ack
	errs      []callError
	throttled int
	conflicts int
	repeated  map[string]int // calls sent again after no answer, per call
	waitedOut map[string]int // calls sent again after a 503 (database unreachable), per call
	gaps      []gap
	unseen    int // edits the other tab never showed
}

// callError is a failed call seen by a user.
type callError struct {
	at   time.Duration
	call string
	what string
}

// gap is a time a designer could not work: from the first failure of a
// call or of the live stream until the next success.
type gap struct {
	at   time.Duration // when the failure that began it was seen
	took time.Duration // from sending the failed call (or the stream's break) to the next success
	what string        // "calls" or "live"
}

func (e *env) since() time.Duration { return time.Since(e.start) }

func (e *env) fail(call, what string) {
	e.mu.Lock()
	e.errs = append(e.errs, callError{at: e.since(), call: call, what: what})
	e.mu.Unlock()
}

func (e *env) ack(a Ack) {
	e.mu.Lock()
	e.acks = append(e.acks, a)
	e.mu.Unlock()
}

func (e *env) addGap(g gap) {
	e.mu.Lock()
	e.gaps = append(e.gaps, g)
	e.mu.Unlock()
}

// designer is one simulated person with two browser tabs on one project.
type designer struct {
	e       *env
	name    string
	http    *http.Client
	jar     http.CookieJar
	rng     *rand.Rand
	project string
	runID   string
	version int64 // newest version this designer's writes produced
	// body is where small answers are read (see read), reused from call
	// to call: reading each into a fresh, growing slice was a sixth of the
	// load generator's CPU, taken from the system under test.
	body     bytes.Buffer
	failedAt time.Time // start of the first failed call of a gap
	failSeen time.Time // when that failure was seen: the gap's place in the run

	tabA, tabB    *tab
	saveName      string
	lastSavedName string // the name of the last acknowledged save
	// listNames are the names the project may show in its owner's list:
	// the last acknowledged save's, or that of a save tried after it (the
	// server may have stored a save whose answer never arrived).
	listNames map[string]bool
	listed    string // what the list showed last (for the log)
}

func newDesigner(e *env, name string, seed uint64) *designer {
	jar, _ := cookiejar.New(nil)
	return &designer{e: e, name: name, jar: jar, rng: rand.New(rand.NewPCG(seed, 15)),
		http: &http.Client{Jar: jar, Transport: e.transport, Timeout: 30 * time.Second}}
}

// errStopped ends a designer's work when the run is over.
var errStopped = errors.New("run over")

// call sends a JSON request through the balancer and decodes the answer.
// Throttled calls (429) wait and are tried again. A repeatable call that
// got no answer (see repeatable) is sent again up to twice, and one
// answered 503 (the database unreachable) after each Retry-After for up to
// unavailableBudget, as the web client does, unseen by the designer but
// for the gap. Any other call
// that fails on the way (the instance killed, the balancer with no server
// up), and any server error, is counted as an error and a gap for this
// designer, and tried again. A 409 is returned to the caller. The latency
// recorded is of the attempt that succeeded.
func (d *designer) call(ctx context.Context, name, method, path string, body, out any) (int, error) {
	var payload []byte
	switch b := body.(type) {
	case nil:
	case json.RawMessage: // encoded already (save): sent as it is
		payload = b
	default:
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return 0, err
		}
	}
	backoff := 50 * time.Millisecond
	throttleWait := 100 * time.Millisecond
	var repeats []time.Duration       // pauses before the tries left after no answer
	var unavailableLeft time.Duration // how much longer a 503 is waited out
	waiting := false                  // a 503 was waited out
	if repeatable(name, method) {
		repeats, unavailableLeft = failoverPauses, unavailableBudget
	}
	for {
		if ctx.Err() != nil {
			return 0, errStopped
		}
		req, err := http.NewRequestWithContext(ctx, method, d.e.base+path, bytes.NewReader(payload))
		if err != nil {
			return 0, err
		}
		req.Header.Set("Content-Type", "application/json")
		started := time.Now()
		resp, err := d.http.Do(req)
		var data []byte
		status := 0
		if err == nil {
			status = resp.StatusCode
			data, err = d.read(resp, status < 300, out)
		}
		took := time.Since(started)
		switch {
		case ctx.Err() != nil:
			return 0, errStopped
		case len(repeats) > 0 && (err != nil || status == http.StatusBadGateway):
			// The instance stopped under the call: sent again, as the web
			// client does (SendOptions.repeatable in web/src/api/http.ts),
			// unseen by the designer unless the last try fails too.
			pause := repeats[0]
			repeats = repeats[1:]
			d.sendAgain(ctx, d.e.repeated, name, started, pause)
			continue
		case unavailableLeft > 0 && (status == http.StatusServiceUnavailable || (waiting && (err != nil || status == http.StatusBadGateway))):
			// The instance cannot reach the database (a restart): waited
			// out after its Retry-After, as the web client does, which
			// shows "waiting for the server" meanwhile. Once waiting, a
			// try that gets no answer is waited out too: the balancer,
			// with every instance out of rotation, answers a large save
			// before reading it, and the connection is reset.
			asked := time.Duration(0)
			if err == nil {
				asked = retryAfter(resp.Header.Get("Retry-After"))
			}
			pause := min(max(asked, 500*time.Millisecond), 5*time.Second, unavailableLeft)
			unavailableLeft, waiting = unavailableLeft-pause, true
			d.sendAgain(ctx, d.e.waitedOut, name, started, pause)
			continue
		case err != nil || status >= 500:
			what := fmt.Sprintf("status %d: %.120s", status, data)
			if err != nil {
				what = err.Error()
			}
			d.e.rec.Add(name, took, true)
			d.e.fail(name, what)
			if d.failedAt.IsZero() {
				d.failedAt, d.failSeen = started, time.Now()
			}
			sleep(ctx, backoff+time.Duration(d.rng.Int64N(int64(backoff))))
			backoff = min(backoff*2, time.Second)
			continue
		case status == http.StatusTooManyRequests:
			d.e.mu.Lock()
			d.e.throttled++
			d.e.mu.Unlock()
			// Waited out with a growing pause, as a person would try
			// again after the "busy" message, not hammered.
			sleep(ctx, throttleWait/2+time.Duration(d.rng.Int64N(int64(throttleWait))))
			throttleWait = min(throttleWait*2, time.Second)
			continue
		}
		if !d.failedAt.IsZero() {
			// The wait the designer saw runs from sending the call that
			// failed; the gap belongs to the moment the failure came (a
			// call in flight when an instance died was sent before).
			d.e.addGap(gap{at: d.failSeen.Sub(d.e.start), took: time.Since(d.failedAt), what: "calls"})
			d.failedAt = time.Time{}
		}
		if status == http.StatusConflict {
			return status, nil
		}
		if status >= 300 {
			d.e.rec.Add(name, took, true)
			d.e.fail(name, fmt.Sprintf("status %d: %.200s", status, data))
			return status, fmt.Errorf("%s %s: status %d: %.200s", method, path, status, data)
		}
		d.e.rec.Add(name, took, false)
		if raw, ok := out.(*[]byte); ok {
			// Kept as it came (read into a slice of its own): the caller
			// decodes only what it reads, so that the load generator, on
			// the same cores, costs the system under test less.
			*raw = data
			return status, nil
		}
		if out != nil && len(data) > 0 {
			if err := json.Unmarshal(data, out); err != nil {
				return status, fmt.Errorf("%s %s: %w", method, path, err)
			}
		}
		return status, nil
	}
}

// read reads an answer's body and closes it. An answer the caller does
// not read (ok, with out nil: most calculations) is counted off and thrown
// away; one it keeps whole (out a *[]byte) gets a slice of its own, of the
// announced length; any other goes into the designer's reused buffer, which
// so holds only small answers. Reading every answer, up to a megabyte for
// a 3000 m run, into that buffer grew it again and again (allocating and
// clearing memory was a third of the generator's CPU) and kept 2 MB per
// designer.
func (d *designer) read(resp *http.Response, ok bool, out any) ([]byte, error) {
	defer resp.Body.Close()
	if _, keep := out.(*[]byte); ok && keep && resp.ContentLength > 0 {
		data := make([]byte, resp.ContentLength)
		_, err := io.ReadFull(resp.Body, data)
		return data, err
	} else if ok && keep {
		return io.ReadAll(resp.Body)
	}
	if ok && out == nil {
		_, err := io.Copy(io.Discard, resp.Body)
		return nil, err
	}
	d.body.Reset()
	_, err := d.body.ReadFrom(resp.Body)
	return d.body.Bytes(), err
}

// failoverPauses are the web client's FAILOVER_PAUSES_MS.
var failoverPauses = []time.Duration{300 * time.Millisecond, time.Second}

// sendAgain counts a try of call name, sent at started, that will be sent
// again in counts, starts the designer's gap if none is running, and
// pauses.
func (d *designer) sendAgain(ctx context.Context, counts map[string]int, name string, started time.Time, pause time.Duration) {
	d.e.mu.Lock()
	counts[name]++
	d.e.mu.Unlock()
	if d.failedAt.IsZero() {
		d.failedAt, d.failSeen = started, time.Now()
	}
	sleep(ctx, pause)
}

// unavailableBudget is how long a repeatable call waits out 503 answers
// (UNAVAILABLE_BUDGET_MS in web/src/api/http.ts).
const unavailableBudget = 20 * time.Second

// retryAfter reads a Retry-After in seconds (0 when absent or a date).
func retryAfter(header string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(header))
	if err != nil || n < 0 {
		return 0
	}
	return time.Duration(n) * time.Second
}

// repeatable says whether the web client sends the call again when its
// first try got no answer (web/src/api/endpoints.ts): reads, calculations,
// the edits that set values (the load's edits change inputs) and saves
// over a project that name their request (the load's do); not sign-ins or
// the creation of a draft.
func repeatable(name, method string) bool {
	return method == http.MethodGet || name == "edit" || name == "save" || strings.HasPrefix(name, "calculate ")
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// open signs in, lists the projects, starts a draft and opens both tabs'
// live streams on it.
func (d *designer) open(ctx context.Context) error {
	if _, err := d.call(ctx, "sign-in", "POST", "/api/auth/login/", map[string]string{"username": d.name, "password": password}, nil); err != nil {
		return err
	}
	if _, err := d.call(ctx, "projects", "GET", "/api/drainage/projects/", nil, nil); err != nil {
		return err
	}
	var draft struct {
		ID      string `json:"id"`
		Version int64  `json:"version"`
		RunID   string `json:"run_id"`
	}
	if _, err := d.call(ctx, "create", "POST", "/api/projects/", map[string]any{}, &draft); err != nil {
		return err
	}
	d.project, d.runID, d.version = draft.ID, draft.RunID, draft.Version
	d.tabA = newTab(d, "A", draft.Version)
	d.tabB = newTab(d, "B", draft.Version)
	go d.tabA.run(ctx)
	go d.tabB.run(ctx)
	return nil
}

// work edits, calculates and saves until ctx ends or count iterations.
func (d *designer) work(ctx context.Context, count int) {
	for seq := 1; count <= 0 || seq <= count; seq++ {
		if ctx.Err() != nil {
			return
		}
		class := d.e.mix.Pick(d.rng.Float64())
		inputs := RunInputs(class, d.rng, seq)
		if err := d.edit(ctx, inputs); err != nil {
			return
		}
		saving := d.e.saveEvery > 0 && seq%d.e.saveEvery == 0
		answer, err := d.calculate(ctx, class, inputs, saving)
		if err != nil {
			return
		}
		if saving {
			results, err := resultsOf(answer)
			if err != nil {
				d.e.fail("calculate "+class.String(), "unreadable answer: "+err.Error())
				return
			}
			if err := d.save(ctx, seq, inputs, results); err != nil {
				return
			}
		}
		sleep(ctx, d.e.think/2+time.Duration(d.rng.Int64N(int64(d.e.think)+1)))
	}
}

func (d *designer) edit(ctx context.Context, inputs map[string]any) error {
	sent := time.Now()
	var ans struct {
		Version int64 `json:"version"`
	}
	status, err := d.call(ctx, "edit", "POST", "/api/projects/"+d.project+"/commands",
		map[string]any{"type": "change_inputs", "run_id": d.runID, "fields": inputs}, &ans)
	if err != nil {
		return err
	}
	if status == http.StatusConflict || ans.Version <= d.version {
		return nil // nothing changed: nothing for the other tab to show
	}
	d.version = ans.Version
	d.e.ack(Ack{Project: d.project, Version: ans.Version, Kind: "edit", RunID: d.runID, Length: inputs["channel_length_m"].(float64)})
	d.tabB.expect(ans.Version, sent)
	return nil
}

// calculate asks for the run's calculation; the answer is kept only when
// keep is set (it is about to be saved): copying every answer out of the
// reused read buffer cost the generator more than reading it.
func (d *designer) calculate(ctx context.Context, class Class, inputs map[string]any, keep bool) (json.RawMessage, error) {
	body := make(map[string]any, len(inputs)+3)
	for k, v := range inputs {
		body[k] = v
	}
	// Named as the web client names it: sent again after an answer lost
	// in the SIGKILL, the calculation is recorded once, so the version
	// counted below stays the project's.
	body["project_id"], body["run_id"], body["request_id"] = d.project, d.runID, uuid.NewString()
	var answer []byte
	var out any
	if keep {
		out = &answer
	}
	if _, err := d.call(ctx, "calculate "+class.String(), "POST", "/api/drainage/calculate/", body, out); err != nil {
		return nil, err
	}
	// The outcome was appended to the project before the answer, once.
	d.version++
	return answer, nil
}

// resultsOf is the results object of a calculation's answer, for the
// calculations that are saved. The answer is {"results": …} alone
// (design.Answer), so the object is cut out without reading it: scanning
// whole answers took a fifth of the generator's CPU, which it shares with
// the instances. Any other shape is decoded.
func resultsOf(answer []byte) (json.RawMessage, error) {
	if len(answer) == 0 {
		return nil, nil
	}
	trimmed := bytes.TrimSpace(answer)
	if rest, ok := bytes.CutPrefix(trimmed, []byte(`{"results":`)); ok && bytes.HasSuffix(rest, []byte("}")) {
		return rest[:len(rest)-1], nil
	}
	var ans struct {
		Results json.RawMessage `json:"results"`
	}
	err := json.Unmarshal(answer, &ans)
	return ans.Results, err
}

// save saves the project over the version the designer holds; after a
// conflict (a write this designer's tab had not seen yet, e.g. a
// calculation recorded while its answer was lost) it tries again on the
// newest version its first tab shows, as the web client does. Every try
// names one request, as the web client's do: one stored whose answer was
// lost is answered as stored.
func (d *designer) save(ctx context.Context, seq int, inputs map[string]any, results json.RawMessage) error {
	d.saveName = fmt.Sprintf("%s save %d", d.name, seq)
	requestID := uuid.NewString()
	run := make(map[string]any, len(inputs)+4)
	for k, v := range inputs {
		run[k] = v
	}
	run["name"], run["notes"], run["saveID"] = "Run 1", "", d.runID
	for attempt := 0; ; attempt++ {
		version := d.version
		if attempt > 0 {
			version = d.tabA.newest()
		}
		if d.listNames == nil {
			d.listNames = map[string]bool{}
		}
		d.listNames[d.saveName] = true
		var ans struct {
			SaveID  string `json:"saveID"`
			Version int64  `json:"version"`
		}
		body, err := saveBody(d.project, version, requestID, d.saveName, run, results)
		if err != nil {
			return err
		}
		status, err := d.call(ctx, "save", "POST", "/api/drainage/save/", body, &ans)
		if err != nil {
			return err
		}
		if status == http.StatusConflict {
			d.e.mu.Lock()
			d.e.conflicts++
			d.e.mu.Unlock()
			if attempt >= 5 {
				d.e.fail("save", "conflict after 5 tries")
				return nil
			}
			sleep(ctx, 200*time.Millisecond)
			continue
		}
		d.version = ans.Version
		d.lastSavedName = d.saveName
		d.listNames = map[string]bool{d.saveName: true}
		d.e.ack(Ack{Project: d.project, Version: ans.Version, Kind: "save"})
		return nil
	}
}

// tab is one browser tab's live stream on the designer's project. It
// reconnects through the balancer whenever the stream breaks.
type tab struct {
	d       *designer
	name    string
	initial int64 // the draft's version when the tab opened

	mu      sync.Mutex
	seen    int64     // newest version shown
	seenAt  []seenAt  // recent versions and when they arrived
	pending []pending // edits not shown yet
}

type seenAt struct {
	version int64
	at      time.Time
}

type pending struct {
	version int64
	sent    time.Time
}

func newTab(d *designer, name string, initial int64) *tab {
	return &tab{d: d, name: name, initial: initial}
}

func (t *tab) newest() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.seen
}

// expect registers an edit acknowledged at version, sent at sent: the tab
// must show it. It may have done so already.
func (t *tab) expect(version int64, sent time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, s := range t.seenAt {
		if s.version >= version {
			t.d.e.rec.Add("edit→other tab", max(0, s.at.Sub(sent)), false)
			return
		}
	}
	t.pending = append(t.pending, pending{version: version, sent: sent})
}

func (t *tab) show(version int64, at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if version <= t.seen {
		return
	}
	t.seen = version
	t.seenAt = append(t.seenAt, seenAt{version: version, at: at})
	if len(t.seenAt) > 16 {
		t.seenAt = t.seenAt[len(t.seenAt)-16:]
	}
	kept := t.pending[:0]
	for _, p := range t.pending {
		if p.version <= version {
			t.d.e.rec.Add("edit→other tab", at.Sub(p.sent), false)
		} else {
			kept = append(kept, p)
		}
	}
	t.pending = kept
}

// unseen is how many expected edits the tab never showed.
func (t *tab) unseen() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.pending)
}

func (t *tab) run(ctx context.Context) {
	url := "ws" + strings.TrimPrefix(t.d.e.base, "http") + "/api/ws"
	dialer := websocket.Dialer{Jar: t.d.jar, HandshakeTimeout: 5 * time.Second}
	var broken time.Time
	var buf bytes.Buffer
	backoff := 50 * time.Millisecond
	for ctx.Err() == nil {
		started := time.Now()
		conn, resp, err := dialer.DialContext(ctx, url, nil)
		if resp != nil {
			resp.Body.Close()
		}
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			t.d.e.rec.Add("live connect", time.Since(started), true)
			t.d.e.fail("live connect", handshakeError(err, resp))
			if broken.IsZero() {
				broken = started
			}
			sleep(ctx, backoff+time.Duration(rand.Int64N(int64(backoff))))
			backoff = min(backoff*2, time.Second)
			continue
		}
		backoff = 50 * time.Millisecond
		t.d.e.rec.Add("live connect", time.Since(started), false)
		// One version back, so that the server answers at once with the
		// project as it stands: the end of a gap is seen without waiting
		// for the next edit.
		from := max(t.newest(), t.initial) - 1
		if err := conn.WriteJSON(map[string]any{"type": "subscribe", "project": t.d.project, "from": from}); err != nil {
			conn.Close()
			continue
		}
		stop := context.AfterFunc(ctx, func() { conn.Close() })
		first := true
		for {
			var m struct {
				Type    string `json:"type"`
				Version int64  `json:"version"`
				Code    string `json:"code"`
				Error   string `json:"error"`
				Reason  string `json:"reason"`
			}
			// Read into one buffer for the tab's life (ReadMessage grows a
			// fresh slice per message).
			_, r, err := conn.NextReader()
			if err == nil {
				buf.Reset()
				_, err = buf.ReadFrom(r)
			}
			if err != nil {
				break
			}
			data := buf.Bytes()
			at := time.Now()
			if err := liveHeader(data, &m.Type, &m.Version); err != nil {
				t.d.e.fail("live", "unreadable message")
				continue
			}
			if m.Type != "project" {
				if err := json.Unmarshal(data, &m); err != nil {
					t.d.e.fail("live", "unreadable message")
					continue
				}
			}
			switch m.Type {
			case "project":
				if first && !broken.IsZero() {
					t.d.e.addGap(gap{at: broken.Sub(t.d.e.start), took: at.Sub(broken), what: "live"})
					broken = time.Time{}
				}
				first = false
				t.show(m.Version, at)
			case "error", "closed":
				t.d.e.fail("live", m.Type+" "+m.Code+m.Reason+": "+m.Error)
			}
		}
		stop()
		conn.Close()
		if ctx.Err() != nil {
			return
		}
		t.d.e.fail("live", "stream broken")
		if broken.IsZero() {
			broken = time.Now()
		}
	}
}

// liveHeader reads a live message's type and version, which the server
// writes before the project's view, and stops there: a browser tab would
// read the view, but this one only times its arrival, and decoding two
// tabs' views per designer took much of the load generator's CPU, which
// it shares with the system it measures.
func liveHeader(data []byte, typ *string, version *int64) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		return errors.New("not an object")
	}
	var seenType, seenVersion bool
	for dec.More() && !(seenType && seenVersion) {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		switch key {
		case "type":
			if err := dec.Decode(typ); err != nil {
				return err
			}
			seenType = true
		case "version":
			if err := dec.Decode(version); err != nil {
				return err
			}
			seenVersion = true
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return err
			}
		}
	}
	if !seenType {
		return errors.New("no type")
	}
	return nil
}

// saveBody is the save call's body: the project with its one run, the
// calculation's results in the run as the answer gave them.
func saveBody(project string, version int64, requestID, name string, run map[string]any, results json.RawMessage) (json.RawMessage, error) {
	runJSON, err := json.Marshal(run)
	if err != nil {
		return nil, err
	}
	reqJSON, err := json.Marshal(requestID)
	if err != nil {
		return nil, err
	}
	head, err := json.Marshal(map[string]any{"saveID": project, "version": version, "details": map[string]any{"name": name}})
	if err != nil {
		return nil, err
	}
	// Written once into one buffer, the results not read again: copying a
	// 3000 m run's megabyte of results once per nesting level was a third
	// of the generator's CPU, which it shares with the system under test.
	out := make([]byte, 0, len(runJSON)+len(head)+len(results)+len(reqJSON)+80)
	out = append(out, `{"share":false,"request_id":`...)
	out = append(out, reqJSON...)
	out = append(out, `,"project":`...)
	out = append(out, head[:len(head)-1]...)
	out = append(out, `,"runs":[`...)
	if len(results) == 0 {
		out = append(out, runJSON...)
	} else {
		out = append(out, runJSON[:len(runJSON)-1]...)
		if len(runJSON) > 2 {
			out = append(out, ',')
		}
		out = append(out, `"results":`...)
		out = append(out, results...)
		out = append(out, '}')
	}
	return append(out, "]}}"...), nil
}

// handshakeError words a failed WebSocket dial with the status of the
// answer that refused the upgrade, if there was one.
func handshakeError(err error, resp *http.Response) string {
	if resp == nil {
		return err.Error()
	}
	return fmt.Sprintf("%v: status %d (%s)", err, resp.StatusCode, http.StatusText(resp.StatusCode))
}
