package project

import (
	"encoding/json"
	"maps"
	"slices"
	"time"
)

// The project's history: its stream read as versions a person can follow
// (the designer's history panel, support's timeline), and the undo and redo
// steps the keyboard takes. Everything here is derived from the events
// alone, so a reload, another tab or another server instance finds the
// same history and the same next undo.
//
// Grouping rule (docs/decisions.md, "History and undo"): one entry is one
// commit, the events one request appended together (an edit, a save, a
// restore). An entry is an edit that undo counts when it changed the
// design's content: details, settings, notes, runs and their inputs. A
// calculation, a save that changed nothing, sharing and documents are not
// edits; they stay in the history but undo steps over them (undoing an
// edit also takes back the calculation made after it, as that calculation
// was of the edited inputs). Undo restores the version before the newest
// edit not yet undone; redo restores the version just before the undo
// that took it back; a new edit (or a restore) empties the redo steps.
// Undo and redo are themselves new events (Restored with reason undo or
// redo), never a rewrite, and the steps are found again by reading the
// stream from its start.

// Step is one stored event of a project's stream, as the history reads it.
type Step struct {
	Version int64
	// Commit is shared by the events one append wrote together.
	Commit uint64
	Author string
	At     time.Time
	// Event is nil for a type this build does not know.
	Event Event
}

// Kinds of history entries.
const (
	EntryCreated     = "created"
	EntryCopy        = "copy"
	EntryEdit        = "edit"
	EntrySave        = "save"
	EntryCalculation = "calculation"
	EntryRestore     = ReasonRestore
	EntryUndo        = ReasonUndo
	EntryRedo        = ReasonRedo
	EntryShare       = "share"
	EntryDocument    = "document"
	EntryDelete      = "delete"
	EntryOther       = "other"
)

// Change is what one event did, in parts the screens word in their
// language.
type Change struct {
	Version int64  `json:"version"`
	Type    string `json:"type"`
	RunID   string `json:"run_id,omitempty"`
	// Run is the run's name after the event (a removed run: its last name).
	Run string `json:"run,omitempty"`
	// From is the name before a rename, or the run a duplicate copies.
	From string `json:"from,omitempty"`
	// Fields are the inputs the event changed (sorted); for the project's
	// details, the details and settings that changed.
	Fields []string `json:"fields,omitempty"`
	// Result is a calculation's headline (HeadlineKeys).
	Result Summary `json:"result,omitempty"`
	// Error is a failed calculation's message.
	Error string `json:"error,omitempty"`
	// Document is the document made.
	Document *DocumentCreated `json:"document,omitempty"`
	// Restored says what a restore, undo, redo or copy brought back.
	Restored *RestoreRef `json:"restored,omitempty"`
	// Shared is whether a save shared the project with the provider.
	Shared *bool `json:"shared,omitempty"`
}

// RestoreRef names the version a restore brought back.
type RestoreRef struct {
	Reason      string `json:"reason"`
	FromVersion int64  `json:"from_version"`
	FromProject string `json:"from_project,omitempty"`
}

// Entry is one version of the project in its history: one commit.
type Entry struct {
	// From is the first version the commit wrote; Version its last, the
	// version the project stood at after it.
	From    int64     `json:"from"`
	Version int64     `json:"version"`
	Author  string    `json:"author"`
	At      time.Time `json:"at"`
	Kind    string    `json:"kind"`
	Changes []Change  `json:"changes"`
	// Undoable: an edit that the undo steps count.
	Undoable bool `json:"undoable"`
	// Undone: an edit taken back by undo, which redo would bring again.
	Undone bool `json:"undone"`
	// Reverts is, for an undo, the version of the edit it took back; for
	// a redo, of the edit it brought again.
	Reverts int64 `json:"reverts,omitempty"`
}

// Move is the next undo or redo.
type Move struct {
	// Entry is the version of the entry undo takes back or redo brings again.
	Entry int64 `json:"entry"`
	// Target is the version whose content the move restores.
	Target int64 `json:"target"`
}

// History is the project's history, oldest entry first.
type History struct {
	Entries []Entry `json:"entries"`
	Undo    *Move   `json:"undo"`
	Redo    *Move   `json:"redo"`
}

// HeadlineKeys are the results a history or a comparison shows of a
// calculation: the outcome and the few numbers a designer checks first.
var HeadlineKeys = []string{
	"calculated", "overflowed", "went_super_critical", "system", "largest_channel", "flow", "channel_discharge",
	"max_possible_discharge", "percentage_full", "freeboard", "max_depth_mm",
}

// Headline is the part of a summary named by HeadlineKeys; nil for none.
func Headline(s Summary) Summary {
	if s == nil {
		return nil
	}
	out := Summary{}
	for _, k := range HeadlineKeys {
		if v, ok := s[k]; ok {
			out[k] = v
		}
	}
	return out
}

// NewHistory reads a stream's steps (in version order) as its history.
func NewHistory(steps []Step) History {
	var h History
	p := &Project{}
	for i := 0; i < len(steps); {
		j := i + 1
		for j < len(steps) && steps[j].Commit == steps[i].Commit {
			j++
		}
		h.Entries = append(h.Entries, entryOf(p, steps[i:j]))
		i = j
	}
	h.Undo, h.Redo = moves(h.Entries)
	return h
}

// entryOf describes one commit, moving p on by its events.
func entryOf(p *Project, steps []Step) Entry {
	e := Entry{From: steps[0].Version, Version: steps[len(steps)-1].Version, Author: steps[0].Author, At: steps[0].At}
	var created, deleted, saved, content, calculated, shared, document bool
	var restored *RestoreRef
	for _, s := range steps {
		c := describe(p, s)
		if s.Event != nil {
			p.Apply(s.Event)
		}
		p.Version = s.Version
		switch ev := s.Event.(type) {
		case nil:
			continue
		case Created:
			created = true
		case Deleted:
			deleted = true
		case Saved:
			saved = true
		case RunCalculated, CalculationFailed:
			calculated = true
		case SharedByLink, SharingStopped:
			shared = true
		case DocumentCreated:
			document = true
		case Restored:
			restored = &RestoreRef{Reason: ev.Reason, FromVersion: ev.FromVersion, FromProject: ev.FromProject}
		case RunRestored:
		default:
			content = true
		}
		e.Changes = append(e.Changes, c)
	}
	switch {
	case created && restored != nil && restored.Reason == ReasonCopy:
		e.Kind = EntryCopy
	case created:
		e.Kind = EntryCreated
	case restored != nil:
		e.Kind = restored.Reason
	case deleted:
		e.Kind = EntryDelete
	case saved:
		e.Kind = EntrySave
	case content:
		e.Kind = EntryEdit
	case calculated:
		e.Kind = EntryCalculation
	case shared:
		e.Kind = EntryShare
	case document:
		e.Kind = EntryDocument
	default:
		e.Kind = EntryOther
	}
	e.Undoable = !created && (e.Kind == EntryRestore || content && (e.Kind == EntryEdit || e.Kind == EntrySave))
	if e.Changes == nil {
		e.Changes = []Change{}
	}
	return e
}

// describe says what s does to p, before it is applied.
func describe(p *Project, s Step) Change {
	c := Change{Version: s.Version}
	if s.Event == nil {
		return c
	}
	c.Type = s.Event.EventType()
	runName := func(id string) string {
		if r, ok := p.Run(id); ok {
			return r.Name
		}
		return ""
	}
	changedFields := func(id string, in Inputs) []string {
		var before Inputs
		if r, ok := p.Run(id); ok {
			before = r.Inputs
		}
		return inputFields(before, in)
	}
	switch e := s.Event.(type) {
	case DetailsChanged:
		c.Fields = detailFields(p.Details, p.Settings, p.Notes, e.Details, e.Settings, e.Notes)
	case RunAdded:
		c.RunID, c.Run = e.RunID, e.Name
	case RunRenamed:
		c.RunID, c.Run, c.From = e.RunID, e.Name, runName(e.RunID)
	case RunDuplicated:
		c.RunID, c.Run, c.From = e.RunID, e.Name, runName(e.SourceID)
	case RunRemoved:
		c.RunID, c.Run = e.RunID, runName(e.RunID)
	case RunInputsChanged:
		c.RunID, c.Run = e.RunID, runName(e.RunID)
		c.Fields = slices.Sorted(maps.Keys(e.Changed))
		c.Fields = append(c.Fields, e.Removed...)
		slices.Sort(c.Fields)
		c.Fields = slices.Compact(c.Fields)
	case RunNotesChanged:
		c.RunID, c.Run = e.RunID, runName(e.RunID)
	case RunCalculated:
		c.RunID, c.Run = e.RunID, runName(e.RunID)
		c.Fields = changedFields(e.RunID, e.Inputs)
		c.Result = Headline(e.Summary)
	case CalculationFailed:
		c.RunID, c.Run = e.RunID, runName(e.RunID)
		c.Fields = changedFields(e.RunID, e.Inputs)
		c.Error = e.Error
	case RunReset:
		c.RunID, c.Run = e.RunID, runName(e.RunID)
	case RunRestored:
		c.RunID, c.Run = e.RunID, e.Name
		if old := runName(e.RunID); old != e.Name {
			c.From = old
		}
		c.Fields = changedFields(e.RunID, e.Inputs)
		c.Result = Headline(e.Summary)
	case Saved:
		shared := e.ShareWithProvider
		c.Shared = &shared
	case DocumentCreated:
		doc := e
		c.Document = &doc
	case Restored:
		c.Restored = &RestoreRef{Reason: e.Reason, FromVersion: e.FromVersion, FromProject: e.FromProject}
		c.Fields = detailFields(p.Details, p.Settings, p.Notes, e.Details, e.Settings, e.Notes)
	}
	return c
}

// inputFields are the fields whose values differ between two inputs; a
// null counts as no value.
func inputFields(before, after Inputs) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(unionKeys(before, after))) {
		if !sameValue(before[k], after[k]) {
			out = append(out, k)
		}
	}
	return out
}

func unionKeys(a, b Inputs) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// sameValue compares two stored values; an absent one, null and the empty
// text are alike, as the form shows them alike (an empty field).
func sameValue(a, b json.RawMessage) bool {
	return string(valueOrNull(a)) == string(valueOrNull(b))
}

func valueOrNull(v json.RawMessage) json.RawMessage {
	c := canonical(v)
	if len(v) == 0 || string(c) == `""` {
		return json.RawMessage("null")
	}
	return c
}

// detailFields names the details, settings and notes that differ, by
// their JSON names.
func detailFields(d Details, s Settings, notes string, d2 Details, s2 Settings, notes2 string) []string {
	var out []string
	for _, f := range detailChanges(d, s, notes, d2, s2, notes2) {
		out = append(out, f.Field)
	}
	return out
}

// moves replays the undo and redo steps over the entries (see the grouping
// rule above), marks the entries now undone, and gives the next undo and
// redo.
func moves(entries []Entry) (undo, redo *Move) {
	var undos, redos []Move
	for i, e := range entries {
		switch {
		case e.Kind == EntryUndo:
			if n := len(undos); n > 0 {
				top := undos[n-1]
				undos = undos[:n-1]
				redos = append(redos, Move{Entry: top.Entry, Target: e.From - 1})
				entries[i].Reverts = top.Entry
			}
		case e.Kind == EntryRedo:
			if n := len(redos); n > 0 {
				top := redos[n-1]
				redos = redos[:n-1]
				undos = append(undos, Move{Entry: top.Entry, Target: e.From - 1})
				entries[i].Reverts = top.Entry
			}
		case e.Undoable:
			undos = append(undos, Move{Entry: e.Version, Target: e.From - 1})
			redos = nil
		}
	}
	undone := map[int64]bool{}
	for _, m := range redos {
		undone[m.Entry] = true
	}
	for i := range entries {
		entries[i].Undone = undone[entries[i].Version]
	}
	if n := len(undos); n > 0 {
		undo = &undos[n-1]
	}
	if n := len(redos); n > 0 {
		redo = &redos[n-1]
	}
	return undo, redo
}
