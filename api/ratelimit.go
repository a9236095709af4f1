package api

import (
	"math"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// addrRate is a token bucket per client address: burst requests at once,
// then one per interval.
type addrRate struct {
	mu      sync.Mutex
	every   time.Duration
	burst   int
	now     func() time.Time
	buckets map[string]*rate.Limiter
	swept   time.Time
}

func newAddrRate(burst int, every time.Duration, now func() time.Time) *addrRate {
	return &addrRate{every: every, burst: burst, now: now, buckets: map[string]*rate.Limiter{}}
}

// take spends one request of the key; it answers 0 when allowed, else how
// long until one is.
func (l *addrRate) take(key string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.sweep(now)
	b := l.buckets[key]
	if b == nil {
		b = rate.NewLimiter(rate.Every(l.every), l.burst)
		l.buckets[key] = b
	}
	if b.AllowN(now, 1) {
		return 0
	}
	// To the millisecond: the float arithmetic of the bucket is not exact.
	missing := (1 - b.TokensAt(now)) * float64(l.every)
	return max(time.Millisecond, time.Duration(math.Round(missing/float64(time.Millisecond)))*time.Millisecond)
}

// sweep forgets buckets that have filled up again (they are as good as new)
// so that the map holds only recently active addresses.
func (l *addrRate) sweep(now time.Time) {
	if now.Sub(l.swept) < l.every {
		return
	}
	l.swept = now
	for k, b := range l.buckets {
		if b.TokensAt(now) >= float64(l.burst) {
			delete(l.buckets, k)
		}
	}
}

// perAddress refuses a call once the client's address has used up its
// bucket; what names the calls in the message ("registrations").
func (s *Server) perAddress(l *addrRate, what string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if wait := l.take(s.clientKey(r)); wait > 0 {
				s.tooManyRequests(w, r, wait, "Too many "+what+" from your address. Please try again in "+waitText(wait)+".")
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

func (s *Server) limitSignups(next http.Handler) http.Handler {
	return s.perAddress(s.signups, "registrations")(next)
}

func (s *Server) limitResets(next http.Handler) http.Handler {
	return s.perAddress(s.resets, "password reset requests")(next)
}

// loginLimiter throttles password guessing two ways: by the client address
// (a sliding window of failures, whatever the account), and by account (a
// growing, capped wait after some failures, whatever the address), so that
// neither many addresses on one account nor one address on many accounts
// guesses freely. Tries still being checked count as failures until they
// end: otherwise a burst of simultaneous tries would all pass the check
// before the first failure is recorded.
type loginLimiter struct {
	mu          sync.Mutex
	now         func() time.Time
	lim         Limits
	addrs       map[string][]time.Time
	accts       map[string]*accountFailures
	pendingAddr map[string]int
	pendingAcct map[string]int
	swept       time.Time
}

type accountFailures struct {
	count int
	last  time.Time
}

// accountForget is how long an account's failures are remembered after the
// last one.
const accountForget = 24 * time.Hour

func newLoginLimiter(lim Limits, now func() time.Time) *loginLimiter {
	return &loginLimiter{now: now, lim: lim, addrs: map[string][]time.Time{}, accts: map[string]*accountFailures{},
		pendingAddr: map[string]int{}, pendingAcct: map[string]int{}}
}

// begin starts a log-in to account from addr. When it must wait, it answers
// how long; otherwise end must be called once the password has been
// checked, saying whether it was wrong.
func (l *loginLimiter) begin(addr, account string) (wait time.Duration, end func(failed bool)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if wait := l.wait(addr, account, now); wait > 0 {
		return wait, nil
	}
	l.pendingAddr[addr]++
	l.pendingAcct[account]++
	var once sync.Once
	return 0, func(failed bool) {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			if l.pendingAddr[addr]--; l.pendingAddr[addr] <= 0 {
				delete(l.pendingAddr, addr)
			}
			if l.pendingAcct[account]--; l.pendingAcct[account] <= 0 {
				delete(l.pendingAcct, account)
			}
			if failed {
				l.failed(addr, account, l.now())
			}
		})
	}
}

// wait is how long a log-in to account from addr must still wait; 0 when
// it may try now.
func (l *loginLimiter) wait(addr, account string, now time.Time) time.Duration {
	var wait time.Duration
	recent := l.recent(addr, now)
	if len(recent)+l.pendingAddr[addr] >= l.lim.LoginAddressFailures {
		wait = time.Second // tries under way fill the window: they end soon
		if len(recent) >= l.lim.LoginAddressFailures {
			wait = recent[len(recent)-l.lim.LoginAddressFailures].Add(l.lim.LoginWindow).Sub(now)
		}
	}
	f, pending := l.account(account, now), l.pendingAcct[account]
	count, last := pending, now
	if f != nil {
		count += f.count
		if pending == 0 {
			last = f.last
		}
	}
	if count >= l.lim.LoginFreeFailures {
		if w := last.Add(l.backoff(count)).Sub(now); w > wait {
			wait = w
		}
	}
	return max(wait, 0)
}

// backoff is the wait after count failures: base, doubled for each failure
// past the free ones, capped.
func (l *loginLimiter) backoff(count int) time.Duration {
	d := l.lim.LoginBackoffBase
	for i := l.lim.LoginFreeFailures; i < count && d < l.lim.LoginBackoffMax; i++ {
		d *= 2
	}
	return min(d, l.lim.LoginBackoffMax)
}

func (l *loginLimiter) failed(addr, account string, now time.Time) {
	l.sweep(now)
	l.addrs[addr] = append(l.recent(addr, now), now)
	f := l.account(account, now)
	if f == nil {
		f = &accountFailures{}
		l.accts[account] = f
	}
	f.count++
	f.last = now
}

// succeeded forgets the account's failures; the address's stay, so a
// guesser cannot clear its own record by logging in to an account it holds.
func (l *loginLimiter) succeeded(account string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.accts, account)
}

func (l *loginLimiter) recent(addr string, now time.Time) []time.Time {
	cut := now.Add(-l.lim.LoginWindow)
	kept := l.addrs[addr][:0]
	for _, at := range l.addrs[addr] {
		if at.After(cut) {
			kept = append(kept, at)
		}
	}
	if len(kept) == 0 {
		delete(l.addrs, addr)
		return nil
	}
	l.addrs[addr] = kept
	return kept
}

func (l *loginLimiter) account(key string, now time.Time) *accountFailures {
	f := l.accts[key]
	if f != nil && now.Sub(f.last) > accountForget {
		delete(l.accts, key)
		return nil
	}
	return f
}

// sweep drops what no longer counts, at most once a window, so that
// guesses at many names or from many addresses do not grow memory for
// ever.
func (l *loginLimiter) sweep(now time.Time) {
	if now.Sub(l.swept) < l.lim.LoginWindow {
		return
	}
	l.swept = now
	for k := range l.addrs {
		l.recent(k, now)
	}
	for k := range l.accts {
		l.account(k, now)
	}
}
