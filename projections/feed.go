package projections

import (
	"sync"

	"github.com/ThreeDotsLabs/watermill/message"

	"draindesign/eventstore"
)

// Feed fans committed events out to in-process subscribers, such as the
// WebSocket connections of this app instance. Register it with
// Runner.AddFeed.
//
// A subscriber's channel carries consecutive versions of its stream. It is
// closed instead, never blocking the router, when the subscriber falls
// behind by more than the buffer or when a version would be missing. A
// client handles both the same way: subscribe again, ReadStream from the
// version after the last one it has, and skip from the new channel whatever
// that read already returned.
type Feed struct {
	buffer int

	mu   sync.Mutex
	subs map[string]map[*feedSub]struct{}
}

type feedSub struct {
	ch   chan eventstore.Event
	last int64 // version last delivered, 0 before the first
}

// NewFeed returns a feed whose subscribers may lag by up to buffer events.
func NewFeed(buffer int) *Feed {
	if buffer < 1 {
		buffer = 1
	}
	return &Feed{buffer: buffer, subs: map[string]map[*feedSub]struct{}{}}
}

// Subscribe returns the events of stream committed from now on. cancel
// releases the subscription and closes the channel; calling it after the
// feed dropped the subscriber is harmless.
func (f *Feed) Subscribe(stream string) (<-chan eventstore.Event, func()) {
	s := &feedSub{ch: make(chan eventstore.Event, f.buffer)}
	f.mu.Lock()
	if f.subs[stream] == nil {
		f.subs[stream] = map[*feedSub]struct{}{}
	}
	f.subs[stream][s] = struct{}{}
	f.mu.Unlock()
	return s.ch, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.drop(stream, s)
	}
}

// Handle is the Watermill handler that feeds the subscribers.
func (f *Feed) Handle(msg *message.Message) error {
	ev, err := DecodeEvent(msg)
	if err != nil {
		// Nothing to retry: the subscribers resync from the store anyway.
		return nil
	}
	f.Deliver(ev)
	return nil
}

// Deliver passes ev to the subscribers of its stream without blocking.
// Repeats of versions already delivered (a transport redelivering, two
// relays publishing) are skipped.
func (f *Feed) Deliver(ev eventstore.Event) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for s := range f.subs[ev.Stream] {
		if ev.Version <= s.last {
			continue
		}
		if s.last != 0 && ev.Version != s.last+1 {
			f.drop(ev.Stream, s)
			continue
		}
		select {
		case s.ch <- ev:
			s.last = ev.Version
		default:
			f.drop(ev.Stream, s)
		}
	}
}

// drop closes and forgets s; f.mu must be held.
func (f *Feed) drop(stream string, s *feedSub) {
	set := f.subs[stream]
	if _, ok := set[s]; !ok {
		return
	}
	delete(set, s)
	if len(set) == 0 {
		delete(f.subs, stream)
	}
	close(s.ch)
}

// Subscribers counts the live subscriptions, for tests and metrics.
func (f *Feed) Subscribers() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, set := range f.subs {
		n += len(set)
	}
	return n
}
