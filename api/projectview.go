package api

import (
	"time"

	"draindesign/api/usecase"
	"draindesign/domain/account"
	"draindesign/domain/project"
)

// ProjectView is a project as the server shows it to one viewer: what the
// live stream sends after each change, and what load and timeline answers
// can be built from, so that the client keeps one model of the project and
// never re-applies events itself. The fields a viewer may not see are left
// out for them (see projectView).
type ProjectView struct {
	ID string `json:"id"`
	// Owner is the owner's user name, for "Shared by ...".
	Owner string `json:"owner"`
	// Editable: the viewer may change the project (project.CanWrite).
	Editable bool            `json:"editable"`
	Details  project.Details `json:"details"`
	project.Settings
	Notes     string     `json:"notes"`
	Created   time.Time  `json:"created"`
	Saved     bool       `json:"saved"`
	LastSaved *time.Time `json:"last_saved,omitempty"`
	SavedBy   string     `json:"saved_by,omitempty"`
	// ShareWithProvider is shown to the owner, admins and provider staff
	// only; SharedByLink to the owner and admins only. A share-link holder
	// learns neither.
	ShareWithProvider *bool `json:"share_with_provider,omitempty"`
	SharedByLink      *bool `json:"shared_by_link,omitempty"`
	// Deleted is only ever true for an admin: nobody else may read a
	// deleted project.
	Deleted bool      `json:"deleted"`
	Runs    []RunView `json:"runs"`
}

// RunView is one run, in the project's run order.
type RunView struct {
	ID     string           `json:"id"`
	Name   string           `json:"name"`
	Notes  string           `json:"notes"`
	State  project.RunState `json:"state"`
	Inputs project.Inputs   `json:"inputs"`
	// Summary is the stored calculation result (without the profile's
	// slices); null when the run has none.
	Summary project.Summary `json:"summary"`
	// LastError is the message of the last failed calculation, if the
	// last calculation failed.
	LastError string `json:"last_error"`
}

// projectView builds the view of p for v. The caller has checked
// p.CanRead(v).
func projectView(p *project.Project, v project.Viewer) ProjectView {
	out := ProjectView{
		ID: p.ID, Owner: p.OwnerName, Editable: p.CanWrite(v),
		Details: p.Details, Settings: p.Settings,
		Notes: p.Notes, Created: p.Created, Saved: p.Saved, SavedBy: p.LastSavedByName, Deleted: p.Deleted,
		Runs: make([]RunView, len(p.Runs)),
	}
	if !p.LastSaved.IsZero() {
		at := p.LastSaved
		out.LastSaved = &at
	}
	owner := p.Owner == v.UserID || v.Admin
	if owner || v.SharedProjects {
		shared := p.ShareWithProvider
		out.ShareWithProvider = &shared
	}
	if owner {
		byLink := p.ShareID != ""
		out.SharedByLink = &byLink
	}
	for i, r := range p.Runs {
		inputs := r.Inputs
		if inputs == nil {
			inputs = project.Inputs{}
		}
		out.Runs[i] = RunView{
			ID: r.ID, Name: r.Name, Notes: r.Notes, State: r.State(),
			Inputs: inputs, Summary: r.Summary, LastError: r.LastError,
		}
	}
	return out
}

// viewerOf is the signed-in account as project access sees it; shareID is
// the share link it presents, if any.
func viewerOf(a *account.Account, shareID string) project.Viewer {
	return usecase.Actor{User: a}.Viewer(shareID)
}
