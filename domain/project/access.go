package project

import "time"

// Who may see and change a project. Every use case and query that touches a
// project asks these two questions of the loaded project, so the rules live
// here once (docs/permissions.md lists them). Callers answer a refused read
// exactly like a missing project, so nobody learns which projects exist.

// Viewer is the person asking, as far as project access cares.
type Viewer struct {
	UserID string
	// Admin may inspect every project, deleted ones included.
	Admin bool
	// SharedProjects is the provider staff right to read projects their
	// owners shared with the provider.
	SharedProjects bool
	// ShareID is the share-link capability the viewer presents, if any. A
	// project shared by link opens only through its share id, never through
	// its bare project id.
	ShareID string
}

// CanRead says whether v may see the project: its owner, an admin, provider
// staff when the owner shared it with the provider, or a holder of its
// current share link. A deleted project is seen by admins only.
func (p *Project) CanRead(v Viewer) bool {
	if p == nil || p.ID == "" || v.UserID == "" {
		return false
	}
	if p.Deleted {
		return v.Admin
	}
	switch {
	case p.Owner == v.UserID, v.Admin:
		return true
	case v.SharedProjects && p.ShareWithProvider:
		return true
	case v.ShareID != "" && p.ShareID != "" && v.ShareID == p.ShareID:
		return true
	}
	return false
}

// CanWrite says whether v may change the project: its owner only, while it
// is not deleted. Everyone else saves a copy of their own.
func (p *Project) CanWrite(v Viewer) bool {
	return p != nil && p.ID != "" && !p.Deleted && v.UserID != "" && p.Owner == v.UserID
}

// CanReadHistory says whether v may read the project's history (its
// versions, any version's content, comparisons, copies of a version): who
// may read it by its id, that is its owner, admins, and provider staff when
// it is shared with the provider. A share link opens the project, not its
// past.
func (p *Project) CanReadHistory(v Viewer) bool {
	v.ShareID = ""
	return p.CanRead(v)
}

// Hidden is the error for a project v may not see or change: the same as
// for a project that does not exist.
func (p *Project) Hidden(id string) error { return &NotFoundError{What: "project", ID: id} }

// StopSharing withdraws the share link: the old link opens nothing any
// more. Stopping when not shared does nothing.
func (p *Project) StopSharing() ([]Event, error) {
	if err := p.live(); err != nil {
		return nil, err
	}
	if p.ShareID == "" {
		return nil, nil
	}
	return []Event{SharingStopped{ShareID: p.ShareID}}, nil
}

// SharingStopped withdraws the project's share link.
type SharingStopped struct {
	ShareID string `json:"share_id"`
}

func (SharingStopped) EventType() string { return "project.sharing_stopped" }

// DocumentCreated records a document made of the saved project: which kind
// (introduction, materials, information, all, hydraulics/N), in which
// format and language, so the timeline and the staff history show it.
type DocumentCreated struct {
	Kind     string    `json:"kind"`
	Format   string    `json:"format"`
	Language string    `json:"language"`
	At       time.Time `json:"at"`
}

func (DocumentCreated) EventType() string { return "project.document_created" }

// RecordDocument notes a document made of the project. Drafts are not
// recorded: a document of a project nobody saved documents nothing kept.
func (p *Project) RecordDocument(kind, format, language string, at time.Time) ([]Event, error) {
	if err := p.live(); err != nil {
		return nil, err
	}
	if !p.Saved {
		return nil, nil
	}
	return []Event{DocumentCreated{Kind: kind, Format: format, Language: language, At: at}}, nil
}
