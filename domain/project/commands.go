package project

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// New starts a project owned by owner. It has no runs until one is added or
// saved into it.
func New(id, owner, ownerName, country string, now time.Time) []Event {
	return []Event{Created{ProjectID: id, Owner: owner, OwnerName: ownerName, Country: country, At: now}}
}

func (p *Project) live() error {
	if p.ID == "" || p.Deleted {
		return &NotFoundError{What: "project", ID: p.ID}
	}
	return nil
}

func (p *Project) liveRun(id string) (*Run, error) {
	if err := p.live(); err != nil {
		return nil, err
	}
	r, ok := p.Run(id)
	if !ok {
		return nil, &NotFoundError{What: "run", ID: id}
	}
	return r, nil
}

func (p *Project) runNames(except string) []string {
	var names []string
	for _, r := range p.Runs {
		if r.ID != except {
			names = append(names, r.Name)
		}
	}
	return names
}

// AddRun appends a fresh run named by the Run N rule.
func (p *Project) AddRun(runID string) ([]Event, error) {
	if err := p.live(); err != nil {
		return nil, err
	}
	return []Event{RunAdded{RunID: runID, Name: NewRunName(p.runNames(""))}}, nil
}

// Rename gives a run a new name, resolving collisions with " (n)".
func (p *Project) Rename(runID, name string) ([]Event, error) {
	r, err := p.liveRun(runID)
	if err != nil {
		return nil, err
	}
	name = CleanName(name)
	if name == "" {
		return nil, invalid("A run needs a name")
	}
	name = RenameName(name, p.runNames(runID))
	if name == r.Name {
		return nil, nil
	}
	return []Event{RunRenamed{RunID: runID, Name: name}}, nil
}

// Duplicate copies a calculated run, placing the copy after it.
func (p *Project) Duplicate(sourceID, newID string) ([]Event, error) {
	r, err := p.liveRun(sourceID)
	if err != nil {
		return nil, err
	}
	if r.State() != Calculated {
		return nil, invalid("Only a calculated run can be duplicated")
	}
	return []Event{RunDuplicated{SourceID: sourceID, RunID: newID, Name: DuplicateName(r.Name, p.runNames(""))}}, nil
}

// RemoveRun deletes a run; deleting the only run leaves a fresh Run 1 in its
// place so a project always has a run to work on.
func (p *Project) RemoveRun(runID, replacementID string) ([]Event, error) {
	if _, err := p.liveRun(runID); err != nil {
		return nil, err
	}
	evs := []Event{RunRemoved{RunID: runID}}
	if len(p.Runs) == 1 {
		evs = append(evs, RunAdded{RunID: replacementID, Name: "Run 1"})
	}
	return evs, nil
}

// Reorder puts the runs in the given order, which must name each run once.
func (p *Project) Reorder(ids []string) ([]Event, error) {
	if err := p.live(); err != nil {
		return nil, err
	}
	cur := make([]string, len(p.Runs))
	for i, r := range p.Runs {
		cur[i] = r.ID
	}
	sorted, want := slices.Clone(ids), slices.Clone(cur)
	slices.Sort(sorted)
	slices.Sort(want)
	if !slices.Equal(sorted, want) {
		return nil, invalid("A new order must name every run of the project once")
	}
	if slices.Equal(ids, cur) {
		return nil, nil
	}
	return []Event{RunsReordered{RunIDs: slices.Clone(ids)}}, nil
}

// ChangeInputs records the fields of a run's inputs that really changed.
func (p *Project) ChangeInputs(runID string, fields Inputs) ([]Event, error) {
	r, err := p.liveRun(runID)
	if err != nil {
		return nil, err
	}
	next := cloneInputs(r.Inputs)
	for k, v := range InputsFrom(fields) {
		next[k] = v
	}
	changed, _ := diff(r.Inputs, next)
	if len(changed) == 0 {
		return nil, nil
	}
	return []Event{RunInputsChanged{RunID: runID, Changed: changed}}, nil
}

// ChangeNotes replaces a run's notes.
func (p *Project) ChangeNotes(runID, notes string) ([]Event, error) {
	r, err := p.liveRun(runID)
	if err != nil {
		return nil, err
	}
	if r.Notes == notes {
		return nil, nil
	}
	return []Event{RunNotesChanged{RunID: runID, Notes: notes}}, nil
}

// RecordCalculation stores the outcome of a calculation of the run with the
// inputs it was calculated from.
func (p *Project) RecordCalculation(runID string, in Inputs, summary Summary) ([]Event, error) {
	if _, err := p.liveRun(runID); err != nil {
		return nil, err
	}
	return []Event{RunCalculated{RunID: runID, Inputs: InputsFrom(in), Summary: summary}}, nil
}

// RecordFailure stores a calculation that could not be done, and why.
func (p *Project) RecordFailure(runID string, in Inputs, reason string) ([]Event, error) {
	if _, err := p.liveRun(runID); err != nil {
		return nil, err
	}
	return []Event{CalculationFailed{RunID: runID, Inputs: InputsFrom(in), Error: reason}}, nil
}

// Reset clears a run's data.
func (p *Project) Reset(runID string) ([]Event, error) {
	if _, err := p.liveRun(runID); err != nil {
		return nil, err
	}
	return []Event{RunReset{RunID: runID}}, nil
}

// ChangeDetails replaces the project's details, settings and notes.
func (p *Project) ChangeDetails(d Details, s Settings, notes string) ([]Event, error) {
	if err := p.live(); err != nil {
		return nil, err
	}
	if p.Details == d && sameSettings(p.Settings, s) && p.Notes == notes {
		return nil, nil
	}
	return []Event{DetailsChanged{Details: d, Settings: s, Notes: notes}}, nil
}

func sameSettings(a, b Settings) bool {
	if a.RainfallUnits != b.RainfallUnits || (a.DefaultRainfall == nil) != (b.DefaultRainfall == nil) {
		return false
	}
	return a.DefaultRainfall == nil || *a.DefaultRainfall == *b.DefaultRainfall
}

// ShareByLink gives the project a share id once; later calls keep it.
func (p *Project) ShareByLink(shareID string) ([]Event, string, error) {
	if err := p.live(); err != nil {
		return nil, "", err
	}
	if !p.Saved {
		return nil, "", invalid("Save the project before sharing it")
	}
	if p.ShareID != "" {
		return nil, p.ShareID, nil
	}
	return []Event{SharedByLink{ShareID: shareID}}, shareID, nil
}

// Delete removes the project from its owner's list; staff still see it.
func (p *Project) Delete(now time.Time) ([]Event, error) {
	if err := p.live(); err != nil {
		return nil, err
	}
	return []Event{Deleted{At: now}}, nil
}

// SavedRun is one run as a save sends it.
type SavedRun struct {
	ID         string // the run's save id; empty for a run never saved
	Name       string
	Notes      string
	Inputs     Inputs
	Summary    Summary
	Calculated bool
}

// Content is the whole project as a save sends it.
type Content struct {
	Details  Details
	Settings Settings
	Notes    string
	Runs     []SavedRun
}

// SaveBy says who saves and how.
type SaveBy struct {
	UserID, UserName  string
	ShareWithProvider bool
	At                time.Time
}

// Save brings the project to the saved content: the events that make the
// stream hold exactly that content, then "saved". It returns the run save ids
// in the order of c.Runs. newID makes ids for runs never saved before.
func (p *Project) Save(c Content, by SaveBy, newID func() string) ([]Event, []string, error) {
	if err := p.live(); err != nil {
		return nil, nil, err
	}
	if err := c.check(); err != nil {
		return nil, nil, err
	}
	var evs []Event
	if d, _ := p.ChangeDetails(c.Details, c.Settings, c.Notes); d != nil {
		evs = append(evs, d...)
	}
	ids := make([]string, len(c.Runs))
	kept := map[string]bool{}
	for i, sr := range c.Runs {
		if _, ok := p.Run(sr.ID); ok && !kept[sr.ID] {
			ids[i] = sr.ID
		} else {
			ids[i] = newID()
		}
		kept[ids[i]] = true
	}
	for _, r := range p.Runs {
		if !kept[r.ID] {
			evs = append(evs, RunRemoved{RunID: r.ID})
		}
	}
	for i, sr := range c.Runs {
		evs = append(evs, p.saveRun(ids[i], sr)...)
	}
	if !slices.Equal(orderAfterSave(p.Runs, kept, ids), ids) {
		evs = append(evs, RunsReordered{RunIDs: ids})
	}
	evs = append(evs, Saved{
		SaveID: p.ID, RunSaveIDs: ids, ShareWithProvider: by.ShareWithProvider,
		SavedBy: by.UserID, SavedByName: by.UserName, At: by.At,
	})
	return evs, ids, nil
}

// orderAfterSave is the run order the save's removals and additions leave
// before any reorder: kept runs where they were, new ones at the end.
func orderAfterSave(cur []*Run, kept map[string]bool, ids []string) []string {
	var out []string
	existing := map[string]bool{}
	for _, r := range cur {
		existing[r.ID] = true
		if kept[r.ID] {
			out = append(out, r.ID)
		}
	}
	for _, id := range ids {
		if !existing[id] {
			out = append(out, id)
		}
	}
	return out
}

func (c Content) check() error {
	if strings.TrimSpace(c.Details.Name) == "" {
		return invalid("The project needs a name")
	}
	if len(c.Runs) == 0 {
		return invalid("No runs in project!")
	}
	var todo []string
	for _, r := range c.Runs {
		if !r.Calculated {
			todo = append(todo, r.Name)
		}
	}
	if len(todo) > 0 {
		return invalid("These runs need to be calculated before saving: %s", strings.Join(todo, ", "))
	}
	return nil
}

func (p *Project) saveRun(id string, sr SavedRun) []Event {
	in := InputsFrom(sr.Inputs)
	r, exists := p.Run(id)
	if !exists {
		evs := []Event{RunAdded{RunID: id, Name: sr.Name, Inputs: in}}
		if sr.Notes != "" {
			evs = append(evs, RunNotesChanged{RunID: id, Notes: sr.Notes})
		}
		return append(evs, RunCalculated{RunID: id, Inputs: in, Summary: sr.Summary})
	}
	var evs []Event
	if r.Name != sr.Name {
		evs = append(evs, RunRenamed{RunID: id, Name: sr.Name})
	}
	if r.Notes != sr.Notes {
		evs = append(evs, RunNotesChanged{RunID: id, Notes: sr.Notes})
	}
	changed, removed := diff(r.Inputs, in)
	if r.State() != Calculated || len(changed) > 0 || len(removed) > 0 || !sameSummary(r.Summary, sr.Summary) {
		evs = append(evs, RunCalculated{RunID: id, Inputs: in, Summary: sr.Summary})
	}
	return evs
}

// String helps tests and logs name a run.
func (r *Run) String() string { return fmt.Sprintf("%s(%s)", r.Name, r.State()) }
