package projections

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"

	"draindesign/eventstore"
)

// Config configures a Runner.
type Config struct {
	Store       eventstore.Store
	DB          *DB
	Projections []Projection
	// Subscriber delivers the relay's messages (Transport.Subscriber). A
	// runner without one only catches up when asked (CatchUp, WaitFor,
	// Rebuild), which is what the rebuild command wants.
	Subscriber message.Subscriber
	// HintSubscriber delivers append hints to the feeds
	// (Transport.HintSubscriber; nil: Subscriber).
	HintSubscriber message.Subscriber
	Logger         watermill.LoggerAdapter
	// BatchSize is how many events are applied per transaction at most.
	// Default 500: under `make load`, with pages of 100, every read model
	// applied about half of what the log grew by, and fell 20,000 events
	// behind in 40 s; a log read, a checkpoint read and a commit per page
	// are each a wait for a busy server.
	BatchSize int
	// SweepInterval is how often every projection checks the log without
	// being told, the safety net for a message the bus lost or a handler
	// that gave up after its retries. Default 5s.
	SweepInterval time.Duration
	// FollowPace is how long a follower, once woken, lets announcements
	// gather before it catches up, so that a round applies what came in
	// meanwhile as one batch. Default 100ms; negative: none. Without it,
	// under light load every event cost each read model of each instance a
	// round of its own (a checkpoint read, a log read, a transaction):
	// with 25 designers the followers were most of what the instances
	// did. Writers that wait for a read model catch it up themselves
	// (WaitFor) and readers of the others refresh them first (Refresh):
	// neither waits for a follower.
	FollowPace time.Duration
}

// Runner keeps a set of projections up to date.
//
// Several runners (one per app instance) may share a read-model database:
// each batch locks its projection's checkpoint row and re-checks it, so an
// event is applied by exactly one of them.
type Runner struct {
	cfg   Config
	projs []*projState
	feeds []*Feed

	initMu sync.Mutex
	inited bool

	progressMu sync.Mutex
	progress   chan struct{} // closed and replaced whenever a checkpoint advances here

	// reads shares the log reads of projections catching up from the same
	// checkpoint at about the same time; tail keeps the newest stretch
	// read, for the read models that follow close behind.
	reads recentReads
	tail  logTail

	// appended is where this instance's recent appends landed.
	appended appendedAt

	cancel     context.CancelFunc
	router     *message.Router
	routerDone chan struct{}
	sweeps     sync.WaitGroup
}

type projState struct {
	p Projection
	// reads are the types a Selecting projection reads, sorted (nil: all).
	reads []string
	// waited are the types whose writers wait for it, sorted (nil: those
	// it reads): WaitedFor.
	waited []string
	// mu keeps this instance from racing itself; the checkpoint row lock
	// keeps other instances out. A waiter gives up with its context (a
	// sync.Mutex would not): a writer's bounded wait once sat 30 s behind
	// a follower's long catch-up.
	mu catchUpLock
	// known is the checkpoint as this instance last read or wrote it. A
	// checkpoint only moves forward (but for a rebuild), so an event at or
	// before it is applied: the bus's messages and the writers waiting for
	// their events need no query to learn so. The sweep reads the row
	// again, which also notices another instance's rebuild.
	knownMu sync.Mutex
	known   eventstore.Position

	// want is the furthest position the bus announced; wake tells the
	// projection's follower (Runner.follow) that it moved; urgent, that an
	// event the projection reads is among those announced since its last
	// round.
	wantMu sync.Mutex
	want   eventstore.Position
	urgent bool
	wake   chan struct{}
}

// waitedFor tells whether a writer of an event of type typ waits for the
// projection (WaitedFor, else Selecting; else every type).
func (ps *projState) waitedFor(typ string) bool {
	list := ps.waited
	if list == nil {
		list = ps.reads
	}
	_, found := slices.BinarySearch(list, typ)
	return list == nil || found
}

// catchUpLock is a mutex whose waiters give up when their context ends.
type catchUpLock struct{ ch chan struct{} }

func newCatchUpLock() catchUpLock { return catchUpLock{ch: make(chan struct{}, 1)} }

func (l catchUpLock) lock(ctx context.Context) error {
	select {
	case l.ch <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l catchUpLock) tryLock() bool {
	select {
	case l.ch <- struct{}{}:
		return true
	default:
		return false
	}
}

func (l catchUpLock) unlock() { <-l.ch }

// selects tells whether the projection applies events of type typ.
func (ps *projState) selects(typ string) bool {
	if ps.reads == nil {
		return true
	}
	_, found := slices.BinarySearch(ps.reads, typ)
	return found
}

// announce records that the log reaches pos (with an event the projection
// reads when relevant) and wakes the follower, without blocking.
func (ps *projState) announce(pos eventstore.Position, relevant bool) {
	ps.wantMu.Lock()
	if ps.want.Less(pos) {
		ps.want = pos
	}
	ps.urgent = ps.urgent || relevant
	ps.wantMu.Unlock()
	select {
	case ps.wake <- struct{}{}:
	default: // already woken: it will read want
	}
}

func (ps *projState) knownAt() eventstore.Position {
	ps.knownMu.Lock()
	defer ps.knownMu.Unlock()
	return ps.known
}

func (ps *projState) setKnown(p eventstore.Position) {
	ps.knownMu.Lock()
	ps.known = p
	ps.knownMu.Unlock()
}

// waitPoll bounds how long WaitFor sleeps when the event it waits for is
// applied by another instance, whose progress this one is not told about.
const waitPoll = 25 * time.Millisecond

// NewRunner checks the configuration; it touches neither database nor store.
func NewRunner(cfg Config) (*Runner, error) {
	if cfg.Store == nil || cfg.DB == nil {
		return nil, errors.New("projections: runner needs a store and a database")
	}
	if cfg.Logger == nil {
		cfg.Logger = watermill.NopLogger{}
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 500
	}
	if cfg.SweepInterval <= 0 {
		cfg.SweepInterval = 5 * time.Second
	}
	if cfg.FollowPace == 0 {
		cfg.FollowPace = 100 * time.Millisecond
	}
	r := &Runner{cfg: cfg, progress: make(chan struct{})}
	seen := map[string]bool{}
	for _, p := range cfg.Projections {
		if p.Name() == "" || seen[p.Name()] {
			return nil, fmt.Errorf("projections: empty or duplicate projection name %q", p.Name())
		}
		seen[p.Name()] = true
		ps := &projState{p: p, wake: make(chan struct{}, 1), mu: newCatchUpLock()}
		if s, ok := p.(Selecting); ok {
			ps.reads = slices.Sorted(slices.Values(s.Reads()))
			if len(ps.reads) == 0 {
				return nil, fmt.Errorf("projections: %s reads no event type", p.Name())
			}
		}
		if w, ok := p.(WaitedFor); ok {
			ps.waited = slices.Sorted(slices.Values(w.WaitedFor()))
		}
		r.projs = append(r.projs, ps)
	}
	return r, nil
}

// AddFeed delivers every event to f as well. Call it before Start.
func (r *Runner) AddFeed(f *Feed) { r.feeds = append(r.feeds, f) }

// Start subscribes the instance to the events topic (and, with feeds, the
// hints topic), starts every projection's follower, brings every
// projection writers wait for up to the head of the log (the views
// refreshed on read follow in the background), and returns once those
// read models are current. Work continues in the background until ctx is
// cancelled or Close is called.
//
// Subscribing comes before the catch-up: an event committed in between is
// then either read by the catch-up or announced by a message, never neither.
func (r *Runner) Start(ctx context.Context) error {
	if err := r.init(ctx); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	r.cancel = cancel
	if r.cfg.Subscriber != nil && len(r.projs)+len(r.feeds) > 0 {
		if err := r.startRouter(ctx); err != nil {
			r.Close()
			return err
		}
	}
	// The views refreshed on read are left to the sweep and the
	// followers: their readers bring them up anyway, and under load they
	// may be far behind (a restart had waited half a minute for the
	// timeline before answering its readiness check).
	if err := r.catchUpWaited(ctx); err != nil {
		r.Close()
		return err
	}
	r.sweeps.Add(1)
	go r.sweep(ctx)
	return nil
}

func (r *Runner) startRouter(ctx context.Context) error {
	router, err := message.NewRouter(message.RouterConfig{CloseTimeout: 10 * time.Second}, r.cfg.Logger)
	if err != nil {
		return fmt.Errorf("projections: new router: %w", err)
	}
	// The handlers hand messages on and never fail; a panic the recoverer
	// turns into an error is acknowledged all the same (giveUp). The
	// retries live in each read model's follower (catchUpRetrying).
	router.AddMiddleware(r.giveUp, middleware.Recoverer)
	// One subscription per topic for the whole instance: each message is
	// handed on in process. A subscription per read model made the bus
	// deliver (and be acknowledged) every event eleven times per instance,
	// which under `make load` cost NATS a quarter of a core.
	router.AddConsumerHandler("events", Topic, r.cfg.Subscriber, r.announce)
	if len(r.feeds) > 0 {
		hintSub := r.cfg.HintSubscriber
		if hintSub == nil {
			hintSub = r.cfg.Subscriber
		}
		router.AddConsumerHandler("hints", HintTopic, hintSub, func(msg *message.Message) error {
			for _, f := range r.feeds {
				_ = f.HandleHint(msg)
			}
			return nil
		})
	}
	for _, ps := range r.projs {
		r.sweeps.Add(1)
		go r.follow(ctx, ps)
	}
	r.router = router
	r.routerDone = make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		defer close(r.routerDone)
		errc <- router.Run(ctx)
	}()
	select {
	case <-router.Running():
		return nil
	case err := <-errc:
		return fmt.Errorf("projections: run router: %w", err)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops the router and the sweeps. It does not close the DB, the
// store or the transport.
func (r *Runner) Close() error {
	if r.cancel != nil {
		r.cancel()
	}
	var err error
	if r.router != nil {
		err = r.router.Close()
		<-r.routerDone
	}
	r.sweeps.Wait()
	return err
}

// announce treats a message as "the log reaches at least here": the
// feeds pass it to their live streams, and each read model's follower is
// woken to catch up to that position from the store. It never waits for a
// read model, so a slow one holds back neither the others nor the feeds.
func (r *Runner) announce(msg *message.Message) error {
	for _, f := range r.feeds {
		_ = f.Handle(msg)
	}
	pos, err := messagePosition(msg)
	if err != nil {
		// Malformed: the sweep covers whatever it may have announced.
		r.cfg.Logger.Error("Ignoring event message", err, watermill.LogFields{"message_uuid": msg.UUID})
		return nil
	}
	typ := msg.Metadata.Get(MetaType)
	for _, ps := range r.projs {
		ps.announce(pos, typ == "" || ps.selects(typ))
	}
	return nil
}

// follow catches the projection up whenever an announcement wakes it, to
// the furthest position announced; announcements that come while it works
// are served together by its next round. A failure is tried again a few
// times, then left to the next announcement or the sweep. A round another
// instance has under way is not waited for: that one may stop short of
// what was announced (it read the log a moment earlier), so the follower
// tries again after its pace.
func (r *Runner) follow(ctx context.Context, ps *projState) {
	defer r.sweeps.Done()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ps.wake:
		}
		if !r.gather(ctx, ps) {
			return
		}
		ps.wantMu.Lock()
		pos, urgent := ps.want, ps.urgent
		ps.urgent = false
		ps.wantMu.Unlock()
		if r.catchUpRetrying(ctx, ps, pos) {
			ps.announce(pos, urgent)
		}
	}
}

// idlePace is how long a follower lets announcements gather while none
// is of an event its projection reads: its round then only moves the
// checkpoint past them. Under `make load` four of the nine read models
// read none of the designers' events, and each instance's follower of
// each caught up ten times a second to write its checkpoint.
const idlePace = time.Second

// gather waits before a round of the follower: FollowPace once an
// announced event is one the projection reads, idlePace while none is.
// False when ctx ended.
func (r *Runner) gather(ctx context.Context, ps *projState) bool {
	pace := func() time.Duration {
		ps.wantMu.Lock()
		defer ps.wantMu.Unlock()
		if ps.urgent {
			return max(r.cfg.FollowPace, 0)
		}
		return idlePace
	}
	deadline := time.Now().Add(pace())
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
			return true
		case <-ps.wake:
			if d := time.Now().Add(pace()); d.Before(deadline) {
				deadline = d
				t.Reset(time.Until(deadline))
			}
		}
	}
}

// followRetries is how often a follower tries again, 50 ms apart and then
// twice as long each time, before it leaves a failing catch-up to the
// next announcement or the sweep.
const followRetries = 3

// catchUpRetrying is the follower's catch-up to pos, without waiting for
// another instance's round; true when it found one under way (errRoundBusy)
// before reaching pos.
func (r *Runner) catchUpRetrying(ctx context.Context, ps *projState, pos eventstore.Position) (busy bool) {
	for attempt := 0; ; attempt++ {
		err := r.catchUp(ctx, ps, &pos, false)
		if errors.Is(err, errRoundBusy) {
			return true
		}
		if err == nil || ctx.Err() != nil {
			return false
		}
		if attempt == followRetries {
			r.cfg.Logger.Error("Projection left behind, the sweep will retry", err, watermill.LogFields{"projection": ps.p.Name()})
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(50 * time.Millisecond << attempt):
		}
	}
}

// giveUp acknowledges a message whose handler failed (a recovered panic).
// Redelivering it would only block the topic (GoChannel resends a
// nacked message at once, forever); the checkpoint has not moved, so the
// next message or sweep applies the event once the cause is gone.
func (r *Runner) giveUp(h message.HandlerFunc) message.HandlerFunc {
	return func(msg *message.Message) ([]*message.Message, error) {
		out, err := h(msg)
		if err != nil {
			if msg.Context().Err() == nil {
				r.cfg.Logger.Error("Projection left behind, the sweep will retry", err, watermill.LogFields{"message_uuid": msg.UUID})
			}
			return nil, nil
		}
		return out, nil
	}
}

func (r *Runner) sweep(ctx context.Context) {
	defer r.sweeps.Done()
	t := time.NewTicker(r.cfg.SweepInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for _, ps := range r.projs {
			// A round under way elsewhere is left to finish: the sweep
			// comes again.
			err := r.catchUp(ctx, ps, nil, false)
			if err != nil && !errors.Is(err, errRoundBusy) && ctx.Err() == nil {
				r.cfg.Logger.Error("Projection sweep failed", err, watermill.LogFields{"projection": ps.p.Name()})
			}
		}
	}
}

// Refresh brings the named projections to the current head of the log:
// what a query calls before reading a view writers do not wait for
// (RefreshedOnRead). When the store tells its head (HeadReader), the view
// then shows every append that returned before Refresh was called, those
// the log still holds back included; otherwise, what the log shows. An
// unknown name is an error.
func (r *Runner) Refresh(ctx context.Context, names ...string) error {
	if err := r.init(ctx); err != nil {
		return err
	}
	projs, err := r.named(names)
	if err != nil {
		return fmt.Errorf("projections: refresh: %w", err)
	}
	if err := r.toHead(ctx, projs); err != nil {
		return fmt.Errorf("projections: refresh: %w", err)
	}
	return nil
}

// CatchUp brings every projection to the current head of the log, as
// Refresh does: with a store that tells its head, every append that
// returned before the call is applied, those the log still holds back
// behind an open transaction included. (Reading to the end of what the
// log showed missed them, which went unseen while a follower applied each
// append at once; with the followers' pace a test saw it.)
func (r *Runner) CatchUp(ctx context.Context) error {
	if err := r.init(ctx); err != nil {
		return err
	}
	return r.toHead(ctx, r.projs)
}

// toHead brings projs to the store's head when it tells it (HeadReader),
// else to the end of what the log shows.
func (r *Runner) toHead(ctx context.Context, projs []*projState) error {
	if h, ok := eventstore.Bare(r.cfg.Store).(eventstore.HeadReader); ok {
		head, err := h.Head(ctx)
		if err != nil {
			return err
		}
		return r.waitFor(ctx, head, projs)
	}
	for _, ps := range projs {
		if err := r.catchUp(ctx, ps, nil, true); err != nil {
			return fmt.Errorf("%s: %w", ps.p.Name(), err)
		}
	}
	return nil
}

// catchUpWaited is CatchUp for the projections writers wait for, all but
// those refreshed on read.
func (r *Runner) catchUpWaited(ctx context.Context) error {
	for _, ps := range r.projs {
		if _, onRead := ps.p.(RefreshedOnRead); onRead {
			continue
		}
		if err := r.catchUp(ctx, ps, nil, true); err != nil {
			return err
		}
	}
	return nil
}

// catchUp applies the events after the projection's checkpoint, up to and
// including to (or to the head when to is nil). With wait false it stops
// with errRoundBusy at a round another instance has under way.
func (r *Runner) catchUp(ctx context.Context, ps *projState, to *eventstore.Position, wait bool) error {
	if err := ps.mu.lock(ctx); err != nil {
		return fmt.Errorf("catch up %s: %w", ps.p.Name(), err)
	}
	defer ps.mu.unlock()
	for {
		if to != nil && !ps.knownAt().Less(*to) {
			return nil
		}
		more, err := r.step(ctx, ps, to, wait)
		if err != nil || !more {
			return err
		}
	}
}

// step applies the batch after the projection's checkpoint, with ps.mu
// held; false when there was none to apply (the checkpoint at or past to,
// the head, or a position the log does not show yet).
//
// The checkpoint is read under the read model's lock (lockCheckpoint), so
// a round never applies what another instance's round is applying: with
// wait, this one starts once that one ended, where it ended; without, it
// stops with errRoundBusy. Read without the lock, as before, both
// instances often applied the same batch and one found at its commit that
// the checkpoint had moved: under `make load` a third of the events the
// read models applied were rolled back so.
func (r *Runner) step(ctx context.Context, ps *projState, to *eventstore.Position, wait bool) (bool, error) {
	name := ps.p.Name()
	tx, err := r.cfg.DB.Begin(ctx)
	if err != nil {
		return false, fmt.Errorf("catch up %s: %w", name, err)
	}
	defer tx.Rollback(ctx)
	lock := lockCheckpoint
	if !wait {
		lock = tryLockCheckpoint
	}
	cp, err := lock(ctx, tx, name)
	if err != nil {
		return false, err
	}
	ps.setKnown(cp)
	if to != nil && !cp.Less(*to) {
		return false, nil
	}
	// The whole batch is applied, also past to: the writers waiting
	// behind this lock for later events then find their own applied by
	// this one transaction instead of each running one.
	evs, err := r.tail.read(ctx, r.cfg.Store, &r.reads, cp, r.cfg.BatchSize, to, ps.reads)
	if err != nil {
		return false, fmt.Errorf("catch up %s: read after %s: %w", name, cp, err)
	}
	if len(evs) == 0 {
		return false, nil
	}
	return true, r.applyBatch(ctx, tx, ps, cp, evs)
}

// applyBatch applies evs, which follow checkpoint cp, in tx, which also
// advances the checkpoint, and commits. The checkpoint is advanced first,
// on the condition that it still stands at cp (a guard: the read model's
// lock taken in step keeps it there), so that on PostgreSQL the batch goes
// to the server as one pipeline.
func (r *Runner) applyBatch(ctx context.Context, tx *Tx, ps *projState, cp eventstore.Position, evs []eventstore.Event) error {
	name := ps.p.Name()
	to := evs[len(evs)-1].Position
	err := advanceCheckpoint(ctx, tx, name, cp, to)
	for i := 0; err == nil && i < len(evs); i++ {
		ev := evs[i]
		if err = safeApply(ctx, ps.p, tx, ev); err != nil {
			err = fmt.Errorf("apply %s (%s v%d at %s) to %s: %w", ev.ID, ev.Stream, ev.Version, ev.Position, name, err)
		}
	}
	if err == nil {
		if err = tx.Commit(ctx); err != nil {
			err = fmt.Errorf("catch up %s: commit: %w", name, err)
		}
	}
	if errors.Is(err, errCheckpointMoved) {
		return nil
	}
	if err != nil {
		return err
	}
	ps.setKnown(to)
	r.signal()
	return nil
}

// safeApply turns a panicking Apply into an error, so that the WaitFor path
// (which runs outside the router and its recoverer) rolls back cleanly too.
func safeApply(ctx context.Context, p Projection, tx *Tx, ev eventstore.Event) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("panic: %v", v)
		}
	}()
	return p.Apply(ctx, tx, ev)
}

func (r *Runner) signal() {
	r.progressMu.Lock()
	close(r.progress)
	r.progress = make(chan struct{})
	r.progressMu.Unlock()
}

func (r *Runner) progressCh() <-chan struct{} {
	r.progressMu.Lock()
	defer r.progressMu.Unlock()
	return r.progress
}

// WaitFor blocks until every projection has applied the event at pos, which
// gives read-your-writes after an append. It does not depend on the bus: a
// projection still behind is caught up from the store right here.
func (r *Runner) WaitFor(ctx context.Context, pos eventstore.Position) error {
	return r.waitFor(ctx, pos, r.projs)
}

// waitFor is WaitFor for the projections of projs only.
func (r *Runner) waitFor(ctx context.Context, pos eventstore.Position, projs []*projState) error {
	if err := r.init(ctx); err != nil {
		return err
	}
	// The projections' known checkpoints say which may still be behind;
	// catching one up reads its row (and so learns of another instance's
	// progress) before applying anything.
	for {
		wake := r.progressCh()
		behind := knownBehind(projs, pos)
		if len(behind) == 0 {
			return nil
		}
		if err := r.catchUpAll(ctx, behind, pos); err != nil {
			return fmt.Errorf("wait for %s: %w", pos, err)
		}
		if behind = knownBehind(behind, pos); len(behind) == 0 {
			return nil
		}
		// The log does not show pos yet (a PostgreSQL store holds back
		// events behind still-open transactions): wait and look again.
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for %s: %s still behind: %w", pos, behind[0].p.Name(), ctx.Err())
		case <-wake:
		case <-time.After(waitPoll):
		}
	}
}

// WaitForStream is WaitFor for the event at version of stream, for callers
// that know what they appended (AppendResult.LastVersion) but not where. It
// waits only for the projections that follow the stream (Following): a
// read model that never reads it cannot show the write, so a writer need
// not wait for it to pass the event. Nor does it wait for a view its
// readers refresh (RefreshedOnRead). Given the types of the events the
// writer appended, it also skips a projection that reads none of them
// (Selecting), or whose readers refresh it for them (WaitedFor); with
// none, it waits for every follower.
//
// Backpressure: a writer helps a view it does not wait for along when that
// view is more than MaxLag commits behind its event (holdBack).
// Without it, a view its writers do not wait for fell further behind for
// as long as the load lasted (`make load`: the timeline and the staff
// views 10,000 events behind and growing), and its readers then waited for
// the whole backlog.
func (r *Runner) WaitForStream(ctx context.Context, stream string, version int64, types ...string) error {
	var projs, unwaited []*projState
	for _, ps := range r.projs {
		_, onRead := ps.p.(RefreshedOnRead)
		f, following := ps.p.(Following)
		if onRead || (following && !f.Follows(stream)) || (len(types) > 0 && !slices.ContainsFunc(types, ps.waitedFor)) {
			// Not waited for, but kept within MaxLag: one of another
			// stream's writers would otherwise wait for all of it.
			unwaited = append(unwaited, ps)
			continue
		}
		projs = append(projs, ps)
	}
	if err := r.waitForStream(ctx, stream, version, projs); err != nil {
		return err
	}
	return r.holdBack(ctx, stream, version, unwaited)
}

// MaxLag is how many commits (transactions writing to the store, on
// PostgreSQL any in the cluster) a read model writers do not wait for may
// fall behind a writer's event before the writer helps it along: a few
// seconds of a busy system's writes.
const MaxLag = 10000

// holdBack makes a writer share the work of the read models its event left
// further than MaxLag commits behind (known when this instance appended
// the event): it applies one batch to each that no one on this instance is
// catching up at that moment, so that many writers each add a little
// instead of all queueing behind one long catch-up. It never waits for a
// catch-up under way: a first version that waited outright for a read
// model twice MaxLag behind left a few writers waiting 30 s in a full `make
// load` (SIGKILL and NATS cut).
func (r *Runner) holdBack(ctx context.Context, stream string, version int64, projs []*projState) error {
	if len(projs) == 0 {
		return nil
	}
	pos, ok := r.positionOf(stream, version)
	if !ok || pos.Commit <= MaxLag {
		return nil
	}
	behind := knownBehind(projs, eventstore.Position{Commit: pos.Commit - MaxLag, Seq: math.MaxUint64})
	if len(behind) == 0 {
		return nil
	}
	for _, ps := range behind {
		if !ps.mu.tryLock() {
			continue
		}
		_, err := r.step(ctx, ps, nil, false)
		ps.mu.unlock()
		if err != nil && !errors.Is(err, errRoundBusy) {
			return err
		}
	}
	return nil
}

// WaitForStreamEverywhere is WaitForStream for a write whose effect must be
// in every read model that follows the stream when the writer returns,
// those refreshed on read included: an erasure, which must leave no copy
// of the personal fields it blanks.
func (r *Runner) WaitForStreamEverywhere(ctx context.Context, stream string, version int64) error {
	// An erasure: the kept stretch of the log may hold what it erased.
	r.tail.forget()
	var projs []*projState
	for _, ps := range r.projs {
		if f, ok := ps.p.(Following); !ok || f.Follows(stream) {
			projs = append(projs, ps)
		}
	}
	return r.waitForStream(ctx, stream, version, projs)
}

// Show waits until the named projections show stream at version: what a
// reader of a RefreshedOnRead view calls when it knows the version it must
// show (the project it has just loaded), rather than refreshing to the
// head of the log. An unknown name is an error.
func (r *Runner) Show(ctx context.Context, stream string, version int64, names ...string) error {
	projs, err := r.named(names)
	if err != nil {
		return fmt.Errorf("projections: show %s: %w", stream, err)
	}
	return r.waitForStream(ctx, stream, version, projs)
}

// named finds the projections called names.
func (r *Runner) named(names []string) ([]*projState, error) {
	projs := make([]*projState, 0, len(names))
	for _, name := range names {
		i := slices.IndexFunc(r.projs, func(ps *projState) bool { return ps.p.Name() == name })
		if i < 0 {
			return nil, fmt.Errorf("%s: no such read model", name)
		}
		projs = append(projs, r.projs[i])
	}
	return projs, nil
}

func (r *Runner) waitForStream(ctx context.Context, stream string, version int64, projs []*projState) error {
	if len(projs) == 0 || version <= 0 {
		return nil
	}
	if pos, ok := r.positionOf(stream, version); ok {
		return r.waitFor(ctx, pos, projs)
	}
	// Only the event's position is needed: read beneath the sealing
	// wrapper, which would look up its author's key to open it.
	evs, err := eventstore.Bare(r.cfg.Store).ReadStream(ctx, stream, version, 1)
	if err != nil {
		return fmt.Errorf("wait for %s v%d: %w", stream, version, err)
	}
	if len(evs) == 0 || evs[0].Version != version {
		return fmt.Errorf("wait for %s v%d: no such event", stream, version)
	}
	return r.waitFor(ctx, evs[0].Position, projs)
}

// catchUpAll catches every projection of projs up to pos, each in its own
// goroutine: a writer waits for the slowest read model, not for their sum.
func (r *Runner) catchUpAll(ctx context.Context, projs []*projState, pos eventstore.Position) error {
	if len(projs) == 1 {
		return r.catchUp(ctx, projs[0], &pos, true)
	}
	errs := make([]error, len(projs))
	var wg sync.WaitGroup
	for i, ps := range projs {
		wg.Go(func() { errs[i] = r.catchUp(ctx, ps, &pos, true) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// knownBehind lists the projections of projs not known to have applied pos.
func knownBehind(projs []*projState, pos eventstore.Position) []*projState {
	var out []*projState
	for _, ps := range projs {
		if ps.knownAt().Less(pos) {
			out = append(out, ps)
		}
	}
	return out
}

func (r *Runner) checkpoints(ctx context.Context) (map[string]eventstore.Position, error) {
	rows, err := r.cfg.DB.Query(ctx, `SELECT name, commit_pos, seq_pos FROM projection_checkpoints`)
	if err != nil {
		return nil, fmt.Errorf("read checkpoints: %w", err)
	}
	defer rows.Close()
	out := map[string]eventstore.Position{}
	for rows.Next() {
		var name string
		var c, s int64
		if err := rows.Scan(&name, &c, &s); err != nil {
			return nil, fmt.Errorf("read checkpoints: %w", err)
		}
		out[name] = eventstore.Position{Commit: uint64(c), Seq: uint64(s)}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read checkpoints: %w", err)
	}
	return out, nil
}

// Position is the oldest checkpoint among the projections: every event up
// to it is in every read model. A Relay started after Start can begin here.
func (r *Runner) Position(ctx context.Context) (eventstore.Position, error) {
	if err := r.init(ctx); err != nil {
		return eventstore.Position{}, err
	}
	cps, err := r.checkpoints(ctx)
	if err != nil {
		return eventstore.Position{}, err
	}
	var low eventstore.Position
	for i, ps := range r.projs {
		if cp := cps[ps.p.Name()]; i == 0 || cp.Less(low) {
			low = cp
		}
	}
	return low, nil
}

// init creates the checkpoint table and every projection's schema, resetting
// a projection that is new or whose schema changed so that it is rebuilt
// from the start of the log.
func (r *Runner) init(ctx context.Context) error {
	r.initMu.Lock()
	defer r.initMu.Unlock()
	if r.inited {
		return nil
	}
	err := r.cfg.DB.InTx(ctx, func(tx *Tx) error {
		if err := lockInit(ctx, tx); err != nil {
			return err
		}
		if err := tx.Exec(ctx, checkpointSchema); err != nil {
			return fmt.Errorf("create checkpoint table: %w", err)
		}
		for _, ps := range r.projs {
			p := ps.p
			var hash string
			err := tx.QueryRow(ctx, `SELECT schema_hash FROM projection_checkpoints WHERE name = ?`+forUpdate(tx.Dialect), p.Name()).Scan(&hash)
			switch {
			case errors.Is(err, sql.ErrNoRows):
				err = resetProjection(ctx, tx, p)
			case err != nil:
				err = fmt.Errorf("read checkpoint of %s: %w", p.Name(), err)
			case hash != schemaHash(p):
				r.cfg.Logger.Info("Read model schema changed, rebuilding", watermill.LogFields{"projection": p.Name()})
				err = resetProjection(ctx, tx, p)
			default:
				err = createSchema(ctx, tx, p)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("projections: init read models: %w", err)
	}
	r.inited = true
	return nil
}

// Rebuild drops every projection's tables and checkpoint in one transaction
// and replays the whole log into them. Readers see either the old read
// models or the empty new ones filling up, never a mix; other instances
// notice the reset checkpoint and join the replay without double-applying.
func (r *Runner) Rebuild(ctx context.Context) error {
	if err := r.init(ctx); err != nil {
		return err
	}
	r.tail.forget()
	for i, ps := range r.projs {
		if err := ps.mu.lock(ctx); err != nil {
			for _, held := range r.projs[:i] {
				held.mu.unlock()
			}
			return fmt.Errorf("projections: rebuild: %w", err)
		}
	}
	err := r.cfg.DB.InTx(ctx, func(tx *Tx) error {
		if err := lockInit(ctx, tx); err != nil {
			return err
		}
		for _, ps := range r.projs {
			if _, err := lockCheckpoint(ctx, tx, ps.p.Name()); err != nil {
				return err
			}
			if err := resetProjection(ctx, tx, ps.p); err != nil {
				return err
			}
		}
		return nil
	})
	for _, ps := range r.projs {
		if err == nil {
			ps.setKnown(eventstore.Position{})
		}
		ps.mu.unlock()
	}
	if err != nil {
		return fmt.Errorf("projections: rebuild: %w", err)
	}
	if err := r.CatchUp(ctx); err != nil {
		return fmt.Errorf("projections: rebuild: %w", err)
	}
	return nil
}

// Lag is how many events of the log each projection has yet to apply,
// counted up to limit (a projection further behind shows limit): enough
// to alert on, without reading the whole log on every scrape. A store
// that counts its log (eventstore.Counter) is asked once per distinct
// checkpoint; otherwise the log after the lowest one is read.
func (r *Runner) Lag(ctx context.Context, limit int) (map[string]int, error) {
	if err := r.init(ctx); err != nil {
		return nil, err
	}
	cps, err := r.checkpoints(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(r.projs))
	if c, ok := eventstore.Bare(r.cfg.Store).(eventstore.Counter); ok {
		counted := map[eventstore.Position]int{}
		for _, ps := range r.projs {
			cp := cps[ps.p.Name()]
			n, seen := counted[cp]
			if !seen {
				if n, err = c.CountAfter(ctx, cp, limit); err != nil {
					return nil, fmt.Errorf("projection lag: %w", err)
				}
				counted[cp] = n
			}
			out[ps.p.Name()] = n
		}
		return out, nil
	}
	var low eventstore.Position
	for i, ps := range r.projs {
		if cp := cps[ps.p.Name()]; i == 0 || cp.Less(low) {
			low = cp
		}
	}
	evs, err := r.cfg.Store.ReadAll(ctx, low, limit)
	if err != nil {
		return nil, fmt.Errorf("read the log for projection lag: %w", err)
	}
	for _, ps := range r.projs {
		cp := cps[ps.p.Name()]
		// evs is in log order: those after cp are a suffix.
		i := sort.Search(len(evs), func(i int) bool { return cp.Less(evs[i].Position) })
		out[ps.p.Name()] = len(evs) - i
	}
	return out, nil
}
