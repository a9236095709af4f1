package account

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ErrUnknownEventType is matched by Decode's error for a type this package
// does not know.
var ErrUnknownEventType = errors.New("account: unknown event type")

// decoders lists every event type; Decode and the codec tests both rely on
// it being complete.
var decoders = map[string]func([]byte) (Event, error){
	TypeRegistered:      decodeAs[Registered],
	TypeEmailConfirmed:  decodeAs[EmailConfirmed],
	TypePasswordChanged: decodeAs[PasswordChanged],
	TypeResetRequested:  decodeAs[ResetRequested],
	TypeSettingsChanged: decodeAs[SettingsChanged],
	TypeCountryChanged:  decodeAs[CountryChanged],
	TypeBlocked:         decodeAs[Blocked],
	TypeUnblocked:       decodeAs[Unblocked],
	TypeGroupChanged:    decodeAs[GroupChanged],
	TypeDeleted:         decodeAs[Deleted],
}

func decodeAs[T Event](data []byte) (Event, error) {
	var e T
	if err := json.Unmarshal(data, &e); err != nil {
		return nil, err
	}
	return e, nil
}

// EventTypes lists every event type name this package writes.
func EventTypes() []string {
	return []string{
		TypeRegistered, TypeEmailConfirmed, TypePasswordChanged, TypeResetRequested,
		TypeSettingsChanged, TypeCountryChanged, TypeBlocked, TypeUnblocked,
		TypeGroupChanged, TypeDeleted,
	}
}

// Encode turns an event into the type name and JSON body stored in the
// event store.
func Encode(e Event) (typ string, data []byte, err error) {
	if e == nil {
		return "", nil, errors.New("account: encode nil event")
	}
	typ = e.EventType()
	if _, ok := decoders[typ]; !ok {
		return "", nil, fmt.Errorf("account: encode %T: %w %q", e, ErrUnknownEventType, typ)
	}
	data, err = json.Marshal(e)
	if err != nil {
		return "", nil, fmt.Errorf("account: encode %s: %w", typ, err)
	}
	return typ, data, nil
}

// Decode rebuilds an event from its stored type name and JSON body. Pointer
// and value forms are not mixed: Decode always returns the value type
// (Registered, not *Registered).
func Decode(typ string, data []byte) (Event, error) {
	dec, ok := decoders[typ]
	if !ok {
		return nil, fmt.Errorf("account: decode: %w %q", ErrUnknownEventType, typ)
	}
	e, err := dec(data)
	if err != nil {
		return nil, fmt.Errorf("account: decode %s: %w", typ, err)
	}
	return e, nil
}
