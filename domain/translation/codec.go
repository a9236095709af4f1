package translation

import "draindesign/domain/eventcodec"

// ErrUnknownEventType is the shared eventcodec error: readers skip such
// events.
var ErrUnknownEventType = eventcodec.ErrUnknownEventType

// codec lists every translation event type with its schema version; to
// change a type's shape, raise its version and add the upcaster.
var codec = func() *eventcodec.Codec[Event] {
	c := eventcodec.New("translation", Event.EventType)
	eventcodec.Register[TextChanged](c, 1)
	eventcodec.Register[TextReset](c, 1)
	return c
}()

// EventTypes lists every event type name this package writes, sorted.
func EventTypes() []string { return codec.Types() }

// Encode gives the stored type name, schema version and JSON of e.
func Encode(e Event) (typ string, schema int, data []byte, err error) { return codec.Encode(e) }

// Decode rebuilds an event from its stored form (always the value type).
func Decode(typ string, schema int, data []byte) (Event, error) {
	return codec.Decode(typ, schema, data)
}
