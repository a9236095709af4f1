package projections

import (
	"encoding/json"
	"errors"
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

// NewMessage announces a committed event in a Watermill message whose UUID
// is the event ID, so that transports which deduplicate by message ID
// (JetStream) drop the copies published by several relays.
//
// The message carries the event's header only, in its metadata: every
// subscriber takes a message as a hint and reads the event from the store
// (the read models from their checkpoint, live streams from the version
// they hold). The data stays out of the bus: under `make load` NATS
// JetStream took a quarter of a core storing and sending every event's
// data twice (each instance's relay publishes the whole log), and none of
// it was read.
func NewMessage(ev eventstore.Event) (*message.Message, error) {
	if ev.ID == "" || ev.Stream == "" {
		return nil, fmt.Errorf("announce event %q of stream %q: no id or stream", ev.ID, ev.Stream)
	}
	msg := message.NewMessage(ev.ID, nil)
	msg.Metadata.Set(MetaStream, ev.Stream)
	msg.Metadata.Set(MetaVersion, strconv.FormatInt(ev.Version, 10))
	msg.Metadata.Set(MetaType, ev.Type)
	msg.Metadata.Set(MetaSchema, strconv.Itoa(ev.Schema))
	msg.Metadata.Set(MetaPosition, ev.Position.String())
	return msg, nil
}

// DecodeEvent reads the header of the event a message announces (no data,
// no metadata): from the message's metadata, or from a payload, which
// messages of earlier builds carried.
func DecodeEvent(msg *message.Message) (eventstore.Event, error) {
	if len(msg.Payload) > 0 {
		var ev eventstore.Event
		if err := json.Unmarshal(msg.Payload, &ev); err != nil {
			return eventstore.Event{}, fmt.Errorf("decode event message %s: %w", msg.UUID, err)
		}
		ev.Data, ev.Metadata = nil, eventstore.Metadata{}
		return ev, nil
	}
	version, err1 := strconv.ParseInt(msg.Metadata.Get(MetaVersion), 10, 64)
	schema, err2 := strconv.Atoi(msg.Metadata.Get(MetaSchema))
	pos, err3 := ParsePosition(msg.Metadata.Get(MetaPosition))
	stream := msg.Metadata.Get(MetaStream)
	if err := errors.Join(err1, err2, err3); err != nil {
		return eventstore.Event{}, fmt.Errorf("decode event message %s: incomplete header: %w", msg.UUID, err)
	}
	if stream == "" {
		return eventstore.Event{}, fmt.Errorf("decode event message %s: no stream", msg.UUID)
	}
	return eventstore.Event{ID: msg.UUID, Stream: stream, Version: version, Type: msg.Metadata.Get(MetaType),
		Schema: schema, Position: pos}, nil
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
