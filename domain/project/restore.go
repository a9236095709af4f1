package project

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"time"
)

// Restoring an earlier version. The log is never rewritten: a restore is a
// batch of new events that bring the project's content back to what it was
// at that version. Each run that differs gets a RunRestored with its whole
// content; a closing Restored sets the details, the settings, the notes
// and the run order (dropping runs the version did not have) and says why
// (a restore from the history, an undo, a redo, a copy). Saving, sharing
// and deletion are not content: a restore leaves them as they are.

// Why a project's content was brought back.
const (
	// ReasonRestore: the designer restored a version from the history.
	ReasonRestore = "restore"
	// ReasonUndo and ReasonRedo: the keyboard's undo and redo (see
	// History).
	ReasonUndo = "undo"
	ReasonRedo = "redo"
	// ReasonCopy: a new project started from another project's version.
	ReasonCopy = "copy"
)

// RunRestored gives a run the whole content it had at an earlier version,
// its state included; a run the project no longer has comes back (at the
// end of the list, until the closing Restored orders the runs).
type RunRestored struct {
	RunID     string   `json:"run_id"`
	Name      string   `json:"name"`
	Notes     string   `json:"notes,omitempty"`
	Inputs    Inputs   `json:"inputs"`
	Summary   Summary  `json:"summary,omitempty"`
	LastError string   `json:"last_error,omitempty"`
	State     RunState `json:"state"`
}

// Restored closes a restore: the project's details, settings, notes and
// run order as they were at FromVersion (of FromProject for a copy).
type Restored struct {
	Reason      string   `json:"reason"`
	FromVersion int64    `json:"from_version"`
	FromProject string   `json:"from_project,omitempty"`
	Details     Details  `json:"details"`
	Settings    Settings `json:"settings"`
	Notes       string   `json:"notes"`
	RunIDs      []string `json:"run_ids"`
}

func (RunRestored) EventType() string { return "project.run_restored" }
func (Restored) EventType() string    { return "project.restored" }

func (p *Project) applyRunRestored(e RunRestored) {
	r, ok := p.Run(e.RunID)
	if !ok {
		r = &Run{ID: e.RunID}
		p.Runs = append(p.Runs, r)
	}
	r.Name, r.Notes, r.LastError = e.Name, e.Notes, e.LastError
	r.Inputs = cloneInputs(e.Inputs)
	r.Summary = maps.Clone(e.Summary)
	r.calculatedOnce = e.State == Calculated || e.State == Changed
	r.inputChanged = e.State == Changed
}

func (p *Project) applyRestored(e Restored) {
	p.Details, p.Settings, p.Notes = e.Details, e.Settings, e.Notes
	runs := make([]*Run, 0, len(e.RunIDs))
	for _, id := range e.RunIDs {
		if r, ok := p.Run(id); ok && !slices.Contains(runs, r) {
			runs = append(runs, r)
		}
	}
	p.Runs = runs
}

// snapshot is a run's whole content as RunRestored carries it.
func snapshot(r *Run) RunRestored {
	return RunRestored{
		RunID: r.ID, Name: r.Name, Notes: r.Notes, Inputs: cloneInputs(r.Inputs),
		Summary: maps.Clone(r.Summary), LastError: r.LastError, State: r.State(),
	}
}

func sameRun(a, b RunRestored) bool {
	return a.RunID == b.RunID && a.Name == b.Name && a.Notes == b.Notes && a.LastError == b.LastError &&
		a.State == b.State && sameInputs(a.Inputs, b.Inputs) && sameSummary(a.Summary, b.Summary)
}

func sameInputs(a, b Inputs) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !bytes.Equal(canonical(v), canonical(w)) {
			return false
		}
	}
	return true
}

// SameContent says whether two projects hold the same design: details,
// settings, notes and runs (content and order). Saving and sharing are not
// content.
func SameContent(a, b *Project) bool {
	if a.Details != b.Details || !sameSettings(a.Settings, b.Settings) || a.Notes != b.Notes || len(a.Runs) != len(b.Runs) {
		return false
	}
	for i := range a.Runs {
		if !sameRun(snapshot(a.Runs[i]), snapshot(b.Runs[i])) {
			return false
		}
	}
	return true
}

// Restore brings the project's content back to past, which is this project
// as it stood at an earlier version (loaded up to it). reason is
// ReasonRestore, ReasonUndo or ReasonRedo. A restore that would change
// nothing writes nothing; an undo or a redo always writes its Restored, as
// the history's undo and redo steps are read from it.
//
// A saved project keeps a name: restoring a version from before it had
// one keeps the current name.
func (p *Project) Restore(past *Project, reason string) ([]Event, error) {
	if err := p.live(); err != nil {
		return nil, err
	}
	if past == nil || past.ID != p.ID || past.Version < 1 || past.Version > p.Version {
		return nil, invalid("There is no such version of this project")
	}
	if reason != ReasonRestore && reason != ReasonUndo && reason != ReasonRedo {
		return nil, invalid("Unknown reason to restore: %q", reason)
	}
	details := past.Details
	if p.Saved && strings.TrimSpace(details.Name) == "" {
		details.Name = p.Details.Name
	}
	target := *past
	target.Details = details
	if reason == ReasonRestore && SameContent(p, &target) {
		return nil, nil
	}
	var evs []Event
	ids := make([]string, len(past.Runs))
	for i, r := range past.Runs {
		ids[i] = r.ID
		want := snapshot(r)
		if cur, ok := p.Run(r.ID); ok && sameRun(snapshot(cur), want) {
			continue
		}
		evs = append(evs, want)
	}
	return append(evs, Restored{
		Reason: reason, FromVersion: past.Version,
		Details: details, Settings: past.Settings, Notes: past.Notes, RunIDs: ids,
	}), nil
}

// CopyOf starts a new project for owner holding past's content: past is
// another project as it stood at a version. Its runs get new ids (newID),
// as run ids name a run across the read models; the copy is a draft of
// its new owner's, like any new project.
func CopyOf(id, owner, ownerName, country string, now time.Time, past *Project, newID func() string) ([]Event, error) {
	if past == nil || past.ID == "" || past.Version < 1 {
		return nil, invalid("There is no such version of this project")
	}
	if len(past.Runs) == 0 {
		return nil, invalid("No runs in project!")
	}
	evs := New(id, owner, ownerName, country, now)
	ids := make([]string, len(past.Runs))
	for i, r := range past.Runs {
		s := snapshot(r)
		s.RunID = newID()
		ids[i] = s.RunID
		evs = append(evs, s)
	}
	return append(evs, Restored{
		Reason: ReasonCopy, FromVersion: past.Version, FromProject: past.ID,
		Details: past.Details, Settings: past.Settings, Notes: past.Notes, RunIDs: ids,
	}), nil
}
