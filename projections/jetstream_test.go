package projections_test

import (
	"bytes"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"

	"draindesign/projections"
)

// The events publisher sends a whole page before it waits for JetStream's
// acknowledgements: a proxy holds back everything the server says to a
// connection from that connection's first message until it has seen the
// page's last. Waiting for each message's acknowledgement in turn (the
// watermill-nats publisher) never gets past the first; under load that
// made the relays announce about 35 events a second. The page is then
// stored once, also when published again (the message ID).
func TestNATSPublishesAPageBeforeWaiting(t *testing.T) {
	cfg := natsConfig(t)
	const page = 50
	cfg.URL = holdingProxy(t, strings.TrimPrefix(natsURL(), "nats://"), page)
	tr, err := projections.NewNATS(cfg, watermill.NopLogger{})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	msgs := make([]*message.Message, page)
	for i := range msgs {
		msgs[i] = message.NewMessage(watermill.NewUUID(), nil)
	}
	for round := range 2 {
		if err := tr.Publisher.Publish(projections.Topic, msgs...); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
	if n := streamMessages(t, natsURL(), cfg.Stream); n != page {
		t.Errorf("stream holds %d messages, want %d (one per event)", n, page)
	}
}

// holdingProxy forwards connections to target; on each, what the server
// sends is held from the client's first HPUB (a message with headers)
// until the client has sent n of them.
func holdingProxy(t *testing.T, target string, n int) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			t.Cleanup(func() { c.Close(); s.Close() })
			go holdUntil(c, s, n)
		}
	}()
	return "nats://" + ln.Addr().String()
}

func holdUntil(client, server net.Conn, n int) {
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	seen := 0
	go func() {
		buf := make([]byte, 64<<10)
		var carry []byte // the last bytes of a chunk: a command split across two
		for {
			k, err := client.Read(buf)
			if k > 0 {
				data := append(append([]byte(nil), carry...), buf[:k]...)
				mu.Lock()
				seen += bytes.Count(data, []byte("HPUB "))
				cond.Broadcast()
				mu.Unlock()
				carry = append([]byte(nil), data[max(0, len(data)-4):]...)
				if _, werr := server.Write(buf[:k]); werr != nil {
					return
				}
			}
			if err != nil {
				server.Close()
				return
			}
		}
	}()
	buf := make([]byte, 64<<10)
	for {
		k, err := server.Read(buf)
		mu.Lock()
		for seen > 0 && seen < n {
			cond.Wait()
		}
		mu.Unlock()
		if k > 0 {
			if _, werr := client.Write(buf[:k]); werr != nil {
				return
			}
		}
		if err != nil {
			client.Close()
			return
		}
	}
}
