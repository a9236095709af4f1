package eventcodec

import (
	"sync"
	"time"
)

// memo keeps recent decodings. One event is decoded by several readers on
// an instance: the aggregate's repository, each read model that follows
// its stream, live streams. Under `make load` decoding a project's
// calculation records (inputs and summary) took an eighth of an
// instance's CPU, most of it decoding the same bytes again. Decoding is a
// function of (type, schema version, data), so the memo is keyed by all
// three, the data compared whole.
//
// It is bounded in bytes and emptied at least every maxAge: decoded events
// may hold personal data in clear, and an erasure (which rewrites stored
// data, so that later reads miss) must not leave it in memory longer than
// the instance's other caches do.
type memo[E any] struct {
	maxBytes int
	maxAge   time.Duration

	mu      sync.Mutex
	m       map[string]memoEntry[E] // by data
	bytes   int
	cleared time.Time
}

type memoEntry[E any] struct {
	typ    string
	schema int
	event  E
}

func (m *memo[E]) get(typ string, schema int, data []byte) (E, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.expire()
	e, ok := m.m[string(data)]
	if !ok || e.typ != typ || e.schema != schema {
		var none E
		return none, false
	}
	return e.event, true
}

func (m *memo[E]) put(typ string, schema int, data []byte, event E) {
	if len(data) > m.maxBytes/16 {
		return // one large event must not empty the memo
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.expire()
	if m.bytes+len(data) > m.maxBytes {
		m.clear()
	}
	key := string(data)
	if _, ok := m.m[key]; !ok {
		m.bytes += len(key)
	}
	m.m[key] = memoEntry[E]{typ: typ, schema: schema, event: event}
}

func (m *memo[E]) expire() {
	if now := time.Now(); now.Sub(m.cleared) > m.maxAge {
		m.clear()
		m.cleared = now
	}
}

func (m *memo[E]) clear() {
	clear(m.m)
	m.bytes = 0
}

// Memoize makes Decode keep up to maxBytes of decoded data, each decoding
// for at most maxAge, and give the same value to every caller decoding the
// same bytes. The maps and slices of a decoded event are then shared:
// callers must not change them (none does: an aggregate copies what it
// keeps, read models only read). Call it before the codec is used.
func (c *Codec[E]) Memoize(maxBytes int, maxAge time.Duration) {
	c.memo = &memo[E]{maxBytes: maxBytes, maxAge: maxAge, m: map[string]memoEntry[E]{}}
}
