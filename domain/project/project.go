// Package project holds the project aggregate: a designer's runs, their
// inputs and calculation state, and the rules of the run list. It is rebuilt
// from its events and decides new ones; it never touches storage.
package project

import (
	"maps"
	"slices"
	"time"
)

// Run is one design run of a project.
type Run struct {
	ID      string  `json:"id"`
	Name    string  `json:"name"`
	Notes   string  `json:"notes"`
	Inputs  Inputs  `json:"inputs"`
	Summary Summary `json:"summary,omitempty"`
	// LastError is the message of the last failed calculation.
	LastError string `json:"last_error,omitempty"`

	calculatedOnce bool
	inputChanged   bool
	// lastRequest names the request of the last calculation recorded
	// (empty: unnamed, or none since a reset).
	lastRequest string
}

// State is the run's derived state.
func (r *Run) State() RunState { return stateOf(r) }

// Project is the aggregate, as its events left it.
type Project struct {
	ID        string
	Owner     string
	OwnerName string
	Country   string
	Created   time.Time

	Details  Details
	Settings Settings
	Notes    string
	Runs     []*Run

	Saved             bool
	LastSaved         time.Time
	LastSavedBy       string
	LastSavedByName   string
	ShareWithProvider bool
	ShareID           string
	Deleted           bool
	DeletedAt         time.Time
	// LastSave is what the last save answered.
	LastSave SaveReceipt

	// Version is the stream version of the last applied event.
	Version int64
}

// FromEvents rebuilds a project from its stream.
func FromEvents(events []Event) *Project {
	p := &Project{}
	for _, e := range events {
		p.Apply(e)
	}
	return p
}

// Run finds a run by id.
func (p *Project) Run(id string) (*Run, bool) {
	i := p.runIndex(id)
	if i < 0 {
		return nil, false
	}
	return p.Runs[i], true
}

func (p *Project) runIndex(id string) int {
	return slices.IndexFunc(p.Runs, func(r *Run) bool { return r.ID == id })
}

// Apply moves the project on by one event. It never fails: events are facts.
func (p *Project) Apply(e Event) {
	p.Version++
	switch e := e.(type) {
	case Created:
		p.ID, p.Owner, p.OwnerName, p.Country, p.Created = e.ProjectID, e.Owner, e.OwnerName, e.Country, e.At
	case DetailsChanged:
		p.Details, p.Settings, p.Notes = e.Details, e.Settings, e.Notes
	case RunAdded:
		p.Runs = append(p.Runs, &Run{ID: e.RunID, Name: e.Name, Inputs: cloneInputs(e.Inputs)})
	case RunRenamed:
		if r, ok := p.Run(e.RunID); ok {
			r.Name = e.Name
		}
	case RunDuplicated:
		if src, ok := p.Run(e.SourceID); ok {
			dup := *src
			dup.ID, dup.Name = e.RunID, e.Name
			dup.Inputs = cloneInputs(src.Inputs)
			dup.Summary = maps.Clone(src.Summary)
			p.Runs = slices.Insert(p.Runs, p.runIndex(e.SourceID)+1, &dup)
		}
	case RunRemoved:
		if i := p.runIndex(e.RunID); i >= 0 {
			p.Runs = slices.Delete(p.Runs, i, i+1)
		}
	case RunsReordered:
		p.Runs = reorder(p.Runs, e.RunIDs)
	case RunInputsChanged:
		if r, ok := p.Run(e.RunID); ok {
			// A new map, never the old one changed: clones share the
			// runs' maps (Clone).
			r.Inputs = maps.Clone(r.Inputs)
			if r.Inputs == nil {
				r.Inputs = Inputs{}
			}
			for k, v := range e.Changed {
				r.Inputs[k] = v
			}
			for _, k := range e.Removed {
				delete(r.Inputs, k)
			}
			r.inputChanged = true
		}
	case RunNotesChanged:
		if r, ok := p.Run(e.RunID); ok {
			r.Notes = e.Notes
		}
	case RunCalculated:
		if r, ok := p.Run(e.RunID); ok {
			r.Inputs = cloneInputs(e.Inputs)
			r.Summary = maps.Clone(e.Summary)
			r.LastError = ""
			r.calculatedOnce, r.inputChanged = true, false
			r.lastRequest = e.RequestID
		}
	case CalculationFailed:
		if r, ok := p.Run(e.RunID); ok {
			r.Inputs = cloneInputs(e.Inputs)
			r.Summary, r.LastError = nil, e.Error
			r.calculatedOnce, r.inputChanged = false, false
			r.lastRequest = e.RequestID
		}
	case RunReset:
		if r, ok := p.Run(e.RunID); ok {
			r.Inputs, r.Summary, r.LastError = Inputs{}, nil, ""
			r.calculatedOnce, r.inputChanged = false, false
			r.lastRequest = ""
		}
	case Saved:
		p.Saved, p.LastSaved, p.LastSavedBy, p.LastSavedByName = true, e.At, e.SavedBy, e.SavedByName
		p.ShareWithProvider = e.ShareWithProvider
		p.LastSave = SaveReceipt{RequestID: e.RequestID, Version: p.Version, RunIDs: e.RunSaveIDs}
	case SharedByLink:
		p.ShareID = e.ShareID
	case SharingStopped:
		if p.ShareID == e.ShareID {
			p.ShareID = ""
		}
	case Deleted:
		p.Deleted, p.DeletedAt = true, e.At
	case RunRestored:
		p.applyRunRestored(e)
	case Restored:
		p.applyRestored(e)
	}
}

// FirstRunID is the id of the run marked first, the head of the list.
func (p *Project) FirstRunID() string {
	if len(p.Runs) == 0 {
		return ""
	}
	return p.Runs[0].ID
}

func cloneInputs(in Inputs) Inputs {
	out := make(Inputs, len(in))
	for k, v := range in {
		out[k] = slices.Clone(v)
	}
	return out
}

// reorder puts runs in the given id order; ids not named keep their relative
// order at the end, so a stale reorder never loses a run.
func reorder(runs []*Run, ids []string) []*Run {
	out := make([]*Run, 0, len(runs))
	taken := map[string]bool{}
	for _, id := range ids {
		for _, r := range runs {
			if r.ID == id && !taken[id] {
				out = append(out, r)
				taken[id] = true
			}
		}
	}
	for _, r := range runs {
		if !taken[r.ID] {
			out = append(out, r)
		}
	}
	return out
}

// SetVersion places the project at a stream version: loading skips events
// of types this build does not know, which still count in the stream.
func (p *Project) SetVersion(v int64) { p.Version = v }

// StreamVersion is the stream version the project stands at.
func (p *Project) StreamVersion() int64 { return p.Version }

// SaveReceipt is a save's answer as the project keeps it: its request's
// name, the version it left and the ids its runs were saved under.
type SaveReceipt struct {
	RequestID string
	Version   int64
	RunIDs    []string
}

// SaveAnswered is the answer of the project's last save when that save was
// the request named requestID: sent again because an instance stopped
// before answering it, the request is answered as it was, not refused
// because the project moved on (by that very save). Only the last save is
// kept: a save that came between is a real conflict.
func (p *Project) SaveAnswered(requestID string) (SaveReceipt, bool) {
	if requestID == "" || p.LastSave.RequestID != requestID {
		return SaveReceipt{}, false
	}
	return p.LastSave, true
}

// CalculationRecorded reports whether the last calculation recorded in
// run runID was the request the client named requestID: a calculation sent
// again because its answer was lost (web client and load program resend a
// calculation that got no answer), recorded already. An unnamed request is
// never taken for another.
func (p *Project) CalculationRecorded(runID, requestID string) bool {
	if requestID == "" {
		return false
	}
	r, ok := p.Run(runID)
	return ok && r.lastRequest == requestID
}

// Clone copies the project deeply enough that applying events to the copy
// leaves p unchanged (a cached project and the copies handed out change
// apart). The runs' input and summary maps, and their values, are shared:
// Apply replaces them, never changes them in place.
func (p *Project) Clone() *Project {
	c := *p
	c.Settings = p.Settings.clone()
	c.Runs = make([]*Run, len(p.Runs))
	for i, r := range p.Runs {
		// The runs' Inputs and Summary maps are shared: Apply replaces
		// them and never changes one in place, and nothing else writes
		// to them. Copying them on every cached load was 2 % of an
		// instance under `make load`.
		rc := *r
		c.Runs[i] = &rc
	}
	return &c
}

func (s Settings) clone() Settings {
	for _, f := range []**float64{&s.DefaultRainfall, &s.FreeboardMinMM, &s.FreeboardMinPercent} {
		if *f != nil {
			v := **f
			*f = &v
		}
	}
	return s
}
