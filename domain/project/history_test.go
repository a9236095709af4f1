package project

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"draindesign/domain/fault"
)

// log is a project stream in memory, written commit by commit as the
// repository appends: each command's events share one commit.
type log struct {
	t     *testing.T
	steps []Step
	p     *Project
	n     uint64
}

func newLog(t *testing.T) *log {
	l := &log{t: t, p: &Project{}}
	evs := New("p1", "u1", "alice", "GB", now)
	evs = append(evs, RunAdded{RunID: "r1", Name: "Run 1"})
	l.commit(evs, nil)
	return l
}

// commit appends the events of one command (through the codec, as the
// store would give them back).
func (l *log) commit(evs []Event, err error) {
	l.t.Helper()
	if err != nil {
		l.t.Fatalf("command: %v", err)
	}
	if len(evs) == 0 {
		return
	}
	l.n++
	for _, e := range evs {
		typ, schema, data, err := Encode(e)
		if err != nil {
			l.t.Fatal(err)
		}
		back, err := Decode(typ, schema, data)
		if err != nil {
			l.t.Fatal(err)
		}
		l.p.Apply(back)
		l.steps = append(l.steps, Step{Version: l.p.Version, Commit: l.n, Author: "u1", At: now.Add(time.Duration(len(l.steps)) * time.Second), Event: back})
	}
}

// at is the project as it stood at version v.
func (l *log) at(v int64) *Project {
	p := &Project{}
	for _, s := range l.steps[:v] {
		p.Apply(s.Event)
	}
	return p
}

func (l *log) history() History { return NewHistory(l.steps) }

// move undoes or redoes as the use case does: the history's next move,
// restored from the version it names.
func (l *log) move(reason string) {
	l.t.Helper()
	h := l.history()
	m := h.Undo
	if reason == ReasonRedo {
		m = h.Redo
	}
	if m == nil {
		l.t.Fatalf("nothing to %s", reason)
	}
	l.commit(l.p.Restore(l.at(m.Target), reason))
}

func (l *log) edit(field string, value any) {
	l.t.Helper()
	l.commit(l.p.ChangeInputs("r1", Inputs{field: raw(value)}))
}

func length(p *Project) string {
	r, ok := p.Run("r1")
	if !ok {
		return "no run"
	}
	return string(r.Inputs["channel_length_m"])
}

func TestRestoreBringsBackAnEarlierVersion(t *testing.T) {
	t.Parallel()
	l := newLog(t)
	l.commit(l.p.ChangeInputs("r1", channelRun()))
	l.commit(l.p.RecordCalculation("r1", channelRun(), Summary{"calculated": raw(true), "flow": raw(2.1)}))
	l.commit(l.p.ChangeNotes("r1", "gate side"))
	l.commit(l.p.ChangeDetails(Details{Name: "Yard", Location: "Leeds"}, Settings{RainfallUnits: "mm/h"}, ""))
	before := l.p.Version
	want := l.at(before)

	// Everything after: renamed, inputs changed (so "changed"), a run
	// added and calculated, the first removed... then reordered.
	l.commit(l.p.Rename("r1", "Gate lane"))
	l.edit("channel_length_m", 30)
	l.commit(l.p.AddRun("r2"))
	in := channelRun()
	l.commit(l.p.RecordCalculation("r2", in, Summary{"calculated": raw(true)}))
	l.commit(l.p.Reorder([]string{"r2", "r1"}))
	l.commit(l.p.ChangeDetails(Details{Name: "Depot"}, Settings{RainfallUnits: "l/s/m2"}, "notes"))
	l.commit(l.p.RemoveRun("r1", "r3"))
	if SameContent(l.p, want) {
		t.Fatal("the test changed nothing")
	}

	l.commit(l.p.Restore(l.at(before), ReasonRestore))
	if !SameContent(l.p, want) {
		t.Fatalf("restored project differs from version %d:\n got %+v\nwant %+v", before, l.p, want)
	}
	r, _ := l.p.Run("r1")
	if r.State() != Calculated || r.Notes != "gate side" || r.Summary["flow"] == nil {
		t.Errorf("run 1 came back as %s, notes %q, summary %v", r.State(), r.Notes, r.Summary)
	}
	// The log grew: nothing was rewritten, and the earlier versions read as before.
	if !SameContent(l.at(before), want) || l.p.Version <= before {
		t.Error("the restore rewrote the log")
	}
	// A restore to where the project stands writes nothing.
	if evs, err := l.p.Restore(l.at(before), ReasonRestore); err != nil || len(evs) != 0 {
		t.Errorf("restoring the same content: %v, %v", evs, err)
	}
	// An undo always writes its Restored, which the history reads.
	if evs, err := l.p.Restore(l.at(before), ReasonUndo); err != nil || len(evs) != 1 {
		t.Errorf("an undo to the same content wrote %v, %v", evs, err)
	}
}

func TestRestoreStates(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		then func(l *log)
		want RunState
	}{
		{"unconfigured", func(*log) {}, Unconfigured},
		{"ready", func(l *log) { l.commit(l.p.ChangeInputs("r1", channelRun())) }, Ready},
		{"calculated", func(l *log) { l.commit(l.p.RecordCalculation("r1", channelRun(), Summary{"calculated": raw(true)})) }, Calculated},
		{"changed", func(l *log) {
			l.commit(l.p.RecordCalculation("r1", channelRun(), Summary{"calculated": raw(true)}))
			l.edit("channel_length_m", 25)
		}, Changed},
		{"failed", func(l *log) { l.commit(l.p.RecordFailure("r1", channelRun(), "no channel fits")) }, Ready},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLog(t)
			tc.then(l)
			v := l.p.Version
			want := l.at(v)
			l.commit(l.p.Reset("r1"))
			l.commit(l.p.Restore(l.at(v), ReasonRestore))
			r, _ := l.p.Run("r1")
			w, _ := want.Run("r1")
			if r.State() != tc.want || !SameContent(l.p, want) || r.LastError != w.LastError {
				t.Errorf("state %s (error %q), want %s (error %q)", r.State(), r.LastError, tc.want, w.LastError)
			}
		})
	}
}

func TestRestoreRules(t *testing.T) {
	t.Parallel()
	l := newLog(t)
	first := l.p.Version
	l.commit(saved(l.p.Save(Content{Details: Details{Name: "Yard"}, Runs: []SavedRun{savedRun("r1", "Run 1", 5)}}, SaveBy{UserID: "u1", At: now}, counter(), verifier())))
	// A saved project keeps its name when a version before it had one comes back.
	l.commit(l.p.Restore(l.at(first), ReasonRestore))
	if l.p.Details.Name != "Yard" || !l.p.Saved {
		t.Errorf("after restoring a nameless version: name %q, saved %v", l.p.Details.Name, l.p.Saved)
	}
	other := FromEvents(New("p2", "u1", "alice", "GB", now))
	for _, tc := range []struct {
		name   string
		past   *Project
		reason string
	}{
		{"another project", other, ReasonRestore},
		{"no version", &Project{ID: "p1"}, ReasonRestore},
		{"a version to come", &Project{ID: "p1", Version: l.p.Version + 1}, ReasonRestore},
		{"an unknown reason", l.at(first), "because"},
		{"a copy is not a restore", l.at(first), ReasonCopy},
	} {
		if _, err := l.p.Restore(tc.past, tc.reason); fault.Of(err) != fault.BadInput {
			t.Errorf("%s: %v, want a bad-input error", tc.name, err)
		}
	}
	l.commit(l.p.Delete(now))
	var missing *NotFoundError
	if _, err := l.p.Restore(l.at(first), ReasonRestore); !errors.As(err, &missing) {
		t.Errorf("restoring a deleted project: %v", err)
	}
}

func TestCopyOf(t *testing.T) {
	t.Parallel()
	l := newLog(t)
	l.commit(l.p.ChangeInputs("r1", channelRun()))
	l.commit(l.p.RecordCalculation("r1", channelRun(), Summary{"calculated": raw(true)}))
	l.commit(l.p.AddRun("r2"))
	l.commit(l.p.ChangeDetails(Details{Name: "Yard"}, Settings{}, "project notes"))
	past := l.at(l.p.Version)
	ids := counter()
	evs, err := CopyOf("c1", "s1", "sue", "DE", now, past, ids)
	if err != nil {
		t.Fatal(err)
	}
	c := FromEvents(evs)
	if c.ID != "c1" || c.Owner != "s1" || c.OwnerName != "sue" || c.Country != "DE" || c.Saved {
		t.Errorf("copy %+v", c)
	}
	if len(c.Runs) != 2 || c.Runs[0].ID == "r1" || c.Runs[1].ID == "r2" || c.Runs[0].State() != Calculated || c.Runs[1].State() != Unconfigured {
		t.Fatalf("copied runs %v", c.Runs)
	}
	// Same content once the run ids are set aside.
	renamed := *c
	renamed.Runs = nil
	for i, r := range c.Runs {
		dup := *r
		dup.ID = past.Runs[i].ID
		renamed.Runs = append(renamed.Runs, &dup)
	}
	if !SameContent(&renamed, past) {
		t.Error("the copy's content differs from the version copied")
	}
	h := NewHistory(stepsOf(evs))
	if len(h.Entries) != 1 || h.Entries[0].Kind != EntryCopy || h.Undo != nil {
		t.Errorf("a copy's history %+v", h)
	}
	if r := h.Entries[0].Changes[len(h.Entries[0].Changes)-1].Restored; r == nil || r.FromProject != "p1" || r.FromVersion != past.Version {
		t.Errorf("the copy does not name its source: %+v", r)
	}
	if _, err := CopyOf("c2", "s1", "sue", "DE", now, &Project{}, ids); err == nil {
		t.Error("copied a project that does not exist")
	}
}

func saved(evs []Event, _ []string, err error) ([]Event, error) { return evs, err }

func shareOf(p *Project) ([]Event, error) {
	evs, _, err := p.ShareByLink("s1")
	return evs, err
}

// stepsOf makes one commit of events.
func stepsOf(evs []Event) []Step {
	out := make([]Step, len(evs))
	for i, e := range evs {
		out[i] = Step{Version: int64(i + 1), Commit: 1, Author: "s1", At: now, Event: e}
	}
	return out
}

func TestUndoRedo(t *testing.T) {
	t.Parallel()
	l := newLog(t)
	l.commit(l.p.ChangeInputs("r1", channelRun()))
	base := length(l.p) // 20
	l.edit("channel_length_m", 21)
	l.commit(l.p.RecordCalculation("r1", l.p.Runs[0].Inputs, Summary{"calculated": raw(true)})) // not an edit
	l.edit("channel_length_m", 22)
	l.commit(nonEdit(l.p)) // not an edit either
	l.edit("channel_length_m", 23)

	steps := []struct {
		do   string
		want string
		// whether another undo / redo is there afterwards
		undo, redo bool
	}{
		{ReasonUndo, "22", true, true},
		{ReasonUndo, "21", true, true},
		{ReasonRedo, "22", true, true},
		{ReasonUndo, "21", true, true},
		{ReasonUndo, base, true, true}, // the inputs given at first
		{ReasonUndo, "no-field", false, true},
		{ReasonRedo, base, true, true},
		{ReasonRedo, "21", true, true},
		{ReasonRedo, "22", true, true},
		{ReasonRedo, "23", true, false},
	}
	for i, s := range steps {
		l.move(s.do)
		got := length(l.p)
		if got == "" {
			got = "no-field"
		}
		h := l.history()
		if got != s.want || (h.Undo != nil) != s.undo || (h.Redo != nil) != s.redo {
			t.Fatalf("step %d (%s): length %s, want %s; undo %v redo %v, want %v %v", i, s.do, got, s.want, h.Undo, h.Redo, s.undo, s.redo)
		}
	}
	// Each undo and redo names the edit it moved.
	h := l.history()
	var reverts []string
	for _, e := range h.Entries {
		if e.Kind == EntryUndo || e.Kind == EntryRedo {
			reverts = append(reverts, fmt.Sprintf("%s%d", e.Kind, e.Reverts))
		}
	}
	if want := []string{"undo8", "undo6", "redo6", "undo6", "undo4", "undo3", "redo3", "redo4", "redo6", "redo8"}; !slices.Equal(reverts, want) {
		t.Errorf("undo and redo took back and brought again %v, want %v", reverts, want)
	}
	// The calculation of 21 came back with it: redo restores the version
	// just before the undo that took the edit back.
	l.move(ReasonUndo) // back to 22
	l.move(ReasonUndo) // back to 21, calculated
	if r := l.p.Runs[0]; r.State() != Calculated {
		t.Errorf("undoing back to the calculated 21 m: state %s", r.State())
	}
	// A new edit ends the redo steps.
	l.edit("channel_length_m", 40)
	if h := l.history(); h.Redo != nil || h.Undo == nil || h.Undo.Entry != l.p.Version {
		t.Errorf("after a new edit: undo %v, redo %v", h.Undo, h.Redo)
	}
	l.move(ReasonUndo)
	if got := length(l.p); got != "21" {
		t.Errorf("undoing the new edit: %s, want 21", got)
	}
}

// nonEdit is a commit that is not an edit: a document of a draft (which
// the command would not record, but the history must step over).
func nonEdit(*Project) ([]Event, error) {
	return []Event{DocumentCreated{Kind: "all", Format: "pdf", Language: "en", At: now}}, nil
}

func TestHistoryEntries(t *testing.T) {
	t.Parallel()
	l := newLog(t)
	l.commit(l.p.ChangeInputs("r1", channelRun()))
	l.commit(l.p.RecordCalculation("r1", channelRun(), Summary{"calculated": raw(true), "flow": raw(2), "materials": raw("lots")}))
	l.commit(l.p.RecordFailure("r1", channelRun(), "no channel fits"))
	l.commit(l.p.Rename("r1", "Gate"))
	l.commit(saved(l.p.Save(Content{Details: Details{Name: "Yard"}, Runs: []SavedRun{savedRun("r1", "Gate", 5)}}, SaveBy{UserID: "u1", ShareWithProvider: true, At: now}, counter(), verifier())))
	l.commit(saved(l.p.Save(Content{Details: Details{Name: "Yard"}, Runs: []SavedRun{savedRun("r1", "Gate", 5)}}, SaveBy{UserID: "u1", At: now}, counter(), verifier())))
	l.commit(l.p.RecordDocument("all", "pdf", "de", now))
	l.commit(shareOf(l.p))
	l.commit(l.p.ChangeDetails(Details{Name: "Yard 2", Reference: "P-1"}, Settings{}, ""))
	l.commit(l.p.Restore(l.at(2), ReasonRestore))
	l.commit(l.p.Delete(now))

	h := l.history()
	var kinds []string
	for _, e := range h.Entries {
		kinds = append(kinds, fmt.Sprintf("%s%d-%d%s", e.Kind, e.From, e.Version, map[bool]string{true: "*"}[e.Undoable]))
	}
	want := []string{"created1-2", "edit3-3*", "calculation4-4", "calculation5-5", "edit6-6*", "save7-9*", "save10-10",
		"document11-11", "share12-12", "edit13-13*", "restore14-15*", "delete16-16"}
	if !slices.Equal(kinds, want) {
		t.Errorf("entries\n got %v\nwant %v", kinds, want)
	}
	byVersion := map[int64]Change{}
	for _, e := range h.Entries {
		for _, c := range e.Changes {
			byVersion[c.Version] = c
		}
	}
	check := func(v int64, what string, ok bool) {
		t.Helper()
		if !ok {
			t.Errorf("version %d: %s; change %+v", v, what, byVersion[v])
		}
	}
	c := byVersion[3]
	check(3, "the fields given", c.Type == "project.run_inputs_changed" && c.Run == "Run 1" && slices.Equal(c.Fields, []string{"channel_length_m", "drainage_area_m2", "selectedSystem"}))
	c = byVersion[4]
	check(4, "a calculation's headline only", c.Result != nil && string(c.Result["flow"]) == "2" && c.Result["materials"] == nil && len(c.Fields) == 0)
	check(5, "the failure's message", byVersion[5].Error == "no channel fits")
	check(6, "the rename, both names", byVersion[6].Run == "Gate" && byVersion[6].From == "Run 1")
	check(13, "the details changed", slices.Equal(byVersion[13].Fields, []string{"name", "reference"}))
	check(9, "a save says it shared", byVersion[9].Shared != nil && *byVersion[9].Shared)
	check(11, "the document", byVersion[11].Document != nil && byVersion[11].Document.Language == "de")
	last := byVersion[15]
	check(15, "the restore names its version", last.Restored != nil && last.Restored.FromVersion == 2 && last.Restored.Reason == ReasonRestore)
	check(14, "the run restored with its fields", byVersion[14].Type == "project.run_restored" && byVersion[14].From == "Gate" && byVersion[14].Run == "Run 1" &&
		slices.Contains(byVersion[14].Fields, "channel_length_m"))
	// Deleting is not an edit: the next undo is still the restore's.
	if h.Undo == nil || h.Undo.Entry != 15 || h.Undo.Target != 13 {
		t.Errorf("next undo %+v, want the restore (15) back to 13", h.Undo)
	}
}

func TestCompare(t *testing.T) {
	t.Parallel()
	l := newLog(t)
	l.commit(l.p.ChangeInputs("r1", channelRun()))
	l.commit(l.p.RecordCalculation("r1", channelRun(), Summary{"calculated": raw(true), "flow": raw(2)}))
	l.commit(l.p.AddRun("r2"))
	from := l.p.Version
	l.edit("channel_length_m", 25)
	l.commit(l.p.RecordCalculation("r1", l.p.Runs[0].Inputs, Summary{"calculated": raw(true), "flow": raw(2.5)}))
	l.commit(l.p.Rename("r1", "Gate"))
	l.commit(l.p.ChangeInputs("r1", Inputs{"location": raw(nil)}))
	l.commit(l.p.ChangeInputs("r1", Inputs{"notes_field": raw("")}))
	l.commit(l.p.RemoveRun("r2", "x"))
	l.commit(l.p.AddRun("r3"))
	l.commit(l.p.ChangeDetails(Details{Name: "Yard"}, Settings{}, ""))

	d := Compare(l.at(from), l.p)
	if d.From != from || d.To != l.p.Version {
		t.Errorf("versions %d..%d", d.From, d.To)
	}
	if len(d.Details) != 1 || d.Details[0].Field != "name" || string(d.Details[0].Before) != "null" || string(d.Details[0].After) != `"Yard"` {
		t.Errorf("details %+v", d.Details)
	}
	var got []string
	for _, r := range d.Runs {
		var fields []string
		for _, f := range r.Fields {
			fields = append(fields, fmt.Sprintf("%s:%s>%s", f.Field, f.Before, f.After))
		}
		got = append(got, fmt.Sprintf("%s %s %v", r.ID, r.Status, fields))
	}
	want := []string{
		// A null or an empty text written where there was nothing is no change.
		`r1 changed [name:"Run 1">"Gate" channel_length_m:20>25]`,
		"r3 added []",
		"r2 removed []",
	}
	if !slices.Equal(got, want) {
		t.Errorf("runs\n got %q\nwant %q", got, want)
	}
	r1 := d.Runs[0]
	if string(r1.ResultsBefore["flow"]) != "2" || string(r1.ResultsAfter["flow"]) != "2.5" || !r1.ResultsChanged {
		t.Errorf("results %v -> %v", r1.ResultsBefore, r1.ResultsAfter)
	}
	if same := Compare(l.p, l.p); len(same.Details) != 0 || same.Runs[0].Status != RunSameStatus {
		t.Errorf("a version against itself: %+v", same)
	}
	b, err := json.Marshal(d)
	if err != nil || !json.Valid(b) {
		t.Errorf("the diff does not encode: %v", err)
	}
}
