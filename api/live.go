package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/project"
	"draindesign/metrics"

	"github.com/gorilla/websocket"
)

// The live project stream (GET /api/ws). A client subscribes to a project
// from the version it holds and receives, after every change, one typed
// message with the project as the server sees it (ProjectView) at the new
// version; it never re-applies events itself. Several events committed
// together (a save appends many) become one message.
//
// Access is checked when subscribing and kept checked for as long as the
// subscription lasts: after every change of the project (stop sharing,
// delete, a save that withdraws the provider's access) and on a short
// ticker that re-reads the session and the account from the database, so a
// logout, an expired session, a block or a deletion made on any instance
// closes the subscription within about liveRecheck. One ticker serves all
// of an instance's connections (liveWatcher, live_watch.go): it asks their
// sessions together and reads the event log's tail once, so that only what
// changed is read again.
//
// Client → server:
//
//	{"type":"subscribe","project":"<id>","from":N}
//	{"type":"subscribe","share":"<share id>","from":N}   a share-link holder
//	{"type":"unsubscribe","project":"<id>"}
//
// Server → client:
//
//	{"type":"project","project":"<id>","version":N,"view":{...ProjectView}}
//	{"type":"closed","project":"<id>","reason":"no_access"|"deleted"}   the subscription ends
//	{"type":"closed","reason":"session"}   the last message; the socket closes with code 4401
//	{"type":"catalogue","country":"GB"}   the products offered to the user changed: load them again
//	{"type":"error","project":"<id>","share":"<share id>","code":"not_found"|"bad_request"|"server","error":"..."}
//	    a refused request; "server" may succeed when tried again
//
// Clients order project messages by version and drop any not newer than the
// one they hold. A project the viewer may not read is answered exactly like a
// missing one.

type liveRequest struct {
	Type    string `json:"type"` // subscribe or unsubscribe
	Project string `json:"project"`
	Share   string `json:"share"`
	From    int64  `json:"from"`
}

// liveProject is the project as it stands after a change.
type liveProject struct {
	Type    string      `json:"type"` // project
	Project string      `json:"project"`
	Version int64       `json:"version"`
	View    ProjectView `json:"view"`
}

// liveClosed ends a subscription (Project set) or the whole connection.
type liveClosed struct {
	Type    string `json:"type"` // closed
	Project string `json:"project,omitempty"`
	Reason  string `json:"reason"`
}

// Reasons a subscription or the connection was closed.
const (
	closedNoAccess = "no_access"
	closedDeleted  = "deleted"
	closedSession  = "session"
)

// liveCatalogue says the products offered to the user changed.
type liveCatalogue struct {
	Type    string `json:"type"` // catalogue
	Country string `json:"country"`
}

type liveError struct {
	Type    string `json:"type"` // error
	Project string `json:"project,omitempty"`
	Share   string `json:"share,omitempty"`
	Code    string `json:"code"`
	Error   string `json:"error"`
}

// Codes of refused requests: what the client should do next.
const (
	// errNotFound: the project does not exist or the viewer may not read
	// it; asking again will not help.
	errNotFound = "not_found"
	// errBadRequest: the request itself is wrong.
	errBadRequest = "bad_request"
	// errServer: a passing server fault; the client may ask again later.
	errServer = "server"
)

// msgLiveNoProject answers alike for a project that does not exist and one
// the viewer may not see (the text of the load call's not-found answer).
const msgLiveNoProject = "The project could not be loaded: it does not exist or you have no access to it"

const (
	livePing    = 30 * time.Second
	liveTimeout = 70 * time.Second
	// liveRecheck is how often the instance's watcher re-reads the
	// sessions of its connections and the log's tail, whatever the event
	// bus says; a connection then re-reads its account, and a subscription
	// its project's stream, when the tail shows they changed.
	liveRecheck = time.Second
	// liveCheckFailures consecutive failed session checks (the database
	// unreachable) close the connection; the client reconnects, and the
	// handshake checks the session afresh. Ten ticks (ten seconds with a
	// refused connection, up to a minute with a hung database, a tick's
	// queries being bounded at 5 s) ride out a short database restart:
	// with three, the `make load` PostgreSQL cut of 5 s closed every live
	// stream and the reconnects failed until it ended. Waiting longer
	// shows an ended session nothing: every view a connection sends is
	// read from the store, which is what is unreachable.
	liveCheckFailures = 10
	// closeSessionEnded is the close code after {"type":"closed","reason":"session"}.
	closeSessionEnded = 4401
)

var upgrader = websocket.Upgrader{ReadBufferSize: 4096, WriteBufferSize: 16384}

// liveFinal is the connection's last message, followed by a close frame.
type liveFinal struct {
	msg  any // nil: the close frame only
	code int
	text string
}

// liveConn is one WebSocket connection and its subscriptions.
type liveConn struct {
	s     *Server
	conn  *websocket.Conn
	token string
	out   chan any // to the writer, the connection's only writer

	ctx    context.Context // ends with the connection
	cancel context.CancelFunc

	// offer is the country and stamp of its offer last seen by watch
	// (offerSeen false before the first look).
	offerCountry string
	offerStamp   int64
	offerSeen    bool

	// acct is the session's account as watch last saw it, kept up to date
	// by reading only the events since (nil before the first check).
	acct *account.Account
	// acctStale: a check said the account changed but it could not be
	// read then; the next check reads it whatever the log says.
	acctStale bool
	// acctFailures counts consecutive failed reads of the account.
	acctFailures int

	// check is the watcher's word not yet taken by watch (pending);
	// checked wakes watch.
	checkMu sync.Mutex
	check   liveCheck
	pending bool
	checked chan struct{}

	mu      sync.Mutex
	viewer  project.Viewer // the account's rights as last checked; no ShareID
	country string         // the account's country as last checked, for the watcher
	subs    map[string]*liveSub
	ending  bool // the connection is closing: no new subscriptions
	follows sync.WaitGroup
}

// liveSub is one followed project.
type liveSub struct {
	id    string
	share string // the share id the subscriber presented, if any
	stop  context.CancelFunc
	// poke asks the follower to re-read the stream and re-check access;
	// pokedAt (under pokeMu) says how far: see poked.
	poke    chan struct{}
	pokeMu  sync.Mutex
	pokedAt int64
	pending bool
}

// pokeAt asks the follower to look again. version > 0 says the stream is
// known to have reached it (the watcher saw it in the log's tail): a
// follower already there has nothing to do, and one behind may take the
// project cache's copy at that version. 0 says "read the store": the
// viewer's rights may have changed, or nothing is known. Pokes not yet
// taken merge: a 0 wins, else the highest version.
func (sub *liveSub) pokeAt(version int64) {
	sub.pokeMu.Lock()
	switch {
	case !sub.pending:
		sub.pokedAt, sub.pending = version, true
	case version == 0 || sub.pokedAt == 0:
		sub.pokedAt = 0
	default:
		sub.pokedAt = max(sub.pokedAt, version)
	}
	sub.pokeMu.Unlock()
	select {
	case sub.poke <- struct{}{}:
	default: // one is pending already
	}
}

// poked takes the pending poke's version (see pokeAt); ok is false when
// there is none (its signal outlived a poke taken already).
func (sub *liveSub) poked() (version int64, ok bool) {
	sub.pokeMu.Lock()
	defer sub.pokeMu.Unlock()
	version, ok = sub.pokedAt, sub.pending
	sub.pokedAt, sub.pending = 0, false
	return version, ok
}

func (s *Server) websocket(w http.ResponseWriter, r *http.Request) {
	me := currentUser(r)
	token := sessionToken(r)
	ctx, cancel := context.WithCancel(context.Background())
	c := &liveConn{
		s: s, token: token, out: make(chan any, 64), ctx: ctx, cancel: cancel,
		viewer: viewerOf(me, ""), country: me.Country, subs: map[string]*liveSub{},
		checked: make(chan struct{}, 1),
	}
	// The first look at the offer comes before the upgrade, so that a
	// change the client makes once connected is seen as one; and the
	// watcher knows the connection before that look, so that it keeps
	// asking a changed offer's stamp until the connection has seen it.
	s.live.add(c)
	c.checkOffer(me.Country)
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		s.live.remove(c)
		cancel()
		return // Upgrade has answered the client
	}
	c.conn = conn
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		c.writer()
	}()
	watcherDone := make(chan struct{})
	go func() {
		defer close(watcherDone)
		c.watch()
	}()
	defer func() {
		s.live.remove(c)
		cancel()
		<-watcherDone
		c.endFollows()
		close(c.out)
		<-writerDone
	}()
	c.read()
}

// read handles the client's requests until the connection fails or closes.
func (c *liveConn) read() {
	c.conn.SetReadLimit(64 << 10)
	_ = c.conn.SetReadDeadline(time.Now().Add(liveTimeout))
	c.conn.SetPongHandler(func(string) error { return c.conn.SetReadDeadline(time.Now().Add(liveTimeout)) })
	for {
		var req liveRequest
		if err := c.conn.ReadJSON(&req); err != nil {
			if isDecodeError(err) && c.send(liveError{Type: "error", Code: errBadRequest, Error: `Send JSON requests such as {"type":"subscribe","project":"<id>","from":0}`}) {
				continue // one bad request; the connection is fine
			}
			return
		}
		switch req.Type {
		case "subscribe":
			c.subscribe(req)
		case "unsubscribe":
			c.unsubscribe(req.Project)
		default:
			c.send(liveError{Type: "error", Code: errBadRequest, Error: `Unknown message type; use "subscribe" or "unsubscribe"`})
		}
	}
}

// isDecodeError: a request that is not JSON of the right shape, as opposed
// to the connection failing or closing.
func isDecodeError(err error) bool {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	return errors.As(err, &syntax) || errors.As(err, &typ)
}

// send hands v to the writer; false once the connection is ending.
func (c *liveConn) send(v any) bool {
	return sendCtx(c.ctx, c.out, v)
}

func sendCtx(ctx context.Context, out chan<- any, v any) bool {
	select {
	case out <- v:
		return true
	case <-ctx.Done():
		return false
	}
}

// subscribe starts following a project the viewer may read, or answers the
// same not-found error whether it is missing or hidden.
func (c *liveConn) subscribe(req liveRequest) {
	refuse := func(code, msg string) {
		c.send(liveError{Type: "error", Project: req.Project, Share: req.Share, Code: code, Error: msg})
	}
	if (req.Project == "") == (req.Share == "") {
		refuse(errBadRequest, `Give exactly one of "project" or "share"`)
		return
	}
	if req.From < 0 {
		refuse(errBadRequest, `"from" is a version, 0 or more`)
		return
	}
	// The session is checked now, not only on the next tick, so that a
	// subscription never starts on an ended session.
	viewer, ok, err := c.s.liveViewer(c.ctx, c.token)
	if err != nil {
		c.s.log.Warn("live: check session", "err", err)
		refuse(errServer, msgServerError)
		return
	}
	if !ok {
		c.endSession()
		return
	}
	c.setViewer(viewer)
	id := req.Project
	if req.Share != "" {
		var found bool
		id, found, err = c.s.projectByShareID(c.ctx, req.Share)
		if err != nil {
			c.s.log.Warn("live: resolve share id", "err", err)
			refuse(errServer, msgServerError)
			return
		}
		if !found {
			refuse(errNotFound, msgLiveNoProject)
			return
		}
	}
	p := &project.Project{}
	if err := c.s.catchUp(c.ctx, id, p, 0); err != nil {
		c.s.log.Warn("live: load project", "project", id, "err", err)
		refuse(errServer, msgServerError)
		return
	}
	viewer.ShareID = req.Share
	if !p.CanRead(viewer) {
		refuse(errNotFound, msgLiveNoProject)
		return
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ending {
		return
	}
	if old, ok := c.subs[id]; ok {
		old.stop()
	}
	ctx, stop := context.WithCancel(c.ctx)
	sub := &liveSub{id: id, share: req.Share, stop: stop, poke: make(chan struct{}, 1)}
	c.subs[id] = sub
	c.follows.Add(1)
	ended := metrics.Subscribed()
	go func() {
		defer c.follows.Done()
		defer ended()
		defer stop()
		c.follow(ctx, sub, p, req.From)
	}()
}

func (c *liveConn) unsubscribe(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if sub, ok := c.subs[id]; ok {
		sub.stop()
		delete(c.subs, id)
	}
}

// dropSub forgets sub once its follower has ended on its own.
func (c *liveConn) dropSub(sub *liveSub) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.subs[sub.id] == sub {
		delete(c.subs, sub.id)
	}
}

// viewerFor is the viewer a subscription checks access with.
func (c *liveConn) viewerFor(sub *liveSub) project.Viewer {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := c.viewer
	v.ShareID = sub.share
	return v
}

func (c *liveConn) setViewer(v project.Viewer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.viewer = v
}

// setAccount takes the rights and the country of the account as checked.
func (c *liveConn) setAccount(a *account.Account) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.viewer = viewerOf(a, "")
	c.country = a.Country
}

// countryNow is the account's country as last checked.
func (c *liveConn) countryNow() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.country
}

// pokeAll asks every follower to re-read its stream and re-check access.
func (c *liveConn) pokeAll() {
	c.pokeWhere(func(string) (bool, int64) { return true, 0 })
}

// pokeWhere asks the followers of the projects picked to look again: pick
// says whether, and the version the stream is known to have reached (0:
// unknown, read the store; see liveSub.pokeAt).
func (c *liveConn) pokeWhere(pick func(id string) (bool, int64)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, sub := range c.subs {
		if ok, version := pick(id); ok {
			sub.pokeAt(version)
		}
	}
}

// endFollows stops every follower and waits for them; no new one starts.
func (c *liveConn) endFollows() {
	c.mu.Lock()
	c.ending = true
	for id, sub := range c.subs {
		sub.stop()
		delete(c.subs, id)
	}
	c.mu.Unlock()
	c.follows.Wait()
}

// endSession closes the connection because its session is gone: every
// subscription ends, then the client gets {"type":"closed","reason":"session"}
// as the last message and the close code 4401.
func (c *liveConn) endSession() {
	c.endFollows()
	c.send(liveFinal{msg: liveClosed{Type: "closed", Reason: closedSession}, code: closeSessionEnded, text: "session ended"})
}

// deliver hands the watcher's check to watch without ever blocking the
// watcher: a check not taken yet is merged with the newer one.
func (c *liveConn) deliver(chk liveCheck) {
	c.checkMu.Lock()
	if c.pending {
		c.check = c.check.merge(chk)
	} else {
		c.check, c.pending = chk, true
	}
	c.checkMu.Unlock()
	select {
	case c.checked <- struct{}{}:
	default: // watch is woken already
	}
}

// takeCheck is the pending check; false when watch took it already.
func (c *liveConn) takeCheck() (liveCheck, bool) {
	c.checkMu.Lock()
	defer c.checkMu.Unlock()
	chk, ok := c.check, c.pending
	c.check, c.pending = liveCheck{}, false
	return chk, ok
}

// watch acts on the watcher's checks: it ends the connection when the
// session is gone or cannot be checked, reads the account again when it
// changed, and tells the client when its offer did.
func (c *liveConn) watch() {
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-c.checked:
		}
		chk, ok := c.takeCheck()
		if ok && !c.apply(chk) {
			return
		}
	}
}

// apply acts on one check; false once the connection is ending.
func (c *liveConn) apply(chk liveCheck) bool {
	if chk.failures > 0 {
		c.acctStale = c.acctStale || chk.account
		return !c.failed(chk.failures)
	}
	if chk.user == "" {
		c.endSession()
		return false
	}
	if c.acct == nil || c.acctStale || chk.account || c.acct.ID != chk.user {
		acct, ok, err := c.s.liveAccountOf(c.ctx, chk.user, c.acct)
		switch {
		case c.ctx.Err() != nil:
			return false
		case err != nil:
			c.acctStale = true
			c.acctFailures++
			c.s.log.Warn("live: check account", "err", err, "failures", c.acctFailures)
			return !c.failed(c.acctFailures)
		case !ok:
			c.endSession()
			return false
		}
		c.acct, c.acctStale, c.acctFailures = acct, false, 0
		c.setAccount(acct)
		// The rights may have changed: every follower checks again.
		c.pokeAll()
		if acct.Country != c.offerCountry {
			c.checkOffer(acct.Country)
		}
	}
	if stamp, ok := chk.offers[c.offerCountry]; ok {
		c.seeOffer(c.offerCountry, stamp)
	}
	return true
}

// failed closes the connection ("try again") after liveCheckFailures
// consecutive failures: a session that cannot be checked may have ended.
func (c *liveConn) failed(failures int) bool {
	if failures < liveCheckFailures {
		return false
	}
	c.endFollows()
	c.send(liveFinal{code: websocket.CloseInternalServerErr, text: "try again"})
	return true
}

// checkOffer tells the client when what its user's country is offered
// changed (channel availability), or the user's country did, so that it
// loads the product list again. The handshake takes the first look, so
// that a change soon after the client read its products is not missed;
// then only watch calls it, when the account's country changed (the
// watcher asks the stamps of changed offers once per country).
func (c *liveConn) checkOffer(country string) {
	stamp, err := c.s.queries.OfferStamp(c.ctx, country)
	if err != nil {
		c.s.log.Warn("live: offer stamp", "country", country, "err", err)
		return
	}
	c.seeOffer(country, stamp)
}

// seeOffer compares the stamp of country's offer with the one last seen.
func (c *liveConn) seeOffer(country string, stamp int64) {
	changed := c.offerSeen && (country != c.offerCountry || stamp != c.offerStamp)
	c.offerCountry, c.offerStamp, c.offerSeen = country, stamp, true
	if changed {
		c.send(liveCatalogue{Type: "catalogue", Country: country})
	}
}

// writer is the connection's only writer, as gorilla/websocket needs.
func (c *liveConn) writer() {
	defer c.conn.Close()
	ping := time.NewTicker(livePing)
	defer ping.Stop()
	failed := func() {
		c.cancel()
		// Unblocks the reader; Close may be called alongside other methods.
		_ = c.conn.Close()
		for range c.out { // drain until the handler closes out
		}
	}
	for {
		select {
		case v, ok := <-c.out:
			if !ok {
				_ = c.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
				return
			}
			if final, isFinal := v.(liveFinal); isFinal {
				c.writeFinal(final)
				for range c.out {
				}
				return
			}
			_ = c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
			var err error
			if msg, ok := v.(*websocket.PreparedMessage); ok {
				err = c.conn.WritePreparedMessage(msg)
			} else {
				err = c.conn.WriteJSON(v)
			}
			if err != nil {
				failed()
				return
			}
		case <-ping.C:
			if err := c.conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(10*time.Second)); err != nil {
				failed()
				return
			}
		}
	}
}

// writeFinal sends the last message and the close frame, then gives the
// client a moment to answer the close before the reader gives up.
func (c *liveConn) writeFinal(f liveFinal) {
	if f.msg != nil {
		_ = c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
		_ = c.conn.WriteJSON(f.msg)
	}
	_ = c.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(f.code, f.text), time.Now().Add(time.Second))
	_ = c.conn.SetReadDeadline(time.Now().Add(2 * time.Second))
	c.cancel()
}
