// Package projects runs project commands: it loads a project from its
// stream, lets the domain decide, and appends the decided events with the
// version it decided on, so a concurrent change is a conflict, never lost.
package projects

import (
	"context"
	"errors"
	"fmt"
	"time"

	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/projections"

	"github.com/google/uuid"
)

// Actor is who acts, for the events' metadata.
type Actor struct {
	UserID        string
	CorrelationID string
}

// Service executes project commands against the event store.
type Service struct {
	Store eventstore.Store
	// Appended is told after each successful append, so delivery to read
	// models and live clients need not wait for a poll.
	Appended func()
	Now      func() time.Time
}

// ErrStale says the client decided on an older version of the project than
// the stored one: someone else saved in between.
var ErrStale = errors.New("the project was changed elsewhere since you loaded it; load it again before saving")

// NewID makes ids for projects, runs and share links.
func NewID() string { return uuid.Must(uuid.NewV7()).String() }

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

// Load rebuilds a project from its stream; a project never created is a
// *project.NotFoundError.
func (s *Service) Load(ctx context.Context, id string) (*project.Project, error) {
	return s.LoadAt(ctx, id, 0)
}

// LoadAt rebuilds a project as it stood after event version (0: the latest).
func (s *Service) LoadAt(ctx context.Context, id string, version int64) (*project.Project, error) {
	limit := 0
	if version > 0 {
		limit = int(version)
	}
	evs, err := s.Store.ReadStream(ctx, project.Stream(id), 1, limit)
	if err != nil {
		return nil, fmt.Errorf("load project %s: %w", id, err)
	}
	if len(evs) == 0 {
		return nil, &project.NotFoundError{What: "project", ID: id}
	}
	p := &project.Project{}
	for _, ev := range evs {
		e, err := project.Decode(ev.Type, ev.Schema, ev.Data)
		if errors.Is(err, project.ErrUnknownEventType) {
			// Skipped, but the stream did move: the version stays that of
			// the stream, or every later append would conflict.
			projections.SkipUnknown("project", ev.Type)
			p.Version = ev.Version
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("load project %s at version %d: %w", id, ev.Version, err)
		}
		p.Apply(e)
		p.Version = ev.Version
	}
	return p, nil
}

// Decision is what a command decides on a loaded project.
type Decision func(p *project.Project) ([]project.Event, error)

// Execute loads the project, decides and appends. With expected >= 0 the
// caller decided on that version (a save from a client), and any other
// version is ErrStale. With expected < 0 the command is re-decided on a
// fresh load when another writer got in first.
func (s *Service) Execute(ctx context.Context, id string, expected int64, by Actor, decide Decision) (*project.Project, error) {
	for attempt := 0; ; attempt++ {
		p, err := s.Load(ctx, id)
		if err != nil {
			return nil, err
		}
		if expected >= 0 && p.Version != expected {
			return nil, ErrStale
		}
		evs, err := decide(p)
		if err != nil || len(evs) == 0 {
			return p, err
		}
		err = s.append(ctx, id, eventstore.Exactly(p.Version), by, evs)
		if errors.Is(err, eventstore.ErrConflict) {
			if expected >= 0 {
				return nil, ErrStale
			}
			if attempt < 3 {
				continue
			}
		}
		if err != nil {
			return nil, err
		}
		for _, e := range evs {
			p.Apply(e)
		}
		return p, nil
	}
}

// Create starts a new project stream and applies further events in the same
// atomic append (a first save creates and fills the project at once).
func (s *Service) Create(ctx context.Context, id string, owner, ownerName, country string, by Actor, then Decision) (*project.Project, error) {
	evs := project.New(id, owner, ownerName, country, s.now())
	p := project.FromEvents(evs)
	if then != nil {
		more, err := then(p)
		if err != nil {
			return nil, err
		}
		for _, e := range more {
			p.Apply(e)
		}
		evs = append(evs, more...)
	}
	if err := s.append(ctx, id, eventstore.NoStream, by, evs); err != nil {
		return nil, err
	}
	return p, nil
}

func (s *Service) append(ctx context.Context, id string, expected eventstore.ExpectedVersion, by Actor, evs []project.Event) error {
	meta := eventstore.Metadata{Author: by.UserID, CorrelationID: by.CorrelationID, Time: s.now()}
	batch := make([]eventstore.NewEvent, len(evs))
	for i, e := range evs {
		typ, schema, data, err := project.Encode(e)
		if err != nil {
			return err
		}
		batch[i] = eventstore.NewEvent{ID: NewID(), Type: typ, Schema: schema, Data: data, Metadata: meta}
	}
	if _, err := s.Store.Append(ctx, project.Stream(id), expected, batch...); err != nil {
		return fmt.Errorf("append to project %s: %w", id, err)
	}
	if s.Appended != nil {
		s.Appended()
	}
	return nil
}

// Clock is the service time, for commands that stamp times.
func (s *Service) Clock() time.Time { return s.now() }
