package app

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/nats-io/nats.go"
)

// NATS_STREAM gives a deployment its own JetStream stream and subjects;
// without it the stream is DRAINDESIGN on draindesign.>.
func TestNATSStreamNamed(t *testing.T) {
	url := natsURL(t)
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	name := "APPTEST_" + strings.ToUpper(hex.EncodeToString(b))
	t.Setenv("NATS_STREAM", name)
	opts := FromEnv(t.TempDir())
	opts.NATSURL = url
	tr, err := openTransport(opts, watermill.NopLogger{})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close) // after the stream's deletion below (cleanups run last first)
	js, err := nc.JetStream()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = js.DeleteStream(name) })
	info, err := js.StreamInfo(name)
	if err != nil {
		t.Fatalf("stream %s: %v", name, err)
	}
	if got := strings.Join(info.Config.Subjects, ","); got != strings.ToLower(name)+".>" {
		t.Fatalf("stream %s has subjects %s", name, got)
	}
}
