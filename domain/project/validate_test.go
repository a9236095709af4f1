package project

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"strings"
	"testing"
)

// clientRun is a run as the design form holds it: engine fields, the
// screen-only ones, and fields the form has emptied (null).
func clientRun() Inputs {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(`{
		"location": "Yard", "channel_group": "poly-100",
		"selectedSystem": {"slug": "poly-100", "name": "Poly 100", "product_type": "S", "loading_classes": ["A15", "C250"],
			"gratings": [{"slug": "poly-100-slot-iron", "loading_classes": ["C250"], "length_mm": 500}], "canStep": true,
			"minimumSizeOptions": [100], "pipeDiameters": {}, "grated": true},
		"loading": "C250", "grating": "poly-100-slot-iron", "catchmentShape": "uniform",
		"channel_length_m": 20, "catchment_depth_m": 5, "drainage_area_m2": 200, "calculation_method": "GVF",
		"slopeSetting": "elevation", "ground_slope": 2.5, "upperElevation": 10.5, "lowerElevation": 10,
		"permeability": 0.9, "permeabilitySurface": "asphalt", "stepped": false, "minimumSize": 100,
		"rainfall": {"rainfall_mm_per_hr": 62.5, "town": "Leeds", "intensities": [[5, 120], [60, 30]], "return_period": 30,
			"fiveMinuteRate": 120, "fifteenMinuteRate": 70, "sixtyMinuteRate": 30, "region": "England and Wales"},
		"pipe_diameter_mm": null, "has_body_extension": false, "water_inflow": null,
		"dischargeSetting": "outflow-in-trashbox", "outflowTrashbox": 12, "controlled_outflow": 0,
		"controlled_discharge": {"flooded": false, "storms": [1, 2]},
		"controlled_discharge_details": {"channel": "poly-hicap-150-600", "channel_name": "High-Capacity 150 H600", "max_depth_mm": 464.7, "orifice_diameter_mm": 37.9},
		"inflows": [{"id": 1, "distance_m": 5, "source": "", "flow_lps": 2, "connection": "direct-pipe", "toBeConfirmed": false}],
		"accessories": [{"id": "a1", "distance_m": 0, "type": "trash-box", "product": 12, "toBeConfirmed": true}],
		"leftAreas": [{"xOrigin": 0, "length_m": 10, "start_width_m": 1, "end_width_m": 2, "permeability": "Asphalt"},
			{"length_m": 10, "start_width_m": 1, "end_width_m": 2, "permeability": 0.5, "permeability_value": 0.5}],
		"concreteChannel": {"width": 100, "depth": 300, "roughness": 0.013},
		"channels": {"poly-100-01": 1, "poly-100-02": 9},
		"advanced_design": {"channels": [{"slug": "poly-100-01", "count": 1}], "head_cutting": {"distance_in_mm": 0, "angle_deg": 90}},
		"drilling": {"position": "bottom", "hole_distance_mm": 150, "hole_diameter_mm": 50},
		"headCutting": {"distance_in_mm": 100, "angle_deg": 45, "cut_from_left": true},
		"advanced": false, "built_in_fall": false, "pipe_slope": 1
	}`), &m); err != nil {
		panic(err)
	}
	return InputsFrom(m)
}

func with(in Inputs, key, value string) Inputs {
	out := maps.Clone(in)
	out[key] = json.RawMessage(value)
	return out
}

func TestValidateInputs(t *testing.T) {
	t.Parallel()
	if err := ValidateInputs(clientRun()); err != nil {
		t.Fatalf("a run as the client holds it: %v", err)
	}
	if err := ValidateInputs(Inputs{}); err != nil {
		t.Fatalf("no inputs: %v", err)
	}
	nulls := Inputs{}
	for _, k := range EngineFields() {
		nulls[k] = json.RawMessage("null")
	}
	if err := ValidateInputs(nulls); err != nil {
		t.Fatalf("every field emptied: %v", err)
	}
	tests := []struct {
		field, value string
		want         string // part of the message
	}{
		{"channel_length_m", `"abc"`, `Field "channel_length_m" must be a number, not a string`},
		{"channel_length_m", `"12.5"`, `Field "channel_length_m" must be a number, not a string`},
		{"channel_length_m", `-1e308`, `Field "channel_length_m" must be between 0 and 10000 m, not -1e+308`},
		{"channel_length_m", `1e400`, `Field "channel_length_m" must be a finite number`},
		{"drainage_area_m2", `1e12`, `Field "drainage_area_m2" must be between 0 and 1e+09 m²`},
		{"drainage_area_m2", `true`, `Field "drainage_area_m2" must be a number, not true or false`},
		{"ground_slope", `"NaN"`, `Field "ground_slope" must be a number, not a string`},
		{"ground_slope", `-1e9`, `Field "ground_slope" must be between -100000 and 100000 %`},
		{"upperElevation", `[1]`, `Field "upperElevation" must be a number, not a list`},
		{"permeability", `1.5`, `Field "permeability" must be between 0 and 1`},
		{"rainfall", `50`, `Field "rainfall" must be a JSON object, not a number`},
		{"rainfall", `{"rainfall_mm_per_hr": -5}`, `Field "rainfall.rainfall_mm_per_hr" must be between 0 and 10000 mm/h, not -5`},
		{"rainfall", `{"rainfall_mm_per_hr": "Infinity"}`, `Field "rainfall.rainfall_mm_per_hr" must be a number`},
		{"calculation_method", `"XYZ"`, `Field "calculation_method" must be one of GVF, HRW, Manning, not "XYZ"`},
		{"calculation_method", `3`, `Field "calculation_method" must be a string, not a number`},
		{"slopeSetting", `"up"`, `Field "slopeSetting" must be one of slope, elevation`},
		{"catchmentShape", `"round"`, `Field "catchmentShape" must be one of uniform, irregular`},
		{"dischargeSetting", `"into-the-sea"`, `Field "dischargeSetting" must be one of free-outflow, outflow-in-trashbox`},
		{"loading", `"Z999"`, `Field "loading" must be one of A15, B125`},
		{"selectedSystem", `{"slug": 5}`, `Field "selectedSystem.slug" must be a string, not a number`},
		{"selectedSystem", `"poly-100"`, `Field "selectedSystem" must be a JSON object, not a string`},
		{"channel_group", `"` + strings.Repeat("x", 101) + `"`, `Field "channel_group" must have at most 100 characters`},
		{"stepped", `"yes"`, `Field "stepped" must be true or false, not a string`},
		{"grating", `{}`, `Field "grating" must be a string or a number, not a JSON object`},
		{"outflowTrashbox", `-3`, `Field "outflowTrashbox" must be between 0 and 100000`},
		{"concreteChannel", `{"width": 100.5}`, `Field "concreteChannel.width" must be a whole number`},
		{"concreteChannel", `{"roughness": 2}`, `Field "concreteChannel.roughness" must be between 0 and 0.2`},
		{"inflows", `[{"flow_lps": 1}, {"flow_lps": "x"}]`, `Field "inflows[1].flow_lps" must be a number, not a string`},
		{"inflows", `[{"connection": "teleport"}]`, `Field "inflows[0].connection" must be one of direct-pipe`},
		{"inflows", `[` + strings.TrimSuffix(strings.Repeat(`{},`, MaxItems+1), ",") + `]`, `Field "inflows" may hold at most 1000 items`},
		{"accessories", `[{"type": "rocket"}]`, `Field "accessories[0].type" must be one of trash-box`},
		{"accessories", `{"type": "trash-box"}`, `Field "accessories" must be a list, not a JSON object`},
		{"leftAreas", `[{"permeability": "lava"}]`, `Field "leftAreas[0].permeability" must be one of`},
		{"rightAreas", `[{"start_width_m": -1}]`, `Field "rightAreas[0].start_width_m" must be between 0 and 100000 m`},
		{"channels", `{"poly-100-01": 1.5}`, `Field "channels.poly-100-01" must be a whole number`},
		{"channels", `[{"slug": "a", "used": -1}]`, `Field "channels[0].used" must be between 0 and 20000`},
		{"channels", `"poly-100-01"`, `Field "channels" must be a list or a JSON object, not a string`},
		{"advanced_design", `{"drilling": {"position": "top"}}`, `Field "advanced_design.drilling.position" must be one of bottom, leftWall, rightWall`},
		{"headCutting", `{"angle_deg": 120}`, `Field "headCutting.angle_deg" must be between 0 and 90 °`},
		{"pipe_slope", `101`, `Field "pipe_slope" must be between 0 and 100 %`},
		{"controlled_discharge_details", `"250 H750"`, `Field "controlled_discharge_details" must be a JSON object, not a string`},
		{"controlled_discharge_details", `{"channel": 7}`, `Field "controlled_discharge_details.channel" must be a string, not a number`},
		{"controlled_discharge_details", `{"orifice_diameter_mm": -1}`, `Field "controlled_discharge_details.orifice_diameter_mm" must be between 0 and 10000 mm`},
		{"rainfall", `{"fiveMinuteRate": "fast"}`, `Field "rainfall.fiveMinuteRate" must be a number, not a string`},
		{"rainfall", `{"sixtyMinuteRate": 1e6}`, `Field "rainfall.sixtyMinuteRate" must be between 0 and 10000 mm/h`},
		{"water_inflow", `-0.1`, `Field "water_inflow" must be between 0 and 100000 l/s`},
		{"location", `[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]`, `Field "location" is nested more than 16 levels deep`},
		{"", `1`, `Input field names must have 1 to 100 characters`},
		// The calculation's decoder matches field names ignoring case.
		{"ConcreteChannel", `"wide"`, `Field "ConcreteChannel" must be a JSON object, not a string`},
		{"rainfall", `{"RAINFALL_MM_PER_HR": "x"}`, `Field "rainfall.RAINFALL_MM_PER_HR" must be a number, not a string`},
	}
	for _, tc := range tests {
		err := ValidateInputs(with(clientRun(), tc.field, tc.value))
		var ve *ValidationError
		if !errors.As(err, &ve) || !strings.Contains(ve.Message, tc.want) {
			t.Errorf("%s = %.40s: got %v, want %q", tc.field, tc.value, err, tc.want)
		}
	}
}

// Screen-only fields may hold anything within the size limits; the client
// gets them back as sent.
func TestScreenFieldsKept(t *testing.T) {
	t.Parallel()
	in := with(clientRun(), "permeabilitySurface", `{"any": ["shape", 1, true, null]}`)
	in = with(in, "selectedSystem", `{"slug": "poly-100", "extra": {"deep": [1, 2, 3]}}`)
	if err := ValidateInputs(in); err != nil {
		t.Fatal(err)
	}
	p := newProject(t)
	evs, err := p.ChangeInputs("r1", in)
	apply(t, p, evs, err)
	r, _ := p.Run("r1")
	for _, k := range []string{"permeabilitySurface", "selectedSystem", "controlled_discharge", "location"} {
		if string(r.Inputs[k]) != string(canonical(in[k])) {
			t.Errorf("%s stored as %s, sent %s", k, r.Inputs[k], in[k])
		}
	}
}

func TestInputsTooLarge(t *testing.T) {
	t.Parallel()
	big := with(clientRun(), "location", `"`+strings.Repeat("x", MaxInputsBytes)+`"`)
	many := clientRun()
	for i := range MaxInputFields {
		many[fmt.Sprintf("extra%d", i)] = json.RawMessage("1")
	}
	for name, in := range map[string]Inputs{"64 KB": big, "fields": many} {
		var tl *TooLargeError
		if err := ValidateInputs(in); !errors.As(err, &tl) {
			t.Errorf("%s: got %v, want a TooLargeError", name, err)
		}
	}
	// Just under the limit passes.
	in := clientRun()
	in["location"] = json.RawMessage(`""`)
	in["location"] = json.RawMessage(`"` + strings.Repeat("x", MaxInputsBytes-inputsSize(in)-2) + `"`)
	if err := ValidateInputs(in); err != nil {
		t.Errorf("inputs of %d bytes: %v", inputsSize(in), err)
	}
}

// Every command taking inputs refuses bad ones and changes nothing.
func TestCommandsRefuseBadInputs(t *testing.T) {
	t.Parallel()
	bad := map[string]Inputs{
		"abc":          with(channelRun(), "channel_length_m", `"abc"`),
		"-1e308":       with(channelRun(), "drainage_area_m2", `-1e308`),
		"not finite":   with(channelRun(), "channel_length_m", `1e999`),
		"NaN":          with(channelRun(), "ground_slope", `"NaN"`),
		"huge":         with(channelRun(), "rainfall", `{"rainfall_mm_per_hr": 1e300}`),
		"unknown enum": with(channelRun(), "calculation_method", `"Darcy"`),
		"too large":    with(channelRun(), "notes_of_mine", `"`+strings.Repeat("y", MaxInputsBytes)+`"`),
	}
	for name, in := range bad {
		p := newProject(t)
		evs, err := p.RecordCalculation("r1", channelRun(), Summary{"overflowed": raw(false)})
		apply(t, p, evs, err)
		before, _ := json.Marshal(p.Runs)
		commands := map[string]func() ([]Event, error){
			"change inputs":      func() ([]Event, error) { return p.ChangeInputs("r1", in) },
			"record calculation": func() ([]Event, error) { return p.RecordCalculation("r1", in, Summary{}) },
			"record failure":     func() ([]Event, error) { return p.RecordFailure("r1", in, "no channel") },
			"save": func() ([]Event, error) {
				evs, _, err := p.Save(Content{Details: Details{Name: "A"}, Runs: []SavedRun{{ID: "r1", Name: "Run 1", Inputs: in}}}, SaveBy{}, counter(), verifier())
				return evs, err
			},
		}
		for cmd, run := range commands {
			evs, err := run()
			var ve *ValidationError
			var tl *TooLargeError
			if len(evs) != 0 || !(errors.As(err, &ve) || errors.As(err, &tl)) {
				t.Errorf("%s with %s: %d events, %v", cmd, name, len(evs), err)
			}
			if (name == "too large") != errors.As(err, &tl) {
				t.Errorf("%s with %s: %T, want the too-large error only for size", cmd, name, err)
			}
		}
		if after, _ := json.Marshal(p.Runs); string(after) != string(before) {
			t.Errorf("%s changed the project", name)
		}
	}
}

// A run holding a value stored before the rules still takes edits of its
// other fields; a run stored over the size limit takes only edits that do
// not make it larger, until it is back under the limit.
func TestOldValuesDoNotBlockEdits(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Apply(RunInputsChanged{RunID: "r1", Changed: Inputs{"channel_length_m": raw("20")}})
	evs, err := p.ChangeInputs("r1", Inputs{"drainage_area_m2": raw(50)})
	apply(t, p, evs, err)

	p.Apply(RunInputsChanged{RunID: "r1", Changed: Inputs{"blob": raw(strings.Repeat("z", MaxInputsBytes))}})
	var tl *TooLargeError
	if _, err := p.ChangeInputs("r1", Inputs{"drainage_area_m2": raw(600)}); !errors.As(err, &tl) {
		t.Fatalf("growing a run over the limit: %v", err)
	}
	evs, err = p.ChangeInputs("r1", Inputs{"drainage_area_m2": raw(70)})
	apply(t, p, evs, err) // the same size
	evs, err = p.ChangeInputs("r1", Inputs{"blob": raw(strings.Repeat("z", MaxInputsBytes/2))})
	apply(t, p, evs, err)
	evs, err = p.ChangeInputs("r1", Inputs{"drainage_area_m2": raw(600)})
	apply(t, p, evs, err)
	if _, err := p.ChangeInputs("r1", Inputs{"blob2": raw(strings.Repeat("z", MaxInputsBytes))}); !errors.As(err, &tl) {
		t.Fatalf("growing past the limit: %v", err)
	}
}

func TestChangeDetails(t *testing.T) {
	t.Parallel()
	rain := func(v float64) *float64 { return &v }
	long := strings.Repeat("é", MaxTextLength+1)
	tests := []struct {
		name  string
		saved bool
		d     Details
		s     Settings
		notes string
		want  string // "" accepts
	}{
		{"draft without a name", false, Details{}, Settings{}, "", ""},
		{"saved without a name", true, Details{Name: "  "}, Settings{}, "", "The project needs a name"},
		{"saved with a name", true, Details{Name: "Depot"}, Settings{RainfallUnits: "l/s/m2", DefaultRainfall: rain(62.5)}, "n", ""},
		{"name too long", false, Details{Name: long}, Settings{}, "", "The project name may have at most 200 characters"},
		{"e-mail too long", false, Details{Email: long}, Settings{}, "", "The e-mail address may have at most 200 characters"},
		{"200 characters", false, Details{Company: long[:2*MaxTextLength]}, Settings{}, "", ""},
		{"notes too long", false, Details{}, Settings{}, strings.Repeat("n", MaxNotesLength+1), "The project notes may have at most 10000 characters"},
		{"unknown units", false, Details{}, Settings{RainfallUnits: "furlongs"}, "", "The rainfall units must be one of mm/h, l/s/m2, l/(s*ha)"},
		{"negative rainfall", false, Details{}, Settings{DefaultRainfall: rain(-1e308)}, "", "The default rainfall must be between 0 and 10000 mm/h"},
		{"rainfall too high", false, Details{}, Settings{DefaultRainfall: rain(10001)}, "", "The default rainfall must be between 0 and 10000 mm/h"},
		{"not a number", false, Details{}, Settings{DefaultRainfall: rain(math.NaN())}, "", "The default rainfall must be between 0 and 10000 mm/h"},
		{"freeboard margin", false, Details{}, Settings{FreeboardMinMM: rain(30), FreeboardMinPercent: rain(0)}, "", ""},
		{"negative freeboard margin", false, Details{}, Settings{FreeboardMinMM: rain(-1)}, "", "The freeboard margin must be between 0 and 1000 mm"},
		{"freeboard margin not a number", false, Details{}, Settings{FreeboardMinMM: rain(math.NaN())}, "", "The freeboard margin must be between 0 and 1000 mm"},
		{"freeboard percent over 100", false, Details{}, Settings{FreeboardMinPercent: rain(100.5)}, "", "The freeboard margin must be between 0 and 100 % of the channel depth"},
	}
	for _, tc := range tests {
		p := newProject(t)
		if tc.saved {
			evs, _, err := p.Save(Content{Details: Details{Name: "Old"}, Runs: []SavedRun{savedRun("r1", "Run 1", 5)}}, SaveBy{}, counter(), verifier())
			apply(t, p, evs, err)
		}
		before := p.Version
		evs, err := p.ChangeDetails(tc.d, tc.s, tc.notes)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Message != tc.want || len(evs) != 0 || p.Version != before {
			t.Errorf("%s: %d events, %v; want %q", tc.name, len(evs), err, tc.want)
		}
	}
}

func TestRunLimits(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	for i := 2; i <= MaxRuns; i++ {
		evs, err := p.AddRun(fmt.Sprintf("r%d", i))
		apply(t, p, evs, err)
	}
	var ve *ValidationError
	if _, err := p.AddRun("one-too-many"); !errors.As(err, &ve) || ve.Message != "A project holds at most 100 runs" {
		t.Errorf("run %d: %v", MaxRuns+1, err)
	}
	evs, err := p.RecordCalculation("r1", channelRun(), Summary{})
	apply(t, p, evs, err)
	if _, err := p.Duplicate("r1", "copy"); !errors.As(err, &ve) {
		t.Errorf("duplicate beyond the limit: %v", err)
	}

	q := newProject(t)
	if _, err := q.Rename("r1", strings.Repeat("x", MaxTextLength+1)); !errors.As(err, &ve) || ve.Message != "A run name may have at most 200 characters" {
		t.Errorf("long run name: %v", err)
	}
	if _, err := q.ChangeNotes("r1", strings.Repeat("x", MaxNotesLength+1)); !errors.As(err, &ve) || ve.Message != "A run's notes may have at most 10000 characters" {
		t.Errorf("long run notes: %v", err)
	}

	runs := make([]SavedRun, MaxRuns+1)
	for i := range runs {
		runs[i] = savedRun("", fmt.Sprintf("Run %d", i+1), 5)
	}
	cases := map[string]Content{
		"too many runs":  {Details: Details{Name: "A"}, Runs: runs},
		"blank run name": {Details: Details{Name: "A"}, Runs: []SavedRun{savedRun("", " ", 5)}},
		"long run name":  {Details: Details{Name: "A"}, Runs: []SavedRun{savedRun("", strings.Repeat("x", MaxTextLength+1), 5)}},
		"long run notes": {Details: Details{Name: "A"}, Runs: []SavedRun{{Name: "Run 1", Notes: strings.Repeat("x", MaxNotesLength+1), Inputs: channelRun()}}},
		"bad units":      {Details: Details{Name: "A"}, Settings: Settings{RainfallUnits: "inches"}, Runs: []SavedRun{savedRun("", "Run 1", 5)}},
	}
	for name, c := range cases {
		if evs, _, err := q.Save(c, SaveBy{}, counter(), verifier()); !errors.As(err, &ve) || len(evs) != 0 {
			t.Errorf("save with %s: %v", name, err)
		}
	}
}

// A save's input errors name the run.
func TestSaveNamesTheRun(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	c := Content{Details: Details{Name: "A"}, Runs: []SavedRun{savedRun("", "Run 1", 5), {Name: "Yard", Inputs: with(channelRun(), "loading", `"Q1"`)}}}
	var ve *ValidationError
	if _, _, err := p.Save(c, SaveBy{}, counter(), verifier()); !errors.As(err, &ve) || !strings.HasPrefix(ve.Message, `Run "Yard": Field "loading" must be one of`) {
		t.Fatalf("got %v", err)
	}
	c.Runs[1].Inputs = with(channelRun(), "blob", `"`+strings.Repeat("b", MaxInputsBytes)+`"`)
	var tl *TooLargeError
	if _, _, err := p.Save(c, SaveBy{}, counter(), verifier()); !errors.As(err, &tl) || !strings.HasPrefix(tl.Message, `Run "Yard": A run's inputs may take at most 64 KB`) {
		t.Fatalf("got %v", err)
	}
}

// The verifier is offered the project's own calculation of exactly the runs
// the save keeps calculated.
func TestSaveOffersHeldCalculations(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	evs, err := p.AddRun("r2")
	apply(t, p, evs, err)
	evs, err = p.RecordCalculation("r1", channelRun(), Summary{"mine": raw(1)})
	apply(t, p, evs, err)
	evs, err = p.ChangeInputs("r2", channelRun())
	apply(t, p, evs, err)
	c := Content{Details: Details{Name: "A"}, Runs: []SavedRun{savedRun("r1", "Run 1", 20), savedRun("r2", "Run 2", 20), savedRun("r9", "New", 20)}}
	var offered []int
	var heldSummary Summary
	_, _, err = p.Save(c, SaveBy{}, counter(), func(c Content, held func(int) (Held, bool)) ([]Summary, error) {
		out := make([]Summary, len(c.Runs))
		for i := range c.Runs {
			if h, ok := held(i); ok {
				offered = append(offered, i)
				heldSummary = h.Summary
			}
			out[i] = Summary{}
		}
		return out, nil
	})
	if err != nil || !reflect.DeepEqual(offered, []int{0}) || string(heldSummary["mine"]) != "1" {
		t.Fatalf("offered %v (%v), %v", offered, heldSummary, err)
	}
	// A verifier's own refusal is passed on as it is.
	refusal := &ValidationError{Message: "cannot check"}
	if _, _, err := p.Save(c, SaveBy{}, counter(), func(Content, func(int) (Held, bool)) ([]Summary, error) { return nil, refusal }); !errors.Is(err, refusal) {
		t.Fatalf("verifier refusal became %v", err)
	}
}

func TestEffective(t *testing.T) {
	t.Parallel()
	rain := 62.5
	got := Effective(Inputs{"channel_length_m": raw(20), "water_inflow": raw(nil), "calculation_method": raw("HRW")}, Settings{DefaultRainfall: &rain})
	want := map[string]string{
		"channel_length_m": "20", "calculation_method": `"HRW"`, "rainfall": `{"rainfall_mm_per_hr":62.5}`,
		"catchmentShape": `"uniform"`, "slopeSetting": `"slope"`, "ground_slope": "0", "permeability": "1",
		"permeabilitySurface": `"concretePavement"`, "stepped": "false", "dischargeSetting": `"free-outflow"`, "location": `""`,
	}
	if len(got) != len(want) {
		t.Fatalf("effective inputs %s", got)
	}
	for k, v := range want {
		if string(got[k]) != v {
			t.Errorf("%s = %s, want %s", k, got[k], v)
		}
	}
	zero := 0.0
	if r := Effective(Inputs{}, Settings{DefaultRainfall: &zero}); string(r["rainfall"]) != `{"rainfall_mm_per_hr":50}` {
		t.Errorf("no project default: %s", r["rainfall"])
	}
	if r := Effective(Inputs{"rainfall": raw(map[string]int{"rainfall_mm_per_hr": 0})}, Settings{}); string(r["rainfall"]) != `{"rainfall_mm_per_hr":0}` {
		t.Errorf("the run's own rainfall is kept: %s", r["rainfall"])
	}
}

// FuzzValidateInputs: the validator never panics, and inputs it accepts are
// accepted again after a round trip through the store's encoding, with the
// defaults filled in, and as a change of every field.
func FuzzValidateInputs(f *testing.F) {
	seed, _ := json.Marshal(clientRun())
	for _, s := range []string{string(seed), `{}`, `{"channel_length_m": "abc"}`, `{"channel_length_m": -1e308}`,
		`{"rainfall": {"rainfall_mm_per_hr": 1e999}}`, `{"channels": {"a": 1, "b": 2.5}}`, `{"inflows": [{"flow_lps": null}, 3]}`,
		`{"leftAreas": [{"permeability": "GRAVEL"}]}`, `{"loading": " c250 "}`, `{"x": [[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var m map[string]json.RawMessage
		if json.Unmarshal(data, &m) != nil {
			return
		}
		in := InputsFrom(m)
		err := ValidateInputs(in)
		_ = Readiness(in)
		if err != nil {
			var ve *ValidationError
			var tl *TooLargeError
			if !errors.As(err, &ve) && !errors.As(err, &tl) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		stored, err := json.Marshal(in)
		if err != nil {
			t.Fatalf("accepted inputs do not encode: %v", err)
		}
		var back map[string]json.RawMessage
		if err := json.Unmarshal(stored, &back); err != nil {
			t.Fatal(err)
		}
		if err := ValidateInputs(InputsFrom(back)); err != nil {
			t.Fatalf("accepted inputs refused after a round trip: %v", err)
		}
		if len(in) < MaxInputFields-20 && inputsSize(in) < MaxInputsBytes-1024 {
			if err := ValidateInputs(Effective(in, Settings{})); err != nil {
				t.Fatalf("effective inputs refused: %v", err)
			}
		}
		p := FromEvents(New("p", "u", "u", "GB", now))
		p.Apply(RunAdded{RunID: "r", Name: "Run 1"})
		if _, err := p.ChangeInputs("r", in); err != nil {
			t.Fatalf("accepted inputs refused as a change: %v", err)
		}
	})
}

// A rainfall read off the UK map, as the client stores it, is valid: its
// climate uplift is a percentage (the map offers 0, 10, 20, 40).
func TestMapRainfallIsValid(t *testing.T) {
	in := InputsFrom(map[string]json.RawMessage{"rainfall": json.RawMessage(`{"rainfall_mm_per_hr": 61.2, "location_id": 1234,
		"location_index": "SE3406", "town": "Barnsley", "override": false, "return_period": 30, "climate_change_factor": 40,
		"storm_duration": 30, "r": 0.41, "M5": 19.5, "intensities": [[5, 150.1], [60, 30.2]], "region": "england-wales",
		"latlng": {"lat": 53.55, "lng": -1.48}}`)})
	if err := ValidateInputs(in); err != nil {
		t.Fatalf("map rainfall refused: %v", err)
	}
	in["rainfall"] = json.RawMessage(`{"rainfall_mm_per_hr": 61.2, "climate_change_factor": 400}`)
	if err := ValidateInputs(in); err == nil {
		t.Fatal("a 400 % climate uplift was accepted")
	}
}
