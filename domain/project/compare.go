package project

import (
	"encoding/json"
	"slices"
)

// Comparing two versions of a project: what changed in its details and in
// each run (inputs, name, notes, state), with the calculation's headline
// before and after.

// FieldChange is one field with its value before and after; null stands
// for no value.
type FieldChange struct {
	Field  string          `json:"field"`
	Before json.RawMessage `json:"before"`
	After  json.RawMessage `json:"after"`
}

// How a run fared between two versions.
const (
	RunAddedStatus   = "added"
	RunRemovedStatus = "removed"
	RunChangedStatus = "changed"
	RunSameStatus    = "same"
)

// RunDiff is one run between two versions. Fields lists its name, notes
// and inputs that differ, name and notes first.
type RunDiff struct {
	ID          string        `json:"id"`
	Name        string        `json:"name"`
	Status      string        `json:"status"`
	StateBefore RunState      `json:"state_before,omitempty"`
	StateAfter  RunState      `json:"state_after,omitempty"`
	Fields      []FieldChange `json:"fields"`
	// The calculation's headline (HeadlineKeys) before and after; null
	// without results.
	ResultsBefore Summary `json:"results_before"`
	ResultsAfter  Summary `json:"results_after"`
	// ResultsChanged: the stored results differ (beyond the headline too).
	ResultsChanged bool `json:"results_changed"`
}

// Diff is what changed from one version of a project to another.
type Diff struct {
	From    int64         `json:"from"`
	To      int64         `json:"to"`
	Details []FieldChange `json:"details"`
	Runs    []RunDiff     `json:"runs"`
}

// Compare says what changed from a to b, two versions of one project: the
// runs in b's order, then the runs only a had.
func Compare(a, b *Project) Diff {
	d := Diff{From: a.Version, To: b.Version, Details: detailChanges(a.Details, a.Settings, a.Notes, b.Details, b.Settings, b.Notes), Runs: []RunDiff{}}
	if d.Details == nil {
		d.Details = []FieldChange{}
	}
	for _, r := range b.Runs {
		old, ok := a.Run(r.ID)
		if !ok {
			d.Runs = append(d.Runs, RunDiff{ID: r.ID, Name: r.Name, Status: RunAddedStatus, StateAfter: r.State(),
				Fields: []FieldChange{}, ResultsAfter: Headline(r.Summary), ResultsChanged: r.Summary != nil})
			continue
		}
		rd := RunDiff{ID: r.ID, Name: r.Name, StateBefore: old.State(), StateAfter: r.State(), Fields: runChanges(old, r),
			ResultsBefore: Headline(old.Summary), ResultsAfter: Headline(r.Summary),
			ResultsChanged: !sameSummary(old.Summary, r.Summary) || old.LastError != r.LastError}
		rd.Status = RunSameStatus
		if len(rd.Fields) > 0 || rd.ResultsChanged || rd.StateBefore != rd.StateAfter {
			rd.Status = RunChangedStatus
		}
		d.Runs = append(d.Runs, rd)
	}
	for _, r := range a.Runs {
		if _, ok := b.Run(r.ID); !ok {
			d.Runs = append(d.Runs, RunDiff{ID: r.ID, Name: r.Name, Status: RunRemovedStatus, StateBefore: r.State(),
				Fields: []FieldChange{}, ResultsBefore: Headline(r.Summary), ResultsChanged: r.Summary != nil})
		}
	}
	return d
}

// runChanges lists the name, notes and inputs that differ between two
// states of a run.
func runChanges(a, b *Run) []FieldChange {
	out := []FieldChange{}
	if a.Name != b.Name {
		out = append(out, FieldChange{Field: "name", Before: textValue(a.Name), After: textValue(b.Name)})
	}
	if a.Notes != b.Notes {
		out = append(out, FieldChange{Field: "notes", Before: textValue(a.Notes), After: textValue(b.Notes)})
	}
	for _, k := range inputFields(a.Inputs, b.Inputs) {
		out = append(out, FieldChange{Field: k, Before: valueOrNull(a.Inputs[k]), After: valueOrNull(b.Inputs[k])})
	}
	return out
}

// textValue is a string as a JSON value; the empty string is no value.
func textValue(s string) json.RawMessage {
	if s == "" {
		return json.RawMessage("null")
	}
	b, _ := json.Marshal(s)
	return b
}

// detailChanges compares the project's details, settings and notes field
// by field, by their JSON names: the details in the save dialog's order,
// then the settings, then "notes".
func detailChanges(d Details, s Settings, notes string, d2 Details, s2 Settings, notes2 string) []FieldChange {
	var out []FieldChange
	for _, f := range []struct {
		name string
		a, b string
	}{
		{"name", d.Name, d2.Name}, {"location", d.Location, d2.Location},
		{"reference", d.Reference, d2.Reference}, {"date", d.Date, d2.Date},
		{"company", d.Company, d2.Company}, {"designer", d.Designer, d2.Designer},
		{"telephone", d.Telephone, d2.Telephone}, {"email", d.Email, d2.Email},
		{"rainfall_units", s.RainfallUnits, s2.RainfallUnits},
	} {
		if f.a != f.b {
			out = append(out, FieldChange{Field: f.name, Before: textValue(f.a), After: textValue(f.b)})
		}
	}
	for _, f := range []struct {
		name string
		a, b *float64
	}{
		{"default_rainfall", s.DefaultRainfall, s2.DefaultRainfall},
		{"freeboard_min_mm", s.FreeboardMinMM, s2.FreeboardMinMM},
		{"freeboard_min_percent", s.FreeboardMinPercent, s2.FreeboardMinPercent},
	} {
		if !sameNumber(f.a, f.b) {
			out = append(out, FieldChange{Field: f.name, Before: number64(f.a), After: number64(f.b)})
		}
	}
	if notes != notes2 {
		out = append(out, FieldChange{Field: "notes", Before: textValue(notes), After: textValue(notes2)})
	}
	return slices.Clip(out)
}

func number64(f *float64) json.RawMessage {
	if f == nil {
		return json.RawMessage("null")
	}
	b, _ := json.Marshal(*f)
	return b
}
