package usecase

import (
	"errors"
	"fmt"

	"draindesign/domain/account"
	"draindesign/domain/availability"
	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/eventstore/aggregate"
)

// projectCodec and accountCodec adapt the domain codecs (schema versions,
// upcasters) to the repository.

type projectCodec struct{}

func (projectCodec) Encode(e project.Event) (eventstore.NewEvent, error) {
	typ, schema, data, err := project.Encode(e)
	return eventstore.NewEvent{Type: typ, Schema: schema, Data: data}, err
}

func (projectCodec) Decode(ev eventstore.Event) (project.Event, error) {
	e, err := project.Decode(ev.Type, ev.Schema, ev.Data)
	return e, unknown(ev, err)
}

type accountCodec struct{}

func (accountCodec) Encode(e account.Event) (eventstore.NewEvent, error) {
	typ, schema, data, err := account.Encode(e)
	return eventstore.NewEvent{Type: typ, Schema: schema, Data: data}, err
}

func (accountCodec) Decode(ev eventstore.Event) (account.Event, error) {
	e, err := account.Decode(ev.Type, ev.Schema, ev.Data)
	return e, unknown(ev, err)
}

type availabilityCodec struct{}

func (availabilityCodec) Encode(e availability.Event) (eventstore.NewEvent, error) {
	typ, schema, data, err := availability.Encode(e)
	return eventstore.NewEvent{Type: typ, Schema: schema, Data: data}, err
}

func (availabilityCodec) Decode(ev eventstore.Event) (availability.Event, error) {
	e, err := availability.Decode(ev.Type, ev.Schema, ev.Data)
	return e, unknown(ev, err)
}

// unknown marks a decode error for a type this build does not know, which
// the repository skips and counts rather than failing the load.
func unknown(ev eventstore.Event, err error) error {
	if errors.Is(err, project.ErrUnknownEventType) || errors.Is(err, account.ErrUnknownEventType) ||
		errors.Is(err, availability.ErrUnknownEventType) {
		return fmt.Errorf("%w %q: %w", aggregate.ErrUnknownType, ev.Type, err)
	}
	return err
}
