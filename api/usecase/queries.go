package usecase

import (
	"context"

	"draindesign/domain/account"
	"draindesign/domain/fault"
	"draindesign/projections"
	"draindesign/projections/calchistory"
	"draindesign/projections/projectlist"
	"draindesign/projections/userlist"
)

// Queries answer the lists screens show, from the read models, each after
// checking the actor's right to the list.
type Queries struct {
	db     *projections.DB
	runner *projections.Runner // nil: the read models are kept elsewhere
}

// NewQueries builds the list queries over the read-model database; runner
// (may be nil) refreshes the staff views before they are read.
func NewQueries(db *projections.DB, runner *projections.Runner) *Queries {
	return &Queries{db: db, runner: runner}
}

// fresh brings views up to the head of the log: writers do not wait for
// them (projections.RefreshedOnRead, the project list for most changes:
// projections.WaitedFor), so a screen catches them up to show every write
// made before it was asked for.
func (q *Queries) fresh(ctx context.Context, views ...projections.Projection) error {
	if q.runner == nil {
		return nil
	}
	names := make([]string, len(views))
	for i, v := range views {
		names[i] = v.Name()
	}
	return q.runner.Refresh(ctx, names...)
}

var (
	errNoStaff  = fault.New(fault.Forbidden, "Only staff may do this")
	errNoShared = fault.New(fault.Forbidden, "You have no access to shared projects")
)

func signedIn(a Actor) error {
	if a.User == nil {
		return fault.New(fault.Unauthenticated, "Please log in")
	}
	return nil
}

func staff(a Actor) error {
	if err := signedIn(a); err != nil {
		return err
	}
	if err := a.sessionOnly(); err != nil {
		return err
	}
	if !account.CanAccessStaff(a.User.Group) {
		return errNoStaff
	}
	return nil
}

// OwnProjects is the actor's load dialog list.
func (q *Queries) OwnProjects(ctx context.Context, a Actor) ([]projectlist.Item, error) {
	if err := signedIn(a); err != nil {
		return nil, err
	}
	if err := q.fresh(ctx, projectlist.Projection{}); err != nil {
		return nil, err
	}
	return projectlist.Owned(ctx, q.db, a.User.ID)
}

// SharedWithProvider is the shared-projects list, for provider staff.
func (q *Queries) SharedWithProvider(ctx context.Context, a Actor, creator string) ([]projectlist.Item, error) {
	if err := signedIn(a); err != nil {
		return nil, err
	}
	if err := a.sessionOnly(); err != nil {
		return nil, err
	}
	if f := a.User.Flags(); !f.SharedProjects && !f.IsAdmin {
		return nil, errNoShared
	}
	if err := q.fresh(ctx, projectlist.Projection{}); err != nil {
		return nil, err
	}
	return projectlist.SharedWithProvider(ctx, q.db, creator)
}

// Users is the staff user list.
func (q *Queries) Users(ctx context.Context, a Actor, f userlist.Filter) ([]userlist.User, error) {
	if err := staff(a); err != nil {
		return nil, err
	}
	// The rows count each user's projects from the project list.
	if err := q.fresh(ctx, projectlist.Projection{}); err != nil {
		return nil, err
	}
	return userlist.List(ctx, q.db, f)
}

// ProjectsOf is every project of a user, deleted ones too, for staff.
func (q *Queries) ProjectsOf(ctx context.Context, a Actor, userID string) ([]projectlist.Item, error) {
	if err := staff(a); err != nil {
		return nil, err
	}
	if err := q.fresh(ctx, projectlist.Projection{}); err != nil {
		return nil, err
	}
	return projectlist.AllOf(ctx, q.db, userID)
}

// Calculations is the calculation history, for staff.
func (q *Queries) Calculations(ctx context.Context, a Actor, userID string, limit int) ([]calchistory.Row, error) {
	if err := staff(a); err != nil {
		return nil, err
	}
	if limit < 1 || limit > 5000 {
		return nil, fault.New(fault.BadInput, "limit must be a number from 1 to 5000")
	}
	if err := q.fresh(ctx, calchistory.Projection{}, projectlist.Projection{}); err != nil {
		return nil, err
	}
	return calchistory.List(ctx, q.db, userID, limit)
}
