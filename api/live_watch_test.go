package api

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"draindesign/api/usecase"
	"draindesign/domain/account"
	"draindesign/eventstore"
	"draindesign/eventstore/eventstoretest"
	"draindesign/eventstore/memory"
	"draindesign/eventstore/pgtest"
	"draindesign/eventstore/privacy"
	"draindesign/eventstore/sqlite"
	"draindesign/metrics"
	"draindesign/projections"
	"draindesign/projections/offer"

	"github.com/gorilla/websocket"
)

// The watcher's batched session check answers exactly the tokens whose
// session user would answer: unknown, ended and expired tokens are absent,
// whichever batch of sessionBatch they fall in.
func TestSessionsUsers(t *testing.T) {
	dbs := map[string]func(t *testing.T) *projections.DB{
		"sqlite": func(t *testing.T) *projections.DB {
			db, err := projections.OpenSQLite(filepath.Join(t.TempDir(), "rm.db"))
			if err != nil {
				t.Fatal(err)
			}
			return db
		},
		"postgres": func(t *testing.T) *projections.DB {
			db, err := projections.OpenPostgres(pgtest.NewDatabase(t))
			if err != nil {
				t.Fatal(err)
			}
			return db
		},
	}
	for name, open := range dbs {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db := open(t)
			t.Cleanup(func() { db.Close() })
			now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
			s := &sessions{db: db, now: func() time.Time { return now }}
			if err := s.setup(ctx); err != nil {
				t.Fatal(err)
			}
			create := func(user string) string {
				tok, err := s.create(ctx, user)
				if err != nil {
					t.Fatal(err)
				}
				return tok
			}
			expired := create("carol") // expires sessionTTL after now
			now = now.Add(sessionTTL / 2)
			ann, bob, ended := create("ann"), create("bob"), create("dan")
			if err := s.end(ctx, ended); err != nil {
				t.Fatal(err)
			}
			now = now.Add(sessionTTL / 2) // carol's session expires this instant

			// Unknown tokens first, so that the live ones land in a later batch.
			var tokens []string
			for range sessionBatch + 10 {
				tokens = append(tokens, newToken())
			}
			tokens = append(tokens, ann, bob, ann, expired, ended, "")
			got, err := s.users(ctx, tokens)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{ann: "ann", bob: "bob"}
			if len(got) != len(want) {
				t.Fatalf("users answered %d tokens, want %d: %v", len(got), len(want), got)
			}
			for tok, user := range want {
				if got[tok] != user {
					t.Errorf("token of %s: got %q", user, got[tok])
				}
			}
			// The same rule as user, token by token.
			for _, tok := range []string{ann, bob, expired, ended} {
				one, err := s.user(ctx, tok)
				if (err == nil) != (got[tok] != "") || one != got[tok] {
					t.Errorf("user says %q, %v; users says %q", one, err, got[tok])
				}
			}
			if got, err := s.users(ctx, nil); err != nil || len(got) != 0 {
				t.Errorf("no tokens: %v, %v", got, err)
			}
		})
	}
}

// counter counts the queries a test server makes to its read-model
// database and its event store.
type counter struct{ db, store atomic.Int64 }

// countingStore counts every read of the event store.
type countingStore struct {
	eventstore.Store
	n *atomic.Int64
}

func (s countingStore) ReadStream(ctx context.Context, stream string, from int64, limit int) ([]eventstore.Event, error) {
	s.n.Add(1)
	return s.Store.ReadStream(ctx, stream, from, limit)
}

func (s countingStore) ReadAll(ctx context.Context, after eventstore.Position, limit int) ([]eventstore.Event, error) {
	s.n.Add(1)
	return s.Store.ReadAll(ctx, after, limit)
}

func (s countingStore) StreamVersion(ctx context.Context, stream string) (int64, error) {
	s.n.Add(1)
	return s.Store.StreamVersion(ctx, stream)
}

// countingConnector hands out SQLite connections that count statements:
// they offer only Prepare, so database/sql prepares every query and
// statement through it.
type countingConnector struct {
	drv driver.Driver
	dsn string
	n   *atomic.Int64
}

func (c countingConnector) Connect(context.Context) (driver.Conn, error) {
	conn, err := c.drv.Open(c.dsn)
	if err != nil {
		return nil, err
	}
	return countingConn{conn, c.n}, nil
}

func (c countingConnector) Driver() driver.Driver { return c.drv }

type countingConn struct {
	driver.Conn
	n *atomic.Int64
}

func (c countingConn) Prepare(query string) (driver.Stmt, error) {
	c.n.Add(1)
	return c.Conn.Prepare(query)
}

func countingDB(t *testing.T, n *atomic.Int64) *projections.DB {
	t.Helper()
	plain, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	drv := plain.Driver()
	plain.Close()
	dsn := "file:" + filepath.Join(t.TempDir(), "rm.db") + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)"
	db := &projections.DB{SQL: sql.OpenDB(countingConnector{drv: drv, dsn: dsn, n: n}), Dialect: projections.SQLite}
	t.Cleanup(func() { db.Close() })
	// The offer stamps the watcher asks live in the offer read model.
	for _, q := range (offer.Projection{}).Schema() {
		if _, err := db.Exec(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// liveServer is a Server without a runner or a feed, on a counting store
// and database, behind a test HTTP server.
func liveServer(t *testing.T, store eventstore.Store, db *projections.DB) (*Server, *httptest.Server) {
	t.Helper()
	s, err := newServer(context.Background(), Config{
		Store: store, DB: db, PublicURL: "http://localhost", Secret: []byte(strings.Repeat("k", 32)),
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.handler())
	t.Cleanup(srv.Close)
	return s, srv
}

// signedIn registers a confirmed user and returns a session token.
func signedIn(t *testing.T, s *Server, name string) string {
	t.Helper()
	ctx := context.Background()
	a, err := s.accounts.Register(ctx, usecase.Actor{}, account.RegisterInput{
		Username: name, Password: "a long password", PasswordConfirmation: "a long password",
		FirstName: "Ann", LastName: "Example", Email: name + "@example.com", Company: "Drains Ltd",
		Country: "GB", Address: "1 High Street", City: "Leeds", Postcode: "LS1 1AA",
	}, account.GroupStandard, "en")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.accounts.ConfirmEmail(ctx, usecase.Actor{}, a.ID, s.accounts.ConfirmationToken(a)); err != nil {
		t.Fatal(err)
	}
	token, err := s.sessions.create(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	return token
}

// browser is an HTTP client holding a session cookie for srv.
func browser(t *testing.T, srv *httptest.Server, token string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	u, _ := url.Parse(srv.URL)
	jar.SetCookies(u, []*http.Cookie{{Name: cookieName, Value: token, Path: "/"}})
	return &http.Client{Jar: jar, Timeout: 10 * time.Second}
}

func post(t *testing.T, c *http.Client, srv *httptest.Server, path, body string, out any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		t.Fatalf("POST %s: %d", path, resp.StatusCode)
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
}

func dialLive(t *testing.T, c *http.Client, srv *httptest.Server) *websocket.Conn {
	t.Helper()
	d := websocket.Dialer{Jar: c.Jar, HandshakeTimeout: 5 * time.Second}
	conn, resp, err := d.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/api/ws", http.Header{"Origin": {srv.URL}})
	if resp != nil {
		resp.Body.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

type liveMessage struct {
	Type    string `json:"type"`
	Project string `json:"project"`
	Version int64  `json:"version"`
	Reason  string `json:"reason"`
}

func readLive(t *testing.T, conn *websocket.Conn, within time.Duration) liveMessage {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(within))
	var m liveMessage
	if err := conn.ReadJSON(&m); err != nil {
		t.Fatalf("no live message within %s: %v", within, err)
	}
	return m
}

// settle waits until n stops moving: the connections have acted on a tick.
func settle(n *atomic.Int64) {
	for last := int64(-1); ; {
		time.Sleep(150 * time.Millisecond)
		if now := n.Load(); now == last {
			return
		} else {
			last = now
		}
	}
}

// The watcher's queries per tick do not grow with the connections: with 1
// or 20 idle connections, each following a project, a quiet tick asks the
// database once (every session) and the store once (the log's tail). A
// change to the project reaches every subscription through the log's
// tail, with no event bus.
func TestLiveWatchQueriesPerTick(t *testing.T) {
	perTick := map[int][2]int64{}
	for _, conns := range []int{1, 20} {
		var n counter
		s, srv := liveServer(t, countingStore{memory.New(), &n.store}, countingDB(t, &n.db))
		s.live.mu.Lock()
		s.live.every = time.Hour // ticked by hand below
		s.live.mu.Unlock()
		c := browser(t, srv, signedIn(t, s, "ann"))
		var created struct {
			ID      string `json:"id"`
			Version int64  `json:"version"`
			RunID   string `json:"run_id"`
		}
		post(t, c, srv, "/api/projects/", `{}`, &created)
		var ws []*websocket.Conn
		for range conns {
			conn := dialLive(t, c, srv)
			if err := conn.WriteJSON(map[string]any{"type": "subscribe", "project": created.ID, "from": 0}); err != nil {
				t.Fatal(err)
			}
			if m := readLive(t, conn, 5*time.Second); m.Type != "project" || m.Version != created.Version {
				t.Fatalf("subscribed: %+v", m)
			}
			ws = append(ws, conn)
		}
		ctx := context.Background()
		st := newWatchState()
		s.live.tick(ctx, st) // the first reads to the head and checks everything
		settle(&n.db)

		db0, store0 := n.db.Load(), n.store.Load()
		const ticks = 3
		for range ticks {
			s.live.tick(ctx, st)
		}
		settle(&n.db)
		perTick[conns] = [2]int64{(n.db.Load() - db0) / ticks, (n.store.Load() - store0) / ticks}
		if got := perTick[conns]; got != [2]int64{1, 1} {
			t.Errorf("%d connections: %d database and %d store queries per quiet tick, want 1 and 1", conns, got[0], got[1])
		}

		// A change, with no feed: the next tick pokes every subscription.
		before := *st
		before.offers = map[string]int64{}
		post(t, c, srv, "/api/projects/"+created.ID+"/commands", `{"type":"rename_run","run_id":"`+created.RunID+`","name":"Renamed"}`, nil)
		s.live.tick(ctx, st)
		for i, conn := range ws {
			if m := readLive(t, conn, 5*time.Second); m.Type != "project" || m.Version <= created.Version {
				t.Fatalf("connection %d after a change: %+v", i, m)
			}
		}
		settle(&n.store)

		// The same change seen in the tail again (as when the feed
		// brought it first): the followers are at the version the tail
		// shows, so none reads the project again.
		store0 = n.store.Load()
		s.live.tick(ctx, &before)
		settle(&n.store)
		if got := n.store.Load() - store0; got != 1 {
			t.Errorf("%d connections: %d store reads for a change every follower had, want 1 (the tail)", conns, got)
		}
	}
	if perTick[1] != perTick[20] {
		t.Errorf("queries per tick grow with the connections: 1 → %v, 20 → %v", perTick[1], perTick[20])
	}
}

// A logout through another instance sharing the database closes the
// stream within about two liveRecheck, with no event bus at all: the
// watcher's session check is what sees it.
func TestLiveLogoutOnOtherInstance(t *testing.T) {
	var n counter
	store := memory.New()
	db := countingDB(t, &n.db)
	a, srvA := liveServer(t, store, db)
	_, srvB := liveServer(t, store, db)
	token := signedIn(t, a, "ann")
	conn := dialLive(t, browser(t, srvB, token), srvB)
	time.Sleep(liveRecheck / 2) // the watcher of B is running
	ended := time.Now()
	post(t, browser(t, srvA, token), srvA, "/api/auth/logout/", ``, nil)
	if m := readLive(t, conn, 2*liveRecheck+500*time.Millisecond); m.Type != "closed" || m.Reason != closedSession {
		t.Fatalf("after a logout on A, B's client got %+v", m)
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, _, err := conn.ReadMessage()
	if !websocket.IsCloseError(err, closeSessionEnded) {
		t.Fatalf("after the closed message: %v, want close code %d", err, closeSessionEnded)
	}
	t.Logf("closed %s after the logout", time.Since(ended).Round(time.Millisecond))
}

// The watcher reads the log's tail beneath the counting and sealing
// wrappers the app puts on its store: it needs no personal field opened.
func TestTailStoreBeneathWrappers(t *testing.T) {
	inner, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "events.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inner.Close() })
	sealed, _, ok := privacy.Wrap(inner)
	if !ok {
		t.Fatal("the SQLite store keeps subject keys")
	}
	tailOf := func(store eventstore.Store) eventstore.Store {
		return newLiveWatcher(&Server{cfg: Config{Store: store}}).tail
	}
	if got := tailOf(metrics.CountAppends(sealed)); got != eventstore.Store(inner) {
		t.Errorf("tail read from %T, want the SQLite store", got)
	}
	plain := memory.New()
	if got := tailOf(plain); got != eventstore.Store(plain) {
		t.Errorf("an unwrapped store: tail read from %T", got)
	}
}

// failingStore fails every read of the log.
type failingStore struct{ eventstore.Store }

func (failingStore) ReadAll(context.Context, eventstore.Position, int) ([]eventstore.Event, error) {
	return nil, errors.New("the database is gone")
}

// What the log's tail tells the watcher: everything on the first tick,
// the streams touched on a quiet one, everything again when the tail is
// longer than liveTailMax or cannot be read; availability changes are
// remembered for the offer check.
func TestLiveWatchChanges(t *testing.T) {
	ctx := context.Background()
	store := memory.New()
	appendTo := func(stream string, n int) {
		t.Helper()
		for n > 0 {
			batch := min(n, 1000)
			evs := make([]eventstore.NewEvent, batch)
			for i := range evs {
				evs[i] = eventstore.NewEvent{ID: newToken(), Type: "test.happened", Data: json.RawMessage(`{}`)}
			}
			if _, err := store.Append(ctx, stream, eventstore.Any, evs...); err != nil {
				t.Fatal(err)
			}
			n -= batch
		}
	}
	spy := &eventstoretest.Reads{Store: store}
	w := &liveWatcher{s: &Server{log: slog.New(slog.DiscardHandler)}, tail: spy}
	st := newWatchState()
	appendTo("project-old", 3)
	if ch := w.changes(ctx, st); !ch.all {
		t.Errorf("first tick: %+v, want everything", ch)
	}
	if ch := w.changes(ctx, st); ch.all || len(ch.streams) != 0 {
		t.Errorf("quiet tick: %+v, want nothing", ch)
	}
	appendTo("project-a", 2)
	appendTo("account-u", 1)
	appendTo("availability-GB", 1)
	ch := w.changes(ctx, st)
	if ch.all || len(ch.streams) != 3 || ch.streams["project-a"] != 2 || !ch.touched("account-u") || ch.touched("project-old") {
		t.Errorf("after three streams changed: %+v", ch)
	}
	if st.offers["GB"] != 1 {
		t.Errorf("offers to check: %v, want GB at version 1", st.offers)
	}
	appendTo("project-b", liveTailMax+1)
	if ch := w.changes(ctx, st); !ch.all {
		t.Errorf("far behind: %d streams, want everything", len(ch.streams))
	}
	if n := spy.WithData(); n != 0 {
		t.Errorf("the watcher read %d events with their data; it needs their streams and versions only", n)
	}
	pos := st.pos
	w.tail = failingStore{store}
	if ch := w.changes(ctx, st); !ch.all || st.pos != pos {
		t.Errorf("failed read: %+v at %v, want everything and the position kept", ch, st.pos)
	}
}

// Sessions that cannot be checked close every connection ("try again")
// after liveCheckFailures ticks, and not before.
func TestLiveWatchFailedChecks(t *testing.T) {
	var n counter
	s, srv := liveServer(t, memory.New(), countingDB(t, &n.db))
	s.live.mu.Lock()
	s.live.every = time.Hour // ticked by hand below
	s.live.mu.Unlock()
	conn := dialLive(t, browser(t, srv, signedIn(t, s, "ann")), srv)
	ctx := context.Background()
	st := newWatchState()
	s.live.tick(ctx, st)
	settle(&n.db)
	s.cfg.DB.Close() // every query fails from now on
	for i := 1; i <= liveCheckFailures; i++ {
		s.live.tick(ctx, st)
		time.Sleep(100 * time.Millisecond) // the connection acts on the check
		open := s.live.snapshot()
		if i < liveCheckFailures && (len(open) != 1 || open[0].ctx.Err() != nil) {
			t.Fatalf("after %d failed checks the connection is closed", i)
		}
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, _, err := conn.ReadMessage()
	if !websocket.IsCloseError(err, websocket.CloseInternalServerErr) {
		t.Fatalf("after %d failed checks: %v, want close code %d", liveCheckFailures, err, websocket.CloseInternalServerErr)
	}
}

// Pokes not yet taken merge: "read the store" (0) wins, else the highest
// version seen; a signal left over from a poke already taken is none.
func TestLiveSubPokesMerge(t *testing.T) {
	for _, tc := range []struct {
		pokes []int64
		want  int64
	}{
		{[]int64{7}, 7},
		{[]int64{0}, 0},
		{[]int64{5, 9, 7}, 9},
		{[]int64{5, 0, 7}, 0},
		{[]int64{0, 7}, 0},
	} {
		sub := &liveSub{poke: make(chan struct{}, 1)}
		for _, v := range tc.pokes {
			sub.pokeAt(v)
		}
		<-sub.poke
		if got, ok := sub.poked(); !ok || got != tc.want {
			t.Errorf("pokes %v: took %d (%v), want %d", tc.pokes, got, ok, tc.want)
		}
		if _, ok := sub.poked(); ok {
			t.Errorf("pokes %v: a second take found a poke", tc.pokes)
		}
	}
}
