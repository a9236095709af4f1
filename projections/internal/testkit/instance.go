package testkit

import (
	"context"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"

	"draindesign/eventstore"
	"draindesign/projections"
)

// InstanceConfig describes one app instance's projection machinery.
type InstanceConfig struct {
	Store       eventstore.Store
	DB          *projections.DB
	Projections []projections.Projection
	Feed        *projections.Feed
	// Transport defaults to a fresh GoChannel.
	Transport *projections.Transport
	// RelayPoll defaults to one hour, so that only Notify moves the relay.
	RelayPoll time.Duration
	BatchSize int
	// FollowPace: projections.Config's (0: its default).
	FollowPace time.Duration
}

// Instance is a started runner with its relay and transport.
type Instance struct {
	Runner    *projections.Runner
	Relay     *projections.Relay
	Transport *projections.Transport
	DB        *projections.DB
}

// StartInstance wires and starts an instance the way main does, and stops
// it when the test ends. The runner never sweeps, so whatever reaches the
// read models after Start came over the bus (or through WaitFor).
func StartInstance(t testing.TB, cfg InstanceConfig) *Instance {
	t.Helper()
	logger := watermill.NopLogger{}
	if cfg.Transport == nil {
		cfg.Transport = projections.GoChannel(logger)
	}
	if cfg.RelayPoll == 0 {
		cfg.RelayPoll = time.Hour
	}
	ctx, cancel := context.WithCancel(context.Background())
	runner, err := projections.NewRunner(projections.Config{
		Store:          cfg.Store,
		DB:             cfg.DB,
		Projections:    cfg.Projections,
		Subscriber:     cfg.Transport.Subscriber,
		HintSubscriber: cfg.Transport.HintSubscriber,
		Logger:         logger,
		BatchSize:      cfg.BatchSize,
		SweepInterval:  time.Hour,
		FollowPace:     cfg.FollowPace,
	})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Feed != nil {
		runner.AddFeed(cfg.Feed)
	}
	if err := runner.Start(ctx); err != nil {
		cancel()
		t.Fatalf("start runner: %v", err)
	}
	after, err := runner.Position(ctx)
	if err != nil {
		t.Fatal(err)
	}
	relay := projections.NewRelay(projections.RelayConfig{
		Store: cfg.Store, Publisher: cfg.Transport.Publisher, After: after,
		PollInterval: cfg.RelayPoll, Logger: logger,
	})
	relayDone := make(chan struct{})
	go func() {
		defer close(relayDone)
		if err := relay.Run(ctx); err != nil {
			t.Errorf("relay: %v", err)
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-relayDone
		if err := runner.Close(); err != nil {
			t.Logf("close runner: %v", err)
		}
		cfg.Transport.Close()
	})
	return &Instance{Runner: runner, Relay: relay, Transport: cfg.Transport, DB: cfg.DB}
}
