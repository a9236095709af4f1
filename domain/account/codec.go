package account

import "draindesign/domain/eventcodec"

// ErrUnknownEventType is matched (errors.Is) by Decode's error for a type
// this package does not know; readers skip such events. It is the shared
// eventcodec error, so one check serves every aggregate.
var ErrUnknownEventType = eventcodec.ErrUnknownEventType

// codec lists every account event type with its schema version. All are at
// version 1, the shape they had when versions were first recorded. To
// change a type's shape, raise its version and add the upcaster from the
// previous one (see package eventcodec and docs/architecture.md).
var codec = func() *eventcodec.Codec[Event] {
	c := eventcodec.New("account", Event.EventType)
	eventcodec.Register[Registered](c, 1)
	eventcodec.Register[EmailConfirmed](c, 1)
	eventcodec.Register[PasswordChanged](c, 1)
	eventcodec.Register[ResetRequested](c, 1)
	eventcodec.Register[SettingsChanged](c, 1)
	eventcodec.Register[CountryChanged](c, 1)
	eventcodec.Register[Blocked](c, 1)
	eventcodec.Register[Unblocked](c, 1)
	eventcodec.Register[GroupChanged](c, 1)
	eventcodec.Register[Deleted](c, 1)
	eventcodec.Register[APITokenCreated](c, 1)
	eventcodec.Register[APITokenRevoked](c, 1)
	eventcodec.Register[Erased](c, 1)
	return c
}()

// EventTypes lists every event type name this package writes, sorted.
func EventTypes() []string { return codec.Types() }

// Encode turns an event into the type name, schema version and JSON body
// stored in the event store.
func Encode(e Event) (typ string, schema int, data []byte, err error) {
	return codec.Encode(e)
}

// Decode rebuilds an event from its stored type name, schema version and
// JSON body, upcasting it from an older schema version. Pointer and value
// forms are not mixed: Decode always returns the value type (Registered,
// not *Registered). An unknown type is ErrUnknownEventType; a newer schema
// version than this code knows is eventcodec.ErrFutureSchema.
func Decode(typ string, schema int, data []byte) (Event, error) {
	return codec.Decode(typ, schema, data)
}
