package design

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"testing"

	"draindesign/domain/catalogue"
	"draindesign/domain/hydraulics"
)

// The example: 2.0 l/s leave the run; at the free outfall the depth
// is critical, yc = (Q²/(g·b²))^(1/3); upstream, in a level channel with
// lateral inflow, momentum gives √3·yc without friction (Chow 1959, §12-3),
// a little more with it.
func TestExampleBodyPhysics(t *testing.T) {
	t.Parallel()
	yc := 1000 * math.Cbrt(0.002*0.002/(hydraulics.Gravity*0.1*0.1)) // 34.42 mm
	for _, tc := range []struct {
		name          string
		roughness     float64
		minHead, maxH float64 // upstream depth as a multiple of √3·yc
	}{
		{"n 0.011", 0.011, 1.05, 1.3},
		{"nearly frictionless", 0.00001, 0.99, 1.01},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := mustCalc(t, body(t, exampleBody, m{"concreteChannel": m{"width": 100, "depth": 300, "roughness": tc.roughness}}))
			if !res.Calculated || res.Overflowed || res.WentSuperCritical || !res.Advanced {
				t.Fatalf("flags %+v", res)
			}
			if math.Abs(res.ChannelDischarge-2) > 1e-9 || math.Abs(res.Flow-2) > 1e-9 {
				t.Errorf("discharge %v l/s, flow %v, want 2", res.ChannelDischarge, res.Flow)
			}
			if math.Abs(res.OutletDepthMM-yc) > 0.01*yc {
				t.Errorf("outlet depth %v mm, want yc %v", res.OutletDepthMM, yc)
			}
			head := res.Segments[0].Slices[0]
			if head.DistanceM != 0 || head.FlowLS != 0 {
				t.Errorf("head slice %+v", head)
			}
			ratio := head.DepthMM / (math.Sqrt(3) * yc)
			if ratio < tc.minHead || ratio > tc.maxH {
				t.Errorf("head depth %v mm is %v × √3·yc, want %v to %v", head.DepthMM, ratio, tc.minHead, tc.maxH)
			}
			if math.Abs(res.Freeboard-(300-res.MaxDepthMM)) > 1e-9 || math.Abs(res.PercentageFull-res.MaxDepthMM/3) > 1e-9 {
				t.Errorf("freeboard %v, %% full %v for max depth %v", res.Freeboard, res.PercentageFull, res.MaxDepthMM)
			}
			// Slices every 0.5 m at most, the flow growing 0.1 l/s per metre.
			last := res.Segments[len(res.Segments)-1].Slices
			if end := last[len(last)-1]; end.DistanceM != 20 || math.Abs(end.FlowLS-2) > 1e-9 {
				t.Errorf("end slice %+v", end)
			}
			for _, s := range res.Segments {
				for i, sl := range s.Slices {
					if math.Abs(sl.FlowLS-0.1*sl.DistanceM) > 1e-9 || sl.DepthMM <= 0 || sl.TopLevelM-sl.InvertLevelM != 0.3 {
						t.Fatalf("slice %+v", sl)
					}
					if i > 0 && sl.DistanceM-s.Slices[i-1].DistanceM > 0.5+1e-9 {
						t.Fatalf("slices %v m apart", sl.DistanceM-s.Slices[i-1].DistanceM)
					}
				}
			}
			if res.CatchmentLengthMM != 20000 || res.ChannelInternalWidth != 100 || res.ChannelProductType != "M" || res.MaxDepthAtM != 0 {
				t.Errorf("results %+v", res)
			}
		})
	}
}

// In standard mode the design is the first channel of the catalogue's
// order (narrowest, then shallowest) that does not flood: each one before
// it floods when laid by hand. More rain never picks a smaller channel.
func TestStandardPicksSmallestThatDoesNotFlood(t *testing.T) {
	t.Parallel()
	cat := catalogue.Default()
	cands, err := cat.Candidates(catalogue.CandidateRequest{System: "fibre", Loading: "C250", Grating: "fibre-std-mesh", RunLengthM: 30})
	if err != nil {
		t.Fatal(err)
	}
	order := make([]string, len(cands))
	for i, c := range cands {
		order[i] = c.Parts[0].Slug
	}
	run := `{"channel_group": "fibre", "loading": "C250", "grating": "fibre-std-mesh", "channel_length_m": 30,
		"drainage_area_m2": 1500, "rainfall": {"rainfall_mm_per_hr": 50}, "ground_slope": 0.2}`
	prev := -1
	picked := map[int]bool{}
	for _, rain := range []float64{10, 30, 60, 100, 150, 200, 250, 300} {
		res := mustCalc(t, body(t, run, m{"rainfall": m{"rainfall_mm_per_hr": rain}}))
		if len(res.ChannelsUsed) != 1 || res.Overflowed || res.Configuration != "single-size" {
			t.Fatalf("%v mm/h: %+v", rain, res.ChannelsUsed)
		}
		i := slices.Index(order, res.ChannelsUsed[0].Slug)
		if i < prev {
			t.Errorf("%v mm/h picked %s, smaller than the %s of less rain", rain, order[i], order[prev])
		}
		prev = i
		picked[i] = true
		for j := 0; j <= i; j++ {
			byHand := mustCalc(t, body(t, run, m{"advanced": true, "rainfall": m{"rainfall_mm_per_hr": rain},
				"channels": []m{{"slug": order[j], "count": 30}}}))
			if byHand.Overflowed != (j < i) {
				t.Errorf("%v mm/h: design %s, but %s by hand overflowed=%v", rain, order[i], order[j], byHand.Overflowed)
			}
			if j == i && math.Abs(byHand.MaxDepthMM-res.MaxDepthMM) > 1e-9 {
				t.Errorf("%v mm/h: the design's depth %v differs from the same channel laid by hand %v", rain, res.MaxDepthMM, byHand.MaxDepthMM)
			}
		}
	}
	if len(picked) < 5 {
		t.Errorf("the rains picked only %v of %v", picked, order)
	}
	_, err = calc(t, body(t, run, m{"rainfall": m{"rainfall_mm_per_hr": 5000}}))
	var ce *CalculationError
	if !errors.As(err, &ce) || ce.Message != MsgNoChannel || !errors.Is(err, hydraulics.ErrNoChannel) {
		t.Errorf("absurd rain: %v", err)
	}
}

// A stepped design gets deeper toward the outlet, never floods, and uses
// no deeper channel at the outlet than the single-size design.
func TestStandardStepped(t *testing.T) {
	t.Parallel()
	run := `{"channel_group": "poly-100", "loading": "C250", "grating": "poly-100-slot-iron", "channel_length_m": 60.5,
		"drainage_area_m2": 800, "rainfall": {"rainfall_mm_per_hr": 50}, "stepped": true, "ground_slope": 0.5}`
	res := mustCalc(t, body(t, run, nil))
	single := mustCalc(t, body(t, run, m{"stepped": false}))
	if res.Overflowed || res.Configuration != "stepped" || len(res.Segments) < 2 {
		t.Fatalf("stepped design %+v", res.ChannelsUsed)
	}
	for i, s := range res.Segments[1:] {
		if s.FloorChangeMM < 49.99 || math.Abs(s.StepRaiseMM) > 1e-9 {
			t.Errorf("step %d: floor change %v, top raise %v", i+1, s.FloorChangeMM, s.StepRaiseMM)
		}
	}
	if last := res.ChannelsUsed[len(res.ChannelsUsed)-1]; last.Slug != single.ChannelsUsed[0].Slug {
		t.Errorf("stepped ends in %s, single size is %s", last.Slug, single.ChannelsUsed[0].Slug)
	}
	if res.TotalSystemVolume >= single.TotalSystemVolume {
		t.Errorf("stepped volume %v, single size %v", res.TotalSystemVolume, single.TotalSystemVolume)
	}
	total := 0
	for _, c := range res.ChannelsUsed {
		total += c.LengthMM
	}
	if total != 60500 || !slices.ContainsFunc(res.Warnings, func(w string) bool { return w != "" }) {
		t.Errorf("laid %d mm, warnings %v", total, res.Warnings)
	}
	steps := 0
	for _, l := range res.Connectors {
		if l.HAN == "10902" {
			steps = l.Count
		}
	}
	if steps != len(res.Segments)-1 {
		t.Errorf("%d step adaptors for %d steps", steps, len(res.Segments)-1)
	}
}

// The high-capacity system is always stepped, single size under
// controlled discharge; a built-in fall enters the series.
func TestStandardConfigurations(t *testing.T) {
	t.Parallel()
	hicap := `{"channel_group": "poly-hicap", "loading": "C250", "channel_length_m": 80, "drainage_area_m2": 3000,
		"rainfall": {"rainfall_mm_per_hr": 50}}`
	if res := mustCalc(t, body(t, hicap, nil)); res.Configuration != "stepped" || res.Overflowed {
		t.Errorf("high-capacity: %s %v", res.Configuration, res.ChannelsUsed)
	}
	_, leeds := leedsRainfall(t)
	if res := mustCalc(t, body(t, hicap, m{"controlled_outflow": 10, "rainfall": leeds})); res.Configuration != "single-size" || len(res.ChannelsUsed) != 1 {
		t.Errorf("high-capacity, controlled: %s %v", res.Configuration, res.ChannelsUsed)
	}
	if res := mustCalc(t, body(t, hicap, m{"calculation_method": "HRW"})); res.CalculationMethod != "HRW" || res.Overflowed {
		t.Errorf("high-capacity HRW: %+v", res.CalculationMethod)
	}
	fall := mustCalc(t, body(t, standardBody, m{"built_in_fall": true, "channel_length_m": 30, "drainage_area_m2": 400}))
	if fall.Configuration != "built-in-fall" || fall.Overflowed || fall.ChannelsUsed[0].Slug != "poly-100-01" {
		t.Errorf("built-in fall: %s %v", fall.Configuration, fall.ChannelsUsed)
	}
	if fall.Segments[1].FloorChangeMM != 0 || fall.InvertDepthMM != 200 {
		t.Errorf("built-in fall: floor change %v, invert depth %v", fall.Segments[1].FloorChangeMM, fall.InvertDepthMM)
	}
}

// The discharge settings change the outlet condition and the materials.
func TestDischargeSettings(t *testing.T) {
	t.Parallel()
	run := `{"advanced": true, "channel_group": "poly-100", "loading": "C250", "grating": "poly-100-slot-iron",
		"channel_length_m": 10, "drainage_area_m2": 720, "rainfall": {"rainfall_mm_per_hr": 60},
		"ground_slope": 0.5,
		"channels": [{"slug": "poly-100-30-0", "count": 10}]}`
	free := mustCalc(t, body(t, run, nil))
	// 12 l/s through a box rated 7.5 l/s: the level rises 1.56 times the
	// rated head above the invert, above critical depth.
	box := mustCalc(t, body(t, run, m{"dischargeSetting": "outflow-in-trashbox", "outflowTrashbox": 7.5}))
	endcap := mustCalc(t, body(t, run, m{"dischargeSetting": "end-cap-with-outlet", "outflowEndcap": firstEndCap(t, "poly-100-30-0")}))
	drilled := mustCalc(t, body(t, run, m{"dischargeSetting": "modification-last-element", "drilling": m{"position": "bottom", "hole_diameter_mm": 75, "hole_distance_mm": 200}}))
	if free.ChannelDischarge != 12 {
		t.Fatalf("discharge %v", free.ChannelDischarge)
	}
	for name, r := range map[string]*Results{"trash box": box, "end cap": endcap, "drilled": drilled} {
		if !(r.OutletDepthMM > free.OutletDepthMM) {
			t.Errorf("%s: outlet depth %v, free outfall %v", name, r.OutletDepthMM, free.OutletDepthMM)
		}
	}
	if len(box.Box) != 1 || box.Box[0].HAN != "10702" {
		t.Errorf("trash box materials %+v", box.Box)
	}
	if len(endcap.Endcaps) != 2 || len(free.Endcaps) != 1 {
		t.Errorf("end caps %+v (free outflow %+v)", endcap.Endcaps, free.Endcaps)
	}
	if d := drilled.Channel[len(drilled.Channel)-2].Description; d != "Polymer 100 Type 30.0, modified: outlet hole DN 75 in the bottom, centre 200 mm from the end" {
		t.Errorf("drilled element %q", d)
	}
	// A trash box whose outlet is rated at the flow holds the water at the
	// invert: the depth is critical, as with free outflow.
	big := mustCalc(t, body(t, run, m{"dischargeSetting": "outflow-in-trashbox", "outflowTrashbox": 15}))
	if math.Abs(big.OutletDepthMM-free.OutletDepthMM) > 1e-6 {
		t.Errorf("15 l/s box: outlet depth %v, free %v", big.OutletDepthMM, free.OutletDepthMM)
	}
}

func firstEndCap(t *testing.T, channel string) string {
	t.Helper()
	opts, err := catalogue.Default().EndCapsWithOutlet(channel)
	if err != nil || len(opts) == 0 {
		t.Fatalf("end caps of %s: %v %v", channel, opts, err)
	}
	return opts[0].ID
}

// Confirmed inflows enter at their distance from the head; unconfirmed
// ones are ignored. An irregular catchment delivers its areas' runoff.
func TestInflowsAndCatchment(t *testing.T) {
	t.Parallel()
	res := mustCalc(t, body(t, exampleBody, m{"inflows": []m{
		{"distance_m": 10, "flow_lps": 3, "connection": "direct-pipe"},
		{"distance_m": 5, "flow_lps": 50, "toBeConfirmed": true},
	}}))
	if math.Abs(res.ChannelDischarge-5) > 1e-9 {
		t.Errorf("discharge %v, want 2 + 3", res.ChannelDischarge)
	}
	for _, s := range res.Segments {
		for _, sl := range s.Slices {
			want := 0.1 * sl.DistanceM
			if sl.DistanceM > 10 {
				want += 3
			}
			if sl.DistanceM != 10 && math.Abs(sl.FlowLS-want) > 1e-9 {
				t.Fatalf("flow %v at %v m, want %v", sl.FlowLS, sl.DistanceM, want)
			}
		}
	}
	// 20 m × 4 m at 1 on the left, 10 m × 2 m at 0.5 on the right from 10 m:
	// (80 + 10) m² at 50 mm/h = 1.25 l/s.
	irr := mustCalc(t, body(t, exampleBody, m{"catchmentShape": "irregular", "drainage_area_m2": 100,
		"leftAreas":  []m{{"length_m": 20, "start_width_m": 4, "end_width_m": 4, "permeability": "Concrete Pavement"}},
		"rightAreas": []m{{"xOrigin": 10, "length_m": 10, "start_width_m": 2, "end_width_m": 2, "permeability": 0.5}},
	}))
	if math.Abs(irr.ChannelDischarge-1.25) > 1e-9 {
		t.Errorf("irregular catchment discharge %v, want 1.25", irr.ChannelDischarge)
	}
	slope := mustCalc(t, body(t, exampleBody, m{"slopeSetting": "elevation", "upperElevation": 10.1, "lowerElevation": 10}))
	if math.Abs(slope.InstalledGradient-0.5) > 1e-9 {
		t.Errorf("installed gradient %v, want 0.5 %%", slope.InstalledGradient)
	}
}

// A point product is checked against its outlet's capacity.
func TestPointProduct(t *testing.T) {
	t.Parallel()
	gully := `{"channel_group": "gully-450", "drainage_area_m2": 300, "rainfall": {"rainfall_mm_per_hr": 50}, "pipe_diameter_mm": 160}`
	small := mustCalc(t, body(t, gully, nil))
	if small.Overflowed || small.Point == nil || small.Point.CapacityLPS <= small.ChannelDischarge || math.Abs(small.Flow-300*50/3600.0) > 1e-9 {
		t.Fatalf("small area %+v %+v", small, small.Point)
	}
	if small.Channel[0].HAN != "71101" || len(small.Channel) != 1 {
		t.Errorf("materials %+v", small.Channel)
	}
	hat := mustCalc(t, body(t, gully, m{"has_body_extension": true}))
	if !(hat.Point.Capacities[0].OutletLPS > small.Point.Capacities[0].OutletLPS) || len(hat.Channel) != 2 {
		t.Errorf("extension hat: outlet %v vs %v, materials %+v", hat.Point.Capacities[0].OutletLPS, small.Point.Capacities[0].OutletLPS, hat.Channel)
	}
	noHat := mustCalc(t, body(t, gully, m{"pipe_diameter_mm": 250, "has_body_extension": true}))
	if noHat.Point.ExtensionHat || len(noHat.Warnings) == 0 {
		t.Errorf("DN 250 takes no extension hat: %+v", noHat.Point)
	}
	big := mustCalc(t, body(t, gully, m{"drainage_area_m2": 5000, "water_inflow": 10}))
	if !big.Overflowed || big.PercentageFull <= 100 {
		t.Errorf("large area: %+v", big.Point)
	}
}

// The materials of a 20.5 m run of 1 m elements: 20 whole elements, one
// cut to 500 mm, 41 gratings of 500 mm, a head end cap; the same through a
// calculation and through the materials call with the profile.
func TestMaterials20_5m(t *testing.T) {
	t.Parallel()
	res := mustCalc(t, body(t, standardBody, m{"channel_length_m": 20.5}))
	want := []catalogue.MaterialLine{
		{HAN: "10091", Description: "Polymer 100 Type 10.0", Count: 20, Sort: 1, LengthMM: 1000, Text: catalogue.LineText{Designation: "Polymer 100 Type 10.0"}},
		{HAN: "10091", Description: "Polymer 100 Type 10.0, cut to 500 mm", Count: 1, Sort: 2, LengthMM: 500, Text: catalogue.LineText{Designation: "Polymer 100 Type 10.0", CutToMM: 500}},
		{HAN: "10504", Description: "Slotted grating, ductile iron, bolted, 100 mm wide, 500 mm long", Count: 41, Sort: 3, LengthMM: 500,
			Text: catalogue.LineText{Key: "catalogue.grating.poly-100-slot-iron", GratingWidthMM: 100, GratingLengthMM: 500}},
	}
	if !slices.Equal(res.Channel, want) {
		t.Fatalf("channel list %+v\nwant %+v", res.Channel, want)
	}
	segs := make([]m, len(res.Segments))
	for i, s := range res.Segments {
		segs[i] = m{"length_mm": s.LengthMM, "channelDescription": s.Description}
	}
	raw, _ := json.Marshal(m{"preferred_language": "en", "channel_length_m": 20.5, "loading": "C250", "throat": "poly-100-slot-iron",
		"profile":     m{"catchmentLength_mm": 20500, "segments": segs},
		"accessories": []m{{"type": "access-box", "distance_m": 10}, {"type": "trash-box", "distance_m": 5, "toBeConfirmed": true}}})
	mr, err := DecodeMaterialsRequest(raw)
	if err != nil {
		t.Fatal(err)
	}
	mats, err := Materials(catalogue.Default(), mr)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(mats.Channel, want) || len(mats.Endcaps) != 1 || len(mats.Box) != 1 || mats.Box[0].Count != 1 {
		t.Errorf("materials call %+v", mats)
	}
	if _, err := Materials(catalogue.Default(), &MaterialsRequest{}); err == nil {
		t.Error("materials of no profile")
	}
}

// Two runs: the first's outflow enters the second's trash box, both are
// calculated; a pair flowing into each other is refused.
func TestShared(t *testing.T) {
	t.Parallel()
	main := body(t, exampleBody, m{"id": "run-a", "outflowTrashbox": "run-b"})
	second := body(t, standardBody, m{"id": "run-b", "channel_length_m": 30, "drainage_area_m2": 300,
		"accessories": []m{{"type": "trash-box", "distance_m": 10}}})
	raw, _ := json.Marshal(m{"main": main, "second": second})
	sr, err := DecodeSharedRequest(raw)
	if err != nil {
		t.Fatal(err)
	}
	ans, err := CalculateShared(catalogue.Default(), sr)
	if err != nil {
		t.Fatal(err)
	}
	alone := mustCalc(t, second)
	if math.Abs(ans.Main.Results.ChannelDischarge-2) > 1e-9 || math.Abs(ans.Second.Results.ChannelDischarge-alone.ChannelDischarge-2) > 1e-9 {
		t.Errorf("main %v l/s, second %v l/s (alone %v)", ans.Main.Results.ChannelDischarge, ans.Second.Results.ChannelDischarge, alone.ChannelDischarge)
	}
	// The box stands 10 m from the discharge: 20 m from the head.
	for _, s := range ans.Second.Results.Segments {
		for _, sl := range s.Slices {
			if sl.DistanceM > 20.001 && math.Abs(sl.FlowLS-alone.ChannelDischarge*sl.DistanceM/30-2) > 1e-9 {
				t.Fatalf("flow %v at %v m", sl.FlowLS, sl.DistanceM)
			}
		}
	}
	if len(ans.Main.Results.Box) != 0 {
		t.Errorf("the box is the second run's: %+v", ans.Main.Results.Box)
	}
	// Either side may name the other.
	swapped := &SharedRequest{Main: sr.Second, Second: sr.Main}
	if ans2, err := CalculateShared(catalogue.Default(), swapped); err != nil || ans2.Second.Results.ChannelDischarge != ans.Main.Results.ChannelDischarge {
		t.Errorf("swapped: %v", err)
	}
	circular := body(t, standardBody, m{"id": "run-b", "outflowTrashbox": "run-a"})
	_, err = CalculateShared(catalogue.Default(), &SharedRequest{Main: decoded(t, main), Second: decoded(t, circular)})
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Errorf("circular chain: %v", err)
	}
	if _, err := DecodeSharedRequest([]byte(`{"main": {}}`)); err == nil {
		t.Error("a shared calculation without its second run")
	}
}

func decoded(t testing.TB, b map[string]any) *Request {
	t.Helper()
	raw, _ := json.Marshal(b)
	r, err := DecodeRequest(raw)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Every system is offered where it is sold, and only there.
func TestSystemsFor(t *testing.T) {
	t.Parallel()
	cat := catalogue.Default()
	for _, iso := range []string{"GB", "DE", "AE", "AU", "BG", "PT", "US"} {
		list, err := SystemsFor(cat, iso)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range cat.Systems() {
			listed := slices.ContainsFunc(list, func(v catalogue.SelectedSystem) bool { return v.Slug == s.Slug })
			if listed != s.AvailableIn(iso) {
				t.Errorf("%s: %s listed %v, sold %v", iso, s.Slug, listed, s.AvailableIn(iso))
			}
		}
	}
}

// The summary a project keeps has everything but the slices.
func TestSummary(t *testing.T) {
	t.Parallel()
	res := mustCalc(t, body(t, exampleBody, nil))
	s, err := Summary(res)
	if err != nil {
		t.Fatal(err)
	}
	var segs []map[string]any
	if err := json.Unmarshal(s["segments"], &segs); err != nil || len(segs) != 1 || segs[0]["slices"] != nil || segs[0]["length_mm"] != 20000.0 {
		t.Errorf("segments %s: %v", s["segments"], err)
	}
	if string(s["calculated"]) != "true" || string(s["channel_discharge"]) != "2" {
		t.Errorf("summary %v", s)
	}
}

// The summary's fields are split from the encoded results as
// json.Unmarshal would split them, for runs of every kind.
func TestSummaryFieldsAsUnmarshalGives(t *testing.T) {
	t.Parallel()
	for _, run := range []string{exampleBody, standardBody} {
		res := mustCalc(t, body(t, run, nil))
		rest := *res
		rest.Segments = nil
		all, err := json.Marshal(&rest)
		if err != nil {
			t.Fatal(err)
		}
		var want map[string]json.RawMessage
		if err := json.Unmarshal(all, &want); err != nil {
			t.Fatal(err)
		}
		got := topLevelFields(all)
		if len(got) != len(want) {
			t.Errorf("%d fields, want %d", len(got), len(want))
		}
		for k, v := range want {
			if string(got[k]) != string(v) {
				t.Errorf("field %s = %s, want %s", k, got[k], v)
			}
		}
	}
	// Escaped keys and nested values come out as Unmarshal gives them.
	obj := []byte(`{"a\u0062":[1,{"x":"y"}],"s":"q\"","n":null}`)
	var want map[string]json.RawMessage
	_ = json.Unmarshal(obj, &want)
	got := topLevelFields(obj)
	if len(got) != 3 || string(got["ab"]) != string(want["ab"]) || string(got["s"]) != string(want["s"]) || string(got["n"]) != "null" {
		t.Errorf("topLevelFields(%s) = %v, want %v", obj, got, want)
	}
}

// A trash box discharge is chosen from the system's list; standard mode
// passes over the widths that have no box of that discharge.
func TestStandardTrashBoxChoice(t *testing.T) {
	t.Parallel()
	run := `{"channel_group": "fibre", "loading": "C250", "grating": "fibre-std-mesh", "channel_length_m": 20,
		"drainage_area_m2": 200, "rainfall": {"rainfall_mm_per_hr": 50}, "dischargeSetting": "outflow-in-trashbox"}`
	for _, tc := range []struct {
		box   any
		width int
		han   string
	}{{nil, 100, "20701"}, {15, 150, ""}, {25, 200, ""}, {38, 300, ""}} {
		res := mustCalc(t, body(t, run, m{"outflowTrashbox": tc.box}))
		if res.ChannelInternalWidth != float64(tc.width) || len(res.Box) != 1 || (tc.han != "" && res.Box[0].HAN != tc.han) {
			t.Errorf("box %v: width %v, boxes %+v", tc.box, res.ChannelInternalWidth, res.Box)
		}
	}
	_, err := calc(t, body(t, run, m{"outflowTrashbox": 60}))
	var ce *CalculationError
	if !errors.As(err, &ce) || ce.Message != MsgNoTrashBoxes {
		t.Errorf("a discharge no width offers: %v", err)
	}
}
