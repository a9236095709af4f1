package design

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"draindesign/domain/catalogue"
	"draindesign/domain/project"
	"draindesign/domain/rainfall"
	"draindesign/domain/storage"
)

// leedsRainfall is the run's rainfall of docs/rainfall.md section 11.2's
// example, Leeds: 30 minutes, 30 years, no uplift, with the table's 5, 15
// and 60 minute rows.
func leedsRainfall(t testing.TB) (storage.Rainfall, map[string]any) {
	t.Helper()
	// The rainfall of docs/rainfall.md section 11.2's request (the map's
	// answer at Leeds before the field's recalibration of section 6.3), so
	// that the documented storage answer does not move with the field.
	const m5, r, rain, r5, r15, r60 = 19.5, 0.36, 49.338, 130.238, 75.136, 31.252
	if got := math.Round(rainfall.Intensity(m5, r, 30, 30, 0, rainfall.EnglandWales)*1000) / 1000; got != rain {
		t.Fatalf("the documented Leeds rainfall is %g mm/h by the FSR model, the docs say %g", got, rain)
	}
	st := storage.Rainfall{
		MMPerHour: rain, StormMin: 30, M5: m5, R: r, ReturnPeriod: 30, Region: rainfall.EnglandWales,
		R5: r5, R15: r15, R60: r60,
	}
	run := map[string]any{
		"rainfall_mm_per_hr": st.MMPerHour, "storm_duration": 30, "return_period": 30, "climate_change_factor": 0,
		"M5": st.M5, "r": st.R, "region": string(st.Region), "town": "Leeds",
		"fiveMinuteRate": st.R5, "fifteenMinuteRate": st.R15, "sixtyMinuteRate": st.R60,
	}
	return st, run
}

// hicapRun is docs/rainfall.md's example run: 50 m of the high-capacity
// system draining 300 m² of pavement, level, free outflow.
const hicapRun = `{"channel_group": "poly-hicap", "loading": "C250", "channel_length_m": 50, "drainage_area_m2": 300,
	"catchmentShape": "uniform", "permeability": 1, "slopeSetting": "slope", "ground_slope": 0,
	"dischargeSetting": "free-outflow", "stepped": false}`

// dialog is the controlled discharge dialog's call for the same run
// (POST /drainage/calculate_storage/, as api/storage_calls.go makes it).
func dialog(t testing.TB, rain storage.Rainfall, areaM2, slopePct, q float64, channel string) storage.Result {
	t.Helper()
	res, err := storage.Calculate(catalogue.Default(), storage.Request{
		Rainfall: rain, ChannelLengthM: 50, CatchmentAreaM2: areaM2, Permeability: 1, ControlledOutflowLS: q,
		GroundSlopePct: slopePct, System: "poly-hicap", Loading: "C250", Channel: channel,
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// confirmed is the run after the dialog's Confirm: its controlled outflow
// and the design's details (web/src/storage/storageRules.ts).
func confirmed(t testing.TB, rain map[string]any, st storage.Result, patch map[string]any) map[string]any {
	t.Helper()
	b := body(t, hicapRun, map[string]any{
		"rainfall": rain, "controlled_outflow": st.ControlledOutflowLS,
		"controlled_discharge_details": map[string]any{
			"channel": st.Channel, "channel_name": st.ChannelName, "max_depth_mm": st.MaxDepthMM, "orifice_diameter_mm": st.OrificeDiameterMM,
		},
	})
	for k, v := range patch {
		b[k] = v
	}
	return b
}

// sameAsDialog checks a run's controlled result against the storage
// calculation's own answer, which domain/storage's tests hold to the
// orifice law, the mass balance and the channel order (docs/rainfall.md
// section 11.4).
func sameAsDialog(t *testing.T, c *Controlled, st storage.Result) {
	t.Helper()
	if c == nil {
		t.Fatal("no controlled result")
	}
	got := [][2]any{
		{c.Channel, st.Channel}, {c.ChannelName, st.ChannelName}, {c.OrificeDiameterMM, st.OrificeDiameterMM},
		{c.CriticalDurationMin, st.CriticalDurationMin}, {c.CriticalRainfallMMH, st.CriticalRainfallMMH},
		{c.StorageVolumeM3, st.MaxStoredM3}, {c.StorageNeededM3, st.StorageNeededM3}, {c.ChannelCapacityM3, st.ChannelCapacityM3},
		{c.ControlledOutflowLS, st.ControlledOutflowLS}, {c.FreeDischargeLS, st.FreeDischargeLS}, {c.MaxDepthMM, st.MaxDepthMM},
		{c.MinimumFreeBoardM, st.MinimumFreeBoardM}, {c.PeakOutflowLS, st.PeakOutflowLS}, {c.Flooded, st.Flooded}, {c.Restricted, st.Restricted},
	}
	for i, g := range got {
		if g[0] != g[1] {
			t.Errorf("field %d: run %v, dialog %v", i, g[0], g[1])
		}
	}
}

// The report: the dialog sized a channel and an orifice, and the
// run's results showed another channel with no word of either. The run is
// now calculated in the confirmed channel and answers the dialog's design:
// for docs/rainfall.md's Leeds example (50 m, 300 m², 2 l/s) the 150 H600
// with a 37.9 mm orifice, critical at 45 minutes, holding 3.364 m³.
func TestControlledRunIsTheDialogsDesign(t *testing.T) {
	t.Parallel()
	rain, runRain := leedsRainfall(t)
	st := dialog(t, rain, 300, 0, 2, "")
	// docs/rainfall.md section 11.2, the published answer of the call.
	if st.Channel != "poly-hicap-150-600" || st.OrificeDiameterMM != 37.9 || st.CriticalDurationMin != 45 || st.MaxStoredM3 != 3.364 {
		t.Fatalf("the dialog's answer moved from docs/rainfall.md 11.2: %s, %g mm, %g min, %g m³", st.Channel, st.OrificeDiameterMM, st.CriticalDurationMin, st.MaxStoredM3)
	}
	free := mustCalc(t, body(t, hicapRun, map[string]any{"rainfall": runRain}))
	if free.Controlled != nil || len(free.ChannelsUsed) == 0 || free.ChannelsUsed[len(free.ChannelsUsed)-1].Slug == st.Channel {
		t.Fatalf("without controlled discharge the run takes a channel for its flow, not the storage: %v", free.ChannelsUsed)
	}

	res := mustCalc(t, confirmed(t, runRain, st, nil))
	sameAsDialog(t, res.Controlled, st)
	if len(res.ChannelsUsed) != 1 || res.ChannelsUsed[0].Slug != st.Channel || res.Configuration != "single-size" || res.LargestChannel != st.ChannelName {
		t.Errorf("the run is laid in %v (%s, %s), want the confirmed %s alone", res.ChannelsUsed, res.Configuration, res.LargestChannel, st.Channel)
	}
	// The orifice law at the critical storm's highest water passes the
	// controlled outflow (storage.TestOrificePassesLimitAtCriticalHead).
	if q := storage.OrificeFlow(res.Controlled.OrificeDiameterMM, res.Controlled.MaxDepthMM/1000); math.Abs(q-2) > 0.01 {
		t.Errorf("a %g mm orifice at %g mm passes %.4f l/s, want 2", res.Controlled.OrificeDiameterMM, res.Controlled.MaxDepthMM, q)
	}
	// The minimum free board is the channel's maximum water depth less the
	// highest water (docs/rainfall.md 11.3).
	ch, err := catalogue.Default().Channel(st.Channel)
	if err != nil {
		t.Fatal(err)
	}
	if fb := float64(ch.MaxDownstreamWaterDepthMM) - res.Controlled.MaxDepthMM; math.Abs(1000*res.Controlled.MinimumFreeBoardM-fb) > 0.5 {
		t.Errorf("minimum free board %g m, channel %d mm less %g mm", res.Controlled.MinimumFreeBoardM, ch.MaxDownstreamWaterDepthMM, res.Controlled.MaxDepthMM)
	}
	// A level run ponds level: the same depth at the head as at the outlet.
	want := []LevelPoint{{0, res.Controlled.MaxDepthMM}, {50, res.Controlled.MaxDepthMM}}
	if !equalLevels(res.Controlled.WaterLevel, want) {
		t.Errorf("water level %v, want %v", res.Controlled.WaterLevel, want)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("warnings %v", res.Warnings)
	}
}

func equalLevels(a, b []LevelPoint) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i].DistanceM-b[i].DistanceM) > 1e-9 || math.Abs(a[i].DepthMM-b[i].DepthMM) > 0.05 {
			return false
		}
	}
	return true
}

// The channel stays the confirmed one: a larger channel than the dialog
// would choose now, and after the inputs change the orifice is sized again
// in it, as the dialog sizes it for that channel.
func TestControlledChannelIsKept(t *testing.T) {
	t.Parallel()
	rain, runRain := leedsRainfall(t)
	const big = "poly-hicap-250-750"
	st := dialog(t, rain, 300, 0, 2, big)
	res := mustCalc(t, confirmed(t, runRain, st, nil))
	sameAsDialog(t, res.Controlled, st)
	if res.ChannelsUsed[0].Slug != big || len(res.ChannelsUsed) != 1 {
		t.Fatalf("laid in %v, want %s", res.ChannelsUsed, big)
	}

	// A larger catchment and a slope: same channel, a new design.
	changed := confirmed(t, runRain, st, map[string]any{"drainage_area_m2": 600, "ground_slope": 0.5})
	again := mustCalc(t, changed)
	want := dialog(t, rain, 600, 0.5, 2, big)
	sameAsDialog(t, again.Controlled, want)
	if again.ChannelsUsed[0].Slug != big || want.OrificeDiameterMM == st.OrificeDiameterMM {
		t.Errorf("recalculated in %v with a %g mm orifice (was %g)", again.ChannelsUsed, want.OrificeDiameterMM, st.OrificeDiameterMM)
	}
	// On a run falling 0.5 % toward the outlet the pond stands h − 0.005·(50 − x)
	// above the invert: 0.25 m shallower at the head, or dry up to where it ends.
	h := again.Controlled.MaxDepthMM
	var wantLevel []LevelPoint
	if h > 250 {
		wantLevel = []LevelPoint{{0, h - 250}, {50, h}}
	} else {
		wantLevel = []LevelPoint{{0, 0}, {50 - h/1000/0.005, 0}, {50, h}}
	}
	if !equalLevels(again.Controlled.WaterLevel, wantLevel) {
		t.Errorf("water level %v, want %v", again.Controlled.WaterLevel, wantLevel)
	}

	// A run kept before the slug was: the channel's name finds it.
	byName := confirmed(t, runRain, st, nil)
	byName["controlled_discharge_details"] = map[string]any{"channel_name": st.ChannelName}
	sameAsDialog(t, mustCalc(t, byName).Controlled, st)

	// Advanced mode: the user's channel is the store, whatever the details say.
	adv := confirmed(t, runRain, st, map[string]any{"advanced": true, "channels": []any{map[string]any{"slug": "poly-hicap-250-650", "count": 50}}})
	res = mustCalc(t, adv)
	sameAsDialog(t, res.Controlled, dialog(t, rain, 300, 0, 2, "poly-hicap-250-650"))

	// Without a confirmed design the storage calculation chooses, as the
	// dialog does.
	none := confirmed(t, runRain, st, map[string]any{"controlled_discharge_details": nil})
	sameAsDialog(t, mustCalc(t, none).Controlled, dialog(t, rain, 300, 0, 2, ""))
}

// The orifice plate goes in the materials on the end cap with outlet that
// holds it: the catalogue's article with the smallest outlet that takes
// the plate, the plate's diameter named on its line.
func TestControlledMaterials(t *testing.T) {
	t.Parallel()
	rain, runRain := leedsRainfall(t)
	for _, slug := range []string{"poly-hicap-150-600", "poly-hicap-250-750"} {
		st := dialog(t, rain, 300, 0, 2, slug)
		res := mustCalc(t, confirmed(t, runRain, st, nil))
		opts, err := catalogue.Default().EndCapsWithOutlet(slug)
		if err != nil || len(opts) == 0 {
			t.Fatalf("%s: no end caps with outlet: %v", slug, err)
		}
		want := opts[0] // ascending outlet diameters; every one takes a plate of under 100 mm
		var line *catalogue.MaterialLine
		for i, l := range res.Endcaps {
			if l.HAN == want.ID {
				line = &res.Endcaps[i]
			}
		}
		diameter := strings.TrimRight(strings.TrimRight(jsonNumber(st.OrificeDiameterMM), "0"), ".")
		if line == nil || line.Count != 1 || !strings.Contains(line.Description, "orifice plate Ø "+diameter+" mm") {
			t.Errorf("%s: end caps %+v, want %s with the %s mm orifice plate", slug, res.Endcaps, want.ID, diameter)
		}
		if len(res.Endcaps) != 2 || res.MissingHAN {
			t.Errorf("%s: end caps %+v: the head's plain cap and the outlet's, each with its article", slug, res.Endcaps)
		}
	}
	// No orifice needed (the limit at the free discharge): no plate.
	st := dialog(t, rain, 300, 0, 4.1, "poly-hicap-150-600")
	res := mustCalc(t, confirmed(t, runRain, st, nil))
	if st.Restricted || res.Controlled.Restricted || len(res.Endcaps) != 1 || strings.Contains(res.Endcaps[0].Description, "orifice") {
		t.Errorf("restricted %v, end caps %+v", st.Restricted, res.Endcaps)
	}
	if len(res.Warnings) != 1 || res.Warnings[0] != st.Note {
		t.Errorf("warnings %q, want the storage note %q", res.Warnings, st.Note)
	}
}

func jsonNumber(v float64) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// A controlled run needs what the dialog needs, and names the run's field.
func TestControlledRefusals(t *testing.T) {
	t.Parallel()
	rain, runRain := leedsRainfall(t)
	st := dialog(t, rain, 300, 0, 2, "")
	noRates := map[string]any{"rainfall_mm_per_hr": 50}
	tests := []struct {
		name  string
		patch map[string]any
		field string
	}{
		{"no rates", map[string]any{"rainfall": noRates}, "rainfall.fiveMinuteRate"},
		{"unknown channel", map[string]any{"controlled_discharge_details": map[string]any{"channel_name": "Gutter 9"}}, "controlled_discharge_details"},
		{"another system's channel", map[string]any{"controlled_discharge_details": map[string]any{"channel": "poly-100-01"}}, "controlled_discharge_details"},
		{"no permeability", map[string]any{"permeability": 0}, "permeability"},
		{"stepped", map[string]any{"stepped": true}, "stepped"},
		{"two sizes by hand", map[string]any{"advanced": true, "channels": []any{
			map[string]any{"slug": "poly-hicap-250-650", "count": 25}, map[string]any{"slug": "poly-hicap-250-750", "count": 25},
		}}, "channels"},
	}
	for _, tc := range tests {
		_, err := calc(t, confirmed(t, runRain, st, tc.patch))
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Field != tc.field {
			t.Errorf("%s: %v, want a refusal of %s", tc.name, err, tc.field)
		}
		if tc.name == "no rates" && ve != nil && ve.Message != MsgControlledRates {
			t.Errorf("no rates: %q", ve.Message)
		}
	}
}

// The controlled result is part of the summary a project keeps: it
// survives the event codec, a save (recalculated by the verifier, not
// taken from the client) and a recalculation.
func TestControlledSummarySurvivesSave(t *testing.T) {
	t.Parallel()
	rain, runRain := leedsRainfall(t)
	st := dialog(t, rain, 300, 0, 2, "")
	b, err := json.Marshal(confirmed(t, runRain, st, nil))
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		t.Fatal(err)
	}
	in := project.InputsFrom(fields)
	if err := project.ValidateInputs(in); err != nil {
		t.Fatalf("the confirmed run's inputs: %v", err)
	}
	cat := catalogue.Default()
	sum, err := SummaryOf(cat, in, project.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	controlledIn := func(s project.Summary) *Controlled {
		t.Helper()
		var c *Controlled
		if err := json.Unmarshal(s["controlled"], &c); err != nil {
			t.Fatalf("summary's controlled %s: %v", s["controlled"], err)
		}
		return c
	}
	sameAsDialog(t, controlledIn(sum), st)

	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	replay := func(p *project.Project, evs []project.Event, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
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
	p := project.FromEvents(project.New("p1", "u1", "alice", "GB", at))
	evs, err := p.AddRun("r1")
	replay(p, evs, err)
	evs, err = p.RecordCalculation("r1", in, sum)
	replay(p, evs, err)
	run, _ := p.Run("r1")
	sameAsDialog(t, controlledIn(run.Summary), st)

	// A save never takes results from the client: a new project's run is
	// calculated from its inputs by the verifier, and keeps them.
	fresh := project.FromEvents(project.New("p2", "u1", "alice", "GB", at))
	c := project.Content{Details: project.Details{Name: "Yard"}, Runs: []project.SavedRun{{Name: "Run 1", Inputs: in}}}
	evs, _, err = fresh.Save(c, project.SaveBy{UserID: "u1", UserName: "alice", At: at}, func() string { return "s1" }, Verifier(cat, nil))
	replay(fresh, evs, err)
	saved := fresh.Runs[0]
	sameAsDialog(t, controlledIn(saved.Summary), st)
	if saved.Inputs["controlled_discharge_details"] == nil {
		t.Errorf("the saved inputs lost the confirmed design: %v", saved.Inputs)
	}
}

// A controlled run discharging into another run's trash box passes on no
// more than its orifice lets out: the controlled outflow, not its flow.
func TestSharedControlledPassesItsOutflow(t *testing.T) {
	t.Parallel()
	rain, runRain := leedsRainfall(t)
	st := dialog(t, rain, 300, 0, 2, "")
	up := confirmed(t, runRain, st, map[string]any{"id": "run-a", "dischargeSetting": "outflow-in-trashbox", "outflowTrashbox": "run-b"})
	down := body(t, standardBody, map[string]any{"id": "run-b", "channel_length_m": 30, "drainage_area_m2": 300,
		"accessories": []map[string]any{{"type": "trash-box", "distance_m": 10}}})
	raw, err := json.Marshal(map[string]any{"main": up, "second": down})
	if err != nil {
		t.Fatal(err)
	}
	sr, err := DecodeSharedRequest(raw)
	if err != nil {
		t.Fatal(err)
	}
	ans, err := CalculateShared(catalogue.Default(), sr)
	if err != nil {
		t.Fatal(err)
	}
	alone := mustCalc(t, down)
	main := ans.Main.Results
	if main.Controlled == nil || main.ChannelDischarge <= st.PeakOutflowLS {
		t.Fatalf("the upstream run: controlled %+v, free-outflow discharge %v l/s", main.Controlled, main.ChannelDischarge)
	}
	if got := ans.Second.Results.ChannelDischarge - alone.ChannelDischarge; math.Abs(got-st.PeakOutflowLS) > 1e-9 {
		t.Errorf("the downstream run takes %v l/s from the controlled run, want its peak outflow %v l/s", got, st.PeakOutflowLS)
	}
}
