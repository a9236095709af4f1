package projections_test

import (
	"fmt"
	"testing"
	"time"

	"draindesign/eventstore"
	"draindesign/projections"
	"draindesign/projections/internal/testkit"
)

func ev(stream string, version int64) eventstore.Event {
	return eventstore.Event{ID: fmt.Sprintf("%s-%d", stream, version), Stream: stream, Version: version}
}

// receive takes what is buffered on ch and reports whether ch was closed.
func receive(ch <-chan eventstore.Event) (versions []int64, closed bool) {
	for {
		select {
		case e, ok := <-ch:
			if !ok {
				return versions, true
			}
			versions = append(versions, e.Version)
		default:
			return versions, false
		}
	}
}

func TestFeedDeliver(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		buffer     int
		deliver    []eventstore.Event
		want       []int64
		wantClosed bool
	}{
		{name: "in order", buffer: 8, deliver: []eventstore.Event{ev("p", 1), ev("p", 2), ev("p", 3)}, want: []int64{1, 2, 3}},
		{name: "other streams ignored", buffer: 8, deliver: []eventstore.Event{ev("p", 1), ev("q", 1), ev("p", 2)}, want: []int64{1, 2}},
		{name: "starts mid-stream", buffer: 8, deliver: []eventstore.Event{ev("p", 7), ev("p", 8)}, want: []int64{7, 8}},
		{name: "repeats skipped", buffer: 8, deliver: []eventstore.Event{ev("p", 1), ev("p", 2), ev("p", 1), ev("p", 2), ev("p", 3)}, want: []int64{1, 2, 3}},
		{name: "gap drops", buffer: 8, deliver: []eventstore.Event{ev("p", 1), ev("p", 3), ev("p", 4)}, want: []int64{1}, wantClosed: true},
		{name: "slow subscriber dropped", buffer: 2, deliver: []eventstore.Event{ev("p", 1), ev("p", 2), ev("p", 3), ev("p", 4)}, want: []int64{1, 2}, wantClosed: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := projections.NewFeed(tc.buffer)
			ch, cancel := f.Subscribe("p")
			defer cancel()
			for _, e := range tc.deliver {
				f.Deliver(e)
			}
			got, closed := receive(ch)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) || closed != tc.wantClosed {
				t.Errorf("got %v closed=%v, want %v closed=%v", got, closed, tc.want, tc.wantClosed)
			}
			if wantSubs := map[bool]int{false: 1, true: 0}[tc.wantClosed]; f.Subscribers() != wantSubs {
				t.Errorf("%d subscribers left, want %d", f.Subscribers(), wantSubs)
			}
		})
	}
}

// A stalled subscriber must not hold up the others, nor Deliver itself.
func TestFeedSlowSubscriberDoesNotBlockOthers(t *testing.T) {
	t.Parallel()
	f := projections.NewFeed(4)
	slow, cancelSlow := f.Subscribe("p")
	defer cancelSlow()
	fast, cancelFast := f.Subscribe("p")
	defer cancelFast()
	for v := int64(1); v <= 100; v++ {
		delivered := make(chan struct{})
		go func() {
			f.Deliver(ev("p", v))
			close(delivered)
		}()
		select {
		case <-delivered:
		case <-time.After(5 * time.Second):
			t.Fatalf("Deliver of v%d blocked", v)
		}
		select {
		case e, ok := <-fast:
			if !ok || e.Version != v {
				t.Fatalf("fast subscriber got v%d (open=%v), want v%d", e.Version, ok, v)
			}
		default:
			t.Fatalf("fast subscriber did not get v%d", v)
		}
	}
	versions, closed := receive(slow)
	if !closed || fmt.Sprint(versions) != "[1 2 3 4]" {
		t.Errorf("slow subscriber got %v closed=%v, want its 4 buffered events and a closed channel", versions, closed)
	}
}

func TestFeedCancel(t *testing.T) {
	t.Parallel()
	f := projections.NewFeed(4)
	ch, cancel := f.Subscribe("p")
	cancel()
	cancel() // harmless
	if _, ok := <-ch; ok {
		t.Error("channel open after cancel")
	}
	f.Deliver(ev("p", 1)) // must not panic on the closed channel
	if f.Subscribers() != 0 {
		t.Errorf("%d subscribers after cancel", f.Subscribers())
	}
}

// Through the whole chain: store, relay, transport, router, feed.
func TestFeedThroughRunner(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, store eventstore.Store, database testkit.Database) {
		feed := projections.NewFeed(64)
		inst := testkit.StartInstance(t, testkit.InstanceConfig{
			Store: store, DB: database.Open(t), Feed: feed,
			Projections: []projections.Projection{testkit.NewCounter("counted")},
		})
		ch, cancel := feed.Subscribe("project-f")
		defer cancel()
		want := 0
		for i := 0; i < 5; i++ {
			want += len(testkit.Append(t, store, "project-f", 1+i%3))
			testkit.Append(t, store, "project-other", 1)
			inst.Relay.Notify()
		}
		var got []int64
		timeout := time.After(10 * time.Second)
		for len(got) < want {
			select {
			case e, ok := <-ch:
				if !ok {
					t.Fatalf("feed dropped the subscriber after %v", got)
				}
				if e.Stream != "project-f" {
					t.Fatalf("got an event of %s", e.Stream)
				}
				got = append(got, e.Version)
			case <-timeout:
				t.Fatalf("after 10s got %v", got)
			}
		}
		for i, v := range got {
			if v != int64(i+1) {
				t.Fatalf("versions %v, want 1..%d in order", got, want)
			}
		}
		select {
		case e := <-ch:
			t.Errorf("unexpected extra event v%d", e.Version)
		case <-time.After(50 * time.Millisecond):
		}
	})
}
