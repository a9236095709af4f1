package projections

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"

	"draindesign/eventstore"
)

// RelayConfig configures a Relay.
type RelayConfig struct {
	Store     eventstore.Store
	Publisher message.Publisher
	// After is the position to publish from (exclusive). Runner.Position
	// after Runner.Start is the natural choice: everything before it is
	// already in the read models, and live clients resync by ReadStream.
	After eventstore.Position
	// PollInterval bounds how late an event appended by another app instance
	// (which cannot call this instance's Notify) is published. Default 500ms.
	PollInterval time.Duration
	// BatchSize is the ReadAll page size, and how many announcements are
	// published at once. Default 1000: each page costs a log read and a
	// wait for the bus, and with pages of 100 the relays of `make load`
	// announced about 500 events a second against 900 appended, with
	// every read model following them behind.
	BatchSize int
	Logger    watermill.LoggerAdapter
}

// Relay publishes committed events, in log order, to the "events" topic.
//
// It reads the log and never sees an append call, so nothing it publishes
// can be uncommitted, and because ReadAll never skips an event, nothing
// committed is left out. A failed publish is retried from the same position,
// so subscribers must tolerate duplicates (the Runner and the Feed do).
type Relay struct {
	cfg  RelayConfig
	wake chan struct{}

	mu  sync.Mutex
	pos eventstore.Position
}

// NewRelay returns a relay; start it with Run.
func NewRelay(cfg RelayConfig) *Relay {
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = 500 * time.Millisecond
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 1000
	}
	if cfg.Logger == nil {
		cfg.Logger = watermill.NopLogger{}
	}
	return &Relay{cfg: cfg, wake: make(chan struct{}, 1), pos: cfg.After}
}

// Notify tells the relay the log has grown. It never blocks; the API calls
// it after every successful append so that delivery does not wait for the
// next poll.
func (r *Relay) Notify() {
	select {
	case r.wake <- struct{}{}:
	default:
		// A wake-up is already pending and will read everything.
	}
}

// Position is the position of the last event published.
func (r *Relay) Position() eventstore.Position {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pos
}

// After a Notify the relay keeps re-reading for followUpWindow, 5ms apart
// at first and at most 250ms. A store may show a committed event to ReadAll
// only a little later: PostgreSQL holds it back while any older transaction
// in the cluster is still open. Without the follow-ups that event would wait
// for the next poll.
const followUpWindow = 5 * time.Second

// Run publishes until ctx is cancelled, then returns nil.
func (r *Relay) Run(ctx context.Context) error {
	ticker := time.NewTicker(r.cfg.PollInterval)
	defer ticker.Stop()
	const firstBackoff = 100 * time.Millisecond
	backoff := firstBackoff
	var notified time.Time
	followUp := 5 * time.Millisecond
	for {
		if err := r.drain(ctx); err != nil && ctx.Err() == nil {
			r.cfg.Logger.Error("Relay failed, retrying", err, watermill.LogFields{"after": r.Position().String(), "wait": backoff.String()})
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, 30*time.Second)
			continue
		}
		backoff = firstBackoff
		var again <-chan time.Time
		if time.Since(notified) < followUpWindow {
			again = time.After(followUp)
			followUp = min(2*followUp, 250*time.Millisecond)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-r.wake:
			notified = time.Now()
			followUp = 5 * time.Millisecond
		case <-ticker.C:
		case <-again:
		}
	}
}

// drain publishes pages until the log is exhausted.
func (r *Relay) drain(ctx context.Context) error {
	for ctx.Err() == nil {
		after := r.Position()
		// Announcements carry no data (NewMessage), so none is read: each
		// instance's relay read every event's data, a quarter of the rows
		// PostgreSQL sent with their data under `make load`.
		evs, err := eventstore.ReadAllOf(ctx, r.cfg.Store, after, r.cfg.BatchSize, []string{})
		if err != nil {
			return fmt.Errorf("relay: read after %s: %w", after, err)
		}
		if len(evs) == 0 {
			return nil
		}
		msgs := make([]*message.Message, 0, len(evs))
		for _, ev := range evs {
			msg, err := NewMessage(ev)
			if err != nil {
				return fmt.Errorf("relay: %w", err)
			}
			msgs = append(msgs, msg)
		}
		if err := r.cfg.Publisher.Publish(Topic, msgs...); err != nil {
			return fmt.Errorf("relay: publish %d events after %s: %w", len(msgs), after, err)
		}
		r.mu.Lock()
		r.pos = evs[len(evs)-1].Position
		r.mu.Unlock()
	}
	return nil
}
