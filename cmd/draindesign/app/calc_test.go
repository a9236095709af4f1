package app

import (
	"encoding/json"
	"math"
	"net/http"
	"slices"
	"testing"

	"draindesign/api/usecase"
	"draindesign/domain/account"
	"draindesign/domain/catalogue"
)

// exampleCalc is the example body: 20 m of in-situ concrete
// channel, 100 × 300 mm, n 0.011, level, 144 m² at 50 mm/h (2 l/s).
const exampleCalc = `{"advanced": true, "calculation_method": "GVF", "channel_group": "concrete",
	"concreteChannel": {"width": 100, "depth": 300, "roughness": 0.011}, "channel_length_m": 20,
	"drainage_area_m2": 144, "catchmentShape": "uniform", "permeability": 1,
	"rainfall": {"rainfall_mm_per_hr": 50}, "slopeSetting": "slope", "ground_slope": 0,
	"dischargeSetting": "free-outflow"}`

type calcAnswer struct {
	Results struct {
		Calculated        bool    `json:"calculated"`
		Overflowed        bool    `json:"overflowed"`
		WentSuperCritical bool    `json:"went_super_critical"`
		ChannelDischarge  float64 `json:"channel_discharge"`
		Freeboard         float64 `json:"freeboard"`
		PercentageFull    float64 `json:"percentage_full"`
		MaxDepthMM        float64 `json:"max_depth_mm"`
		ChannelsUsed      []struct {
			Slug string `json:"slug"`
		} `json:"channels_used"`
		Channel  []catalogue.MaterialLine `json:"channel"`
		Segments []struct {
			LengthMM float64 `json:"length_mm"`
			Slices   []struct {
				DistanceM float64 `json:"distance_m"`
				FlowLS    float64 `json:"flow_l_s"`
				DepthMM   float64 `json:"depth_mm"`
			} `json:"slices"`
		} `json:"segments"`
	} `json:"results"`
}

func patch(t *testing.T, base string, fields map[string]any) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(base), &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range fields {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	return m
}

// The example body over HTTP on SQLite: 2.0 l/s leave the run, critical
// depth at the outfall is 34.4 mm and the head stands a little above
// √3 times that; the validation rules answer 400 with their messages.
func TestCalculateOverHTTP(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	anon := p.newUser(t)
	anon.must(http.StatusUnauthorized, "POST", "/api/drainage/calculate/", exampleCalc, nil)
	// The example is an advanced design (the concrete channel), which
	// comes with the advanced-mode right.
	u := p.staff(t, "calc", account.GroupAdvanced)

	var a calcAnswer
	u.must(http.StatusOK, "POST", "/api/drainage/calculate/", exampleCalc, &a)
	r := a.Results
	if !r.Calculated || r.Overflowed || r.WentSuperCritical || math.Abs(r.ChannelDischarge-2) > 1e-9 {
		t.Fatalf("results %+v", r)
	}
	yc := 1000 * math.Cbrt(0.002*0.002/(9.81*0.1*0.1))
	head := r.Segments[0].Slices[0]
	if head.DistanceM != 0 || head.DepthMM < math.Sqrt(3)*yc || head.DepthMM > 1.3*math.Sqrt(3)*yc {
		t.Errorf("head slice %+v, √3·yc = %.1f mm", head, math.Sqrt(3)*yc)
	}
	last := r.Segments[0].Slices[len(r.Segments[0].Slices)-1]
	if last.DistanceM != 20 || math.Abs(last.FlowLS-2) > 1e-9 || math.Abs(last.DepthMM-yc) > 0.01*yc {
		t.Errorf("outfall slice %+v, yc = %.1f mm", last, yc)
	}
	if math.Abs(r.Freeboard-(300-r.MaxDepthMM)) > 1e-6 || math.Abs(r.PercentageFull-r.MaxDepthMM/3) > 1e-6 {
		t.Errorf("freeboard %v mm, %v %% full, max depth %v mm", r.Freeboard, r.PercentageFull, r.MaxDepthMM)
	}

	// The client sends its whole run: fields the calculation does not read
	// are ignored.
	withUI := patch(t, exampleCalc, map[string]any{"name": "Run 1", "selectedChannelType": map[string]any{"x": 1}, "errors": []any{}})
	u.must(http.StatusOK, "POST", "/api/drainage/calculate/", withUI, nil)

	standard := `{"channel_group": "poly-100", "loading": "C250", "grating": "poly-100-slot-iron", "channel_length_m": 20,
		"drainage_area_m2": 200, "rainfall": {"rainfall_mm_per_hr": 50}}`
	bad := []struct {
		name string
		body any
		want string
	}{
		{"malformed", `{"channel_group": `, "The request body is not complete JSON"},
		{"wrong type", patch(t, exampleCalc, map[string]any{"channel_length_m": "20"}), `Field "channel_length_m" must be a number, not string`},
		{"no system", patch(t, exampleCalc, map[string]any{"channel_group": nil}), "Please select a drainage system"},
		{"no rain", patch(t, exampleCalc, map[string]any{"rainfall": map[string]any{"rainfall_mm_per_hr": 0}}), "Rainfall intensity must be above 0"},
		{"too long", patch(t, exampleCalc, map[string]any{"channel_length_m": 3100, "drainage_area_m2": 5000}), "The channel length is over the GVF limit of 3000 m by 100 m"},
		{"too long for HRW", patch(t, exampleCalc, map[string]any{"calculation_method": "HRW", "channel_length_m": 501, "drainage_area_m2": 5000}), "The channel length is over the HRW limit of 500 m by 1 m"},
		{"area", patch(t, exampleCalc, map[string]any{"drainage_area_m2": 100000}), "The catchment area is too large: it is over 99999 m² by 1 m²"},
		{"steep", patch(t, exampleCalc, map[string]any{"ground_slope": 12}), "The longitudinal slope of 12 % is too steep: the GVF maximum is 9.9 % (1 in 10)"},
		{"area for the length", patch(t, exampleCalc, map[string]any{"channel_length_m": 1, "drainage_area_m2": 20000}), "Drainage area is too large for the channel length"},
		{"concrete", patch(t, exampleCalc, map[string]any{"concreteChannel": map[string]any{"width": 0, "depth": 300}}), "The concrete channel width and depth must be above 0"},
		{"no loading", patch(t, standard, map[string]any{"loading": nil}), "Please select a loading class"},
		{"no grating", patch(t, standard, map[string]any{"grating": nil}), "Please select a grating"},
		{"stepped concrete", patch(t, exampleCalc, map[string]any{"stepped": true}), "Stepped channels are not allowed for steel or concrete channels"},
		{"no channel", patch(t, standard, map[string]any{"rainfall": map[string]any{"rainfall_mm_per_hr": 5000}}), "No channel could be designed to fulfil the current parameters"},
	}
	for _, tc := range bad {
		var e map[string]any
		u.must(http.StatusBadRequest, "POST", "/api/drainage/calculate/", tc.body, &e)
		if e["error"] != tc.want {
			t.Errorf("%s: %v, want %q", tc.name, e, tc.want)
		}
	}
	var lm map[string]any
	u.must(http.StatusBadRequest, "POST", "/api/drainage/calculate/", patch(t, standard, map[string]any{"advanced": true,
		"channels": []any{map[string]any{"slug": "poly-100-0-0", "count": 19}}}), &lm)
	if lm["lengthDoNotMatch"] != true || lm["short"] != true || lm["difference_m"] != 1.0 {
		t.Errorf("length mismatch answer %v", lm)
	}
}

type draft struct {
	ID      string `json:"id"`
	Version int64  `json:"version"`
	RunID   string `json:"run_id"`
}

// A calculation of a project's run appends "run calculated" with the
// inputs and the results, seen by another tab over the WebSocket and in
// the timeline; a failed design appends "calculation failed"; a refused
// request appends nothing; a stranger cannot calculate into the project.
func TestProjectCalculation(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.staff(t, "pia", account.GroupAdvanced)
	var d draft
	u.must(http.StatusCreated, "POST", "/api/projects/", map[string]any{}, &d)
	tab := p.dial(t, u)
	if err := tab.WriteJSON(map[string]any{"type": "subscribe", "project": d.ID, "from": d.Version}); err != nil {
		t.Fatal(err)
	}
	body := patch(t, exampleCalc, map[string]any{"project_id": d.ID, "run_id": d.RunID, "name": "Run 1"})
	var a calcAnswer
	u.must(http.StatusOK, "POST", "/api/drainage/calculate/", body, &a)
	if !a.Results.Calculated {
		t.Fatalf("answer %+v", a)
	}
	seen := wantView(t, next(t, tab), d.ID, d.Version+1)
	if runState(seen, d.RunID) != "calculated" || string(seen.Runs[0].Summary["calculated"]) != "true" {
		t.Fatalf("the other tab saw %+v", seen)
	}

	var tl struct {
		Version int64 `json:"version"`
		Events  []struct {
			Type string          `json:"type"`
			Data json.RawMessage `json:"data"`
		} `json:"events"`
	}
	u.must(http.StatusOK, "GET", "/api/projects/"+d.ID+"/timeline", nil, &tl)
	lastEv := tl.Events[len(tl.Events)-1]
	var calculated struct {
		RunID   string                     `json:"run_id"`
		Inputs  map[string]json.RawMessage `json:"inputs"`
		Summary map[string]json.RawMessage `json:"summary"`
	}
	if err := json.Unmarshal(lastEv.Data, &calculated); err != nil || lastEv.Type != "project.run_calculated" {
		t.Fatalf("last event %s %s: %v", lastEv.Type, lastEv.Data, err)
	}
	if calculated.RunID != d.RunID || string(calculated.Inputs["channel_length_m"]) != "20" || calculated.Inputs["project_id"] != nil ||
		calculated.Inputs["name"] != nil || string(calculated.Summary["channel_discharge"]) != "2" || string(calculated.Summary["calculated"]) != "true" {
		t.Errorf("run calculated: %s", lastEv.Data)
	}

	// No channel can be designed: recorded as a failed calculation.
	fail := map[string]any{"project_id": d.ID, "run_id": d.RunID, "channel_group": "poly-100", "loading": "C250",
		"grating": "poly-100-slot-iron", "channel_length_m": 20, "drainage_area_m2": 200, "rainfall": map[string]any{"rainfall_mm_per_hr": 5000}}
	u.must(http.StatusBadRequest, "POST", "/api/drainage/calculate/", fail, nil)
	if seen := wantView(t, next(t, tab), d.ID, d.Version+2); seen.Runs[0].Summary != nil || seen.Runs[0].LastError == "" {
		t.Fatalf("the other tab saw %+v", seen)
	}

	// Refused before calculating: nothing is appended.
	u.must(http.StatusOK, "GET", "/api/projects/"+d.ID+"/timeline", nil, &tl)
	before := tl.Version
	u.must(http.StatusBadRequest, "POST", "/api/drainage/calculate/", patch(t, exampleCalc, map[string]any{"project_id": d.ID, "run_id": d.RunID, "drainage_area_m2": 0}), nil)
	u.must(http.StatusBadRequest, "POST", "/api/drainage/calculate/", `{"project_id": "`+d.ID+`", "run_id": 7}`, nil)
	u.must(http.StatusBadRequest, "POST", "/api/drainage/calculate/", patch(t, exampleCalc, map[string]any{"project_id": d.ID}), nil)
	u.must(http.StatusNotFound, "POST", "/api/drainage/calculate/", patch(t, exampleCalc, map[string]any{"project_id": d.ID, "run_id": "no-such-run"}), nil)
	stranger := p.staff(t, "quin", account.GroupAdvanced)
	stranger.must(http.StatusNotFound, "POST", "/api/drainage/calculate/", body, nil)
	u.must(http.StatusOK, "GET", "/api/projects/"+d.ID+"/timeline", nil, &tl)
	if tl.Version != before {
		t.Errorf("refused calculations moved the project from version %d to %d", before, tl.Version)
	}
}

// Every system of the catalogue is listed for the countries where it is
// sold, and only there.
func TestProductsByCountry(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	cat := catalogue.Default()
	for _, country := range []string{"GB", "DE", "AE"} {
		u := p.signUpIn(t, "user"+country, country)
		var list []struct {
			Slug          string         `json:"slug"`
			ProductType   string         `json:"product_type"`
			Gratings      []any          `json:"gratings"`
			PipeDiameters map[string]any `json:"pipeDiameters"`
		}
		u.must(http.StatusOK, "GET", "/api/drainage/product/", nil, &list)
		var got []string
		for _, s := range list {
			got = append(got, s.Slug)
		}
		for _, s := range cat.Systems() {
			if slices.Contains(got, s.Slug) != s.AvailableIn(country) {
				t.Errorf("%s: %s listed %v, sold there %v", country, s.Slug, slices.Contains(got, s.Slug), s.AvailableIn(country))
			}
		}
	}
	seen := map[string]bool{}
	for _, c := range cat.Countries() {
		for _, s := range cat.Systems() {
			seen[s.Slug] = seen[s.Slug] || s.AvailableIn(c.ISOCode)
		}
	}
	for slug, sold := range seen {
		if !sold {
			t.Errorf("%s is sold nowhere", slug)
		}
	}
}

// signUpIn is signUp for a user of another country.
func (p *product) signUpIn(t *testing.T, name, country string) *user {
	t.Helper()
	u := p.newUser(t)
	reg := registration(name)
	reg["country"] = country
	u.must(http.StatusCreated, "POST", "/api/drainage/register/", reg, nil)
	link := mailedLink(t, p.opts.DataDir, name+"@example.com")
	resp, err := u.http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	u.must(http.StatusOK, "POST", "/api/auth/login/", map[string]string{"username": name, "password": "a long password"}, nil)
	return u
}

// The look-ups, materials and shared calculation answer as the spec's
// call table says.
func TestCatalogueCallsAndMaterials(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.staff(t, "lou", account.GroupAdvanced)

	var caps []struct {
		ID               string `json:"id"`
		Material         string `json:"material"`
		OutletDiameterMM int    `json:"outlet_diameter_mm"`
	}
	u.must(http.StatusOK, "GET", "/api/drainage/endcap/with_outlet/?channel=poly-100-30-0", nil, &caps)
	if len(caps) == 0 || caps[0].ID == "" || caps[0].OutletDiameterMM == 0 {
		t.Errorf("end caps %+v", caps)
	}
	var discharges []float64
	u.must(http.StatusOK, "GET", "/api/drainage/trashbox/discharges/?product=poly-100&product_type=S&loading=C", nil, &discharges)
	if !slices.Equal(discharges, []float64{7.5, 15}) {
		t.Errorf("discharges %v", discharges)
	}
	var subs map[string][]string
	u.must(http.StatusOK, "GET", "/api/drainage/channel/subproducts/?product=fibre&loading=E", nil, &subs)
	if _, ok := subs["10200"]; !ok || len(subs) != 4 {
		t.Errorf("sub-products at E %v", subs)
	}
	var chans []struct {
		Slug                 string `json:"slug"`
		UpstreamWaterDepthMM int    `json:"upstream_water_depth_mm"`
	}
	u.must(http.StatusOK, "GET", "/api/drainage/channel/?product=poly-100&loading=C&sub_product=100&upstream=0", nil, &chans)
	all := len(chans)
	for _, c := range chans {
		if c.UpstreamWaterDepthMM != 0 {
			t.Errorf("upstream=0 listed %s with a built-in fall", c.Slug)
		}
	}
	u.must(http.StatusOK, "GET", "/api/drainage/channel/?product=poly-100&loading=C&sub_product=100", nil, &chans)
	if all != 4 || len(chans) != 24 {
		t.Errorf("%d channels without built-in fall, %d in all", all, len(chans))
	}
	for _, q := range []string{"/api/drainage/channel/?loading=C", "/api/drainage/channel/?product=marble&loading=C",
		"/api/drainage/channel/?product=poly-100&loading=Z", "/api/drainage/endcap/with_outlet/", "/api/drainage/channel/subproducts/?product=fibre"} {
		var e map[string]any
		u.must(http.StatusBadRequest, "GET", q, nil, &e)
		if e["error"] == "" {
			t.Errorf("%s: %v", q, e)
		}
	}

	// Materials of a 20.5 m run of 1 m elements.
	var mats map[string][]catalogue.MaterialLine
	u.must(http.StatusOK, "POST", "/api/drainage/materials/", map[string]any{
		"preferred_language": "de", "channel_length_m": 20.5, "loading": "C", "throat": "poly-100-slot-iron",
		"profile":     map[string]any{"catchmentLength_mm": 20500, "segments": []any{map[string]any{"length_mm": 20500, "channelDescription": "Polymer 100 Type 10.0"}}},
		"accessories": []any{map[string]any{"type": "trash-box", "distance_m": 0}},
	}, &mats)
	want := []catalogue.MaterialLine{
		{HAN: "10091", Description: "Polymer 100 Type 10.0", Count: 20, Sort: 1, LengthMM: 1000, Text: catalogue.LineText{Designation: "Polymer 100 Type 10.0"}},
		{HAN: "10091", Description: "Polymer 100 Type 10.0, cut to 500 mm", Count: 1, Sort: 2, LengthMM: 500, Text: catalogue.LineText{Designation: "Polymer 100 Type 10.0", CutToMM: 500}},
		{HAN: "10504", Description: "Slotted grating, ductile iron, bolted, 100 mm wide, 500 mm long", Count: 41, Sort: 3, LengthMM: 500,
			Text: catalogue.LineText{Key: "catalogue.grating.poly-100-slot-iron", GratingWidthMM: 100, GratingLengthMM: 500}},
	}
	if !slices.Equal(mats["channel"], want) || len(mats["box"]) != 1 || len(mats["endcaps"]) != 1 {
		t.Errorf("materials %+v", mats)
	}

	// Two runs, the first into the second's trash box.
	second := `{"id": "b", "channel_group": "poly-100", "loading": "C250", "grating": "poly-100-slot-iron", "channel_length_m": 30,
		"drainage_area_m2": 200, "rainfall": {"rainfall_mm_per_hr": 50}, "accessories": [{"type": "trash-box", "distance_m": 0}]}`
	var shared struct{ Main, Second calcAnswer }
	u.must(http.StatusOK, "POST", "/api/drainage/calculate_shared/", map[string]any{
		"main": patch(t, exampleCalc, map[string]any{"id": "a", "outflowTrashbox": "b"}), "second": patch(t, second, nil)}, &shared)
	if math.Abs(shared.Second.Results.ChannelDischarge-(200*50/3600.0+2)) > 1e-9 || shared.Main.Results.ChannelDischarge != 2 {
		t.Errorf("shared: main %v l/s, second %v l/s", shared.Main.Results.ChannelDischarge, shared.Second.Results.ChannelDischarge)
	}
	var e map[string]any
	u.must(http.StatusBadRequest, "POST", "/api/drainage/calculate_shared/", map[string]any{
		"main":   patch(t, exampleCalc, map[string]any{"id": "a", "outflowTrashbox": "b"}),
		"second": patch(t, second, map[string]any{"outflowTrashbox": "a", "dischargeSetting": "outflow-in-trashbox"})}, &e)
	if e["error"] != "The runs would flow into each other: a circular chain cannot be calculated" {
		t.Errorf("circular: %v", e)
	}
}

// Advanced designs (channels picked by hand, the concrete channel) come
// with the advanced-mode right: a standard user's advanced calculation is
// refused with 403 and records nothing in the project, on its own and as
// either run of a shared calculation; the same user's standard design
// calculates, and an advanced user's advanced design does.
func TestAdvancedCalculationNeedsTheRight(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	plain := p.signUp(t, "stan")
	var d draft
	plain.must(http.StatusCreated, "POST", "/api/projects/", map[string]any{}, &d)
	var tl struct {
		Version int64 `json:"version"`
	}
	plain.must(http.StatusOK, "GET", "/api/projects/"+d.ID+"/timeline", nil, &tl)
	before := tl.Version

	handPicked := `{"advanced": true, "channel_group": "fibre", "loading": "C250", "grating": "fibre-std-mesh",
		"channel_length_m": 20, "drainage_area_m2": 200, "rainfall": {"rainfall_mm_per_hr": 50},
		"channels": [{"slug": "fibre-standard-100-150", "count": 20}]}`
	var e map[string]any
	for name, body := range map[string]any{
		"hand-picked channels": handPicked,
		"the concrete channel": exampleCalc,
		"into the project":     patch(t, handPicked, map[string]any{"project_id": d.ID, "run_id": d.RunID}),
	} {
		e = nil
		if got := plain.call("POST", "/api/drainage/calculate/", body, &e); got != http.StatusForbidden || e["error"] != usecase.MsgAdvancedModeOnly {
			t.Errorf("%s: %d %v, want 403", name, got, e)
		}
	}
	standard := `{"advanced": false, "channel_group": "fibre", "loading": "C250", "grating": "fibre-std-mesh",
		"channel_length_m": 20, "drainage_area_m2": 200, "rainfall": {"rainfall_mm_per_hr": 50}}`
	for name, body := range map[string]any{
		"advanced main":   map[string]any{"main": patch(t, handPicked, map[string]any{"id": "a"}), "second": patch(t, standard, map[string]any{"id": "b"})},
		"advanced second": map[string]any{"main": patch(t, standard, map[string]any{"id": "a"}), "second": patch(t, handPicked, map[string]any{"id": "b"})},
	} {
		if got := plain.call("POST", "/api/drainage/calculate_shared/", body, &e); got != http.StatusForbidden {
			t.Errorf("shared, %s: %d %v, want 403", name, got, e)
		}
	}
	plain.must(http.StatusOK, "GET", "/api/projects/"+d.ID+"/timeline", nil, &tl)
	if tl.Version != before {
		t.Errorf("refused calculations appended %d events", tl.Version-before)
	}

	var a calcAnswer
	plain.must(http.StatusOK, "POST", "/api/drainage/calculate/", standard, &a)
	if !a.Results.Calculated {
		t.Errorf("standard design: %+v", a.Results)
	}
	planner := p.staff(t, "ada", account.GroupAdvanced)
	planner.must(http.StatusOK, "POST", "/api/drainage/calculate/", handPicked, &a)
	if len(a.Results.ChannelsUsed) != 1 || a.Results.ChannelsUsed[0].Slug != "fibre-standard-100-150" {
		t.Errorf("the advanced user's hand-picked design: %+v", a.Results.ChannelsUsed)
	}
}
