package usecase

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"draindesign/domain/fault"
	"draindesign/domain/project"
	"draindesign/eventstore/aggregate"
	"draindesign/projections/userlist"
)

// A project's history: its versions (read from the timeline read model),
// any version's content and the comparison of two (rebuilt from the
// project's stream, like any load), a copy of a version into a new project
// of the asker's, and the restores: restoring a version, undo and redo.
// Who may read the history and who may restore is the domain's
// (project.CanReadHistory, project.CanWrite).

// HistoryView is a project's history as the history panel and the
// timeline show it.
type HistoryView struct {
	Project string `json:"project"`
	// Name is the project's name now.
	Name string `json:"name"`
	// Version is the newest version the history holds.
	Version int64 `json:"version"`
	// Editable: the asker may restore, undo and redo.
	Editable bool            `json:"editable"`
	Entries  []project.Entry `json:"entries"`
	Undo     *project.Move   `json:"undo"`
	Redo     *project.Move   `json:"redo"`
	// Authors names the entries' authors by their ids.
	Authors map[string]string `json:"authors"`
}

// historyReader loads the project for a read of its history, or answers
// as for a missing project.
func (u *Projects) historyReader(ctx context.Context, a Actor, id string) (*project.Project, error) {
	if id == "" || a.User == nil {
		return nil, hidden(id)
	}
	p, err := u.repo.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	if !p.CanReadHistory(a.Viewer("")) {
		return nil, hidden(id)
	}
	return p, nil
}

// History is the project's history, for who may read it.
func (u *Projects) History(ctx context.Context, a Actor, id string) (HistoryView, error) {
	p, err := u.historyReader(ctx, a, id)
	if err != nil {
		return HistoryView{}, err
	}
	entries, err := u.timelineOf(ctx, p)
	if err != nil {
		return HistoryView{}, err
	}
	steps := make([]project.Step, len(entries))
	for i, e := range entries {
		ev, err := project.DecodeCurrent(e.Type, e.Data)
		if err != nil && !errors.Is(err, project.ErrUnknownEventType) {
			return HistoryView{}, fmt.Errorf("history of %s at version %d: %w", id, e.Version, err)
		}
		steps[i] = project.Step{Version: e.Version, Commit: e.Position.Commit, Author: e.Author, At: e.Time, Event: ev}
	}
	h := project.NewHistory(steps)
	view := HistoryView{Project: id, Name: p.Details.Name, Editable: p.CanWrite(a.Viewer("")), Entries: h.Entries, Undo: h.Undo, Redo: h.Redo}
	if view.Entries == nil {
		view.Entries = []project.Entry{}
	}
	if n := len(entries); n > 0 {
		view.Version = entries[n-1].Version
	}
	var ids []string
	for _, e := range h.Entries {
		if e.Author != "" && !slices.Contains(ids, e.Author) {
			ids = append(ids, e.Author)
		}
	}
	if view.Authors, err = userlist.Names(ctx, u.db, ids); err != nil {
		return HistoryView{}, err
	}
	if _, ok := view.Authors[p.Owner]; !ok && slices.Contains(ids, p.Owner) {
		view.Authors[p.Owner] = p.OwnerName
	}
	return view, nil
}

// checkVersion refuses a version the project never had.
func checkVersion(p *project.Project, v int64) error {
	if v < 1 || v > p.Version {
		return fault.New(fault.BadInput, "version must be a number from 1 to %d", p.Version)
	}
	return nil
}

// Compare says what changed from version from to version to.
func (u *Projects) Compare(ctx context.Context, a Actor, id string, from, to int64) (project.Diff, error) {
	p, err := u.historyReader(ctx, a, id)
	if err != nil {
		return project.Diff{}, err
	}
	if err := errors.Join(checkVersion(p, from), checkVersion(p, to)); err != nil {
		return project.Diff{}, fault.New(fault.BadInput, "from and to must be versions from 1 to %d", p.Version)
	}
	before, err := u.repo.LoadAt(ctx, id, from)
	if err != nil {
		return project.Diff{}, err
	}
	after, err := u.repo.LoadAt(ctx, id, to)
	if err != nil {
		return project.Diff{}, err
	}
	return project.Compare(before, after), nil
}

// CopyVersion starts a new project of the asker's with the content
// project id had at version: support reproduces a designer's problem in a
// project of their own, leaving the designer's untouched.
func (u *Projects) CopyVersion(ctx context.Context, a Actor, id string, version int64) (*project.Project, error) {
	p, err := u.historyReader(ctx, a, id)
	if err != nil {
		return nil, err
	}
	if err := checkVersion(p, version); err != nil {
		return nil, err
	}
	past, err := u.repo.LoadAt(ctx, id, version)
	if err != nil {
		return nil, err
	}
	newID := NewID()
	evs, err := project.CopyOf(newID, a.User.ID, a.User.Username, a.User.Country, u.clock(), past, NewID)
	if err != nil {
		return nil, err
	}
	c, err := u.repo.Create(ctx, newID, a.meta(), evs)
	if err != nil {
		return nil, err
	}
	u.settle(ctx, c)
	return c, nil
}

// Restore brings the project's content back to version, as new events.
func (u *Projects) Restore(ctx context.Context, a Actor, id string, version int64) (*project.Project, error) {
	return u.restore(ctx, a, id, project.ReasonRestore, func(p *project.Project, _ project.History) (int64, error) {
		return version, checkVersion(p, version)
	})
}

// Undo takes back the newest edit not yet undone (project.History).
func (u *Projects) Undo(ctx context.Context, a Actor, id string) (*project.Project, error) {
	return u.restore(ctx, a, id, project.ReasonUndo, func(_ *project.Project, h project.History) (int64, error) {
		if h.Undo == nil {
			return 0, &project.NothingToMoveError{Move: "undo"}
		}
		return h.Undo.Target, nil
	})
}

// Redo brings back the edit the last undo took back.
func (u *Projects) Redo(ctx context.Context, a Actor, id string) (*project.Project, error) {
	return u.restore(ctx, a, id, project.ReasonRedo, func(_ *project.Project, h project.History) (int64, error) {
		if h.Redo == nil {
			return 0, &project.NothingToMoveError{Move: "redo"}
		}
		return h.Redo.Target, nil
	})
}

// restoreAttempts bounds the retries of a restore that lost a race with
// another writer (another tab's edit, or its own undo).
const restoreAttempts = 4

// restore decides on the project's own stream, never on a read model: the
// undo steps must be those of the version the restore is appended to, so
// it is appended at exactly the version it read, and decided again when
// another write got in first.
func (u *Projects) restore(ctx context.Context, a Actor, id, reason string, pick func(*project.Project, project.History) (int64, error)) (*project.Project, error) {
	if a.User == nil {
		return nil, hidden(id)
	}
	for range restoreAttempts {
		steps, err := u.steps(ctx, id)
		if err != nil {
			return nil, err
		}
		p := fold(steps)
		if !p.CanWrite(a.Viewer("")) {
			return nil, hidden(id)
		}
		target, err := pick(p, project.NewHistory(steps))
		if err != nil {
			return nil, err
		}
		past := fold(steps[:target])
		next, err := u.repo.Update(ctx, id, p.Version, a.meta(), writable(a, id), func(cur *project.Project) ([]project.Event, error) {
			return cur.Restore(past, reason)
		})
		if errors.Is(err, aggregate.ErrStale) {
			continue
		}
		if err != nil {
			return nil, err
		}
		u.settle(ctx, next)
		return next, nil
	}
	return nil, aggregate.ErrStale
}

// steps reads the project's stream as history steps; a project that was
// never created has none and is hidden.
func (u *Projects) steps(ctx context.Context, id string) ([]project.Step, error) {
	stream := project.Stream(id)
	evs, err := u.repo.Store.ReadStream(ctx, stream, 1, 0)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", stream, err)
	}
	if len(evs) == 0 {
		return nil, hidden(id)
	}
	out := make([]project.Step, len(evs))
	for i, ev := range evs {
		e, err := projectCodec{}.Decode(ev)
		if errors.Is(err, aggregate.ErrUnknownType) {
			u.repo.Skipped(ev.Stream, ev.Type)
			e = nil
		} else if err != nil {
			return nil, fmt.Errorf("%s at version %d: %w: %w", stream, ev.Version, aggregate.ErrCorrupt, err)
		}
		out[i] = project.Step{Version: ev.Version, Commit: ev.Position.Commit, Author: ev.Metadata.Author, At: ev.Metadata.Time, Event: e}
	}
	return out, nil
}

// fold is the project after steps, at the stream version of the last.
func fold(steps []project.Step) *project.Project {
	p := &project.Project{}
	for _, s := range steps {
		if s.Event != nil {
			p.Apply(s.Event)
		}
		p.SetVersion(s.Version)
	}
	return p
}
