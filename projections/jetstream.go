package projections

import (
	"errors"
	"fmt"
	"time"

	wmnats "github.com/ThreeDotsLabs/watermill-nats/v2/pkg/nats"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/nats-io/nats.go"
)

// jetStreamPublisher is the Watermill publisher of the events topic on
// NATS JetStream. It sends all the messages of one Publish before waiting
// for JetStream's acknowledgements, then waits for every one: watermill-
// nats' publisher waits for each in turn, one round trip per event, and
// under `make load`, with the cores full, the relays published about 35
// events a second against a log growing by 900, so the read models, which
// follow the announcements, fell further behind all through the run.
//
// Publish returns nil only once JetStream has stored (or, by the message
// ID, recognised as a repeat) every message: the relay moves past a page
// only then, as before. After a failure it publishes the page again; the
// copies JetStream already holds are dropped as repeats, and the
// subscribers take any message as a hint (order and repeats do not
// matter, see Runner.announce and Feed.Deliver).
type jetStreamPublisher struct {
	nc        *nats.Conn
	js        nats.JetStreamContext
	marshaler wmnats.Marshaler
}

// publishWait bounds how long a Publish waits for JetStream to
// acknowledge its messages, as the synchronous publish's default wait.
const publishWait = 5 * time.Second

func newJetStreamPublisher(url string, opts []nats.Option) (*jetStreamPublisher, error) {
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return nil, fmt.Errorf("connect to nats %s: %w", url, err)
	}
	js, err := nc.JetStream()
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("nats jetstream: %w", err)
	}
	return &jetStreamPublisher{nc: nc, js: js, marshaler: &wmnats.NATSMarshaler{}}, nil
}

// Publish sends msgs to the subject topic, each with its UUID as the
// JetStream message ID.
func (p *jetStreamPublisher) Publish(topic string, msgs ...*message.Message) error {
	acks := make([]nats.PubAckFuture, 0, len(msgs))
	for _, msg := range msgs {
		nm, err := p.marshaler.Marshal(topic, msg)
		if err != nil {
			return fmt.Errorf("publish %s: %w", msg.UUID, err)
		}
		ack, err := p.js.PublishMsgAsync(nm, nats.MsgId(msg.UUID))
		if err != nil {
			return fmt.Errorf("publish %s: %w", msg.UUID, err)
		}
		acks = append(acks, ack)
	}
	deadline := time.NewTimer(publishWait)
	defer deadline.Stop()
	for i, ack := range acks {
		select {
		case <-ack.Ok():
		case err := <-ack.Err():
			return fmt.Errorf("publish %s: %w", msgs[i].UUID, err)
		case <-deadline.C:
			return fmt.Errorf("publish %s: %w", msgs[i].UUID, errPublishTimeout)
		}
	}
	return nil
}

var errPublishTimeout = errors.New("no acknowledgement from JetStream in time")

func (p *jetStreamPublisher) Close() error {
	p.nc.Close()
	return nil
}
