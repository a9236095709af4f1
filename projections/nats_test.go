package projections_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/nats-io/nats.go"

	"draindesign/eventstore"
	"draindesign/projections"
	"draindesign/projections/internal/testkit"
)

func natsURL() string {
	if u := os.Getenv("NATS_URL"); u != "" {
		return u
	}
	return "nats://127.0.0.1:4222"
}

// natsConfig gives the test a stream and subjects of its own on the shared
// server, deleted when the test ends.
func natsConfig(t *testing.T) projections.NATSConfig {
	t.Helper()
	nc, err := nats.Connect(natsURL(), nats.Timeout(2*time.Second))
	if err != nil {
		testkit.Unavailable(t, "NATS", err)
	}
	js, err := nc.JetStream()
	if err == nil {
		_, err = js.AccountInfo()
	}
	if err != nil {
		nc.Close()
		testkit.Unavailable(t, "NATS JetStream", err)
	}
	var b [4]byte
	rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	cfg := projections.NATSConfig{
		URL:           natsURL(),
		Stream:        "DRAINDESIGN_TEST_" + id,
		SubjectPrefix: "draindesign-test-" + id,
		MaxAge:        10 * time.Minute,
		Name:          t.Name(),
	}
	t.Cleanup(func() {
		if err := js.DeleteStream(cfg.Stream); err != nil {
			t.Logf("delete stream %s: %v", cfg.Stream, err)
		}
		nc.Close()
	})
	return cfg
}

// Two instances, each with its own relay and NATS connections, share a
// stream: every event is stored once in JetStream although both relays
// publish it, applied once to the shared read model, and delivered once and
// in order to a feed subscriber on the other instance.
func TestNATSRoundTrip(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, store eventstore.Store, database testkit.Database) {
		cfg := natsConfig(t)
		feed := projections.NewFeed(64)
		var insts []*testkit.Instance
		var counters []*testkit.Counter
		for i := 0; i < 2; i++ {
			tr, err := projections.NewNATS(cfg, watermill.NopLogger{})
			if err != nil {
				t.Fatalf("NewNATS: %v", err)
			}
			c := testkit.NewCounter("counted")
			counters = append(counters, c)
			ic := testkit.InstanceConfig{
				Store: store, DB: database.Open(t), Transport: tr,
				Projections: []projections.Projection{c},
			}
			if i == 1 {
				ic.Feed = feed
			}
			insts = append(insts, testkit.StartInstance(t, ic))
		}
		ch, cancel := feed.Subscribe("project-n")
		defer cancel()

		var ids []string
		for i := 0; i < 6; i++ {
			ids = append(ids, testkit.IDs(testkit.Append(t, store, "project-n", 1+i%2))...)
			insts[0].Relay.Notify()
			insts[1].Relay.Notify()
		}
		db := insts[0].DB
		testkit.Eventually(t, 15*time.Second, func() error { return counters[0].ExactlyOnce(t, db, ids) })

		var got []int64
		timeout := time.After(10 * time.Second)
		for len(got) < len(ids) {
			select {
			case e, ok := <-ch:
				if !ok {
					t.Fatalf("feed dropped the subscriber after %v", got)
				}
				got = append(got, e.Version)
			case <-timeout:
				t.Fatalf("feed delivered %v of %d events", got, len(ids))
			}
		}
		for i, v := range got {
			if v != int64(i+1) {
				t.Fatalf("feed delivered versions %v, want 1..%d", got, len(ids))
			}
		}

		testkit.Eventually(t, 5*time.Second, func() error {
			if insts[0].Relay.Position() != insts[1].Relay.Position() {
				return fmt.Errorf("relays at %s and %s", insts[0].Relay.Position(), insts[1].Relay.Position())
			}
			return nil
		})
		if n := streamMessages(t, cfg.URL, cfg.Stream); n != uint64(len(ids)) {
			t.Errorf("stream holds %d messages for %d events published by two relays", n, len(ids))
		}

		// An append hint from the first instance reaches the other's feed
		// through core NATS, and JetStream keeps none.
		hintCtx, stopHints := context.WithCancel(context.Background())
		defer stopHints()
		hints := projections.NewHints(projections.NewFeed(1), insts[0].Transport.HintPublisher, nil)
		go hints.Run(hintCtx)
		deadline := time.After(10 * time.Second)
		for hinted := false; !hinted; {
			hints.Appended("project-n", int64(len(ids)+5))
			select {
			case e := <-ch:
				hinted = e.Version == int64(len(ids)+5)
			case <-time.After(100 * time.Millisecond):
			case <-deadline:
				t.Fatal("the hint did not reach the other instance's feed")
			}
		}
		if n := streamMessages(t, cfg.URL, cfg.Stream); n != uint64(len(ids)) {
			t.Errorf("after hints the stream holds %d messages, want %d: hints are not kept", n, len(ids))
		}
	})
}

// streamMessages is how many messages the JetStream stream holds.
func streamMessages(t *testing.T, url, stream string) uint64 {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := nc.JetStream()
	if err != nil {
		t.Fatal(err)
	}
	info, err := js.StreamInfo(stream)
	if err != nil {
		t.Fatal(err)
	}
	return info.State.Msgs
}
