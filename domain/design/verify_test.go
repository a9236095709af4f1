package design

import (
	"encoding/json"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"draindesign/domain/catalogue"
	"draindesign/domain/hydraulics"
	"draindesign/domain/project"
)

// The validator of domain/project knows the engine's fields by name: every
// field of Request but the identity ones has a rule, and nothing else.
func TestEngineFieldsCoverRequest(t *testing.T) {
	t.Parallel()
	var tags []string
	for f := range reflect.TypeFor[Request]().Fields() {
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch tag {
		case "project_id", "run_id", "id", "saveID":
		case "-": // set by the server, never read from the body
		default:
			tags = append(tags, tag)
		}
	}
	slices.Sort(tags)
	if got := project.EngineFields(); !slices.Equal(got, tags) {
		t.Fatalf("project.EngineFields() = %v\nRequest fields  = %v", got, tags)
	}
}

// Every value the calculation takes from its value sets passes the project's
// validation, in each field that holds it.
func TestInputEnumsMatchEngine(t *testing.T) {
	t.Parallel()
	var cases []project.Inputs
	add := func(field, format string, values ...string) {
		for _, v := range values {
			q, _ := json.Marshal(v)
			cases = append(cases, project.Inputs{field: json.RawMessage(strings.ReplaceAll(format, "%", string(q)))})
		}
	}
	add("loading", "%", catalogue.LoadingClasses...)
	for _, s := range catalogue.Default().Systems() {
		add("loading", "%", s.LoadingClasses...)
		for letter := range s.LoadingLetters {
			add("loading", "%", letter)
		}
		add("channel_group", "%", s.Slug, s.Name)
		add("selectedSystem", `{"slug": %}`, s.Slug)
	}
	add("calculation_method", "%", hydraulics.GVF.String(), hydraulics.HRW.String(), "Manning", "")
	add("dischargeSetting", "%", catalogue.FreeOutflow, catalogue.OutflowInTrashBox, catalogue.EndCapWithOutletSetting, catalogue.ModificationLastElement, "")
	add("drilling", `{"position": %}`, catalogue.DrillBottom, catalogue.DrillLeftWall, catalogue.DrillRightWall)
	add("accessories", `[{"type": %}]`, accessoryTypes...)
	add("leftAreas", `[{"permeability": %}]`, slices.Collect(maps.Keys(Surfaces))...)
	add("slopeSetting", "%", "slope", "elevation", "")
	add("catchmentShape", "%", "uniform", "irregular", "")
	for _, in := range cases {
		if err := project.ValidateInputs(in); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}

// FuzzValidatedInputsDecode: whatever the project's validation accepts, the
// calculation's decoder reads (with the defaults filled in): the two agree
// on the type of every field.
func FuzzValidatedInputsDecode(f *testing.F) {
	for _, s := range []string{exampleBody, standardBody, `{}`,
		`{"channels": {"a": 1}, "leftAreas": [null, {"permeability": "gravel"}], "grating": 7, "outflowTrashbox": "run-b"}`,
		`{"advanced_design": {"channels": [{"slug": "x", "used": 2}], "drilling": null}, "inflows": [{"id": 3, "source": 4}]}`,
		`{"project_id": 5, "run_id": true, "rainfall": null, "selectedSystem": {"slug": "poly-100", "x": [1]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var raw map[string]json.RawMessage
		if json.Unmarshal(data, &raw) != nil {
			return
		}
		in := project.InputsFrom(raw)
		if project.ValidateInputs(in) != nil {
			return
		}
		if _, err := requestOf(in, project.Settings{}, "k"); err != nil {
			t.Fatalf("validated inputs do not decode: %v", err)
		}
	})
}

var by = project.SaveBy{UserID: "u1", UserName: "alice", At: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}

// inputs is a run object as a client sends it in a save.
func inputs(t testing.TB, b map[string]any) project.Inputs {
	t.Helper()
	data, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	return project.InputsFrom(raw)
}

// draft is a project with runs of the given ids.
func draft(t testing.TB, ids ...string) *project.Project {
	t.Helper()
	p := project.FromEvents(project.New("p1", "u1", "alice", "GB", by.At))
	for _, id := range ids {
		apply(t, p, []project.Event{project.RunAdded{RunID: id, Name: "Run " + id}}, nil)
	}
	return p
}

func apply(t testing.TB, p *project.Project, evs []project.Event, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("command: %v", err)
	}
	for _, e := range evs {
		typ, schema, data, err := project.Encode(e)
		if err != nil {
			t.Fatal(err)
		}
		back, err := project.Decode(typ, schema, data)
		if err != nil {
			t.Fatal(err)
		}
		p.Apply(back)
	}
}

func ids() func() string {
	n := 0
	return func() string { n++; return "new" + string(rune('0'+n)) }
}

func save(t testing.TB, p *project.Project, s project.Settings, runs ...project.SavedRun) error {
	t.Helper()
	return saveCalculating(t, p, s, nil, runs...)
}

// saveCalculating is save with the verifier's hook that runs its
// calculations.
func saveCalculating(t testing.TB, p *project.Project, s project.Settings, calculate func(func()) error, runs ...project.SavedRun) error {
	t.Helper()
	evs, _, err := p.Save(project.Content{Details: project.Details{Name: "Depot"}, Settings: s, Runs: runs}, by, ids(), Verifier(catalogue.Default(), calculate))
	if err == nil {
		apply(t, p, evs, nil)
	}
	return err
}

// stored reads a number of a run's stored summary.
func stored(t testing.TB, p *project.Project, runID, key string) float64 {
	t.Helper()
	r, ok := p.Run(runID)
	if !ok {
		t.Fatalf("no run %s in %v", runID, p.Runs)
	}
	var v float64
	if err := json.Unmarshal(r.Summary[key], &v); err != nil {
		t.Fatalf("run %s summary %s: %v", runID, key, err)
	}
	return v
}

func summaryJSON(t testing.TB, s map[string]json.RawMessage) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A save claiming a run calculated, with forged results, stores the
// server's own calculation of the run instead.
func TestSaveStoresRecalculatedResults(t *testing.T) {
	t.Parallel()
	forged := m{"calculated": true, "channel_discharge": 99999, "max_depth_mm": 1, "overflowed": false, "warnings": []string{}}
	// The run object as the web client holds it: the whole system from
	// GET /drainage/product/, the state a load gave it, emptied fields.
	system, err := catalogue.Default().SelectedSystem("poly-100")
	if err != nil {
		t.Fatal(err)
	}
	run := body(t, standardBody, m{"name": "Yard", "notes": "", "results": forged, "water_inflow": nil, "pipe_diameter_mm": nil,
		"selectedSystem": system, "state": "calculated", "permeabilitySurface": "concretePavement", "catchment_depth_m": 5})
	p := draft(t, "r1")
	if err := save(t, p, project.Settings{}, project.SavedRun{ID: "r1", Name: "Yard", Inputs: inputs(t, run)}); err != nil {
		t.Fatal(err)
	}
	want := mustCalc(t, body(t, standardBody, nil))
	if got := stored(t, p, "r1", "channel_discharge"); got != want.ChannelDischarge || got == 99999 {
		t.Errorf("channel_discharge stored %v, engine %v", got, want.ChannelDischarge)
	}
	if got := stored(t, p, "r1", "max_depth_mm"); got != want.MaxDepthMM {
		t.Errorf("max_depth_mm stored %v, engine %v", got, want.MaxDepthMM)
	}
	sum, err := Summary(want)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := p.Run("r1"); summaryJSON(t, r.Summary) != summaryJSON(t, sum) || r.State() != project.Calculated {
		t.Errorf("stored summary %s\nengine summary %s", summaryJSON(t, r.Summary), summaryJSON(t, sum))
	}
}

// A run the calculation refuses, or for which no design can be made, cannot
// be saved, whatever results the client claims for it.
func TestSaveRefusesUncalculableRuns(t *testing.T) {
	t.Parallel()
	claimed := m{"calculated": true, "channel_discharge": 2}
	tests := []struct {
		name string
		run  map[string]any
	}{
		{"no rainfall", body(t, standardBody, m{"rainfall": m{"rainfall_mm_per_hr": 0}})},
		{"no system", body(t, standardBody, m{"channel_group": nil})},
		{"too long for HRW", body(t, standardBody, m{"channel_length_m": 600, "calculation_method": "HRW"})},
		{"no channel carries it", body(t, standardBody, m{"drainage_area_m2": 99000, "rainfall": m{"rainfall_mm_per_hr": 9000}})},
	}
	for _, tc := range tests {
		tc.run["results"] = claimed
		p := draft(t, "r1", "r2")
		before := p.Version
		err := save(t, p, project.Settings{},
			project.SavedRun{ID: "r1", Name: "Run 1", Inputs: inputs(t, body(t, standardBody, nil))},
			project.SavedRun{ID: "r2", Name: "Yard", Inputs: inputs(t, tc.run)})
		var ve *project.ValidationError
		if !errors.As(err, &ve) || ve.Message != "These runs need to be calculated before saving: Yard" || p.Version != before {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// The project's own calculation is reused when the saved inputs calculate
// alike, and recalculated when they do not.
func TestSaveReusesOwnCalculation(t *testing.T) {
	t.Parallel()
	cat := catalogue.Default()
	// What the calculate call recorded: the client's calculation body.
	calculated := body(t, standardBody, nil)
	sum, err := SummaryOf(cat, inputs(t, calculated), project.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	sum["marker"] = json.RawMessage("1") // tells a reused summary from a new one
	// The client's own copy: no defaults, emptied fields, a screen-only one.
	client := body(t, standardBody, m{"catchmentShape": nil, "permeability": nil, "slopeSetting": nil, "ground_slope": nil,
		"dischargeSetting": nil, "advanced": nil, "rainfall": nil})
	client["water_inflow"], client["pipe_diameter_mm"], client["location"] = nil, nil, "By the gate"

	tests := []struct {
		name     string
		change   map[string]any
		settings project.Settings
		reused   bool
	}{
		{"calculates alike", nil, project.Settings{}, true},
		{"numbers written differently", m{"channel_length_m": 20.0, "drainage_area_m2": 2e2}, project.Settings{}, true},
		{"longer run", m{"channel_length_m": 25}, project.Settings{}, false},
		{"another project rainfall", nil, project.Settings{DefaultRainfall: ptr(80.0)}, false},
		{"sloped", m{"ground_slope": 0.5}, project.Settings{}, false},
	}
	for _, tc := range tests {
		p := draft(t, "r1")
		evs, err := p.RecordCalculation("r1", inputs(t, calculated), sum)
		apply(t, p, evs, err)
		run := maps.Clone(client)
		maps.Copy(run, tc.change)
		calculating := 0 // the hook where a save waits for a core
		err = saveCalculating(t, p, tc.settings, func(f func()) error { calculating++; f(); return nil }, project.SavedRun{ID: "r1", Name: "Run 1", Inputs: inputs(t, run)})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		r, _ := p.Run("r1")
		if _, marked := r.Summary["marker"]; marked != tc.reused {
			t.Errorf("%s: reused %v, want %v", tc.name, marked, tc.reused)
		}
		if want := map[bool]int{true: 0, false: 1}[tc.reused]; calculating != want {
			t.Errorf("%s: hook called %d times, want %d", tc.name, calculating, want)
		}
		if !tc.reused {
			want, err := SummaryOf(cat, inputs(t, run), tc.settings)
			if err != nil {
				t.Fatal(err)
			}
			if summaryJSON(t, r.Summary) != summaryJSON(t, want) {
				t.Errorf("%s: stored %s, want %s", tc.name, summaryJSON(t, r.Summary), summaryJSON(t, want))
			}
		}
	}
}

func ptr[T any](v T) *T { return &v }

// The hook runs each calculation a save makes, and its error ends the save
// with nothing changed.
func TestSaveCalculatingHook(t *testing.T) {
	t.Parallel()
	runs := []project.SavedRun{
		{ID: "r1", Name: "Run 1", Inputs: inputs(t, body(t, standardBody, nil))},
		{ID: "r2", Name: "Run 2", Inputs: inputs(t, body(t, standardBody, m{"channel_length_m": 30}))},
	}
	p := draft(t, "r1", "r2")
	calls := 0
	if err := saveCalculating(t, p, project.Settings{}, func(f func()) error { calls++; f(); return nil }, runs...); err != nil || calls != 2 {
		t.Fatalf("save of two new runs: %v, hook called %d times, want twice", err, calls)
	}
	for _, id := range []string{"r1", "r2"} {
		if r, _ := p.Run(id); len(r.Summary) == 0 {
			t.Errorf("run %s saved without the summary its hook calculated", id)
		}
	}
	busy := errors.New("no core free")
	p = draft(t, "r1", "r2")
	before := p.Version
	if err := saveCalculating(t, p, project.Settings{}, func(func()) error { return busy }, runs...); !errors.Is(err, busy) || p.Version != before {
		t.Fatalf("save refused by its hook: %v, version %d from %d", err, p.Version, before)
	}
}

// Two runs sharing a trash box: the fed run is recalculated with its feeder,
// and reused only while the feeder is too.
func TestSaveSharedRuns(t *testing.T) {
	t.Parallel()
	cat := catalogue.Default()
	a := body(t, exampleBody, m{"outflowTrashbox": "b"})
	b := body(t, standardBody, m{"channel_length_m": 30, "drainage_area_m2": 300, "accessories": []m{{"type": "trash-box", "distance_m": 10}}})
	shared := func(a, b map[string]any) *SharedAnswer {
		t.Helper()
		ra, rb := decoded(t, a), decoded(t, b)
		ra.RunID, rb.RunID = "a", "b"
		ans, err := CalculateShared(cat, &SharedRequest{Main: ra, Second: rb})
		if err != nil {
			t.Fatal(err)
		}
		return ans
	}
	runs := func(a, b map[string]any) []project.SavedRun {
		return []project.SavedRun{{ID: "a", Name: "Upstream", Inputs: inputs(t, a)}, {ID: "b", Name: "Downstream", Inputs: inputs(t, b)}}
	}

	p := draft(t, "a", "b")
	if err := save(t, p, project.Settings{}, runs(a, b)...); err != nil {
		t.Fatal(err)
	}
	want := shared(a, b)
	alone := mustCalc(t, b)
	if got := stored(t, p, "b", "channel_discharge"); got != want.Second.Results.ChannelDischarge || got == alone.ChannelDischarge {
		t.Errorf("fed run stored %v l/s; shared calculation %v, alone %v", got, want.Second.Results.ChannelDischarge, alone.ChannelDischarge)
	}
	if got := stored(t, p, "a", "channel_discharge"); got != want.Main.Results.ChannelDischarge {
		t.Errorf("feeding run stored %v l/s, want %v", got, want.Main.Results.ChannelDischarge)
	}

	// Held calculations are reused while neither run changes...
	for _, id := range []string{"a", "b"} {
		r, _ := p.Run(id)
		marked := maps.Clone(r.Summary)
		marked["marker"] = json.RawMessage("1")
		evs, err := p.RecordCalculation(id, r.Inputs, marked)
		apply(t, p, evs, err)
	}
	if err := save(t, p, project.Settings{}, runs(a, b)...); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"a", "b"} {
		if r, _ := p.Run(id); r.Summary["marker"] == nil {
			t.Errorf("run %s recalculated though nothing changed", id)
		}
	}
	// ...and a change of the feeder recalculates the fed run too.
	a2 := body(t, exampleBody, m{"outflowTrashbox": "b", "drainage_area_m2": 400})
	if err := save(t, p, project.Settings{}, runs(a2, b)...); err != nil {
		t.Fatal(err)
	}
	want = shared(a2, b)
	if r, _ := p.Run("b"); r.Summary["marker"] != nil || stored(t, p, "b", "channel_discharge") != want.Second.Results.ChannelDischarge {
		t.Errorf("fed run after its feeder changed: marker %s, %s l/s, want %v", r.Summary["marker"], r.Summary["channel_discharge"], want.Second.Results.ChannelDischarge)
	}

	// Runs that cannot be checked on their own refuse the save clearly.
	c := body(t, exampleBody, m{"outflowTrashbox": "b"})
	refusals := []struct {
		name string
		runs []project.SavedRun
		want string
	}{
		{"save as new", []project.SavedRun{{Name: "Upstream", Inputs: inputs(t, a)}, {Name: "Downstream", Inputs: inputs(t, b)}},
			`The results of run "Upstream" depend on the outflow of a run this save does not identify`},
		{"fed from outside", []project.SavedRun{{ID: "b", Name: "Downstream", Inputs: inputs(t, body(t, standardBody, m{"inflows": []m{{"distance_m": 5, "source": "gone"}}}))}},
			`The results of run "Downstream" depend on the outflow of a run this save does not identify`},
		{"two feeders", append(runs(a, b), project.SavedRun{ID: "c", Name: "Other", Inputs: inputs(t, c)}),
			`Run "Downstream" takes the outflow of more than one run`},
	}
	for _, tc := range refusals {
		q := draft(t, "a", "b", "c")
		var ve *project.ValidationError
		if err := save(t, q, project.Settings{}, tc.runs...); !errors.As(err, &ve) || !strings.HasPrefix(ve.Message, tc.want) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

func TestSummaryOf(t *testing.T) {
	t.Parallel()
	cat := catalogue.Default()
	got, err := SummaryOf(cat, inputs(t, body(t, standardBody, m{"rainfall": nil})), project.Settings{DefaultRainfall: ptr(50.0)})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Summary(mustCalc(t, body(t, standardBody, nil)))
	if summaryJSON(t, got) != summaryJSON(t, want) {
		t.Errorf("summary %s\nwant %s", summaryJSON(t, got), summaryJSON(t, want))
	}
	var ve *ValidationError
	if _, err := SummaryOf(cat, inputs(t, body(t, standardBody, m{"channel_group": nil})), project.Settings{}); !errors.As(err, &ve) {
		t.Errorf("run without a system: %v", err)
	}
}
