package project

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"draindesign/domain/eventcodec"
)

var now = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func raw(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// channelRun is a configured ordinary channel run.
func channelRun() Inputs {
	return Inputs{
		"selectedSystem":   raw(map[string]any{"slug": "polymer-100", "product_type": "C"}),
		"channel_length_m": raw(20),
		"drainage_area_m2": raw(144),
	}
}

// apply runs a command and applies its events through the codec, as a
// reload from the store would.
func apply(t *testing.T, p *Project, evs []Event, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("command: %v", err)
	}
	for _, e := range evs {
		typ, schema, data, err := Encode(e)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(typ, schema, data)
		if err != nil {
			t.Fatal(err)
		}
		p.Apply(back)
	}
}

func newProject(t *testing.T) *Project {
	p := FromEvents(New("p1", "u1", "alice", "GB", now))
	evs, err := p.AddRun("r1")
	apply(t, p, evs, err)
	return p
}

func names(p *Project) []string {
	var out []string
	for _, r := range p.Runs {
		out = append(out, r.Name)
	}
	return out
}

func TestReadiness(t *testing.T) {
	t.Parallel()
	sys := func(typ string) json.RawMessage { return raw(map[string]any{"slug": "s", "product_type": typ}) }
	tests := []struct {
		name string
		in   Inputs
		want bool
	}{
		{"nothing", Inputs{}, false},
		{"no system", Inputs{"channel_length_m": raw(20), "drainage_area_m2": raw(10)}, false},
		{"channel ready", channelRun(), true},
		{"channel no length", Inputs{"selectedSystem": sys("C"), "drainage_area_m2": raw(10)}, false},
		{"channel zero area", Inputs{"selectedSystem": sys("C"), "channel_length_m": raw(5), "drainage_area_m2": raw(0)}, false},
		{"numbers as strings", Inputs{"selectedSystem": sys("C"), "channel_length_m": raw("5"), "drainage_area_m2": raw("7.5")}, true},
		{"point needs only area", Inputs{"selectedSystem": sys("P"), "drainage_area_m2": raw(30)}, true},
		{"point no area", Inputs{"selectedSystem": sys("P"), "channel_length_m": raw(5)}, false},
		{"concrete complete", Inputs{"channel_group": raw("concrete"), "concreteChannel": raw(map[string]any{"width": 100, "depth": 300}), "channel_length_m": raw(20), "drainage_area_m2": raw(144)}, true},
		{"concrete no depth", Inputs{"channel_group": raw("concrete"), "concreteChannel": raw(map[string]any{"width": 100, "depth": 0}), "channel_length_m": raw(20), "drainage_area_m2": raw(144)}, false},
		{"concrete no channel", Inputs{"channel_group": raw("concrete"), "channel_length_m": raw(20), "drainage_area_m2": raw(144)}, false},
	}
	for _, tc := range tests {
		if got := Readiness(tc.in); got != tc.want {
			t.Errorf("%s: Readiness = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A run moves unconfigured -> ready -> calculated -> changed, and a failure
// or reset takes it back to not calculated (design-tool.md section 4).
func TestRunStates(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	state := func() RunState { r, _ := p.Run("r1"); return r.State() }
	if got := state(); got != Unconfigured {
		t.Fatalf("new run: %s", got)
	}
	evs, err := p.ChangeInputs("r1", channelRun())
	apply(t, p, evs, err)
	if got := state(); got != Ready {
		t.Fatalf("configured run: %s", got)
	}
	evs, err = p.RecordCalculation("r1", channelRun(), Summary{"overflowed": raw(false)})
	apply(t, p, evs, err)
	if got := state(); got != Calculated {
		t.Fatalf("after calculation: %s", got)
	}
	evs, err = p.ChangeInputs("r1", Inputs{"channel_length_m": raw(20)})
	if len(evs) != 0 || err != nil {
		t.Fatalf("unchanged value gave events %v, %v", evs, err)
	}
	evs, err = p.ChangeInputs("r1", Inputs{"channel_length_m": raw(25)})
	apply(t, p, evs, err)
	if got := state(); got != Changed {
		t.Fatalf("after edit: %s", got)
	}
	evs, err = p.RecordFailure("r1", channelRun(), "No channel could be designed to fulfil the current parameters")
	apply(t, p, evs, err)
	if got := state(); got != Ready {
		t.Fatalf("after failure: %s", got)
	}
	evs, err = p.Reset("r1")
	apply(t, p, evs, err)
	if got := state(); got != Unconfigured {
		t.Fatalf("after reset: %s", got)
	}
}

func TestRunList(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	evs, err := p.AddRun("r2")
	apply(t, p, evs, err)
	evs, err = p.Rename("r2", "Run 1")
	apply(t, p, evs, err)
	if got := names(p); !reflect.DeepEqual(got, []string{"Run 1", "Run 1 (2)"}) {
		t.Fatalf("rename collision: %q", got)
	}
	if _, err := p.Duplicate("r1", "r3"); err == nil {
		t.Fatal("duplicating an uncalculated run succeeded")
	}
	evs, err = p.RecordCalculation("r1", channelRun(), Summary{})
	apply(t, p, evs, err)
	evs, err = p.Duplicate("r1", "r3")
	apply(t, p, evs, err)
	if got := names(p); !reflect.DeepEqual(got, []string{"Run 1", "Run 2", "Run 1 (2)"}) {
		t.Fatalf("duplicate: %q", got)
	}
	if r, _ := p.Run("r3"); r.State() != Calculated {
		t.Fatalf("copy state %s, want calculated", r.State())
	}
	evs, err = p.Reorder([]string{"r2", "r3", "r1"})
	apply(t, p, evs, err)
	if p.FirstRunID() != "r2" {
		t.Fatalf("first run %s after reorder", p.FirstRunID())
	}
	if _, err := p.Reorder([]string{"r2", "r3"}); err == nil {
		t.Fatal("reorder missing a run accepted")
	}
	// Deleting the first run makes the next one first.
	evs, err = p.RemoveRun("r2", "x")
	apply(t, p, evs, err)
	if p.FirstRunID() != "r3" {
		t.Fatalf("first run %s after deleting the first", p.FirstRunID())
	}
	evs, err = p.RemoveRun("r3", "x")
	apply(t, p, evs, err)
	// Deleting the only run leaves a fresh Run 1.
	evs, err = p.RemoveRun("r1", "r9")
	apply(t, p, evs, err)
	if len(p.Runs) != 1 || p.Runs[0].ID != "r9" || p.Runs[0].Name != "Run 1" || p.Runs[0].State() != Unconfigured {
		t.Fatalf("after deleting the only run: %v", p.Runs)
	}
	var nf *NotFoundError
	if _, err := p.Rename("nope", "x"); !errors.As(err, &nf) {
		t.Fatalf("rename of a missing run: %v", err)
	}
	var ve *ValidationError
	if _, err := p.Rename("r9", "  "); !errors.As(err, &ve) {
		t.Fatalf("blank rename: %v", err)
	}
}

func savedRun(id, name string, length int) SavedRun {
	in := channelRun()
	in["channel_length_m"] = raw(length)
	return SavedRun{ID: id, Name: name, Inputs: in}
}

// fakeCalc stands in for design.Verifier: it reuses a held summary when the
// effective inputs are byte-identical, "calculates" a ready run as a summary
// of its channel length, and cannot calculate a run that is not ready.
type fakeCalc struct{ calculated, reused int }

func (f *fakeCalc) verify(c Content, held func(int) (Held, bool)) ([]Summary, error) {
	out := make([]Summary, len(c.Runs))
	for i, r := range c.Runs {
		in := Effective(r.Inputs, c.Settings)
		if h, ok := held(i); ok && reflect.DeepEqual(Effective(h.Inputs, c.Settings), in) {
			out[i] = h.Summary
			f.reused++
			continue
		}
		if Readiness(in) {
			out[i] = Summary{"length": in["channel_length_m"]}
			f.calculated++
		}
	}
	return out, nil
}

func verifier() Verifier { return (&fakeCalc{}).verify }

func counter() func() string {
	n := 0
	return func() string { n++; return fmt.Sprintf("s%d", n) }
}

func TestSave(t *testing.T) {
	t.Parallel()
	by := SaveBy{UserID: "u1", UserName: "alice", At: now}
	content := Content{Details: Details{Name: "Depot"}, Runs: []SavedRun{savedRun("", "Run 1", 20), savedRun("", "Yard", 30)}}

	p := FromEvents(New("p1", "u1", "alice", "GB", now))
	calc := &fakeCalc{}
	evs, ids, err := p.Save(content, by, counter(), calc.verify)
	apply(t, p, evs, err)
	if !reflect.DeepEqual(ids, []string{"s1", "s2"}) || !reflect.DeepEqual(names(p), []string{"Run 1", "Yard"}) {
		t.Fatalf("first save: ids %v names %v", ids, names(p))
	}
	for i, r := range p.Runs {
		if r.State() != Calculated || string(r.Summary["length"]) != []string{"20", "30"}[i] {
			t.Fatalf("saved run %s summary %s", r, r.Summary)
		}
		// Stored with the defaults it was calculated with.
		if string(r.Inputs["calculation_method"]) != `"GVF"` || string(r.Inputs["rainfall"]) != `{"rainfall_mm_per_hr":50}` {
			t.Fatalf("saved run %s inputs %s", r, r.Inputs)
		}
	}
	if calc.calculated != 2 || calc.reused != 0 {
		t.Fatalf("first save: %d calculated, %d reused", calc.calculated, calc.reused)
	}
	if !p.Saved || p.Details.Name != "Depot" || p.LastSavedBy != "u1" {
		t.Fatalf("project after save: %+v", p)
	}

	// The same content again changes nothing but records the save.
	content.Runs[0].ID, content.Runs[1].ID = "s1", "s2"
	evs, _, err = p.Save(content, by, counter(), calc.verify)
	if err != nil || len(evs) != 1 {
		t.Fatalf("resave of identical content: %v events, %v", evs, err)
	}
	if calc.calculated != 2 || calc.reused != 2 {
		t.Fatalf("resave: %d calculated, %d reused", calc.calculated, calc.reused)
	}

	// Swapped, one edited, one new, one dropped.
	next := Content{Details: Details{Name: "Depot 2"}, Runs: []SavedRun{savedRun("", "New", 5), savedRun("s2", "Yard", 35)}}
	evs, ids, err = p.Save(next, by, func() string { return "s3" }, calc.verify)
	apply(t, p, evs, err)
	if !reflect.DeepEqual(ids, []string{"s3", "s2"}) || !reflect.DeepEqual(names(p), []string{"New", "Yard"}) {
		t.Fatalf("second save: ids %v names %v", ids, names(p))
	}
	r, _ := p.Run("s2")
	if string(r.Inputs["channel_length_m"]) != "35" || string(r.Summary["length"]) != "35" {
		t.Fatalf("edited run length %s, summary %s", r.Inputs["channel_length_m"], r.Summary)
	}

	// The rebuilt stream equals the live aggregate.
	if p.Version == 0 || p.Details.Name != "Depot 2" {
		t.Fatalf("version %d details %+v", p.Version, p.Details)
	}
}

func TestSaveRefusals(t *testing.T) {
	t.Parallel()
	p := FromEvents(New("p1", "u1", "alice", "GB", now))
	uncalc := savedRun("", "Yard", 5)
	delete(uncalc.Inputs, "selectedSystem")
	tests := []struct {
		name    string
		content Content
		want    string
	}{
		{"blank name", Content{Details: Details{Name: "  "}, Runs: []SavedRun{savedRun("", "Run 1", 5)}}, "The project needs a name"},
		{"no runs", Content{Details: Details{Name: "A"}}, "No runs in project!"},
		{"uncalculated", Content{Details: Details{Name: "A"}, Runs: []SavedRun{savedRun("", "Run 1", 5), uncalc}}, "These runs need to be calculated before saving: Yard"},
	}
	for _, tc := range tests {
		_, _, err := p.Save(tc.content, SaveBy{}, counter(), verifier())
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Message != tc.want {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestShareAndDelete(t *testing.T) {
	t.Parallel()
	p := FromEvents(New("p1", "u1", "alice", "GB", now))
	if _, _, err := p.ShareByLink("x"); err == nil {
		t.Fatal("shared an unsaved project")
	}
	evs, _, err := p.Save(Content{Details: Details{Name: "A"}, Runs: []SavedRun{savedRun("", "Run 1", 5)}}, SaveBy{}, counter(), verifier())
	apply(t, p, evs, err)
	evs, id, err := p.ShareByLink("link-1")
	apply(t, p, evs, err)
	if _, again, _ := p.ShareByLink("link-2"); id != "link-1" || again != "link-1" {
		t.Fatalf("share ids %s then %s", id, again)
	}
	evs, err = p.Delete(now)
	apply(t, p, evs, err)
	if !p.Deleted || !p.DeletedAt.Equal(now) {
		t.Fatal("not deleted")
	}
	if _, err := p.Delete(now); err == nil {
		t.Fatal("deleted twice")
	}
	if _, err := p.AddRun("z"); err == nil {
		t.Fatal("edited a deleted project")
	}
}

func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	if _, err := Decode("project.nope", 1, []byte(`{}`)); !errors.Is(err, ErrUnknownEventType) {
		t.Errorf("unknown type: %v, want ErrUnknownEventType", err)
	}
	if _, err := Decode("project.run_added", 1, []byte(`{`)); err == nil || errors.Is(err, ErrUnknownEventType) {
		t.Errorf("bad JSON: %v", err)
	}
	if _, err := Decode("project.run_added", 2, []byte(`{}`)); !errors.Is(err, eventcodec.ErrFutureSchema) {
		t.Errorf("newer schema: %v, want ErrFutureSchema", err)
	}
}

// TestCodecRoundTrip encodes one event of every type: each is known to
// the codec at schema version 1 and decodes to what was encoded.
func TestCodecRoundTrip(t *testing.T) {
	t.Parallel()
	rain := 50.0
	at := time.Date(2025, 3, 3, 9, 0, 0, 0, time.UTC)
	in := Inputs{"channel_length_m": json.RawMessage(`20`)}
	all := []Event{
		Created{ProjectID: "p", Owner: "u", OwnerName: "ann", Country: "GB", At: at},
		DetailsChanged{Details: Details{Name: "Yard"}, Settings: Settings{RainfallUnits: "mm/hr", DefaultRainfall: &rain}, Notes: "n"},
		RunAdded{RunID: "r", Name: "Run 1", Inputs: in},
		RunRenamed{RunID: "r", Name: "Gate"},
		RunDuplicated{SourceID: "r", RunID: "s", Name: "Gate (copy)"},
		RunRemoved{RunID: "s"},
		RunsReordered{RunIDs: []string{"r"}},
		RunInputsChanged{RunID: "r", Changed: in, Removed: []string{"x"}},
		RunNotesChanged{RunID: "r", Notes: "n"},
		RunCalculated{RunID: "r", Inputs: in, Summary: Summary{"calculated": json.RawMessage(`true`)}},
		CalculationFailed{RunID: "r", Inputs: in, Error: "no channel"},
		RunReset{RunID: "r"},
		Saved{SaveID: "p", RunSaveIDs: []string{"r"}, ShareWithProvider: true, SavedBy: "u", SavedByName: "ann", At: at},
		SharedByLink{ShareID: "x"},
		SharingStopped{ShareID: "x"},
		DocumentCreated{Kind: "hydraulics/1", Format: "csv", Language: "de", At: at},
		Deleted{At: at},
		RunRestored{RunID: "r", Name: "Gate", Notes: "n", Inputs: in, Summary: Summary{"calculated": json.RawMessage(`true`)},
			LastError: "", State: Calculated},
		Restored{Reason: ReasonCopy, FromVersion: 7, FromProject: "q", Details: Details{Name: "Yard"}, Notes: "n", RunIDs: []string{"r"}},
	}
	var types []string
	for _, e := range all {
		typ, schema, data, err := Encode(e)
		if err != nil || typ != e.EventType() || schema != 1 {
			t.Fatalf("Encode(%T) = %q, %d, %v", e, typ, schema, err)
		}
		back, err := Decode(typ, schema, data)
		if err != nil || !reflect.DeepEqual(back, e) {
			t.Errorf("%s: decoded %#v (%v), want %#v", typ, back, err, e)
		}
		types = append(types, typ)
	}
	slices.Sort(types)
	if !slices.Equal(types, EventTypes()) {
		t.Errorf("sample events cover %v, the codec lists %v", types, EventTypes())
	}
}

// A save names its request; the project keeps the last save's answer, so
// that the same request sent again (its answer lost) is answered alike,
// and only by that name.
// A calculation recorded under a request name is known by it until the run
// records another or is reset; an unnamed one never matches.
func TestCalculationRecorded(t *testing.T) {
	t.Parallel()
	p := FromEvents(New("p1", "u1", "alice", "GB", now))
	evs, err := p.AddRun("r1")
	apply(t, p, evs, err)
	in := Inputs{"channel_length_m": []byte("20")}
	recorded := func(id string) bool { return p.CalculationRecorded("r1", id) }
	if recorded("c1") || recorded("") {
		t.Fatal("a run never calculated has a recorded calculation")
	}
	apply(t, p, []Event{RunCalculated{RunID: "r1", Inputs: in, RequestID: "c1"}}, nil)
	if !recorded("c1") || recorded("c2") || recorded("") || p.CalculationRecorded("r2", "c1") {
		t.Fatal("after calculation c1: wrong answers")
	}
	apply(t, p, []Event{RunInputsChanged{RunID: "r1", Changed: Inputs{"channel_length_m": []byte("25")}}}, nil)
	if !recorded("c1") {
		t.Fatal("an edit forgot the last calculation's name")
	}
	apply(t, p, []Event{CalculationFailed{RunID: "r1", Inputs: in, Error: "no", RequestID: "c2"}}, nil)
	if recorded("c1") || !recorded("c2") {
		t.Fatal("a failed calculation is recorded too, under its own name")
	}
	apply(t, p, []Event{RunCalculated{RunID: "r1", Inputs: in}}, nil)
	if recorded("c2") || recorded("") {
		t.Fatal("an unnamed calculation left the earlier name, or matched the empty one")
	}
	apply(t, p, []Event{RunCalculated{RunID: "r1", Inputs: in, RequestID: "c3"}, RunReset{RunID: "r1"}}, nil)
	if recorded("c3") {
		t.Fatal("a reset run still has its calculation")
	}
}

func TestSaveAnswered(t *testing.T) {
	t.Parallel()
	p := FromEvents(New("p1", "u1", "alice", "GB", now))
	content := Content{Details: Details{Name: "Depot"}, Runs: []SavedRun{savedRun("", "Run 1", 20)}}
	evs, ids, err := p.Save(content, SaveBy{UserID: "u1", At: now, RequestID: "req-1"}, counter(), verifier())
	apply(t, p, evs, err)
	if saved, ok := evs[len(evs)-1].(Saved); !ok || saved.RequestID != "req-1" {
		t.Fatalf("last event %#v, want Saved naming req-1", evs[len(evs)-1])
	}
	want := SaveReceipt{RequestID: "req-1", Version: p.Version, RunIDs: ids}
	got, ok := p.SaveAnswered("req-1")
	if !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("SaveAnswered(req-1) = %+v, %v; want %+v", got, ok, want)
	}
	// Later events leave the answer as it was.
	apply(t, p, []Event{RunNotesChanged{RunID: ids[0], Notes: "n"}}, nil)
	if got, ok := p.SaveAnswered("req-1"); !ok || got.Version != want.Version {
		t.Fatalf("after an edit: %+v, %v; want version %d", got, ok, want.Version)
	}
	for _, other := range []string{"", "req-2"} {
		if _, ok := p.SaveAnswered(other); ok {
			t.Errorf("SaveAnswered(%q) answered", other)
		}
	}
	// A save without a name (older clients) answers no name, not even "".
	content.Runs[0].ID = ids[0]
	evs, _, err = p.Save(content, SaveBy{UserID: "u1", At: now}, counter(), verifier())
	apply(t, p, evs, err)
	for _, name := range []string{"", "req-1"} {
		if _, ok := p.SaveAnswered(name); ok {
			t.Errorf("after an unnamed save, SaveAnswered(%q) answered", name)
		}
	}
}
