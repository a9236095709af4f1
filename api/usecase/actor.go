// Package usecase holds the application's use cases: one small handler per
// thing a person can do (save, share, stop sharing, delete, edit a run,
// record a calculation, load, register, block...). Each takes the acting
// person and typed input, loads what it needs through the one generic
// repository (eventstore/aggregate), asks the domain, and appends what the
// domain decided. Access is checked here, through the domain's rules, never
// in HTTP handlers; HTTP only decodes, calls and encodes.
package usecase

import (
	"draindesign/domain/account"
	"draindesign/domain/fault"
	"draindesign/domain/project"
	"draindesign/eventstore/aggregate"
)

// Actor is who acts: the signed-in account (nil when nobody is signed in)
// and the ids that tie the events it causes to the request.
type Actor struct {
	User          *account.Account
	CorrelationID string
	CausationID   string
	// Token is set when the user is signed in by a personal API token
	// rather than a session: the actor then has only a designer's reach,
	// the user's own projects and calculations, whatever the group
	// (docs/permissions.md, "API tokens").
	Token bool
}

// errTokenScope refuses what an API token may not do, whoever holds it.
var errTokenScope = fault.New(fault.Forbidden, "An API token cannot be used for this call; sign in to the web application instead")

// sessionOnly refuses actors signed in by an API token.
func (a Actor) sessionOnly() error {
	if a.Token {
		return errTokenScope
	}
	return nil
}

func (a Actor) userID() string {
	if a.User == nil {
		return ""
	}
	return a.User.ID
}

func (a Actor) meta() aggregate.Actor {
	return aggregate.Actor{UserID: a.userID(), CorrelationID: a.CorrelationID, CausationID: a.CausationID}
}

// Viewer is the actor as project access rules see it, presenting shareID
// (a share link) when the project was opened through one.
func (a Actor) Viewer(shareID string) project.Viewer {
	if a.User == nil {
		return project.Viewer{}
	}
	if a.Token {
		// Own projects only: no admin or provider-staff reading, and no
		// share links, which are other people's projects.
		return project.Viewer{UserID: a.User.ID}
	}
	f := a.User.Flags()
	return project.Viewer{UserID: a.User.ID, Admin: f.IsAdmin, SharedProjects: f.SharedProjects, ShareID: shareID}
}
