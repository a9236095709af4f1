package project

import (
	"encoding/json"
	"time"

	"draindesign/domain/eventcodec"
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
	// The freeboard margin (see FreeboardMargin); nil keeps the default.
	FreeboardMinMM      *float64 `json:"freeboard_min_mm,omitempty"`
	FreeboardMinPercent *float64 `json:"freeboard_min_percent,omitempty"`
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
	// DurationMS is how long the server's calculation took, for the staff
	// calculation history; 0 (left out) when not measured, as in events
	// stored before it was and in a save's own verification.
	DurationMS float64 `json:"duration_ms,omitempty"`
	// RequestID is the client's name for the calculation request (empty
	// when it gave none): the same request sent again because its answer
	// was lost is not recorded twice (Project.CalculationRecorded).
	RequestID string `json:"request_id,omitempty"`
}

type CalculationFailed struct {
	RunID  string `json:"run_id"`
	Inputs Inputs `json:"inputs"`
	Error  string `json:"error"`
	// DurationMS and RequestID: as in RunCalculated.
	DurationMS float64 `json:"duration_ms,omitempty"`
	RequestID  string  `json:"request_id,omitempty"`
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
	// RequestID is the client's name for the save request (empty when it
	// gave none): a request sent again because its answer was lost is
	// answered as the first was (Project.SaveAnswered).
	RequestID string `json:"request_id,omitempty"`
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

// codec lists every project event type with its schema version. All are
// at version 1: the first ones have the shape they had when versions were
// first recorded, the restore events (restore.go) came later at 1. To
// change a type's shape, raise its version and add the upcaster from the
// previous one (see package eventcodec and docs/architecture.md).
var codec = func() *eventcodec.Codec[Event] {
	c := eventcodec.New("project", Event.EventType)
	eventcodec.Register[Created](c, 1)
	eventcodec.Register[DetailsChanged](c, 1)
	eventcodec.Register[RunAdded](c, 1)
	eventcodec.Register[RunRenamed](c, 1)
	eventcodec.Register[RunDuplicated](c, 1)
	eventcodec.Register[RunRemoved](c, 1)
	eventcodec.Register[RunsReordered](c, 1)
	eventcodec.Register[RunInputsChanged](c, 1)
	eventcodec.Register[RunNotesChanged](c, 1)
	eventcodec.Register[RunCalculated](c, 1)
	eventcodec.Register[CalculationFailed](c, 1)
	eventcodec.Register[RunReset](c, 1)
	eventcodec.Register[Saved](c, 1)
	eventcodec.Register[SharedByLink](c, 1)
	eventcodec.Register[Deleted](c, 1)
	eventcodec.Register[SharingStopped](c, 1)
	eventcodec.Register[DocumentCreated](c, 1)
	eventcodec.Register[RunRestored](c, 1)
	eventcodec.Register[Restored](c, 1)
	// Shared decodings (eventcodec.Memoize): 32 MB, for as long as the
	// instance's other caches keep what an erasure removes (30 s).
	c.Memoize(32<<20, 30*time.Second)
	return c
}()

// ErrUnknownEventType is matched (errors.Is) by Decode's error for a type
// this package does not know; readers skip such events.
var ErrUnknownEventType = eventcodec.ErrUnknownEventType

// Encode gives an event's stored type name, schema version and JSON body.
func Encode(e Event) (typ string, schema int, data []byte, err error) {
	return codec.Encode(e)
}

// Decode turns a stored event back into its Go value (a value, not a
// pointer), upcasting it from an older schema version. Its maps and slices
// may be shared with other callers that decoded the same bytes: do not
// change them. An unknown type is
// ErrUnknownEventType; a newer schema version than this code knows is
// eventcodec.ErrFutureSchema.
func Decode(typ string, schema int, data []byte) (Event, error) {
	return codec.Decode(typ, schema, data)
}

// DecodeCurrent turns an event kept in the current shape of its type (as
// the timeline read model keeps them) back into its Go value.
func DecodeCurrent(typ string, data []byte) (Event, error) {
	schema, ok := codec.Schema(typ)
	if !ok {
		schema = 1 // Decode answers ErrUnknownEventType
	}
	return codec.Decode(typ, schema, data)
}

// EventTypes lists every project event type, sorted.
func EventTypes() []string { return codec.Types() }
