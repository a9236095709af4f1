package api

import (
	"context"
	"strings"
	"sync"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/availability"
	"draindesign/domain/project"
	"draindesign/eventstore"
)

// liveWatcher keeps every live connection of this instance checked, on one
// ticker for them all, at a cost in queries that does not grow with the
// number of connections (issue 15: 400 idle tabs re-reading their session,
// account, offer and projects each second made ~1,600 queries/s).
//
// Each tick it asks the sessions of all its connections in one query, then
// reads the event log once from where it stopped, and from the streams
// touched tells each connection what to look at again: the subscriptions
// of a project that changed, the account of a connection whose account
// stream changed, the offer stamps of the countries whose availability
// changed. The store stays the truth: the log tail only says which streams
// to read again, and whoever reads them reads everything committed since.
// Nothing depends on the event bus, so a cut NATS still closes what it must
// within about liveRecheck.
//
// It runs while this instance has live connections: the first to register
// starts it and the last to leave stops it, so a Server needs no shutdown
// call and an idle one (or a test's) keeps no goroutine.
type liveWatcher struct {
	s *Server
	// tail is the store the log's tail is read from: the store beneath
	// the wrappers that only count or transform the data (metrics, sealing
	// of personal fields; eventstore.Bare). The watcher needs only each
	// event's stream, version and position, and opening sealed fields
	// would cost a key look-up per author on every tick with edits.
	tail eventstore.Store

	mu    sync.Mutex
	conns map[*liveConn]struct{}
	stop  context.CancelFunc // nil while not running
	// every is the ticker's period: liveRecheck, longer in tests that
	// tick by hand.
	every time.Duration
}

const (
	// liveTailPage is the page size of the watcher's log reads.
	liveTailPage = 500
	// liveTailMax events read in one tick mean the watcher is far behind:
	// it stops sorting streams and pokes everything, as every connection
	// did on its own before, so that nothing is missed.
	liveTailMax = 5000
	// liveCheckTimeout bounds one tick's queries: a check that hangs counts
	// as failed, so a session ended meanwhile cannot keep a stream open.
	liveCheckTimeout = 5 * time.Second
)

func newLiveWatcher(s *Server) *liveWatcher {
	return &liveWatcher{s: s, tail: eventstore.Bare(s.cfg.Store), every: liveRecheck, conns: map[*liveConn]struct{}{}}
}

// add registers c, starting the watcher if it is not running.
func (w *liveWatcher) add(c *liveConn) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.conns[c] = struct{}{}
	if w.stop == nil {
		ctx, stop := context.WithCancel(context.Background())
		w.stop = stop
		go w.run(ctx, w.every)
	}
}

// remove forgets c, stopping the watcher with the last connection.
func (w *liveWatcher) remove(c *liveConn) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.conns, c)
	if len(w.conns) == 0 && w.stop != nil {
		w.stop()
		w.stop = nil
	}
}

func (w *liveWatcher) snapshot() []*liveConn {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]*liveConn, 0, len(w.conns))
	for c := range w.conns {
		out = append(out, c)
	}
	return out
}

// watchState is one run's own: where in the log it stands.
type watchState struct {
	pos eventstore.Position
	// started: the first tick has read to the head of the log.
	started bool
	// failures counts consecutive failed session checks.
	failures int
	// offers are the countries whose availability changed in the log at
	// the version given, not yet seen in the offer read model (which the
	// runner fills a little after the event is committed).
	offers map[string]int64
}

func newWatchState() *watchState { return &watchState{offers: map[string]int64{}} }

func (w *liveWatcher) run(ctx context.Context, every time.Duration) {
	st := newWatchState()
	// The read models' position is a little behind the head at worst; the
	// first tick reads on from it to the head.
	if r := w.s.cfg.Runner; r != nil {
		if pos, err := r.Position(ctx); err == nil {
			st.pos = pos
		}
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		w.tick(ctx, st)
	}
}

// liveChanges is what the log tail says changed since the last tick.
type liveChanges struct {
	all     bool             // anything may have: check everything
	streams map[string]int64 // stream → its last version seen
}

func (ch liveChanges) touched(stream string) bool {
	ok, _ := ch.touchedAt(stream)
	return ok
}

// touchedAt is touched with the stream's last version seen in the tail (0
// when everything may have changed: the version is not known).
func (ch liveChanges) touchedAt(stream string) (bool, int64) {
	if ch.all {
		return true, 0
	}
	v, ok := ch.streams[stream]
	return ok, v
}

// tick checks every connection once: a handful of queries (the sessions,
// the log's tail, the offer stamps of changed countries), however many
// connections there are; what each connection must read again it reads in
// its own goroutine (watch) or its followers'.
func (w *liveWatcher) tick(parent context.Context, st *watchState) {
	ctx, cancel := context.WithTimeout(parent, liveCheckTimeout)
	defer cancel()
	conns := w.snapshot()
	if len(conns) == 0 {
		return
	}
	tokens := make([]string, 0, len(conns))
	for _, c := range conns {
		if c.token != "" {
			tokens = append(tokens, c.token)
		}
	}
	users, err := w.s.sessions.users(ctx, tokens)
	if parent.Err() != nil {
		return
	}
	if err != nil {
		st.failures++
		w.s.log.Warn("live: check sessions", "err", err, "connections", len(conns), "failures", st.failures)
		for _, c := range conns {
			c.deliver(liveCheck{failures: st.failures})
		}
		return
	}
	st.failures = 0
	ch := w.changes(ctx, st)
	offers := w.offerStamps(ctx, conns, ch, st)
	for _, c := range conns {
		user := users[c.token]
		c.deliver(liveCheck{user: user, account: ch.touched(account.Stream(user)), offers: offers})
		if user != "" {
			// The version seen lets a follower that the feed already
			// brought there skip the read: under load nearly every
			// project changes every tick, and reading each again made
			// most of an instance's store reads (`make load`).
			c.pokeWhere(func(id string) (bool, int64) { return ch.touchedAt(project.Stream(id)) })
		}
	}
}

// changes reads the log from the watcher's position. The first tick reads
// to the head whatever the length and says everything changed: events
// before the watcher started may have been missed by connections already
// open. A failed read or a tail longer than liveTailMax says the same.
func (w *liveWatcher) changes(ctx context.Context, st *watchState) liveChanges {
	streams := map[string]int64{}
	// Whatever the outcome, availability changes read are remembered: the
	// offer read model may show them only on a later tick.
	defer w.noteOffers(streams, st)
	for read := 0; ; {
		// Streams, versions and positions only: the events' data stays
		// in the store (it was most of what this read sent, every second,
		// on every instance).
		evs, err := eventstore.ReadAllOf(ctx, w.tail, st.pos, liveTailPage, []string{})
		if err != nil {
			w.s.log.Warn("live: read the log", "after", st.pos.String(), "err", err)
			return liveChanges{all: true}
		}
		for _, ev := range evs {
			streams[ev.Stream] = max(streams[ev.Stream], ev.Version)
		}
		if len(evs) > 0 {
			st.pos = evs[len(evs)-1].Position
		}
		read += len(evs)
		switch {
		case len(evs) < liveTailPage && !st.started:
			st.started = true
			return liveChanges{all: true}
		case len(evs) < liveTailPage:
			return liveChanges{streams: streams}
		case read >= liveTailMax && st.started:
			w.s.log.Warn("live: far behind the log, re-checking every connection", "after", st.pos.String())
			return liveChanges{all: true}
		}
	}
}

// noteOffers remembers the availability streams that changed.
func (w *liveWatcher) noteOffers(streams map[string]int64, st *watchState) {
	for stream, v := range streams {
		if country, ok := strings.CutPrefix(stream, availability.StreamPrefix); ok {
			st.offers[country] = max(st.offers[country], v)
		}
	}
}

// offerStamps asks the offer stamp once per country that needs it: every
// connection's country when everything may have changed, else those whose
// availability changed and that the read model did not show yet.
func (w *liveWatcher) offerStamps(ctx context.Context, conns []*liveConn, ch liveChanges, st *watchState) map[string]int64 {
	present := map[string]bool{}
	for _, c := range conns {
		present[c.countryNow()] = true
	}
	ask := map[string]bool{}
	for country := range st.offers {
		if !present[country] {
			delete(st.offers, country) // a connection opened later asks for itself
			continue
		}
		ask[country] = true
	}
	if ch.all {
		ask = present
	}
	if len(ask) == 0 {
		return nil
	}
	stamps := make(map[string]int64, len(ask))
	for country := range ask {
		stamp, err := w.s.queries.OfferStamp(ctx, country)
		if err != nil {
			w.s.log.Warn("live: offer stamp", "country", country, "err", err)
			continue
		}
		stamps[country] = stamp
		if want, ok := st.offers[country]; ok && stamp >= want {
			delete(st.offers, country)
		}
	}
	return stamps
}

// liveCheck is what one tick tells a connection.
type liveCheck struct {
	// user is the session's user; "" when the session is gone.
	user string
	// failures counts the consecutive ticks whose session check failed
	// (0: this one did not; user is then meaningless).
	failures int
	// account: the account's stream changed, read it again.
	account bool
	// offers are the offer stamps asked this tick, by country.
	offers map[string]int64
}

// merge folds a newer check into one the connection has not taken yet:
// the newer session answer wins, nothing to read again is forgotten.
func (old liveCheck) merge(next liveCheck) liveCheck {
	next.account = next.account || old.account
	if len(old.offers) > 0 {
		merged := make(map[string]int64, len(old.offers)+len(next.offers))
		for k, v := range old.offers {
			merged[k] = v
		}
		for k, v := range next.offers {
			merged[k] = v
		}
		next.offers = merged
	}
	return next
}
