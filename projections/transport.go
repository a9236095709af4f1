package projections

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	wmnats "github.com/ThreeDotsLabs/watermill-nats/v2/pkg/nats"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/gochannel"
	"github.com/nats-io/nats.go"
)

// Transport is the Watermill publisher the Relay writes to and the
// subscriber the Runner reads from.
type Transport struct {
	Publisher  message.Publisher
	Subscriber message.Subscriber
	// HintPublisher and HintSubscriber carry append hints (Hints): best
	// effort, nothing kept, so on NATS plain core subjects outside the
	// JetStream stream.
	HintPublisher  message.Publisher
	HintSubscriber message.Subscriber
	close          func() error
}

// Close closes publisher and subscriber.
func (t *Transport) Close() error { return t.close() }

// GoChannel is the embedded-mode transport: an in-process channel, one per
// app instance. Each instance runs its own Relay tailing the shared store,
// so events appended through another instance arrive too, and several
// instances stay correct because checkpoints and row locks live in the
// read-model database, not in the bus.
//
// Publish blocks until every subscriber has acknowledged: that keeps the
// events in log order (otherwise GoChannel hands each message to its own
// goroutine) and lets a slow read model hold the relay back instead of
// piling up goroutines.
func GoChannel(logger watermill.LoggerAdapter) *Transport {
	gc := gochannel.NewGoChannel(gochannel.Config{BlockPublishUntilSubscriberAck: true}, logger)
	return &Transport{Publisher: gc, Subscriber: gc, HintPublisher: gc, HintSubscriber: gc, close: gc.Close}
}

// NATSConfig configures the JetStream transport.
type NATSConfig struct {
	URL string
	// Stream is the JetStream stream holding the events; the instances of
	// one deployment share it. Default "DRAINDESIGN".
	Stream string
	// SubjectPrefix namespaces the topics: topic "events" becomes subject
	// "<prefix>.events". Default "draindesign".
	SubjectPrefix string
	// MaxAge bounds how long JetStream keeps a message. The store is the
	// record; the stream only has to bridge a subscriber's reconnect.
	// Default 1h.
	MaxAge time.Duration
	// Name identifies the connections in NATS monitoring.
	Name string
}

// NATS is the scale-out transport over NATS JetStream with the default
// stream and subject names.
func NATS(url string, logger watermill.LoggerAdapter) (*Transport, error) {
	return NewNATS(NATSConfig{URL: url}, logger)
}

// NewNATS connects a JetStream publisher and subscriber.
//
// Every relay (one per instance) publishes every event; JetStream keeps one
// copy because the message ID is the event ID. Every subscription is an
// ephemeral consumer that starts at new messages, so every instance's
// handlers see every event (its Feed needs them all; its projections find
// most already applied) and nothing older than the subscription is
// replayed (Runner.Start catches up from the store instead).
func NewNATS(cfg NATSConfig, logger watermill.LoggerAdapter) (*Transport, error) {
	if cfg.Stream == "" {
		cfg.Stream = "DRAINDESIGN"
	}
	if cfg.SubjectPrefix == "" {
		cfg.SubjectPrefix = "draindesign"
	}
	if cfg.MaxAge <= 0 {
		cfg.MaxAge = time.Hour
	}
	if cfg.Name == "" {
		cfg.Name = "draindesign"
	}
	if logger == nil {
		logger = watermill.NopLogger{}
	}
	opts := []nats.Option{
		nats.Name(cfg.Name),
		nats.Timeout(5 * time.Second),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(time.Second),
	}
	if err := ensureStream(cfg, opts); err != nil {
		return nil, err
	}
	js := wmnats.JetStreamConfig{
		TrackMsgId: true,
		// Every message is a hint whose subscribers read the store, and a
		// repeat is harmless: waiting for the server to confirm each
		// acknowledgement (one round trip per message, one message at a
		// time) only made the announcements queue under load.
		AckAsync: true,
		SubscribeOptions: []nats.SubOpt{
			nats.DeliverNew(),
			nats.AckExplicit(),
			// Watermill acks after the handler; nats.go must not ack too.
			nats.ManualAck(),
		},
	}
	pub, err := newJetStreamPublisher(cfg.URL, opts)
	if err != nil {
		return nil, fmt.Errorf("nats publisher: %w", err)
	}
	sub, err := wmnats.NewSubscriber(wmnats.SubscriberConfig{
		URL:              cfg.URL,
		NatsOptions:      opts,
		SubscribersCount: 1, // more would reorder the log
		AckWaitTimeout:   30 * time.Second,
		CloseTimeout:     5 * time.Second,
		JetStream:        js,
	}, logger)
	if err != nil {
		pub.Close()
		return nil, fmt.Errorf("nats subscriber: %w", err)
	}
	// Hints go through core NATS: a JetStream publish waits for the
	// server to store the message and confirm, one at a time, and under
	// `make load` the hints queued behind those confirmations for up to a
	// second. Their subjects lie outside the stream's, which would
	// otherwise store them all the same.
	core := wmnats.JetStreamConfig{Disabled: true}
	hintPub, err := wmnats.NewPublisher(wmnats.PublisherConfig{URL: cfg.URL, NatsOptions: opts, JetStream: core}, logger)
	if err != nil {
		sub.Close()
		pub.Close()
		return nil, fmt.Errorf("nats hint publisher: %w", err)
	}
	hintSub, err := wmnats.NewSubscriber(wmnats.SubscriberConfig{
		URL: cfg.URL, NatsOptions: opts, SubscribersCount: 1, CloseTimeout: 5 * time.Second, JetStream: core,
	}, logger)
	if err != nil {
		hintPub.Close()
		sub.Close()
		pub.Close()
		return nil, fmt.Errorf("nats hint subscriber: %w", err)
	}
	prefix := cfg.SubjectPrefix + "."
	hintPrefix := cfg.SubjectPrefix + "-hints."
	return &Transport{
		Publisher:      prefixedPublisher{pub, prefix},
		Subscriber:     prefixedSubscriber{sub, prefix},
		HintPublisher:  prefixedPublisher{hintPub, hintPrefix},
		HintSubscriber: prefixedSubscriber{hintSub, hintPrefix},
		close: func() error {
			return errors.Join(hintSub.Close(), hintPub.Close(), sub.Close(), pub.Close())
		},
	}, nil
}

// The prefix is applied to the topic rather than through watermill-nats'
// SubjectCalculator because its publisher sends to the bare topic whatever
// the calculator says; renaming the topic keeps both sides on one subject.
type prefixedPublisher struct {
	message.Publisher
	prefix string
}

func (p prefixedPublisher) Publish(topic string, msgs ...*message.Message) error {
	return p.Publisher.Publish(p.prefix+topic, msgs...)
}

type prefixedSubscriber struct {
	message.Subscriber
	prefix string
}

func (s prefixedSubscriber) Subscribe(ctx context.Context, topic string) (<-chan *message.Message, error) {
	return s.Subscriber.Subscribe(ctx, s.prefix+topic)
}

// ensureStream creates the stream if it is missing. Doing it here rather
// than with watermill-nats' AutoProvision lets us bound its age and
// duplicate window.
func ensureStream(cfg NATSConfig, opts []nats.Option) error {
	nc, err := nats.Connect(cfg.URL, opts...)
	if err != nil {
		return fmt.Errorf("connect to nats %s: %w", cfg.URL, err)
	}
	defer nc.Close()
	js, err := nc.JetStream()
	if err != nil {
		return fmt.Errorf("nats jetstream: %w", err)
	}
	_, err = js.StreamInfo(cfg.Stream)
	if err == nil {
		return nil
	}
	if !errors.Is(err, nats.ErrStreamNotFound) {
		return fmt.Errorf("nats stream %s: %w", cfg.Stream, err)
	}
	_, err = js.AddStream(&nats.StreamConfig{
		Name:       cfg.Stream,
		Subjects:   []string{cfg.SubjectPrefix + ".>"},
		Storage:    nats.FileStorage,
		MaxAge:     cfg.MaxAge,
		Duplicates: min(2*time.Minute, cfg.MaxAge),
	})
	if err != nil {
		return fmt.Errorf("create nats stream %s: %w", cfg.Stream, err)
	}
	return nil
}
