package design

import (
	"errors"
	"strings"
	"testing"
)

type m = map[string]any

// Every validation rule of design-tool.md section 5 answers with its
// message, and the request that breaks it is otherwise valid: undoing the
// patch makes it calculate (TestValidationBasesCalculate).
func TestValidationMessages(t *testing.T) {
	t.Parallel()
	hicap := `{"channel_group": "poly-hicap", "loading": "C250", "channel_length_m": 20, "drainage_area_m2": 200,
		"rainfall": {"rainfall_mm_per_hr": 50}}`
	gully := `{"channel_group": "gully-300", "drainage_area_m2": 200, "rainfall": {"rainfall_mm_per_hr": 50}}`
	advanced := `{"advanced": true, "channel_group": "poly-100", "loading": "C250", "grating": "poly-100-slot-iron",
		"channel_length_m": 20, "drainage_area_m2": 200, "rainfall": {"rainfall_mm_per_hr": 50},
		"advanced_design": {"channels": [{"slug": "poly-100-10-0", "count": 20}]}}`
	cases := []struct {
		name  string
		base  string
		patch m
		field string
		want  string
	}{
		{"no system", exampleBody, m{"channel_group": ""}, "channel_group", MsgNoSystem},
		{"unknown system", exampleBody, m{"channel_group": "marble"}, "channel_group", `Unknown drainage system "marble"`},
		{"no rainfall", exampleBody, m{"rainfall": m{"rainfall_mm_per_hr": 0}}, "rainfall", MsgNoRainfall},
		{"negative rainfall", exampleBody, m{"rainfall": m{"rainfall_mm_per_hr": -3}}, "rainfall", MsgNoRainfall},
		{"rainfall missing", exampleBody, m{"rainfall": nil}, "rainfall", MsgNoRainfall},
		{"no loading", standardBody, m{"loading": ""}, "loading", MsgNoLoading},
		{"loading not offered", standardBody, m{"loading": "E600"}, "loading", "The Polymer 100 system is not made for loading class E600"},
		{"no grating", standardBody, m{"grating": nil}, "grating", MsgNoGrating},
		{"grating of another system", standardBody, m{"grating": "fibre-std-mesh"}, "grating",
			`Grating "fibre-std-mesh" is not offered for the Polymer 100 system at loading C250`},
		{"grating not for the loading", standardBody, m{"grating": "poly-100-slot-galv"}, "grating",
			`Grating "poly-100-slot-galv" is not offered for the Polymer 100 system at loading C250`},
		{"no area", exampleBody, m{"drainage_area_m2": 0}, "drainage_area_m2", MsgNoArea},
		{"area missing", exampleBody, m{"drainage_area_m2": nil}, "drainage_area_m2", MsgNoArea},
		{"area of 100000", exampleBody, m{"drainage_area_m2": 100000}, "drainage_area_m2",
			"The catchment area is too large: it is over 99999 m² by 1 m²"},
		{"area of 150000.5", exampleBody, m{"drainage_area_m2": 150000.5}, "drainage_area_m2",
			"The catchment area is too large: it is over 99999 m² by 50001.5 m²"},
		{"point product area", gully, m{"drainage_area_m2": 0}, "drainage_area_m2", MsgNoArea},
		{"pipe diameter not offered", gully, m{"pipe_diameter_mm": 125}, "pipe_diameter_mm", "The pipe diameter must be one of 110, 160 mm"},
		{"concrete width 0", exampleBody, m{"concreteChannel": m{"width": 0, "depth": 300}}, "concreteChannel", MsgConcreteSize},
		{"concrete depth negative", exampleBody, m{"concreteChannel": m{"width": 100, "depth": -1}}, "concreteChannel", MsgConcreteSize},
		{"concrete missing", exampleBody, m{"concreteChannel": nil}, "concreteChannel", MsgConcreteSize},
		{"concrete part mm", exampleBody, m{"concreteChannel": m{"width": 100.5, "depth": 300}}, "concreteChannel",
			"The concrete channel width and depth must be whole millimetres"},
		{"roughness too high", exampleBody, m{"concreteChannel": m{"width": 100, "depth": 300, "roughness": 0.21}}, "concreteChannel",
			"The concrete channel roughness must be between 0.00001 and 0.2"},
		{"roughness too low", exampleBody, m{"concreteChannel": m{"width": 100, "depth": 300, "roughness": 0.000001}}, "concreteChannel",
			"The concrete channel roughness must be between 0.00001 and 0.2"},
		{"no length", exampleBody, m{"channel_length_m": 0}, "channel_length_m", MsgNoLength},
		{"length over GVF", exampleBody, m{"channel_length_m": 3500, "drainage_area_m2": 1000}, "channel_length_m",
			"The channel length is over the GVF limit of 3000 m by 500 m"},
		{"length over HRW", exampleBody, m{"calculation_method": "HRW", "channel_length_m": 612.5, "drainage_area_m2": 1000}, "channel_length_m",
			"The channel length is over the HRW limit of 500 m by 112.5 m"},
		{"shorter than a piece", exampleBody, m{"channel_length_m": 0.05, "drainage_area_m2": 1}, "channel_length_m", "The channel length must be at least 0.1 m"},
		{"too steep for GVF", exampleBody, m{"ground_slope": 10}, "ground_slope",
			"The longitudinal slope of 10 % is too steep: the GVF maximum is 9.9 % (1 in 10)"},
		{"too steep for HRW", exampleBody, m{"calculation_method": "HRW", "ground_slope": 3.4}, "ground_slope",
			"The longitudinal slope of 3.4 % is too steep: the HRW maximum is 3.3 % (1 in 30)"},
		{"negative slope", exampleBody, m{"ground_slope": -0.5}, "ground_slope", "The longitudinal slope must not be negative"},
		{"uphill", exampleBody, m{"slopeSetting": "elevation", "upperElevation": 10, "lowerElevation": 10.2}, "upperElevation", MsgUphill},
		{"elevations too steep", exampleBody, m{"slopeSetting": "elevation", "upperElevation": 12, "lowerElevation": 10}, "upperElevation",
			"The elevations give a slope of 10 %, steeper than the GVF maximum of 9.9 % (1 in 10)"},
		{"elevations too steep for HRW", exampleBody, m{"calculation_method": "HRW", "slopeSetting": "elevation", "upperElevation": 10.7, "lowerElevation": 10}, "upperElevation",
			"The elevations give a slope of 3.5 %, steeper than the HRW maximum of 3.3 % (1 in 30)"},
		{"elevations missing", exampleBody, m{"slopeSetting": "elevation"}, "upperElevation", "Please give the upper and lower elevations"},
		{"area too large for the length", exampleBody, m{"channel_length_m": 2, "drainage_area_m2": 40000}, "drainage_area_m2", MsgAreaTooLarge},
		{"permeability above 1", exampleBody, m{"permeability": 1.5}, "permeability", "Permeability must be between 0 and 1"},
		{"stepped concrete", exampleBody, m{"stepped": true}, "stepped", MsgSteppedMaterial},
		{"stepped steel", standardBody, m{"channel_group": "steel", "grating": "steel-bar", "stepped": true}, "stepped", MsgSteppedMaterial},
		{"stepped steel, absurd rain", standardBody, m{"channel_group": "steel", "grating": "steel-bar", "stepped": true,
			"rainfall": m{"rainfall_mm_per_hr": 1e6}}, "stepped", MsgSteppedMaterial},
		{"stepped with controlled discharge", hicap, m{"stepped": true, "controlled_outflow": 5}, "stepped", MsgSteppedControlled},
		{"stepped with built-in fall", standardBody, m{"stepped": true, "built_in_fall": true}, "stepped", MsgSteppedBuiltInFall},
		{"stepped advanced built-in fall", advanced, m{"stepped": true, "advanced_design": m{"channels": []m{
			{"slug": "poly-100-01", "count": 1}, {"slug": "poly-100-20-0", "count": 19}}}}, "stepped", MsgSteppedBuiltInFall},
		{"controlled discharge elsewhere", standardBody, m{"controlled_outflow": 5}, "controlled_outflow",
			"Controlled discharge is not available for the Polymer 100 system"},
		{"no channels", advanced, m{"advanced_design": nil}, "channels", MsgSelectChannel},
		{"zero channels", advanced, m{"advanced_design": m{"channels": []m{{"slug": "poly-100-10-0", "count": 0}}}}, "channels", MsgSelectChannel},
		{"part channel", advanced, m{"advanced_design": m{"channels": []m{{"slug": "poly-100-10-0", "count": 2.5}}}}, "channels",
			"Channel counts must be whole numbers, 0 or more"},
		{"channel of another system", advanced, m{"channels": m{"steel-100-100": 20}, "advanced_design": nil}, "channels",
			`Channel "steel-100-100" is not of the Polymer 100 system`},
		{"trash box not chosen", advanced, m{"dischargeSetting": "outflow-in-trashbox"}, "outflowTrashbox", MsgChooseTrashBox},
		{"end cap not chosen", advanced, m{"dischargeSetting": "end-cap-with-outlet"}, "outflowEndcap", MsgChooseEndCap},
		{"no end-cap outlets", standardBody, m{"channel_group": "big-bls", "loading": "LCN50", "grating": "big-bls-slot",
			"dischargeSetting": "end-cap-with-outlet"}, "dischargeSetting", MsgNoEndCapOutlets},
		{"trash box on concrete", exampleBody, m{"dischargeSetting": "outflow-in-trashbox", "outflowTrashbox": 7.5}, "dischargeSetting",
			"Trash boxes are not available for concrete channels"},
		{"modification on the high-capacity system", hicap, m{"dischargeSetting": "modification-last-element"}, "dischargeSetting",
			"Modification of the last element is not available for the High-Capacity Slot system"},
		{"unknown discharge", exampleBody, m{"dischargeSetting": "into-the-river"}, "dischargeSetting", `Unknown discharge setting "into-the-river"`},
		{"accessory beyond the run", standardBody, m{"accessories": []m{{"type": "access-box", "distance_m": 25}}}, "accessories", MsgDistanceTooBig},
		{"inflow beyond the run", exampleBody, m{"inflows": []m{{"distance_m": 21, "flow_lps": 1}}}, "inflows",
			"The inflow at 21 m lies beyond the channel length of 20 m"},
		{"inflow without flow or source", exampleBody, m{"inflows": []m{{"distance_m": 5}}}, "inflows", "Inflow 1 needs a source or a flow rate"},
		{"too many inflows", exampleBody, m{"inflows": make([]m, 1001)}, "inflows", "A run takes at most 1000 inflows"},
		{"too many accessories", standardBody, m{"accessories": make([]m, 1001)}, "accessories", "A run takes at most 1000 accessories"},
		{"unknown method", exampleBody, m{"calculation_method": "Bernoulli"}, "calculation_method", `Unknown calculation method "Bernoulli": choose GVF or HRW`},
		{"unknown slope setting", exampleBody, m{"slopeSetting": "tilt"}, "slopeSetting", `Unknown slope setting "tilt": choose slope or elevation`},
		{"unknown catchment shape", exampleBody, m{"catchmentShape": "round"}, "catchmentShape", `Unknown catchment shape "round": choose uniform or irregular`},
		{"irregular area beyond the run", exampleBody, m{"catchmentShape": "irregular", "leftAreas": []m{{"length_m": 25, "start_width_m": 2, "end_width_m": 2}}},
			"leftAreas", "Catchment area 1 reaches 25 m, beyond the channel length of 20 m"},
		{"unknown surface", exampleBody, m{"catchmentShape": "irregular", "leftAreas": []m{{"length_m": 20, "start_width_m": 2, "end_width_m": 2, "permeability": "lava"}}},
			"leftAreas", `Catchment area 1: unknown surface "lava"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := calc(t, body(t, tc.base, tc.patch))
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("error %T %v, want a *ValidationError %q", err, err, tc.want)
			}
			if ve.Message != tc.want || ve.Field != tc.field {
				t.Errorf("got %s: %q\nwant %s: %q", ve.Field, ve.Message, tc.field, tc.want)
			}
		})
	}
}

// The bases the validation cases break are valid as they stand.
func TestValidationBasesCalculate(t *testing.T) {
	t.Parallel()
	for _, b := range []string{exampleBody, standardBody} {
		if res := mustCalc(t, body(t, b, nil)); !res.Calculated || res.Overflowed {
			t.Errorf("%s: %+v", b, res)
		}
	}
}

// Calculations that could not be designed are a *CalculationError with
// the product's message.
func TestCalculationFailures(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		base  string
		patch m
		want  string
	}{
		{"absurd rain", standardBody, m{"rainfall": m{"rainfall_mm_per_hr": 5000}}, MsgNoChannel},
		{"rain beyond the range", standardBody, m{"rainfall": m{"rainfall_mm_per_hr": 1e9}}, MsgNoChannel},
		{"minimum size above the range", standardBody, m{"minimumSize": 200}, MsgNoChannel},
		{"stepped, absurd rain", standardBody, m{"stepped": true, "rainfall": m{"rainfall_mm_per_hr": 5000}}, MsgNoChannel},
		{"built-in fall, absurd rain", standardBody, m{"built_in_fall": true, "rainfall": m{"rainfall_mm_per_hr": 5000}}, MsgNoChannel},
		{"no trash box at the loading", standardBody, m{"channel_group": "big-bls", "loading": "LCN110", "grating": "big-bls-slot",
			"dischargeSetting": "outflow-in-trashbox"}, MsgNoTrashBoxes},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := calc(t, body(t, tc.base, tc.patch))
			var ce *CalculationError
			if !errors.As(err, &ce) || ce.Message != tc.want {
				t.Fatalf("error %T %v, want a *CalculationError %q", err, err, tc.want)
			}
		})
	}
}

// An advanced run whose channels do not add up to its length says by how
// much, short or long.
func TestLengthMismatch(t *testing.T) {
	t.Parallel()
	advanced := `{"advanced": true, "channel_group": "poly-100", "loading": "C250", "grating": "poly-100-slot-iron",
		"channel_length_m": 20.5, "drainage_area_m2": 200, "rainfall": {"rainfall_mm_per_hr": 50}}`
	cases := []struct {
		patch m
		short bool
		diff  float64
	}{
		{m{"channels": []m{{"slug": "poly-100-10-0", "count": 20}}}, true, 0.5},
		{m{"channels": []m{{"slug": "poly-100-10-0", "count": 22}}}, false, 1.5},
		{m{"channels": []m{{"slug": "poly-100-10-0", "count": 21}}, "dischargeCutting": m{"distance_in_mm": 400}}, false, 0.1},
		{m{"advanced_design": m{"channels": []m{{"slug": "poly-100-10-0", "count": 21}}, "head_cutting": m{"distance_in_mm": 300}}}, false, 0.2},
	}
	for _, tc := range cases {
		_, err := calc(t, body(t, advanced, tc.patch))
		var lm *LengthMismatchError
		if !errors.As(err, &lm) || lm.Short() != tc.short || lm.DifferenceM() != tc.diff || !strings.HasPrefix(lm.Error(), MsgLengthMismatch) {
			t.Errorf("%v: %v, want %v m (short %v)", tc.patch, err, tc.diff, tc.short)
		}
	}
	// Cut to length, it calculates.
	res := mustCalc(t, body(t, advanced, m{"channels": []m{{"slug": "poly-100-10-0", "count": 21}}, "dischargeCutting": m{"distance_in_mm": 500}}))
	if res.CatchmentLengthMM != 20500 {
		t.Errorf("length %v", res.CatchmentLengthMM)
	}
}

// The decoder ignores the run object's other fields and refuses malformed
// JSON and wrong types of the fields it reads.
func TestDecodeRequest(t *testing.T) {
	t.Parallel()
	ok := []string{
		`{"channel_group": "concrete", "selectedChannelType": {"any": ["thing"]}, "errors": 3, "results": null}`,
		`{"outflowTrashbox": 7.5, "outflowEndcap": "10611", "grating": null, "channels": {"poly-100-0-0": 3}}`,
		`{"outflowTrashbox": "run-2", "inflows": [{"distance_m": 3, "source": 12, "flow_lps": 1, "connection": "direct-pipe"}]}`,
		`{"leftAreas": [{"length_m": 3, "permeability": "asphalt"}], "rightAreas": [{"length_m": 3, "permeability": 0.5}]}`,
		" {\"advanced\": true}\n",
	}
	for _, b := range ok {
		if _, err := DecodeRequest([]byte(b)); err != nil {
			t.Errorf("%s: %v", b, err)
		}
	}
	bad := []struct{ body, want string }{
		{``, "The request body is empty; a JSON object is expected"},
		{`[1, 2]`, "The request body must be a JSON object"},
		{`{"channel_length_m": 20`, "The request body is not complete JSON"},
		{`{"channel_length_m": 20,}`, "Malformed JSON at byte 25"},
		{`{"channel_length_m": "20"}`, `Field "channel_length_m" must be a number, not string`},
		{`{"advanced": "yes"}`, `Field "advanced" must be true or false, not string`},
		{`{"rainfall": {"rainfall_mm_per_hr": [50]}}`, `Field "rainfall.rainfall_mm_per_hr" must be a number, not array`},
		{`{"inflows": {"distance_m": 3}}`, `Field "inflows" must be a list, not object`},
		{`{"outflowTrashbox": true}`, `Field "outflowTrashbox" must be a string, not bool`},
		{`{"channels": "many"}`, `Field "channels" must be a list, not string`},
		{`{"leftAreas": [{"permeability": {}}]}`, `Field "leftAreas.permeability" must be a number, not object`},
		{`{"a": 1} {"b": 2}`, "The request body must hold a single JSON object"},
	}
	for _, tc := range bad {
		_, err := DecodeRequest([]byte(tc.body))
		var de *DecodeError
		if !errors.As(err, &de) || de.Message != tc.want {
			t.Errorf("%q: %v, want %q", tc.body, err, tc.want)
		}
	}
}
