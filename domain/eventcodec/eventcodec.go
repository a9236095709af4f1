// Package eventcodec turns an aggregate's events into what the event store
// keeps (a type name, a schema version and JSON) and back, for as long as
// the store keeps them.
//
// Each aggregate has one Codec listing its event types. Every type has a
// current schema version, the shape its Go type has today. When that shape
// changes, the version goes up by one and an upcaster is registered that
// rewrites the JSON of the previous version into the new one; Decode runs
// the chain from the version an event was stored in up to the current one,
// so stored events are never rewritten and old code paths never kept.
//
// The package is pure: it knows nothing of the store or of any aggregate.
package eventcodec

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// ErrUnknownEventType is matched (errors.Is) by the error of Encode or
// Decode for a type the codec does not list: written by a newer version of
// the code, or by a removed feature. Readers skip such events.
var ErrUnknownEventType = errors.New("unknown event type")

// ErrFutureSchema is matched by Decode's error for an event stored in a
// schema version newer than the codec's: newer code wrote it, and this code
// cannot know what it means. Unlike an unknown type it is a known fact in a
// form this code cannot read, so readers must not skip it.
var ErrFutureSchema = errors.New("event schema version newer than this code knows")

// Upcaster rewrites the JSON of one schema version of an event type into
// the next version's.
type Upcaster func(data json.RawMessage) (json.RawMessage, error)

// Codec is the registry of one aggregate's event types; E is the
// aggregate's event interface. Build it once (package initialisation) with
// New and Register; it is then safe for concurrent use.
type Codec[E any] struct {
	aggregate string
	typeOf    func(E) string
	types     map[string]*entry[E]
	memo      *memo[E] // nil: none (Memoize)
}

type entry[E any] struct {
	schema    int
	decode    func([]byte) (E, error)
	upcasters []Upcaster // upcasters[i] turns version i+1 into i+2
}

// New makes an empty codec for the named aggregate ("project", used in
// error messages); typeOf gives an event's stored type name.
func New[E any](aggregate string, typeOf func(E) string) *Codec[E] {
	return &Codec[E]{aggregate: aggregate, typeOf: typeOf, types: map[string]*entry[E]{}}
}

// Register adds event type T (a struct whose value implements E, stored as
// JSON) at schema version schema, with the upcasters from version 1 to 2,
// 2 to 3, …, schema-1 to schema. Its stored type name is that of T's zero
// value. A mistake here is a programming error, found at start-up: Register
// panics.
func Register[T any, E any](c *Codec[E], schema int, upcasters ...Upcaster) {
	var zero T
	e, ok := any(zero).(E)
	if !ok {
		panic(fmt.Sprintf("eventcodec: %T is not a %s event", zero, c.aggregate))
	}
	typ := c.typeOf(e)
	switch {
	case typ == "":
		panic(fmt.Sprintf("eventcodec: %T has no type name", zero))
	case c.types[typ] != nil:
		panic(fmt.Sprintf("eventcodec: %s event type %q registered twice", c.aggregate, typ))
	case schema < 1:
		panic(fmt.Sprintf("eventcodec: %s: schema version %d, versions start at 1", typ, schema))
	case len(upcasters) != schema-1:
		panic(fmt.Sprintf("eventcodec: %s at schema version %d needs %d upcasters, got %d", typ, schema, schema-1, len(upcasters)))
	case slices.ContainsFunc(upcasters, func(u Upcaster) bool { return u == nil }):
		panic(fmt.Sprintf("eventcodec: %s: nil upcaster", typ))
	}
	c.types[typ] = &entry[E]{
		schema:    schema,
		upcasters: upcasters,
		decode: func(data []byte) (E, error) {
			var v T
			if err := json.Unmarshal(data, &v); err != nil {
				var none E
				return none, err
			}
			return any(v).(E), nil
		},
	}
}

// Encode gives the stored form of e: its type name, the current schema
// version of that type and its JSON.
func (c *Codec[E]) Encode(e E) (typ string, schema int, data []byte, err error) {
	if any(e) == nil {
		return "", 0, nil, fmt.Errorf("encode %s event: nil event", c.aggregate)
	}
	typ = c.typeOf(e)
	en, ok := c.types[typ]
	if !ok {
		return "", 0, nil, fmt.Errorf("encode %s event %T as %q: %w", c.aggregate, e, typ, ErrUnknownEventType)
	}
	if data, err = json.Marshal(e); err != nil {
		return "", 0, nil, fmt.Errorf("encode %s: %w", typ, err)
	}
	return typ, en.schema, data, nil
}

// Decode rebuilds an event from its stored form, upcasting it first if it
// was stored in an older schema version (0 counts as 1). The event comes
// back as the value type registered (Created, not *Created).
func (c *Codec[E]) Decode(typ string, schema int, data []byte) (E, error) {
	var none E
	en, ok := c.types[typ]
	if !ok {
		return none, fmt.Errorf("decode %s event %q: %w", c.aggregate, typ, ErrUnknownEventType)
	}
	schema = max(schema, 1)
	if schema > en.schema {
		return none, fmt.Errorf("decode %s schema version %d (this code knows up to %d): %w", typ, schema, en.schema, ErrFutureSchema)
	}
	if c.memo != nil {
		if e, ok := c.memo.get(typ, schema, data); ok {
			return e, nil
		}
	}
	raw := json.RawMessage(data)
	for v := schema; v < en.schema; v++ {
		up, err := en.upcasters[v-1](raw)
		if err != nil {
			return none, fmt.Errorf("upcast %s from schema version %d to %d: %w", typ, v, v+1, err)
		}
		raw = up
	}
	e, err := en.decode(raw)
	if err != nil {
		return none, fmt.Errorf("decode %s schema version %d: %w", typ, schema, err)
	}
	if c.memo != nil {
		c.memo.put(typ, schema, data, e)
	}
	return e, nil
}

// Types lists the registered type names, sorted.
func (c *Codec[E]) Types() []string {
	out := make([]string, 0, len(c.types))
	for t := range c.types {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// Schema is the current schema version of type typ, or false if the codec
// does not list it.
func (c *Codec[E]) Schema(typ string) (int, bool) {
	en, ok := c.types[typ]
	if !ok {
		return 0, false
	}
	return en.schema, true
}
