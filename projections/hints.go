package projections

import (
	"context"
	"strconv"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"

	"draindesign/eventstore"
)

// HintTopic is the Watermill topic of append hints.
const HintTopic = "hints"

// Hints tell live streams, on every instance, that a stream grew, as soon
// as the append returns. The relay announces every event too, but only
// once PostgreSQL's log shows it, which is after every older transaction
// in the cluster has ended, and then one page at a time: under `make load`
// an edit reached the designer's other tab a third of a second after it
// was stored, most of it there. A live stream takes any announcement as a
// prompt to read its stream from the store, so a hint needs no position
// and no order; one lost (a full queue, a bus outage) only leaves the
// relay's announcement to do the work.
type Hints struct {
	feed  *Feed
	pub   message.Publisher
	log   watermill.LoggerAdapter
	queue chan hint
}

type hint struct {
	stream  string
	version int64
}

// hintQueue bounds the hints waiting to be published: past it, new ones
// are dropped rather than slow the request that appended.
const hintQueue = 1024

// NewHints hints feed at once and, through pub (nil: this instance only),
// the feeds of every instance. Run publishes.
func NewHints(feed *Feed, pub message.Publisher, logger watermill.LoggerAdapter) *Hints {
	if logger == nil {
		logger = watermill.NopLogger{}
	}
	return &Hints{feed: feed, pub: pub, log: logger, queue: make(chan hint, hintQueue)}
}

// Appended is told that stream now stands at version. It never blocks.
func (h *Hints) Appended(stream string, version int64) {
	h.feed.Hint(stream, version)
	if h.pub == nil {
		return
	}
	select {
	case h.queue <- hint{stream, version}:
	default:
	}
}

// Run publishes queued hints until ctx ends, those queued together in one
// call.
func (h *Hints) Run(ctx context.Context) {
	if h.pub == nil {
		return
	}
	for {
		var first hint
		select {
		case <-ctx.Done():
			return
		case first = <-h.queue:
		}
		msgs := []*message.Message{hintMessage(first)}
		for more := true; more && len(msgs) < 100; {
			select {
			case next := <-h.queue:
				msgs = append(msgs, hintMessage(next))
			default:
				more = false
			}
		}
		if err := h.pub.Publish(HintTopic, msgs...); err != nil && ctx.Err() == nil {
			h.log.Error("Append hints not published; the relay will announce the events", err, watermill.LogFields{"hints": len(msgs)})
		}
	}
}

func hintMessage(x hint) *message.Message {
	msg := message.NewMessage(watermill.NewUUID(), nil)
	msg.Metadata.Set(MetaStream, x.stream)
	msg.Metadata.Set(MetaVersion, strconv.FormatInt(x.version, 10))
	return msg
}

// HandleHint passes a hint from the bus to the feed's subscribers.
func (f *Feed) HandleHint(msg *message.Message) error {
	stream := msg.Metadata.Get(MetaStream)
	version, err := strconv.ParseInt(msg.Metadata.Get(MetaVersion), 10, 64)
	if stream == "" || err != nil {
		return nil // nothing to retry; the relay announces the event anyway
	}
	f.Hint(stream, version)
	return nil
}

// Hint tells the subscribers of stream that it stands at version (or
// later): each that has not been told of it yet gets an event header with
// that version, without the check for consecutive versions Deliver makes,
// since a hint may cover several events. Announcements of versions up to
// it are then skipped as repeats.
func (f *Feed) Hint(stream string, version int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for s := range f.subs[stream] {
		if version <= s.last {
			continue
		}
		select {
		case s.ch <- eventstore.Event{Stream: stream, Version: version}:
			s.last = version
		default:
			f.drop(stream, s)
		}
	}
}
