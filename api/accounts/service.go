// Package accounts runs account commands against the event store: register
// (with usernames and e-mail addresses kept unique by reservation streams),
// look up by username or e-mail, and apply commands with optimistic
// concurrency.
package accounts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"draindesign/domain/account"
	"draindesign/eventstore"
	"draindesign/projections"

	"github.com/google/uuid"
)

// Service executes account commands.
type Service struct {
	Store    eventstore.Store
	Appended func()
	Now      func() time.Time
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

// Reservations make uniqueness across streams a matter of one stream's
// expected version: claiming a name is appending to its stream.
const (
	typeClaimed  = "reservation.claimed"
	typeReleased = "reservation.released"
)

type reservation struct {
	UserID string `json:"user_id"`
}

func usernameStream(name string) string { return "username-" + account.UsernameKey(name) }
func emailStream(email string) string   { return "email-" + account.EmailKey(email) }

// claim takes a reserved key for userID; errTaken if someone holds it.
func (s *Service) claim(ctx context.Context, stream, userID string) error {
	evs, err := s.Store.ReadStream(ctx, stream, 1, 0)
	if err != nil {
		return fmt.Errorf("read reservation %s: %w", stream, err)
	}
	if len(evs) > 0 && evs[len(evs)-1].Type == typeClaimed {
		return errTaken
	}
	data, _ := json.Marshal(reservation{UserID: userID})
	_, err = s.Store.Append(ctx, stream, eventstore.Exactly(int64(len(evs))), eventstore.NewEvent{
		ID: newEventID(), Type: typeClaimed, Data: data, Metadata: eventstore.Metadata{Author: userID, Time: s.now()},
	})
	if errors.Is(err, eventstore.ErrConflict) {
		return errTaken
	}
	return err
}

func (s *Service) release(ctx context.Context, stream, userID string) error {
	v, err := s.Store.StreamVersion(ctx, stream)
	if err != nil {
		return err
	}
	data, _ := json.Marshal(reservation{UserID: userID})
	_, err = s.Store.Append(ctx, stream, eventstore.Exactly(v), eventstore.NewEvent{
		ID: newEventID(), Type: typeReleased, Data: data, Metadata: eventstore.Metadata{Author: userID, Time: s.now()},
	})
	return err
}

var errTaken = errors.New("taken")

// holder is the user id holding a reservation, or "".
func (s *Service) holder(ctx context.Context, stream string) (string, error) {
	evs, err := s.Store.ReadStream(ctx, stream, 1, 0)
	if err != nil {
		return "", fmt.Errorf("read reservation %s: %w", stream, err)
	}
	if len(evs) == 0 || evs[len(evs)-1].Type != typeClaimed {
		return "", nil
	}
	var r reservation
	if err := json.Unmarshal(evs[len(evs)-1].Data, &r); err != nil {
		return "", fmt.Errorf("read reservation %s: %w", stream, err)
	}
	return r.UserID, nil
}

// Register creates an account in group, speaking lang (a product language
// code; empty keeps the default). The form is validated before the
// password is hashed, and the username and e-mail are claimed before the
// account stream is written, so two racing registrations cannot both win.
func (s *Service) Register(ctx context.Context, in account.RegisterInput, group account.Group, lang string) (*account.Account, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	hash, err := account.HashPassword(in.Password)
	if err != nil {
		return nil, fmt.Errorf("register: %w", err)
	}
	if in.ID == "" {
		in.ID = uuid.NewString()
	}
	evs, err := account.Register(in, hash, s.now())
	if err != nil {
		return nil, err
	}
	if reg, ok := evs[0].(account.Registered); ok {
		if group != "" {
			reg.Group = group
		}
		if account.ValidLanguage(lang) {
			reg.Language = lang
		}
		evs[0] = reg
	}
	in = in.Normalized()
	if err := s.claim(ctx, usernameStream(in.Username), in.ID); errors.Is(err, errTaken) {
		return nil, account.FieldError("username", account.MsgUsernameTaken)
	} else if err != nil {
		return nil, err
	}
	if err := s.claim(ctx, emailStream(in.Email), in.ID); err != nil {
		if rerr := s.release(ctx, usernameStream(in.Username), in.ID); rerr != nil {
			return nil, fmt.Errorf("release username after failed registration: %w", rerr)
		}
		if errors.Is(err, errTaken) {
			return nil, account.FieldError("email", account.MsgEmailTaken)
		}
		return nil, err
	}
	if err := s.append(ctx, in.ID, eventstore.NoStream, in.ID, evs); err != nil {
		return nil, err
	}
	return account.FromEvents(evs)
}

// Load rebuilds an account; account.ErrNotFound if there is none.
func (s *Service) Load(ctx context.Context, id string) (*account.Account, error) {
	raw, err := s.Store.ReadStream(ctx, account.Stream(id), 1, 0)
	if err != nil {
		return nil, fmt.Errorf("load account %s: %w", id, err)
	}
	evs := make([]account.Event, 0, len(raw))
	for _, r := range raw {
		e, err := account.Decode(r.Type, r.Schema, r.Data)
		if errors.Is(err, account.ErrUnknownEventType) {
			projections.SkipUnknown("account", r.Type)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("load account %s v%d: %w", id, r.Version, err)
		}
		evs = append(evs, e)
	}
	a, err := account.FromEvents(evs)
	if err != nil {
		return nil, err
	}
	// Skipped events moved the stream too: the version is the stream's, or
	// every later append would conflict.
	a.Version = raw[len(raw)-1].Version
	return a, nil
}

// ByUsername finds an account by username (case-insensitive).
func (s *Service) ByUsername(ctx context.Context, username string) (*account.Account, error) {
	return s.byReservation(ctx, usernameStream(username))
}

// ByEmail finds an account by e-mail address (case-insensitive).
func (s *Service) ByEmail(ctx context.Context, email string) (*account.Account, error) {
	return s.byReservation(ctx, emailStream(email))
}

func (s *Service) byReservation(ctx context.Context, stream string) (*account.Account, error) {
	id, err := s.holder(ctx, stream)
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, account.ErrNotFound
	}
	return s.Load(ctx, id)
}

// Execute applies a command to an account, re-deciding on a fresh load when
// another writer got in first. by is the acting user, for the metadata.
func (s *Service) Execute(ctx context.Context, id, by string, decide func(a *account.Account) ([]account.Event, error)) (*account.Account, error) {
	for attempt := 0; ; attempt++ {
		a, err := s.Load(ctx, id)
		if err != nil {
			return nil, err
		}
		evs, err := decide(a)
		if err != nil || len(evs) == 0 {
			return a, err
		}
		err = s.append(ctx, id, eventstore.Exactly(a.Version), by, evs)
		if errors.Is(err, eventstore.ErrConflict) && attempt < 3 {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, e := range evs {
			a.Apply(e)
		}
		return a, nil
	}
}

func (s *Service) append(ctx context.Context, id string, expected eventstore.ExpectedVersion, by string, evs []account.Event) error {
	meta := eventstore.Metadata{Author: by, Time: s.now()}
	batch := make([]eventstore.NewEvent, len(evs))
	for i, e := range evs {
		typ, schema, data, err := account.Encode(e)
		if err != nil {
			return err
		}
		batch[i] = eventstore.NewEvent{ID: newEventID(), Type: typ, Schema: schema, Data: data, Metadata: meta}
	}
	if _, err := s.Store.Append(ctx, account.Stream(id), expected, batch...); err != nil {
		return fmt.Errorf("append to account %s: %w", id, err)
	}
	if s.Appended != nil {
		s.Appended()
	}
	return nil
}

// newEventID is time-ordered (UUIDv7) so event-id index inserts stay at the
// end of the index.
func newEventID() string { return uuid.Must(uuid.NewV7()).String() }
