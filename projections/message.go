package projections

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/ThreeDotsLabs/watermill/message"

	"draindesign/eventstore"
)

// Topic is the Watermill topic committed events are published on.
const Topic = "events"

// Metadata keys of an event message. They duplicate parts of the payload so
// that routing and catch-up need not decode it.
const (
	MetaStream   = "stream"
	MetaVersion  = "version"
	MetaType     = "type"
	MetaSchema   = "schema"
	MetaPosition = "position"
)

// NewMessage wraps a committed event in a Watermill message whose UUID is the
// event ID, so that transports which deduplicate by message ID (JetStream)
// drop the copies published by several relays.
func NewMessage(ev eventstore.Event) (*message.Message, error) {
	payload, err := json.Marshal(ev)
	if err != nil {
		return nil, fmt.Errorf("encode event %s: %w", ev.ID, err)
	}
	msg := message.NewMessage(ev.ID, payload)
	msg.Metadata.Set(MetaStream, ev.Stream)
	msg.Metadata.Set(MetaVersion, strconv.FormatInt(ev.Version, 10))
	msg.Metadata.Set(MetaType, ev.Type)
	msg.Metadata.Set(MetaSchema, strconv.Itoa(ev.Schema))
	msg.Metadata.Set(MetaPosition, ev.Position.String())
	return msg, nil
}

// DecodeEvent reads the event carried by a message made with NewMessage.
func DecodeEvent(msg *message.Message) (eventstore.Event, error) {
	var ev eventstore.Event
	if err := json.Unmarshal(msg.Payload, &ev); err != nil {
		return eventstore.Event{}, fmt.Errorf("decode event message %s: %w", msg.UUID, err)
	}
	return ev, nil
}

// messagePosition reads the log position a message announces, from the
// metadata when present and from the payload otherwise.
func messagePosition(msg *message.Message) (eventstore.Position, error) {
	if s := msg.Metadata.Get(MetaPosition); s != "" {
		return ParsePosition(s)
	}
	ev, err := DecodeEvent(msg)
	if err != nil {
		return eventstore.Position{}, err
	}
	return ev.Position, nil
}

// ParsePosition parses the "commit.seq" form of eventstore.Position.String.
func ParsePosition(s string) (eventstore.Position, error) {
	c, q, ok := strings.Cut(s, ".")
	commit, err1 := strconv.ParseUint(c, 10, 64)
	seq, err2 := strconv.ParseUint(q, 10, 64)
	if !ok || err1 != nil || err2 != nil {
		return eventstore.Position{}, fmt.Errorf("parse position %q: want commit.seq", s)
	}
	return eventstore.Position{Commit: commit, Seq: seq}, nil
}
