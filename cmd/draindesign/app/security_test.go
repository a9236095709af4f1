package app

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"draindesign/api"
	"draindesign/domain/account"

	"github.com/gorilla/websocket"
)

// answer is one response as a fresh client saw it.
type answer struct {
	status     int
	retryAfter string
	error      string
	localPort  string
}

// fresh sends one JSON request on a connection of its own (a new transport
// each time, so a new source port), with extra headers, and no cookies.
func fresh(t *testing.T, base, method, path string, body any, header map[string]string) answer {
	t.Helper()
	a, err := send(base, method, path, body, header)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// send is fresh for any goroutine.
func send(base, method, path string, body any, header map[string]string) (answer, error) {
	b, _ := json.Marshal(body)
	req, err := http.NewRequest(method, base+path, strings.NewReader(string(b)))
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		if strings.EqualFold(k, "Host") {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	var local string
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) { _, local, _ = net.SplitHostPort(info.Conn.LocalAddr().String()) },
	}))
	tr := &http.Transport{DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr, Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		return answer{}, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	var e struct {
		Error string `json:"error"`
	}
	data, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(data, &e)
	return answer{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), error: e.Error, localPort: local}, nil
}

// tooMany checks a 429 carries a usable Retry-After and a readable error.
func tooMany(t *testing.T, a answer, wantErr string) {
	t.Helper()
	if a.status != http.StatusTooManyRequests {
		t.Fatalf("status %d (%q), want 429", a.status, a.error)
	}
	if secs, err := strconv.Atoi(a.retryAfter); err != nil || secs < 1 {
		t.Errorf("Retry-After %q, want whole seconds", a.retryAfter)
	}
	if !strings.Contains(a.error, wantErr) {
		t.Errorf("error %q, want it to say %q", a.error, wantErr)
	}
}

// Failed log-ins are counted per client address, not per connection, and a
// forwarding header counts only when a trusted proxy sent it: neither a new
// connection per try nor a rotated X-Forwarded-For escapes the limit, while
// behind a trusted proxy each forwarded client is counted on its own.
func TestLoginThrottledByClientAddress(t *testing.T) {
	const limit = 3
	// Each try names another account, so only the address can be counted.
	lim := api.Limits{LoginAddressFailures: limit, LoginFreeFailures: 1000}
	cases := []struct {
		name    string
		trusted string
		header  func(i int) map[string]string
		// throttled: the try after the limit is refused.
		throttled bool
	}{
		{"new connection per try", "", func(int) map[string]string { return nil }, true},
		{"rotated forwarding headers from an untrusted peer", "", func(i int) map[string]string {
			return map[string]string{"X-Forwarded-For": fmt.Sprintf("198.51.100.%d", i+1), "X-Real-IP": fmt.Sprintf("203.0.113.%d", i+1)}
		}, true},
		{"trusted proxy: one forwarded client, spoofed entries on the left", "127.0.0.1", func(i int) map[string]string {
			return map[string]string{"X-Forwarded-For": fmt.Sprintf("10.0.0.%d, 198.51.100.7", i+1)}
		}, true},
		{"trusted proxy: a different forwarded client per try", "127.0.0.0/8", func(i int) map[string]string {
			return map[string]string{"X-Forwarded-For": fmt.Sprintf("198.51.100.%d", i+1)}
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := start(t, Options{DataDir: t.TempDir(), TrustedProxies: tc.trusted, Limits: lim})
			ports := map[string]bool{}
			for i := range limit {
				a := fresh(t, p.srv.URL, "POST", "/api/auth/login/",
					map[string]string{"username": fmt.Sprint("nobody", i), "password": "a wrong password"}, tc.header(i))
				if a.status != http.StatusUnauthorized {
					t.Fatalf("try %d: status %d (%q), want 401", i+1, a.status, a.error)
				}
				ports[a.localPort] = true
			}
			if len(ports) != limit {
				t.Fatalf("tries shared connections: source ports %v", ports)
			}
			a := fresh(t, p.srv.URL, "POST", "/api/auth/login/",
				map[string]string{"username": "someone-else", "password": "a wrong password"}, tc.header(limit))
			if tc.throttled {
				tooMany(t, a, "Too many failed log-in attempts")
			} else if a.status != http.StatusUnauthorized {
				t.Fatalf("try %d from another forwarded client: %d (%q), want 401", limit+1, a.status, a.error)
			}
		})
	}
}

// Failures on one account from many addresses make the next try wait,
// whatever its address and even with the right password, while other
// accounts log in as usual.
func TestLoginBackoffAcrossAddresses(t *testing.T) {
	const free = 3
	p := start(t, Options{DataDir: t.TempDir(), TrustedProxies: "127.0.0.1",
		Limits: api.Limits{LoginFreeFailures: free, LoginBackoffBase: time.Minute, LoginBackoffMax: 10 * time.Minute}})
	p.signUp(t, "target")
	p.signUp(t, "bystander")
	from := func(i int) map[string]string {
		return map[string]string{"X-Forwarded-For": fmt.Sprintf("198.51.100.%d", i)}
	}
	for i := range free {
		a := fresh(t, p.srv.URL, "POST", "/api/auth/login/", map[string]string{"username": "target", "password": "guess " + strconv.Itoa(i)}, from(i+1))
		if a.status != http.StatusUnauthorized {
			t.Fatalf("guess %d: %d (%q), want 401", i+1, a.status, a.error)
		}
	}
	a := fresh(t, p.srv.URL, "POST", "/api/auth/login/", map[string]string{"username": "TARGET", "password": "a long password"}, from(100))
	tooMany(t, a, "Too many failed log-in attempts. Try again in 1 minute.")
	if secs, _ := strconv.Atoi(a.retryAfter); secs < 50 || secs > 60 {
		t.Errorf("Retry-After %q, want the minute's rest", a.retryAfter)
	}
	a = fresh(t, p.srv.URL, "POST", "/api/auth/login/", map[string]string{"username": "bystander", "password": "a long password"}, from(1))
	if a.status != http.StatusOK {
		t.Errorf("another account from a guessing address: %d (%q), want 200", a.status, a.error)
	}

	// A burst of simultaneous guesses gets no more than guesses in turn:
	// tries under way count before their passwords are checked.
	const burst = 12
	answers := make(chan answer, burst)
	for i := range burst {
		go func() {
			a, err := send(p.srv.URL, "POST", "/api/auth/login/",
				map[string]string{"username": "bystander", "password": "guess " + strconv.Itoa(i)}, from(10+i))
			if err != nil {
				a.error = err.Error()
			}
			answers <- a
		}()
	}
	checked := 0
	for range burst {
		switch a := <-answers; a.status {
		case http.StatusUnauthorized:
			checked++
		case http.StatusTooManyRequests:
		default:
			t.Errorf("burst: %d (%q)", a.status, a.error)
		}
	}
	if checked > free {
		t.Errorf("%d of %d simultaneous guesses were checked, want at most %d", checked, burst, free)
	}
}

// Registrations and reset requests are limited per client address: a burst,
// then 429 with Retry-After; another address is not affected.
func TestRegisterAndResetRateLimited(t *testing.T) {
	const burst = 2
	p := start(t, Options{DataDir: t.TempDir(), TrustedProxies: "127.0.0.1",
		Limits: api.Limits{RequestsBurst: burst, RequestsEvery: time.Hour}})
	calls := []struct {
		path string
		body func(i int) any
		ok   int
		what string
	}{
		{"/api/drainage/register/", func(i int) any { return registration(fmt.Sprint("reg", i)) }, http.StatusCreated, "Too many registrations from your address"},
		{"/api/auth/password/reset/", func(int) any { return map[string]string{"email": "reg0@example.com"} }, http.StatusOK, "Too many password reset requests from your address"},
	}
	for _, c := range calls {
		t.Run(c.path, func(t *testing.T) {
			a1 := map[string]string{"X-Forwarded-For": "198.51.100.1"}
			for i := range burst {
				if a := fresh(t, p.srv.URL, "POST", c.path, c.body(i), a1); a.status != c.ok {
					t.Fatalf("call %d: %d (%q), want %d", i+1, a.status, a.error, c.ok)
				}
			}
			tooMany(t, fresh(t, p.srv.URL, "POST", c.path, c.body(burst), a1), c.what)
			// An invalid body costs the same: the limit comes before reading it.
			tooMany(t, fresh(t, p.srv.URL, "POST", c.path, map[string]string{}, a1), c.what)
			a2 := map[string]string{"X-Forwarded-For": "198.51.100.2"}
			if a := fresh(t, p.srv.URL, "POST", c.path, c.body(burst+1), a2); a.status != c.ok {
				t.Fatalf("another address: %d (%q), want %d", a.status, a.error, c.ok)
			}
		})
	}
}

// Mailed links come from the configured public address, whatever Host (or
// forwarding header) the request names.
func TestMailLinksIgnoreHost(t *testing.T) {
	cases := []struct{ name, public string }{
		{"loopback default", ""}, // start sets it to the listening address, as serve does
		{"configured", "https://drains.example.com/"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := start(t, Options{DataDir: t.TempDir(), PublicURL: tc.public})
			want := strings.TrimSuffix(p.opts.PublicURL, "/")
			hostile := map[string]string{"Host": "evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https"}
			if a := fresh(t, p.srv.URL, "POST", "/api/drainage/register/", registration("victim"), hostile); a.status != http.StatusCreated {
				t.Fatalf("register: %d %q", a.status, a.error)
			}
			if link := mailedLink(t, p.opts.DataDir, "victim@example.com"); !strings.HasPrefix(link, want+"/api/auth/confirm/?") {
				t.Errorf("confirmation link %s, want it under %s", link, want)
			}
			if a := fresh(t, p.srv.URL, "POST", "/api/auth/password/reset/", map[string]string{"email": "victim@example.com"}, hostile); a.status != http.StatusOK {
				t.Fatalf("reset: %d %q", a.status, a.error)
			}
			link := mailedLink(t, p.opts.DataDir, "victim@example.com")
			if !strings.HasPrefix(link, want+"/password-reset/") || strings.Contains(link, "evil") {
				t.Errorf("reset link %s, want it under %s", link, want)
			}
		})
	}
}

// The product does not start without a public address.
func TestPublicURLRequired(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	_, err := Start(context.Background(), Options{DataDir: t.TempDir(), Client: testClient, Logger: quiet})
	if err == nil || !strings.Contains(err.Error(), "PUBLIC_URL") {
		t.Fatalf("start without a public URL: %v", err)
	}
}

// The session cookie is Secure when the public address is https (TLS ended
// by a proxy in front), and not when it is plain http.
func TestSessionCookieSecure(t *testing.T) {
	for _, tc := range []struct {
		public string
		secure bool
	}{{"", false}, {"https://drains.example.com", true}} {
		t.Run(fmt.Sprint("secure=", tc.secure), func(t *testing.T) {
			p := start(t, Options{DataDir: t.TempDir(), PublicURL: tc.public})
			p.staff(t, "cookie", "standard")
			body, _ := json.Marshal(map[string]string{"username": "cookie", "password": "a long password"})
			resp, err := http.Post(p.srv.URL+"/api/auth/login/", "application/json", strings.NewReader(string(body)))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			var c *http.Cookie
			for _, k := range resp.Cookies() {
				if k.Name == "session-state" {
					c = k
				}
			}
			if resp.StatusCode != http.StatusOK || c == nil {
				t.Fatalf("login: %d, cookies %v", resp.StatusCode, resp.Cookies())
			}
			if c.Secure != tc.secure || !c.HttpOnly {
				t.Errorf("cookie Secure %v HttpOnly %v, want Secure %v", c.Secure, c.HttpOnly, tc.secure)
			}
		})
	}
}

// held is a CPU-heavy request that has taken its slot and waits, with its
// body unsent, until finish sends it.
type held struct {
	conn net.Conn
	r    *bufio.Reader
	body string
}

// hold starts POST path as u with Expect: 100-continue. The server answers
// "100 Continue" only when the handler starts reading the body, that is
// after the limit has admitted the call and while it holds its slot: no
// guessing how long to wait.
func (p *product) hold(t *testing.T, u *user, path, body string) *held {
	t.Helper()
	base, _ := url.Parse(p.srv.URL)
	conn, err := net.Dial("tcp", base.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"+
		"Expect: 100-continue\r\nCookie: %s\r\n\r\n", path, base.Host, len(body), cookieHeader(t, p, u))
	h := &held{conn: conn, r: bufio.NewReader(conn), body: body}
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	line, err := h.r.ReadString('\n')
	if err != nil || !strings.Contains(line, " 100 ") {
		t.Fatalf("held call: %q %v, want 100 Continue", line, err)
	}
	if blank, _ := h.r.ReadString('\n'); blank != "\r\n" {
		t.Fatalf("after 100 Continue: %q", blank)
	}
	return h
}

// finish sends the body and reads the answer's status.
func (h *held) finish(t *testing.T) int {
	t.Helper()
	if _, err := io.WriteString(h.conn, h.body); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(h.r, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// One user's CPU-heavy calls beyond the per-user limit are refused at once
// with 429, on every heavy route, while another user's calculation goes
// through; a slot comes back when a call ends. A calculation takes one of
// the instance's slots only once it is ready to compute; past the total,
// a call waits its turn (HeavyQueue) and is then refused.
func TestHeavyCallsLimitedPerUser(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir(), Limits: api.Limits{HeavyPerUser: 2, HeavyTotal: 3, HeavyQueue: 200 * time.Millisecond}})
	// The example calculation is an advanced design: the users have the right to it.
	flood, other, third := p.staff(t, "flood", account.GroupAdvanced), p.staff(t, "other", account.GroupAdvanced), p.staff(t, "third", account.GroupAdvanced)
	fourth := p.staff(t, "fourth", account.GroupAdvanced)
	calc := "/api/drainage/calculate/"

	h1 := p.hold(t, flood, calc, exampleCalc)
	h2 := p.hold(t, flood, calc, exampleCalc)
	for _, path := range []string{calc, "/api/drainage/calculate_shared/", "/api/drainage/calculate_storage/", "/api/rainfall/findRainStats/"} {
		var e struct{ Error string }
		if got := flood.call("POST", path, exampleCalc, &e); got != http.StatusTooManyRequests || !strings.Contains(e.Error, "2 calculations running") {
			t.Errorf("flood's third call %s: %d %q, want 429", path, got, e.Error)
		}
	}
	a := fresh(t, p.srv.URL, "POST", calc, json.RawMessage(exampleCalc), map[string]string{"Cookie": cookieHeader(t, p, flood)})
	tooMany(t, a, "calculations running")

	var ans calcAnswer
	other.must(http.StatusOK, "POST", calc, exampleCalc, &ans)
	if !ans.Results.Calculated {
		t.Errorf("other's calculation: %+v", ans.Results)
	}

	// Three calculations still reading their requests hold none of the
	// three instance slots: a third user's calculation runs.
	h3 := p.hold(t, other, calc, exampleCalc)
	third.must(http.StatusOK, "POST", calc, exampleCalc, nil)

	// Rainfall look-ups take their slot on arrival: three fill the
	// instance, and the next heavy call, a rainfall look-up or a
	// calculation about to compute, is refused after its wait in line.
	rain := `{"latitude": 53.80, "longitude": -1.55, "stormDuration": 30, "returnPeriod": 30, "climateFactor": 0}`
	rains := []*held{p.hold(t, third, "/api/rainfall/findRainStats/", rain), p.hold(t, third, "/api/rainfall/findRainStats/", rain),
		p.hold(t, fourth, "/api/rainfall/findRainStats/", rain)}
	for _, path := range []string{"/api/rainfall/findRainStats/", calc} {
		body := rain
		if path == calc {
			body = exampleCalc
		}
		var e struct{ Error string }
		if got := other.call("POST", path, body, &e); got != http.StatusTooManyRequests || !strings.Contains(e.Error, "busy") {
			t.Errorf("%s past the total: %d %q, want 429 busy", path, got, e.Error)
		}
	}

	for i, h := range append(rains, h1, h2, h3) {
		if got := h.finish(t); got != http.StatusOK {
			t.Errorf("held call %d: %d, want 200", i+1, got)
		}
	}
	flood.must(http.StatusOK, "POST", calc, exampleCalc, nil)
	third.must(http.StatusOK, "POST", calc, exampleCalc, nil)
}

func cookieHeader(t *testing.T, p *product, u *user) string {
	t.Helper()
	base, _ := url.Parse(p.srv.URL)
	var cs []string
	for _, c := range u.http.Jar.Cookies(base) {
		cs = append(cs, c.Name+"="+c.Value)
	}
	if len(cs) == 0 {
		t.Fatal("no session cookie")
	}
	return strings.Join(cs, "; ")
}

// A client that drips its request one byte a second is cut off once the
// read timeout has passed, in the headers or in the body; it does not hold
// the connection for as long as it likes.
func TestSlowDripCutOff(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir(), Timeouts: Timeouts{ReadHeader: time.Second, Read: 2 * time.Second}})
	base, _ := url.Parse(p.srv.URL)
	cases := []struct{ name, head, drip string }{
		{"body", "POST /api/auth/login/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n",
			`{"username": "slow", "password": "` + strings.Repeat("x", 900)},
		{"headers", "POST /api/auth/login/ HTTP/1.1\r\n", "Host: x\r\nX-Slow: " + strings.Repeat("x", 900)},
	}
	const most = 30 // bytes dripped before the test gives up: 30 s
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", base.Host)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := io.WriteString(conn, tc.head); err != nil {
				t.Fatal(err)
			}
			stop := make(chan struct{})
			dripped := make(chan int, 1)
			go func() {
				n := 0
				defer func() { dripped <- n }()
				tick := time.NewTicker(time.Second)
				defer tick.Stop()
				for n < most {
					select {
					case <-stop:
						return
					case <-tick.C:
					}
					if _, err := conn.Write([]byte{tc.drip[n]}); err != nil {
						return
					}
					n++
				}
			}()
			// The server closes the connection (after a 4xx answer, or
			// without one); reading to the end tells when.
			_ = conn.SetReadDeadline(time.Now().Add((most + 5) * time.Second))
			_, err = io.ReadAll(conn)
			close(stop)
			n := <-dripped
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatalf("connection still open after %d bytes dripped a second apart", n)
			}
			if n >= most {
				t.Fatalf("the whole drip of %d bytes was read", n)
			}
		})
	}
}

// The WebSocket outlives every server timeout: after the handshake the
// connection is the live stream's, which keeps its own deadlines.
func TestWebSocketOutlivesTimeouts(t *testing.T) {
	short := 2 * time.Second
	p := start(t, Options{DataDir: t.TempDir(), Timeouts: Timeouts{ReadHeader: short, Read: short, Write: short, Idle: short}})
	u := p.signUp(t, "steady")
	conn := p.dial(t, u)
	pong := make(chan struct{}, 1)
	conn.SetPongHandler(func(string) error {
		select {
		case pong <- struct{}{}:
		default:
		}
		return nil
	})
	go func() {
		for {
			if _, _, err := conn.ReadMessage(); err != nil {
				return
			}
		}
	}()
	time.Sleep(short + 3*time.Second) // past the read, write and idle timeouts
	if err := conn.WriteControl(websocket.PingMessage, []byte("still there?"), time.Now().Add(5*time.Second)); err != nil {
		t.Fatalf("ping: %v", err)
	}
	select {
	case <-pong:
	case <-time.After(10 * time.Second):
		t.Fatal("no pong: the server closed the WebSocket at its HTTP timeouts")
	}
}

// A save takes an instance slot only when it must recalculate a run: one
// whose runs are the project's own calculations goes through while every
// slot is taken; one that brings a run never calculated waits its turn
// and is refused (429, retry in a second) when none comes free.
func TestSaveTakesASlotOnlyToRecalculate(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir(), Limits: api.Limits{HeavyPerUser: 2, HeavyTotal: 1, HeavyQueue: 200 * time.Millisecond}})
	u, other := p.signUp(t, "sol"), p.signUp(t, "ola")
	var d editAnswer
	u.must(http.StatusCreated, "POST", "/api/projects/", map[string]any{}, &d)
	inputs := map[string]any{"channel_group": "poly-100", "loading": "C250", "grating": "poly-100-slot-iron", "stepped": false,
		"channel_length_m": 20, "drainage_area_m2": 200, "rainfall": map[string]any{"rainfall_mm_per_hr": 50}, "ground_slope": 0.2}
	var edited editAnswer
	u.must(http.StatusOK, "POST", "/api/projects/"+d.ID+"/commands", map[string]any{"type": "change_inputs", "run_id": d.RunID, "fields": inputs}, &edited)
	calc := map[string]any{"project_id": d.ID, "run_id": d.RunID}
	maps.Copy(calc, inputs)
	u.must(http.StatusOK, "POST", "/api/drainage/calculate/", calc, nil)
	run := map[string]any{"name": "Run 1", "notes": "", "saveID": d.RunID}
	maps.Copy(run, inputs)
	asNew := map[string]any{"name": "Run 1"}
	maps.Copy(asNew, inputs)

	rain := `{"latitude": 53.80, "longitude": -1.55, "stormDuration": 30, "returnPeriod": 30, "climateFactor": 0}`
	busy := p.hold(t, other, "/api/rainfall/findRainStats/", rain) // the instance's one slot
	var saved struct{ Version int64 }
	u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"saveID": d.ID, "version": edited.Version + 1, "details": map[string]any{"name": "Yard"}, "runs": []any{run}}}, &saved)
	a := fresh(t, p.srv.URL, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"details": map[string]any{"name": "Yard copy"}, "runs": []any{asNew}}}, map[string]string{"Cookie": cookieHeader(t, p, u)})
	tooMany(t, a, "busy")
	if got := busy.finish(t); got != http.StatusOK {
		t.Fatalf("held look-up: %d", got)
	}
	u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"details": map[string]any{"name": "Yard copy"}, "runs": []any{asNew}}}, nil)
}
