package app

import (
	"net/http"
	"strings"
	"testing"

	"draindesign/domain/catalogue"
	"draindesign/domain/design"
	"draindesign/domain/storage"
)

// Issue 10: the controlled discharge dialog's design carries over into
// the run. Over HTTP, as the client works: the dialog's call sizes the
// storage (docs/rainfall.md 11.2's Leeds example, 50 m, 300 m², 2 l/s), its
// Confirm keeps the design in the run and calculates it into the project;
// the run's results carry the same channel, orifice, critical duration,
// storage volume and outflow as the dialog showed, its materials the end
// cap holding the orifice plate; a save (which recalculates, never trusting
// the client's results), the load of the saved run and a recalculation all
// answer the same.
func TestControlledDischargeCarriesOver(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.signUp(t, "storer")
	var leeds rainAnswer
	u.must(http.StatusOK, "POST", "/api/rainfall/findRainStats/",
		map[string]any{"latitude": 53.80, "longitude": -1.55, "stormDuration": 30, "returnPeriod": 30, "climateFactor": 0}, &leeds)
	rain := map[string]any{
		"rainfall_mm_per_hr": leeds.RainfallIntensity, "storm_duration": 30, "return_period": 30, "climate_change_factor": 0,
		"M5": leeds.M5, "r": leeds.R, "fiveMinuteRate": leeds.Intensity[0][1], "fifteenMinuteRate": leeds.Intensity[2][1],
		"sixtyMinuteRate": leeds.Intensity[4][1], "location_id": leeds.LocationID, "LocationIndex": leeds.LocationIndex,
		"town": leeds.Town, "override": false, "intensities": leeds.Intensity,
	}
	var st storage.Result
	u.must(http.StatusOK, "POST", "/api/drainage/calculate_storage/", map[string]any{
		"rainfall": rain, "channel_length_m": 50, "catchment_area_m2": 300, "permeability": 1, "controlled_outflow": 2,
		"channel_group": "poly-hicap", "loading": "C250", "ground_slope": 0,
	}, &st)
	if st.Flooded || !st.Restricted || st.Channel == "" {
		t.Fatalf("the dialog's design: %+v", st)
	}

	var d draft
	u.must(http.StatusCreated, "POST", "/api/projects/", map[string]any{}, &d)
	run := map[string]any{
		"name": "Run 1", "channel_group": "poly-hicap", "selectedSystem": map[string]any{"slug": "poly-hicap", "product_type": "C"},
		"loading": "C250", "channel_length_m": 50, "drainage_area_m2": 300, "catchmentShape": "uniform", "permeability": 1,
		"slopeSetting": "slope", "ground_slope": 0, "dischargeSetting": "free-outflow", "stepped": false, "rainfall": rain,
		"controlled_outflow":   2,
		"controlled_discharge": map[string]any{"flooded": st.Flooded, "channel": st.Channel, "orifice_diameter_mm": st.OrificeDiameterMM},
		"controlled_discharge_details": map[string]any{
			"channel": st.Channel, "channel_name": st.ChannelName, "max_depth_mm": st.MaxDepthMM, "orifice_diameter_mm": st.OrificeDiameterMM,
		},
	}
	inProject := func() map[string]any {
		b := map[string]any{"project_id": d.ID, "run_id": d.RunID}
		for k, v := range run {
			b[k] = v
		}
		return b
	}
	var calc struct {
		Results design.Results `json:"results"`
	}
	u.must(http.StatusOK, "POST", "/api/drainage/calculate/", inProject(), &calc)
	checkControlled(t, "calculated", &calc.Results, st)

	// The save recalculates: the client's results, forged here, are not kept.
	forged := map[string]any{"calculated": true, "largest_channel": "High-Capacity 150 H400", "controlled": map[string]any{"orifice_diameter_mm": 999}}
	saving := map[string]any{"results": forged}
	for k, v := range run {
		saving[k] = v
	}
	var saved saveAnswer
	u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"details": map[string]any{"name": "Storage yard"}, "runs": []any{saving}}}, &saved)
	var loaded struct {
		Run struct {
			Results design.Results `json:"results"`
		} `json:"run"`
	}
	u.must(http.StatusOK, "GET", "/api/drainage/load/"+saved.SaveID+"."+saved.RunSaveIDs[0]+"/", nil, &loaded)
	checkControlled(t, "saved and loaded", &loaded.Run.Results, st)

	// The saved project's run, calculated again.
	again := map[string]any{"project_id": saved.SaveID, "run_id": saved.RunSaveIDs[0]}
	for k, v := range run {
		again[k] = v
	}
	calc.Results = design.Results{}
	u.must(http.StatusOK, "POST", "/api/drainage/calculate/", again, &calc)
	checkControlled(t, "recalculated", &calc.Results, st)
}

func checkControlled(t *testing.T, when string, r *design.Results, st storage.Result) {
	t.Helper()
	c := r.Controlled
	if c == nil {
		t.Fatalf("%s: no controlled result in %+v", when, r)
	}
	if c.Channel != st.Channel || c.ChannelName != st.ChannelName || c.OrificeDiameterMM != st.OrificeDiameterMM ||
		c.CriticalDurationMin != st.CriticalDurationMin || c.StorageVolumeM3 != st.MaxStoredM3 || c.ControlledOutflowLS != st.ControlledOutflowLS ||
		c.MaxDepthMM != st.MaxDepthMM || c.ChannelCapacityM3 != st.ChannelCapacityM3 {
		t.Errorf("%s: controlled %+v, the dialog answered %+v", when, c, st)
	}
	if len(c.WaterLevel) < 2 || c.WaterLevel[len(c.WaterLevel)-1].DepthMM != st.MaxDepthMM || c.WaterLevel[len(c.WaterLevel)-1].DistanceM != 50 {
		t.Errorf("%s: water level %v, want %g mm at the outlet (50 m)", when, c.WaterLevel, st.MaxDepthMM)
	}
	if r.LargestChannel != st.ChannelName || len(r.ChannelsUsed) != 1 || r.ChannelsUsed[0].Slug != st.Channel {
		t.Errorf("%s: laid in %s %v, want %s", when, r.LargestChannel, r.ChannelsUsed, st.ChannelName)
	}
	var plate *catalogue.MaterialLine
	for i, l := range r.Endcaps {
		if strings.Contains(l.Description, "orifice plate") {
			plate = &r.Endcaps[i]
		}
	}
	if plate == nil || plate.HAN == "" || plate.Count != 1 {
		t.Errorf("%s: end caps %+v, want the end cap with outlet holding the orifice plate, with its article", when, r.Endcaps)
	}
}
