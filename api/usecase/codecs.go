package usecase

import (
	"errors"
	"fmt"

	"draindesign/domain/account"
	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/eventstore/aggregate"
)

// projectCodec and accountCodec adapt the domain codecs to the repository.

type projectCodec struct{}

func (projectCodec) Encode(e project.Event) (eventstore.NewEvent, error) {
	typ, data, err := project.Encode(e)
	return eventstore.NewEvent{Type: typ, Data: data}, err
}

func (projectCodec) Decode(ev eventstore.Event) (project.Event, error) {
	if !project.KnownType(ev.Type) {
		return nil, fmt.Errorf("%w %q", aggregate.ErrUnknownType, ev.Type)
	}
	return project.Decode(ev.Type, ev.Data)
}

type accountCodec struct{}

func (accountCodec) Encode(e account.Event) (eventstore.NewEvent, error) {
	typ, data, err := account.Encode(e)
	return eventstore.NewEvent{Type: typ, Data: data}, err
}

func (accountCodec) Decode(ev eventstore.Event) (account.Event, error) {
	e, err := account.Decode(ev.Type, ev.Data)
	if errors.Is(err, account.ErrUnknownEventType) {
		return nil, fmt.Errorf("%w %q", aggregate.ErrUnknownType, ev.Type)
	}
	return e, err
}
