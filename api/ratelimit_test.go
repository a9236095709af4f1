package api

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newClock() *fakeClock { return &fakeClock{time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)} }

// try is one log-in attempt through the limiter: the wait it was told, or
// 0 and the attempt made with the outcome given.
func try(l *loginLimiter, addr, account string, failed bool) time.Duration {
	wait, end := l.begin(addr, account)
	if wait == 0 {
		end(failed)
	}
	return wait
}

// Failures on one account, each from a new address, make later tries wait:
// nothing for the free ones, then a wait that doubles with each failure up
// to the cap, never more. Once the wait has passed the account may try
// again (no permanent lockout), and a success forgets the failures.
func TestLoginBackoffPerAccount(t *testing.T) {
	clock := newClock()
	lim := Limits{LoginFreeFailures: 3, LoginBackoffBase: time.Second, LoginBackoffMax: 10 * time.Second}.withDefaults()
	l := newLoginLimiter(lim, clock.now)
	wantWaits := []time.Duration{0, 0, 0, 1 * time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second}
	for i, want := range wantWaits {
		addr := fmt.Sprintf("198.51.100.%d", i+1)
		if got := try(l, addr, "ann", true); got != want {
			t.Fatalf("try %d from a new address: wait %v, want %v", i+1, got, want)
		}
		if want == 0 {
			continue
		}
		clock.advance(want - time.Millisecond)
		if got := try(l, addr, "ann", true); got != time.Millisecond {
			t.Fatalf("try %d just before the wait is over: wait %v", i+1, got)
		}
		clock.advance(time.Millisecond) // the client waits as told, then fails again
		if got := try(l, addr, "ann", true); got != 0 {
			t.Fatalf("try %d: still %v to wait after waiting", i+1, got)
		}
	}
	if got := try(l, "203.0.113.1", "bob", true); got != 0 {
		t.Errorf("another account waits %v", got)
	}
	l.succeeded("ann")
	if got := try(l, "203.0.113.2", "ann", false); got != 0 {
		t.Errorf("after a success: wait %v", got)
	}
	// Failures are forgotten after a day without any.
	for range 3 {
		try(l, "203.0.113.3", "cy", true)
	}
	if try(l, "203.0.113.3", "cy", true) == 0 {
		t.Fatal("cy's fourth try did not wait")
	}
	clock.advance(accountForget + time.Second)
	if got := try(l, "203.0.113.4", "cy", true); got != 0 {
		t.Errorf("a day later: wait %v", got)
	}
}

// Simultaneous tries count before their passwords are checked: a burst
// sent at once gets no more guesses than tries sent one after another.
func TestLoginBurstCountsTriesUnderWay(t *testing.T) {
	clock := newClock()
	lim := Limits{LoginAddressFailures: 4, LoginFreeFailures: 2}.withDefaults()
	l := newLoginLimiter(lim, clock.now)
	var ends []func(bool)
	for i := range 2 {
		wait, end := l.begin(fmt.Sprint("198.51.100.", i), "ann")
		if wait != 0 {
			t.Fatalf("try %d under way refused", i+1)
		}
		ends = append(ends, end)
	}
	if wait, _ := l.begin("198.51.100.9", "ann"); wait == 0 {
		t.Fatal("third simultaneous try on one account admitted")
	}
	for i := range 4 {
		wait, end := l.begin("203.0.113.1", fmt.Sprint("user", i))
		if wait != 0 {
			t.Fatalf("address try %d of 4 refused", i+1)
		}
		ends = append(ends, end)
	}
	if wait, _ := l.begin("203.0.113.1", "fresh"); wait == 0 {
		t.Fatal("the address's fifth simultaneous try admitted")
	}
	// Tries that end well give their places back.
	for _, end := range ends {
		end(false)
		end(true) // a second call changes nothing
	}
	if wait, _ := l.begin("198.51.100.9", "ann"); wait != 0 {
		t.Fatalf("after the tries ended well: wait %v", wait)
	}
}

// One address failing on many accounts waits once it reaches the limit
// within the window, until its oldest counted failure falls out.
func TestLoginThrottlePerAddress(t *testing.T) {
	clock := newClock()
	lim := Limits{LoginAddressFailures: 3, LoginWindow: 10 * time.Minute, LoginFreeFailures: 100}.withDefaults()
	l := newLoginLimiter(lim, clock.now)
	for i := range 3 {
		if got := try(l, "198.51.100.1", fmt.Sprint("user", i), true); got != 0 {
			t.Fatalf("try %d waits %v", i+1, got)
		}
		clock.advance(time.Minute)
	}
	if got := try(l, "198.51.100.1", "fresh", true); got != 7*time.Minute {
		t.Errorf("fourth try waits %v, want 7m (until the first failure is 10 minutes old)", got)
	}
	if got := try(l, "198.51.100.2", "fresh", true); got != 0 {
		t.Errorf("another address waits %v", got)
	}
	// A success on an account the guesser holds does not clear the address.
	l.succeeded("user0")
	if got := try(l, "198.51.100.1", "user0", false); got == 0 {
		t.Error("a success cleared the address's record")
	}
	clock.advance(7 * time.Minute)
	if got := try(l, "198.51.100.1", "fresh", true); got != 0 {
		t.Errorf("after the window: wait %v", got)
	}
}

// The bucket allows a burst, then one call per interval, per address;
// Retry-After is the time until the next call is allowed.
func TestAddrRate(t *testing.T) {
	clock := newClock()
	l := newAddrRate(3, time.Minute, clock.now)
	for i := range 3 {
		if w := l.take("a"); w != 0 {
			t.Fatalf("call %d refused (%v)", i+1, w)
		}
	}
	if w := l.take("a"); w != time.Minute {
		t.Errorf("fourth call: wait %v, want 1m", w)
	}
	if w := l.take("b"); w != 0 {
		t.Errorf("another address refused (%v)", w)
	}
	clock.advance(40 * time.Second)
	if w := l.take("a"); w != 20*time.Second {
		t.Errorf("40 s later: wait %v, want 20s", w)
	}
	clock.advance(20 * time.Second)
	if w := l.take("a"); w != 0 {
		t.Errorf("a minute later refused (%v)", w)
	}
	// Buckets that have filled up again are dropped.
	clock.advance(time.Hour)
	l.take("c")
	if _, ok := l.buckets["b"]; ok || len(l.buckets) != 1 {
		t.Errorf("buckets kept: %v", l.buckets)
	}
}

// Per user at most perUser in flight, in all at most total (past it a call
// waits the queue time, then is refused); a slot comes back on release,
// once however often release is called.
func TestHeavyLimiter(t *testing.T) {
	ctx := context.Background()
	h := newHeavyLimiter(2, 3, 20*time.Millisecond)
	a1, _ := h.acquire(ctx, "a")
	a2, _ := h.acquire(ctx, "a")
	if a1 == nil || a2 == nil {
		t.Fatal("a's first two calls refused")
	}
	if rel, why := h.acquire(ctx, "a"); rel != nil || !strings.Contains(why, "2 calculations running") {
		t.Fatalf("a's third call: %v %q", rel != nil, why)
	}
	b1, _ := h.acquire(ctx, "b")
	if b1 == nil {
		t.Fatal("b refused while a is at its limit")
	}
	if rel, why := h.acquire(ctx, "c"); rel != nil || !strings.Contains(why, "busy") {
		t.Fatalf("c past the total: %v %q", rel != nil, why)
	}
	a1()
	a1()
	if rel, _ := h.acquire(ctx, "c"); rel == nil {
		t.Fatal("c refused after a slot came back")
	}
	if rel, _ := h.acquire(ctx, "a"); rel != nil {
		t.Fatal("a double release gave back two slots")
	}
}

// A call past the total waits in line and runs as soon as a slot comes
// back; the callers waiting are served in the order they came.
func TestHeavyLimiterQueues(t *testing.T) {
	ctx := context.Background()
	h := newHeavyLimiter(1, 1, 5*time.Second)
	first, _ := h.acquire(ctx, "a")
	if first == nil {
		t.Fatal("first call refused")
	}
	order := make(chan string, 2)
	var wg sync.WaitGroup
	for _, who := range []string{"b", "c"} {
		wg.Go(func() {
			rel, why := h.acquire(ctx, who)
			if rel == nil {
				t.Errorf("%s refused while waiting in line: %q", who, why)
				return
			}
			order <- who
			rel()
		})
		time.Sleep(50 * time.Millisecond) // b is in line before c
	}
	first()
	wg.Wait()
	close(order)
	var got []string
	for w := range order {
		got = append(got, w)
	}
	if strings.Join(got, ",") != "b,c" {
		t.Errorf("served %v, want b then c", got)
	}
	// A caller who gives up leaves the line and frees their place.
	hold, _ := h.acquire(ctx, "a")
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if rel, _ := h.acquire(gone, "d"); rel != nil {
		t.Error("a cancelled caller got a slot while it was taken")
	}
	hold()
	if rel, _ := h.acquire(ctx, "d"); rel == nil {
		t.Error("d still counted as waiting after giving up")
	}
}

func TestWaitText(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "1 second", 300 * time.Millisecond: "1 second", 1500 * time.Millisecond: "2 seconds",
		59 * time.Second: "59 seconds", time.Minute: "1 minute", 61 * time.Second: "2 minutes", 15 * time.Minute: "15 minutes",
	} {
		if got := waitText(d); got != want {
			t.Errorf("%v: %q, want %q", d, got, want)
		}
	}
}

func TestParsePublicURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://drains.example.com/": "https://drains.example.com",
		"http://127.0.0.1:8080":       "http://127.0.0.1:8080",
		"https://example.com/drains/": "https://example.com/drains",
	} {
		if got, err := parsePublicURL(in); err != nil || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "drains.example.com", "ftp://example.com", "https://", "https://example.com/?a=1", "https://u:p@example.com"} {
		if _, err := parsePublicURL(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}
