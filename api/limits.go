package api

import (
	"context"
	"math"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"time"

	"draindesign/domain/fault"
)

// Limits bound what one client may ask of the server. Zero fields take the
// defaults below (see docs/decisions.md, "Limits on clients").
type Limits struct {
	// LoginAddressFailures failed log-ins from one client address within
	// LoginWindow make that address wait until the oldest falls out (10 in
	// 15 minutes): one address guessing across many accounts.
	LoginAddressFailures int
	LoginWindow          time.Duration
	// LoginFreeFailures failed log-ins on one account, from any address,
	// come without delay (5); each later try must wait LoginBackoffBase
	// doubled per further failure (1 s, 2 s, 4 s, ...), at most
	// LoginBackoffMax (15 minutes). A success, or a day without failures,
	// forgets them. The wait is never a permanent lockout.
	LoginFreeFailures int
	LoginBackoffBase  time.Duration
	LoginBackoffMax   time.Duration
	// RequestsBurst registrations (and, separately, password-reset
	// requests) from one address may come at once (5); after that one per
	// RequestsEvery (a minute).
	RequestsBurst int
	RequestsEvery time.Duration
	// HeavyPerUser CPU-heavy calls (calculations, rainfall look-ups,
	// documents) may run at once for one user (2): more answer 429 at
	// once. HeavyTotal may run on the whole instance (twice GOMAXPROCS
	// here; `draindesign serve` sets one per core and gives Go spare Ps
	// for the network work: cmd/draindesign/procs.go); a call past it
	// waits in line up to HeavyQueue (2 s) for a free slot, first come
	// first served, and answers 429 only then: a busy instance
	// serves everyone in turn instead of refusing the unlucky ones again
	// and again. A calculation takes its instance slot only once its
	// project is loaded, and gives it back before it is recorded.
	HeavyPerUser int
	HeavyTotal   int
	HeavyQueue   time.Duration
	// TokenBurst calls authenticated by API tokens may come at once for
	// one user, whichever of their tokens they use (60); after that one
	// per TokenEvery (a second). A script keeps a steady pace; a runaway
	// loop is stopped before it crowds out the people using the screens.
	TokenBurst int
	TokenEvery time.Duration
}

func (l Limits) withDefaults() Limits {
	set := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	setD := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	set(&l.LoginAddressFailures, 10)
	setD(&l.LoginWindow, 15*time.Minute)
	set(&l.LoginFreeFailures, 5)
	setD(&l.LoginBackoffBase, time.Second)
	setD(&l.LoginBackoffMax, 15*time.Minute)
	set(&l.RequestsBurst, 5)
	setD(&l.RequestsEvery, time.Minute)
	set(&l.HeavyPerUser, 2)
	set(&l.HeavyTotal, max(2, 2*runtime.GOMAXPROCS(0)))
	setD(&l.HeavyQueue, 2*time.Second)
	set(&l.TokenBurst, 60)
	setD(&l.TokenEvery, time.Second)
	return l
}

// tooManyRequests answers 429 with Retry-After (whole seconds, at least one)
// and the readable message.
func (s *Server) tooManyRequests(w http.ResponseWriter, r *http.Request, wait time.Duration, msg string) {
	w.Header().Set("Retry-After", strconv.Itoa(retrySeconds(wait)))
	s.fail(w, r, tooMany(msg))
}

func retrySeconds(wait time.Duration) int {
	return max(1, int(math.Ceil(wait.Seconds())))
}

// waitText says a wait the way a person reads it: "1 second", "40
// seconds", "3 minutes".
func waitText(wait time.Duration) string {
	if secs := retrySeconds(wait); secs < 60 {
		if secs == 1 {
			return "1 second"
		}
		return strconv.Itoa(secs) + " seconds"
	}
	mins := int(math.Ceil(wait.Minutes()))
	if mins == 1 {
		return "1 minute"
	}
	return strconv.Itoa(mins) + " minutes"
}

// heavyLimiter counts CPU-heavy calls in flight, per user and in all.
type heavyLimiter struct {
	mu       sync.Mutex
	perUser  int
	inFlight map[string]int
	// slots holds one token per call running; a full channel is a busy
	// instance. Blocked senders are served in the order they came.
	slots chan struct{}
	queue time.Duration
}

func newHeavyLimiter(perUser, total int, queue time.Duration) *heavyLimiter {
	return &heavyLimiter{perUser: perUser, inFlight: map[string]int{}, slots: make(chan struct{}, total), queue: queue}
}

// acquire takes a slot for the user, waiting in line for one while the
// instance is busy; release gives it back (it may be called more than
// once). A nil release comes with the reason to tell the caller.
func (h *heavyLimiter) acquire(ctx context.Context, user string) (release func(), refused string) {
	leave, refused := h.enter(user)
	if leave == nil {
		return nil, refused
	}
	if !h.take(ctx) {
		leave()
		return nil, busyMessage
	}
	return h.holding(leave), ""
}

const busyMessage = "The server is busy with other calculations. Please try again in a moment."

// enter counts a call against the user's limit; leave (nil when refused,
// with the reason) uncounts it.
func (h *heavyLimiter) enter(user string) (leave func(), refused string) {
	h.mu.Lock()
	if h.inFlight[user] >= h.perUser {
		h.mu.Unlock()
		return nil, "You already have " + strconv.Itoa(h.perUser) + " calculations running. Wait for one to finish and try again."
	}
	h.inFlight[user]++ // the user's place in line counts as running
	h.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			h.mu.Lock()
			defer h.mu.Unlock()
			if h.inFlight[user]--; h.inFlight[user] <= 0 {
				delete(h.inFlight, user)
			}
		})
	}, ""
}

// holding is the release of a taken slot: it gives the slot back, then
// calls leave; once only.
func (h *heavyLimiter) holding(leave func()) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			<-h.slots
			leave()
		})
	}
}

// take waits at most the queue time for a free slot.
func (h *heavyLimiter) take(ctx context.Context) bool {
	select {
	case h.slots <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(h.queue)
	defer t.Stop()
	select {
	case h.slots <- struct{}{}:
		return true
	case <-t.C:
		return false
	case <-ctx.Done():
		return false
	}
}

type heavyKey struct{}

// heavySlot is a request's place with the heavy limiter: counted against
// its user from the start, holding an instance slot only from heavyStart
// to heavyDone.
type heavySlot struct {
	limiter *heavyLimiter
	leave   func() // uncounts the user's call
	release func() // set while the slot is held
}

// heavy guards a CPU-heavy call: it runs only while the caller holds one
// of its slots, so one user's flood neither queues without end nor takes
// every core from the others. A handler whose heavy part ends before its
// answer is written (a calculation, then recording it) gives the slot back
// early with heavyDone.
func (s *Server) heavy(next http.Handler) http.Handler {
	return s.heavyFrom(true, next)
}

// heavyLater is heavy for a handler that reads the store before its
// CPU-heavy part (a calculation loads its project first): the user's limit
// applies at once, but the instance slot is taken only when the handler
// calls heavyStart, so that calls waiting on the database do not keep the
// cores' slots from calls ready to compute.
func (s *Server) heavyLater(next http.Handler) http.Handler {
	return s.heavyFrom(false, next)
}

func (s *Server) heavyFrom(now bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		who := "addr " + s.clientKey(r)
		if u := currentUser(r); u != nil {
			who = "user " + u.ID
		}
		leave, refused := s.heavyCalls.enter(who)
		if leave == nil {
			s.tooManyRequests(w, r, time.Second, refused)
			return
		}
		slot := &heavySlot{limiter: s.heavyCalls, leave: leave}
		defer slot.done()
		r = r.WithContext(context.WithValue(r.Context(), heavyKey{}, slot))
		if !now {
			next.ServeHTTP(w, r)
			return
		}
		if !slot.start(r.Context()) {
			s.tooManyRequests(w, r, time.Second, busyMessage)
			return
		}
		// The whole call is CPU work (a document, a look-up in the
		// rainfall grids): it runs where the calculations do.
		s.cfg.Calculations.Run(func() { next.ServeHTTP(w, r) })
	})
}

func (h *heavySlot) start(ctx context.Context) bool {
	if h.release != nil {
		return true
	}
	if !h.limiter.take(ctx) {
		return false
	}
	h.release = h.limiter.holding(h.leave)
	return true
}

func (h *heavySlot) done() {
	if h.release != nil {
		h.release()
	}
	h.leave()
}

// heavyStart takes the request's instance slot (heavyLater), waiting in
// line for it; when none comes free in time it answers 429 and returns
// false.
func (s *Server) heavyStart(w http.ResponseWriter, r *http.Request) bool {
	if err := heavyCalculating(r); err != nil {
		s.fail(w, r, err)
		return false
	}
	return true
}

// heavyCalculating is heavyStart for a handler that learns only midway
// whether it has anything to calculate (a save, whose runs are mostly the
// project's own calculations): it returns the busy error (429, retry
// after a second) for the handler to pass on.
func heavyCalculating(r *http.Request) error {
	slot, ok := r.Context().Value(heavyKey{}).(*heavySlot)
	if !ok || slot.start(r.Context()) {
		return nil
	}
	return &fault.Error{K: fault.Limit, Message: busyMessage, RetryAfter: time.Second}
}

// heavyCalculate runs one of a save's calculations: in the request's slot
// (heavyCalculating), on the calculations' threads.
func (s *Server) heavyCalculate(r *http.Request, calc func()) error {
	if err := heavyCalculating(r); err != nil {
		return err
	}
	s.cfg.Calculations.Run(calc)
	return nil
}

// heavyDone gives back the request's heavy slot once its CPU-heavy part is
// over, so that waiting on the store afterwards does not hold it.
func heavyDone(r *http.Request) {
	if slot, ok := r.Context().Value(heavyKey{}).(*heavySlot); ok && slot.release != nil {
		slot.release()
	}
}
