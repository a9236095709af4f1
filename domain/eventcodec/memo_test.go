package eventcodec_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"draindesign/domain/eventcodec"
)

// tagged counts how often it is decoded.
type tagged struct {
	Tags map[string]string `json:"tags"`
}

var taggedDecodes atomic.Int64

func (t *tagged) UnmarshalJSON(b []byte) error {
	taggedDecodes.Add(1)
	var v struct {
		Tags map[string]string `json:"tags"`
	}
	err := json.Unmarshal(b, &v)
	t.Tags = v.Tags
	return err
}

func (tagged) Type() string { return "thing.tagged" }

// The same bytes are decoded once, whoever asks; other bytes, another
// schema version, an expired or a full memo decode again.
func TestMemoize(t *testing.T) {
	c := eventcodec.New("thing", event.Type)
	eventcodec.Register[tagged](c, 1)
	c.Memoize(1<<10, 50*time.Millisecond)
	decode := func(data string) tagged {
		t.Helper()
		e, err := c.Decode("thing.tagged", 1, []byte(data))
		if err != nil {
			t.Fatal(err)
		}
		return e.(tagged)
	}
	before := taggedDecodes.Load()
	a := decode(`{"tags":{"k":"v"}}`)
	b := decode(`{"tags":{"k":"v"}}`)
	if n := taggedDecodes.Load() - before; n != 1 || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("two decodings of the same bytes: %d decodes, %v and %v; want 1 and equal", n, a, b)
	}
	decode(`{"tags":{"k":"w"}}`)
	if n := taggedDecodes.Load() - before; n != 2 {
		t.Errorf("other bytes: %d decodes in all, want 2", n)
	}
	if _, err := c.Decode("thing.tagged", 2, []byte(`{"tags":{"k":"v"}}`)); err == nil {
		t.Error("a future schema version decoded from the memo")
	}
	time.Sleep(60 * time.Millisecond)
	decode(`{"tags":{"k":"v"}}`)
	if n := taggedDecodes.Load() - before; n != 3 {
		t.Errorf("after the memo's age: %d decodes in all, want 3", n)
	}
	// Past its size the memo starts again: 1 KB holds about 16 of these.
	for i := range 40 {
		decode(fmt.Sprintf(`{"tags":{"n":"%d%s"}}`, i, strings.Repeat("x", 30)))
	}
	before = taggedDecodes.Load()
	decode(`{"tags":{"k":"v"}}`)
	if n := taggedDecodes.Load() - before; n != 1 {
		t.Errorf("an entry older than a full memo's worth was kept (%d decodes, want 1)", n)
	}
	// Larger than a sixteenth of the memo: decoded, not kept.
	big := `{"tags":{"k":"` + strings.Repeat("y", 200) + `"}}`
	decode(big)
	before = taggedDecodes.Load()
	decode(big)
	if n := taggedDecodes.Load() - before; n != 1 {
		t.Errorf("a large event was kept (%d decodes, want 1)", n)
	}
}
