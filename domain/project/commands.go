package project

import (
	"errors"
	"fmt"
	"maps"
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
	if err := p.roomForRun(); err != nil {
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
	if err := checkRunName(name); err != nil {
		return nil, err
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
	if err := p.roomForRun(); err != nil {
		return nil, err
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

func (p *Project) roomForRun() error {
	if len(p.Runs) >= MaxRuns {
		return invalid("A project holds at most %d runs", MaxRuns)
	}
	return nil
}

// ChangeInputs records the fields of a run's inputs that really changed.
// The fields sent are checked (ValidateInputs); fields already held are
// not, so a value stored before a rule existed never blocks other edits.
func (p *Project) ChangeInputs(runID string, fields Inputs) ([]Event, error) {
	r, err := p.liveRun(runID)
	if err != nil {
		return nil, err
	}
	fields = InputsFrom(fields)
	next := cloneInputs(r.Inputs)
	maps.Copy(next, fields)
	if err := checkGrowth(r.Inputs, next); err != nil {
		return nil, err
	}
	if err := checkFields(fields, sortedKeys(fields)); err != nil {
		return nil, err
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
	if err := checkText("A run's notes", notes, MaxNotesLength); err != nil {
		return nil, err
	}
	if r.Notes == notes {
		return nil, nil
	}
	return []Event{RunNotesChanged{RunID: runID, Notes: notes}}, nil
}

// RecordCalculation stores the outcome of a calculation of the run with the
// inputs it was calculated from. The summary is the server's own (the
// caller calculated it); the inputs are checked like any others.
func (p *Project) RecordCalculation(runID string, in Inputs, summary Summary) ([]Event, error) {
	if _, err := p.liveRun(runID); err != nil {
		return nil, err
	}
	in = InputsFrom(in)
	if err := ValidateInputs(in); err != nil {
		return nil, err
	}
	return []Event{RunCalculated{RunID: runID, Inputs: in, Summary: summary}}, nil
}

// RecordFailure stores a calculation that could not be done, and why.
func (p *Project) RecordFailure(runID string, in Inputs, reason string) ([]Event, error) {
	if _, err := p.liveRun(runID); err != nil {
		return nil, err
	}
	in = InputsFrom(in)
	if err := ValidateInputs(in); err != nil {
		return nil, err
	}
	return []Event{CalculationFailed{RunID: runID, Inputs: in, Error: reason}}, nil
}

// checkGrowth applies the size limits to a change of a run's inputs. A run
// already over them (stored before they existed) may still shrink.
func checkGrowth(cur, next Inputs) error {
	err := checkInputsSize(next)
	if err != nil && len(next) <= max(len(cur), MaxInputFields) && inputsSize(next) <= max(inputsSize(cur), MaxInputsBytes) {
		return nil
	}
	return err
}

// Reset clears a run's data.
func (p *Project) Reset(runID string) ([]Event, error) {
	if _, err := p.liveRun(runID); err != nil {
		return nil, err
	}
	return []Event{RunReset{RunID: runID}}, nil
}

// ChangeDetails replaces the project's details, settings and notes. A
// draft may have no name yet; a saved project keeps one (docs/decisions.md).
func (p *Project) ChangeDetails(d Details, s Settings, notes string) ([]Event, error) {
	if err := p.live(); err != nil {
		return nil, err
	}
	if err := checkDetails(d, s, notes); err != nil {
		return nil, err
	}
	if p.Saved && strings.TrimSpace(d.Name) == "" {
		return nil, invalid("The project needs a name")
	}
	if p.Details == d && sameSettings(p.Settings, s) && p.Notes == notes {
		return nil, nil
	}
	return []Event{DetailsChanged{Details: d, Settings: s, Notes: notes}}, nil
}

func sameSettings(a, b Settings) bool {
	return a.RainfallUnits == b.RainfallUnits && sameNumber(a.DefaultRainfall, b.DefaultRainfall) &&
		sameNumber(a.FreeboardMinMM, b.FreeboardMinMM) && sameNumber(a.FreeboardMinPercent, b.FreeboardMinPercent)
}

// sameNumber compares two optional numbers: both unset, or both set alike.
func sameNumber(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
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

// SavedRun is one run as a save sends it. It carries no results: a save
// stores only results the server calculated (see Verifier).
type SavedRun struct {
	ID string // the run's save id; empty for a run never saved
	// LinkID is the id the save's other runs name this run by in their
	// links (a shared trash box, an inflow's source) when it has no save
	// id: a save as new sends none, yet its runs still name each other by
	// the ids they had. Empty: the save id.
	LinkID string
	Name   string
	Notes  string
	Inputs Inputs
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
	RequestID         string // the client's name for the request (Saved.RequestID)
}

// Held is a run's last calculation as the project holds it.
type Held struct {
	Inputs  Inputs
	Summary Summary
}

// A Verifier calculates the runs of a save from their inputs, so that what
// a save stores never comes from the client's results. It returns one
// summary per run of c, in order; a nil summary marks a run that cannot be
// calculated (its inputs break a rule of the calculation or make no
// design). held(i) gives the project's own earlier calculation of run i
// when the project holds that run calculated; the verifier may reuse its
// summary when the run's inputs calculate alike. An error is a
// *ValidationError to show as it is, or a failure. design.Verifier is the
// real one.
type Verifier func(c Content, held func(i int) (Held, bool)) ([]Summary, error)

// Save brings the project to the saved content: the events that make the
// stream hold exactly that content, then "saved". It returns the run save ids
// in the order of c.Runs. newID makes ids for runs never saved before; verify
// gives each run's summary. Each run is stored with its effective inputs
// (Effective) and the summary verify gave; a run verify cannot calculate
// refuses the save.
func (p *Project) Save(c Content, by SaveBy, newID func() string, verify Verifier) ([]Event, []string, error) {
	if err := p.live(); err != nil {
		return nil, nil, err
	}
	c.Runs = slices.Clone(c.Runs)
	for i := range c.Runs {
		c.Runs[i].Name = CleanName(c.Runs[i].Name)
		c.Runs[i].Inputs = InputsFrom(c.Runs[i].Inputs)
	}
	if err := c.check(); err != nil {
		return nil, nil, err
	}
	var evs []Event
	d, err := p.ChangeDetails(c.Details, c.Settings, c.Notes)
	if err != nil {
		return nil, nil, err
	}
	evs = append(evs, d...)
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
	// Runs name each other by the ids they are saved under.
	c.Runs = relinked(c.Runs, ids)
	summaries, err := p.verify(c, ids, verify)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range p.Runs {
		if !kept[r.ID] {
			evs = append(evs, RunRemoved{RunID: r.ID})
		}
	}
	for i, sr := range c.Runs {
		evs = append(evs, p.saveRun(ids[i], sr, summaries[i], c.Settings)...)
	}
	if !slices.Equal(orderAfterSave(p.Runs, kept, ids), ids) {
		evs = append(evs, RunsReordered{RunIDs: ids})
	}
	evs = append(evs, Saved{
		SaveID: p.ID, RunSaveIDs: ids, ShareWithProvider: by.ShareWithProvider,
		SavedBy: by.UserID, SavedByName: by.UserName, At: by.At, RequestID: by.RequestID,
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

// check applies the rules of a save to its content; run names are trimmed
// and inputs canonical already.
func (c Content) check() error {
	if err := checkDetails(c.Details, c.Settings, c.Notes); err != nil {
		return err
	}
	if strings.TrimSpace(c.Details.Name) == "" {
		return invalid("The project needs a name")
	}
	if len(c.Runs) == 0 {
		return invalid("No runs in project!")
	}
	if len(c.Runs) > MaxRuns {
		return invalid("A project holds at most %d runs", MaxRuns)
	}
	for i, r := range c.Runs {
		if r.Name == "" {
			return invalid("Run %d needs a name", i+1)
		}
		if err := checkRunName(r.Name); err != nil {
			return err
		}
		if err := checkText(fmt.Sprintf("The notes of run %q", r.Name), r.Notes, MaxNotesLength); err != nil {
			return err
		}
		if err := ValidateInputs(Effective(r.Inputs, c.Settings)); err != nil {
			return inRun(r.Name, err)
		}
	}
	return nil
}

// inRun names the run an input error belongs to.
func inRun(name string, err error) error {
	var invalid *ValidationError
	var large *TooLargeError
	switch {
	case errors.As(err, &invalid):
		return &ValidationError{Message: fmt.Sprintf("Run %q: %s", name, invalid.Message)}
	case errors.As(err, &large):
		return &TooLargeError{Message: fmt.Sprintf("Run %q: %s", name, large.Message)}
	}
	return err
}

// verify has the save's runs calculated; ids are the run ids the save
// gives them. A run the verifier cannot calculate refuses the save.
func (p *Project) verify(c Content, ids []string, verify Verifier) ([]Summary, error) {
	if verify == nil {
		return nil, fmt.Errorf("project %s: save without a verifier", p.ID)
	}
	held := func(i int) (Held, bool) {
		if i < 0 || i >= len(ids) || ids[i] != c.Runs[i].ID {
			return Held{}, false // a new run
		}
		r, ok := p.Run(ids[i])
		if !ok || r.State() != Calculated {
			return Held{}, false
		}
		return Held{Inputs: cloneInputs(r.Inputs), Summary: maps.Clone(r.Summary)}, true
	}
	summaries, err := verify(c, held)
	if err != nil {
		return nil, err
	}
	if len(summaries) != len(c.Runs) {
		return nil, fmt.Errorf("project %s: verifier gave %d summaries for %d runs", p.ID, len(summaries), len(c.Runs))
	}
	var todo []string
	for i, s := range summaries {
		if s == nil {
			todo = append(todo, c.Runs[i].Name)
		}
	}
	if len(todo) > 0 {
		return nil, invalid("These runs need to be calculated before saving: %s", strings.Join(todo, ", "))
	}
	return summaries, nil
}

func (p *Project) saveRun(id string, sr SavedRun, summary Summary, s Settings) []Event {
	in := Effective(sr.Inputs, s)
	r, exists := p.Run(id)
	if !exists {
		evs := []Event{RunAdded{RunID: id, Name: sr.Name, Inputs: in}}
		if sr.Notes != "" {
			evs = append(evs, RunNotesChanged{RunID: id, Notes: sr.Notes})
		}
		return append(evs, RunCalculated{RunID: id, Inputs: in, Summary: summary})
	}
	var evs []Event
	if r.Name != sr.Name {
		evs = append(evs, RunRenamed{RunID: id, Name: sr.Name})
	}
	if r.Notes != sr.Notes {
		evs = append(evs, RunNotesChanged{RunID: id, Notes: sr.Notes})
	}
	changed, removed := diff(r.Inputs, in)
	if r.State() != Calculated || len(changed) > 0 || len(removed) > 0 || !sameSummary(r.Summary, summary) {
		evs = append(evs, RunCalculated{RunID: id, Inputs: in, Summary: summary})
	}
	return evs
}

// String helps tests and logs name a run.
func (r *Run) String() string { return fmt.Sprintf("%s(%s)", r.Name, r.State()) }
