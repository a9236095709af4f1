package project

import (
	"encoding/json"
	"fmt"
	"time"
)

// Event is anything that happened to a project. Each concrete event knows its
// stable type name, which is what the event store records.
type Event interface{ EventType() string }

// Stream is the event-store stream of a project.
func Stream(projectID string) string { return "project-" + projectID }

// StreamPrefix starts every project stream name.
const StreamPrefix = "project-"

// Details are the project's descriptive fields from the save dialog.
type Details struct {
	Name      string `json:"name"`
	Location  string `json:"location"`
	Reference string `json:"reference"`
	Date      string `json:"date"`
	Company   string `json:"company"`
	Designer  string `json:"designer"`
	Telephone string `json:"telephone"`
	Email     string `json:"email"`
}

// Settings are the project-wide design settings that travel with a save.
type Settings struct {
	RainfallUnits   string   `json:"rainfall_units"`
	DefaultRainfall *float64 `json:"default_rainfall"`
}

// Inputs are a run's design inputs, field name to JSON value, as the client
// holds them (design-tool.md section 3, Run). The domain reads only the few
// fields that decide a run's state; the rest travel untouched.
type Inputs map[string]json.RawMessage

// Summary is the part of a calculation result kept in the stream: enough for
// the staff calculation history and the saved project, not the slices.
type Summary map[string]json.RawMessage

type Created struct {
	ProjectID string    `json:"project_id"`
	Owner     string    `json:"owner"`
	OwnerName string    `json:"owner_name"`
	Country   string    `json:"country"`
	At        time.Time `json:"at"`
}

type DetailsChanged struct {
	Details  Details  `json:"details"`
	Settings Settings `json:"settings"`
	Notes    string   `json:"notes"`
}

type RunAdded struct {
	RunID  string `json:"run_id"`
	Name   string `json:"name"`
	Inputs Inputs `json:"inputs,omitempty"`
}

type RunRenamed struct {
	RunID string `json:"run_id"`
	Name  string `json:"name"`
}

type RunDuplicated struct {
	SourceID string `json:"source_id"`
	RunID    string `json:"run_id"`
	Name     string `json:"name"`
}

type RunRemoved struct {
	RunID string `json:"run_id"`
}

type RunsReordered struct {
	RunIDs []string `json:"run_ids"`
}

type RunInputsChanged struct {
	RunID   string `json:"run_id"`
	Changed Inputs `json:"changed"`
	// Removed lists fields that no longer have a value.
	Removed []string `json:"removed,omitempty"`
}

type RunNotesChanged struct {
	RunID string `json:"run_id"`
	Notes string `json:"notes"`
}

type RunCalculated struct {
	RunID   string  `json:"run_id"`
	Inputs  Inputs  `json:"inputs"`
	Summary Summary `json:"summary"`
}

type CalculationFailed struct {
	RunID  string `json:"run_id"`
	Inputs Inputs `json:"inputs"`
	Error  string `json:"error"`
}

type RunReset struct {
	RunID string `json:"run_id"`
}

type Saved struct {
	SaveID            string    `json:"save_id"`
	RunSaveIDs        []string  `json:"run_save_ids"`
	ShareWithProvider bool      `json:"share_with_provider"`
	SavedBy           string    `json:"saved_by"`
	SavedByName       string    `json:"saved_by_name"`
	At                time.Time `json:"at"`
}

type SharedByLink struct {
	ShareID string `json:"share_id"`
}

type Deleted struct {
	At time.Time `json:"at"`
}

func (Created) EventType() string           { return "project.created" }
func (DetailsChanged) EventType() string    { return "project.details_changed" }
func (RunAdded) EventType() string          { return "project.run_added" }
func (RunRenamed) EventType() string        { return "project.run_renamed" }
func (RunDuplicated) EventType() string     { return "project.run_duplicated" }
func (RunRemoved) EventType() string        { return "project.run_removed" }
func (RunsReordered) EventType() string     { return "project.runs_reordered" }
func (RunInputsChanged) EventType() string  { return "project.run_inputs_changed" }
func (RunNotesChanged) EventType() string   { return "project.run_notes_changed" }
func (RunCalculated) EventType() string     { return "project.run_calculated" }
func (CalculationFailed) EventType() string { return "project.calculation_failed" }
func (RunReset) EventType() string          { return "project.run_reset" }
func (Saved) EventType() string             { return "project.saved" }
func (SharedByLink) EventType() string      { return "project.shared_by_link" }
func (Deleted) EventType() string           { return "project.deleted" }

var decoders = map[string]func() Event{
	"project.created":            func() Event { return &Created{} },
	"project.details_changed":    func() Event { return &DetailsChanged{} },
	"project.run_added":          func() Event { return &RunAdded{} },
	"project.run_renamed":        func() Event { return &RunRenamed{} },
	"project.run_duplicated":     func() Event { return &RunDuplicated{} },
	"project.run_removed":        func() Event { return &RunRemoved{} },
	"project.runs_reordered":     func() Event { return &RunsReordered{} },
	"project.run_inputs_changed": func() Event { return &RunInputsChanged{} },
	"project.run_notes_changed":  func() Event { return &RunNotesChanged{} },
	"project.run_calculated":     func() Event { return &RunCalculated{} },
	"project.calculation_failed": func() Event { return &CalculationFailed{} },
	"project.run_reset":          func() Event { return &RunReset{} },
	"project.saved":              func() Event { return &Saved{} },
	"project.shared_by_link":     func() Event { return &SharedByLink{} },
	"project.deleted":            func() Event { return &Deleted{} },
	"project.sharing_stopped":    func() Event { return &SharingStopped{} },
}

// KnownType says whether typ is an event type this build knows.
func KnownType(typ string) bool {
	_, ok := decoders[typ]
	return ok
}

// Encode gives an event's stored type name and JSON body.
func Encode(e Event) (string, []byte, error) {
	data, err := json.Marshal(e)
	if err != nil {
		return "", nil, fmt.Errorf("encode %s: %w", e.EventType(), err)
	}
	return e.EventType(), data, nil
}

// Decode turns a stored event back into its Go value (a value, not a pointer).
func Decode(typ string, data []byte) (Event, error) {
	mk, ok := decoders[typ]
	if !ok {
		return nil, fmt.Errorf("decode project event: unknown type %q", typ)
	}
	ptr := mk()
	if err := json.Unmarshal(data, ptr); err != nil {
		return nil, fmt.Errorf("decode %s: %w", typ, err)
	}
	return deref(ptr), nil
}

func deref(e Event) Event {
	switch v := e.(type) {
	case *Created:
		return *v
	case *DetailsChanged:
		return *v
	case *RunAdded:
		return *v
	case *RunRenamed:
		return *v
	case *RunDuplicated:
		return *v
	case *RunRemoved:
		return *v
	case *RunsReordered:
		return *v
	case *RunInputsChanged:
		return *v
	case *RunNotesChanged:
		return *v
	case *RunCalculated:
		return *v
	case *CalculationFailed:
		return *v
	case *RunReset:
		return *v
	case *Saved:
		return *v
	case *SharedByLink:
		return *v
	case *Deleted:
		return *v
	case *SharingStopped:
		return *v
	}
	return e
}
