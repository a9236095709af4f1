package projections_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"

	"draindesign/projections"
)

// A hint covers several versions: it needs no consecutive versions, and
// the announcements it covers are then skipped as repeats.
func TestFeedHint(t *testing.T) {
	t.Parallel()
	f := projections.NewFeed(8)
	ch, cancel := f.Subscribe("p")
	defer cancel()
	f.Deliver(ev("p", 1))
	f.Hint("p", 4) // an append of versions 2 to 4
	f.Hint("p", 3) // late: covered
	for v := int64(2); v <= 5; v++ {
		f.Deliver(ev("p", v))
	}
	f.Hint("q", 9)
	got, closed := receive(ch)
	if fmt.Sprint(got) != "[1 4 5]" || closed {
		t.Errorf("got %v closed=%v, want [1 4 5] open", got, closed)
	}
}

// An append's hint reaches this instance's live streams at once and
// another instance's through the bus, with no relay running.
func TestHintsReachEveryInstance(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr := projections.GoChannel(watermill.NopLogger{})
	defer tr.Close()
	here, there := projections.NewFeed(8), projections.NewFeed(8)
	msgs, err := tr.Subscriber.Subscribe(ctx, projections.HintTopic)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for msg := range msgs {
			_ = there.HandleHint(msg)
			msg.Ack()
		}
	}()
	hints := projections.NewHints(here, tr.Publisher, nil)
	go hints.Run(ctx)
	chHere, stopHere := here.Subscribe("project-a")
	defer stopHere()
	chThere, stopThere := there.Subscribe("project-a")
	defer stopThere()

	hints.Appended("project-a", 3)
	if got, _ := receive(chHere); fmt.Sprint(got) != "[3]" {
		t.Errorf("this instance got %v at once, want [3]", got)
	}
	select {
	case e := <-chThere:
		if e.Stream != "project-a" || e.Version != 3 {
			t.Errorf("the other instance got %+v", e)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the hint did not reach the other instance")
	}
}
