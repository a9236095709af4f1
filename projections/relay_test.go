package projections_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"

	"draindesign/eventstore"
	"draindesign/eventstore/eventstoretest"
	"draindesign/projections"
	"draindesign/projections/internal/testkit"
)

func TestRelayPublishesCommittedEventsInOrder(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, store eventstore.Store, _ testkit.Database) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		early := testkit.Append(t, store, "project-a", 2)
		tr := projections.GoChannel(watermill.NopLogger{})
		defer tr.Close()
		msgs, err := tr.Subscriber.Subscribe(ctx, projections.Topic)
		if err != nil {
			t.Fatal(err)
		}
		spy := &eventstoretest.Reads{Store: store}
		relay := projections.NewRelay(projections.RelayConfig{
			Store: spy, Publisher: tr.Publisher, After: testkit.Last(early), PollInterval: time.Hour,
		})
		go func() {
			if err := relay.Run(ctx); err != nil {
				t.Errorf("relay: %v", err)
			}
		}()

		var want []eventstore.Event
		for i := 0; i < 4; i++ {
			want = append(want, testkit.Append(t, store, []string{"project-a", "user-b"}[i%2], 1+i%2)...)
			relay.Notify()
		}
		for i, w := range want {
			select {
			case msg := <-msgs:
				got, err := projections.DecodeEvent(msg)
				if err != nil {
					t.Fatal(err)
				}
				msg.Ack()
				if msg.UUID != w.ID || got.ID != w.ID || got.Stream != w.Stream || got.Version != w.Version ||
					got.Position != w.Position || got.Schema != w.Schema || got.Type != w.Type {
					t.Fatalf("message %d: %s %+v, want the header of event %+v", i, msg.UUID, got, w)
				}
				// The data stays in the store.
				if len(msg.Payload) != 0 || got.Data != nil {
					t.Errorf("message %d carries the event's data: %s", i, msg.Payload)
				}
				meta := map[string]string{
					projections.MetaStream:   w.Stream,
					projections.MetaVersion:  strconv.FormatInt(w.Version, 10),
					projections.MetaType:     w.Type,
					projections.MetaSchema:   strconv.Itoa(w.Schema),
					projections.MetaPosition: w.Position.String(),
				}
				for k, v := range meta {
					if msg.Metadata.Get(k) != v {
						t.Errorf("message %d: metadata %s = %q, want %q", i, k, msg.Metadata.Get(k), v)
					}
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("message %d of %d not published (Notify alone must deliver)", i, len(want))
			}
		}
		testkit.Eventually(t, 5*time.Second, func() error {
			if got, want := relay.Position(), testkit.Last(want); got != want {
				return fmt.Errorf("relay at %s, want %s", got, want)
			}
			return nil
		})
		select {
		case msg := <-msgs:
			t.Errorf("unexpected message %s (events before After must not be published)", msg.UUID)
		case <-time.After(50 * time.Millisecond):
		}
		// Nor does the relay read it.
		if n := spy.WithData(); n != 0 {
			t.Errorf("the relay read %d events with their data", n)
		}
	})
}
