package projections_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"

	"draindesign/eventstore"
	"draindesign/projections"
)

func TestEventMessagesCarryTheHeaderOnly(t *testing.T) {
	ev := eventstore.Event{ID: "e1", Stream: "project-p", Version: 4, Type: "project.run_calculated", Schema: 2,
		Position: eventstore.Position{Commit: 77, Seq: 3}, Data: json.RawMessage(`{"summary":{"x":1}}`),
		Metadata: eventstore.Metadata{Author: "u1", Time: time.Now()}}
	header := ev
	header.Data, header.Metadata = nil, eventstore.Metadata{}

	msg, err := projections.NewMessage(ev)
	if err != nil {
		t.Fatal(err)
	}
	if len(msg.Payload) != 0 {
		t.Errorf("payload %s, want none", msg.Payload)
	}
	got, err := projections.DecodeEvent(msg)
	if err != nil || got.ID != header.ID || got.Stream != header.Stream || got.Version != header.Version ||
		got.Type != header.Type || got.Schema != header.Schema || got.Position != header.Position || got.Data != nil {
		t.Errorf("decoded %+v, %v; want %+v", got, err, header)
	}

	// A message of an earlier build, with the whole event as its payload.
	payload, _ := json.Marshal(ev)
	old := message.NewMessage("e1", payload)
	got, err = projections.DecodeEvent(old)
	if err != nil || got.Stream != ev.Stream || got.Version != ev.Version || got.Position != ev.Position || got.Data != nil || got.Metadata.Author != "" {
		t.Errorf("earlier message decoded %+v, %v; want the header of %+v", got, err, ev)
	}

	for _, m := range []*message.Message{message.NewMessage("x", nil), message.NewMessage("y", []byte("{"))} {
		if _, err := projections.DecodeEvent(m); err == nil {
			t.Errorf("message %s with no event decoded", m.UUID)
		}
	}
	if _, err := projections.NewMessage(eventstore.Event{ID: "z"}); err == nil {
		t.Error("an event with no stream was announced")
	}
}
