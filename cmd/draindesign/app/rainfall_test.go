package app

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"math"
	"net/http"
	"strings"
	"testing"

	"draindesign/domain/rainfall"
	"draindesign/domain/storage"
)

// signUpIn registers a user of the country, confirms by the mailed link
// and logs in, as signUp does for GB.
func signUpIn(t *testing.T, p *product, name, country string) *user {
	t.Helper()
	u := p.newUser(t)
	reg := registration(name)
	reg["country"] = country
	u.must(http.StatusCreated, "POST", "/api/drainage/register/", reg, nil)
	req, _ := http.NewRequest("GET", mailedLink(t, p.opts.DataDir, name+"@example.com"), nil)
	resp, err := u.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	u.must(http.StatusOK, "POST", "/api/auth/login/", map[string]string{"username": name, "password": "a long password"}, nil)
	return u
}

// rainAnswer is the answer of both rainfall calls as the dialog reads it.
type rainAnswer struct {
	Town              string         `json:"town"`
	LocationID        int            `json:"rainfallLocationId"`
	LocationIndex     string         `json:"LocationIndex"`
	RainfallIntensity float64        `json:"rainfallIntensity"`
	M5                float64        `json:"M5"`
	R                 float64        `json:"r"`
	Intensity         [][2]float64   `json:"intensity"`
	LatLng            map[string]any `json:"latlng"`
	Source            string         `json:"source"`
	Indicative        bool           `json:"indicative"`
}

type errAnswer struct {
	Error string `json:"error"`
	Field string `json:"field"`
}

// The rainfall map's calls over HTTP (design-tool.md sections 2 and 7;
// the model's figures are docs/rainfall.md's): a UK point answers with its
// town, M5-60, r and the eight-row table, open to any signed-in user
// whatever their country; the sea and abroad are refused with the model's
// words; an update recomputes with the designer's M5-60 and r.
func TestRainfallCalls(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.signUp(t, "rainuser")

	var leeds rainAnswer
	u.must(http.StatusOK, "POST", "/api/rainfall/findRainStats/",
		map[string]any{"latitude": 53.80, "longitude": -1.55, "stormDuration": 30, "returnPeriod": 30, "climateFactor": 0}, &leeds)
	if leeds.Town != "Leeds" || leeds.LocationIndex != "SE2933" || !leeds.Indicative || !strings.Contains(leeds.Source, "NRFA") {
		t.Errorf("Leeds: %+v", leeds)
	}
	if !(leeds.M5 >= 12 && leeds.M5 <= 22 && leeds.R >= 0.12 && leeds.R <= 0.45) {
		t.Errorf("Leeds: M5-60 %g mm, r %g outside the UK range of the FSR maps", leeds.M5, leeds.R)
	}
	if len(leeds.Intensity) != 8 {
		t.Fatalf("Leeds: %d rows in the table, want 8", len(leeds.Intensity))
	}
	for i, row := range leeds.Intensity {
		if row[0] != rainfall.TableDurations[i] || (i > 0 && row[1] >= leeds.Intensity[i-1][1]) {
			t.Errorf("Leeds: row %d is %v", i, row)
		}
		want := rainfall.Intensity(leeds.M5, leeds.R, row[0], 30, 0, rainfall.EnglandWales)
		if math.Abs(row[1]-want) > 0.0005 {
			t.Errorf("Leeds: %g min at %g mm/h, the FSR model gives %.3f", row[0], row[1], want)
		}
	}
	if leeds.RainfallIntensity != leeds.Intensity[3][1] {
		t.Errorf("Leeds: 30 min intensity %g, table row %g", leeds.RainfallIntensity, leeds.Intensity[3][1])
	}

	// Any signed-in user: a Belgian one too.
	be := signUpIn(t, p, "belgian", "BE")
	var me struct {
		User struct {
			Country struct {
				ISOCode string `json:"iso_code"`
			} `json:"country"`
		} `json:"user"`
	}
	be.must(http.StatusOK, "GET", "/api/auth/me/", nil, &me)
	if me.User.Country.ISOCode != "BE" {
		t.Fatalf("the Belgian user is in %q", me.User.Country.ISOCode)
	}
	be.must(http.StatusOK, "POST", "/api/rainfall/findRainStats/",
		map[string]any{"latitude": 51.51, "longitude": -0.13, "stormDuration": 60, "returnPeriod": 10, "climateFactor": 20}, nil)
	anon := p.newUser(t)
	anon.must(http.StatusUnauthorized, "POST", "/api/rainfall/findRainStats/", map[string]any{"latitude": 53.8, "longitude": -1.55}, nil)

	for _, c := range []struct {
		name string
		body any
		want string
	}{
		{"North Sea", map[string]any{"latitude": 54.5, "longitude": 2.5, "stormDuration": 30, "returnPeriod": 30, "climateFactor": 0}, rainfall.MsgInSea},
		{"Paris", map[string]any{"latitude": 48.85, "longitude": 2.35, "stormDuration": 30, "returnPeriod": 30, "climateFactor": 0}, rainfall.MsgOutsideUK},
		{"no duration", map[string]any{"latitude": 53.8, "longitude": -1.55, "returnPeriod": 30, "climateFactor": 0}, "stormDuration must be between 1 and 2880 minutes (got 0)"},
		{"return period", map[string]any{"latitude": 53.8, "longitude": -1.55, "stormDuration": 30, "returnPeriod": 500, "climateFactor": 0}, "returnPeriod must be between 1 and 200 years (got 500)"},
		{"no position", map[string]any{"stormDuration": 30, "returnPeriod": 30}, "latitude and longitude are required"},
		{"text", `{"latitude": "north", "longitude": 1}`, `Field "latitude" must be a number, not string`},
		{"unknown field", map[string]any{"latitude": 53.8, "longitude": -1.55, "zoom": 7}, `Unknown field "zoom"`},
	} {
		var e errAnswer
		u.must(http.StatusBadRequest, "POST", "/api/rainfall/findRainStats/", c.body, &e)
		if e.Error != c.want {
			t.Errorf("%s: error %q, want %q", c.name, e.Error, c.want)
		}
	}

	var upd rainAnswer
	u.must(http.StatusOK, "POST", "/api/rainfall/updateRainStats/",
		map[string]any{"r": 0.4, "M5": 20.5, "LocationIndex": leeds.LocationIndex, "stormDuration": 30, "returnPeriod": 30, "climateFactor": 0}, &upd)
	if upd.M5 != 20.5 || upd.R != 0.4 || upd.Indicative || upd.LocationIndex != leeds.LocationIndex || upd.Town != "Leeds" {
		t.Errorf("update: %+v", upd)
	}
	want := rainfall.Intensity(20.5, 0.4, 30, 30, 0, rainfall.EnglandWales)
	if math.Abs(upd.RainfallIntensity-want) > 0.0005 || upd.RainfallIntensity == leeds.RainfallIntensity {
		t.Errorf("update: %g mm/h, want %.3f (and not the field's %g)", upd.RainfallIntensity, want, leeds.RainfallIntensity)
	}
	var same rainAnswer
	u.must(http.StatusOK, "POST", "/api/rainfall/updateRainStats/",
		map[string]any{"r": leeds.R, "M5": leeds.M5, "LocationIndex": leeds.LocationIndex, "stormDuration": 30, "returnPeriod": 30, "climateFactor": 0}, &same)
	if same.RainfallIntensity != leeds.RainfallIntensity {
		t.Errorf("update with the field's own values: %g mm/h, find gave %g", same.RainfallIntensity, leeds.RainfallIntensity)
	}
	for _, c := range []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"r", map[string]any{"r": 0.9, "M5": 20, "LocationIndex": "SE2933", "stormDuration": 30, "returnPeriod": 30}, "r"},
		{"grid reference", map[string]any{"r": 0.4, "M5": 20, "LocationIndex": "Leeds", "stormDuration": 30, "returnPeriod": 30}, "LocationIndex"},
	} {
		var e errAnswer
		u.must(http.StatusBadRequest, "POST", "/api/rainfall/updateRainStats/", c.body, &e)
		if e.Field != c.field || !strings.HasPrefix(e.Error, c.field+" ") {
			t.Errorf("update %s: %+v", c.name, e)
		}
	}
}

// The controlled-discharge call over HTTP with the run's rainfall as the
// map filled it: an answer with the spec's fields and two PNGs, the
// orifice law holding at the answered head; refusals name their field.
func TestCalculateStorageCall(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	u := p.signUp(t, "storageuser")
	var leeds rainAnswer
	u.must(http.StatusOK, "POST", "/api/rainfall/findRainStats/",
		map[string]any{"latitude": 53.80, "longitude": -1.55, "stormDuration": 30, "returnPeriod": 30, "climateFactor": 0}, &leeds)
	run := func(area, q float64) map[string]any {
		return map[string]any{
			"rainfall": map[string]any{
				"rainfall_mm_per_hr": leeds.RainfallIntensity, "storm_duration": 30, "return_period": 30, "climate_change_factor": 0,
				"M5": leeds.M5, "r": leeds.R, "fiveMinuteRate": leeds.Intensity[0][1], "fifteenMinuteRate": leeds.Intensity[2][1],
				"sixtyMinuteRate": leeds.Intensity[4][1], "location_id": leeds.LocationID, "LocationIndex": leeds.LocationIndex,
				"town": leeds.Town, "override": false, "intensities": leeds.Intensity,
			},
			"channel_length_m": 50, "catchment_area_m2": area, "permeability": 1, "controlled_outflow": q, "channel_group": "poly-hicap",
		}
	}
	var ans storage.Result
	u.must(http.StatusOK, "POST", "/api/drainage/calculate_storage/", run(300, 2), &ans)
	if ans.Flooded || ans.ChannelName == "" || ans.CriticalDurationMin <= 5 || ans.CriticalDurationMin >= 2880 ||
		ans.ChannelCapacityM3 <= 0 || ans.MinimumFreeBoardM <= 0 || ans.CriticalRainfallMMH <= 0 || ans.ControlledOutflowLS != 2 {
		t.Errorf("300 m² at 2 l/s: %+v", ans)
	}
	if q := storage.OrificeFlow(ans.OrificeDiameterMM, ans.MaxWaterDepthM); math.Abs(q-2) > 0.01 {
		t.Errorf("a %g mm orifice at %g m passes %.3f l/s, not 2", ans.OrificeDiameterMM, ans.MaxWaterDepthM, q)
	}
	for name, b64 := range map[string]string{"storage_graph": ans.StorageGraph, "x_section_image": ans.XSectionImage} {
		raw, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := png.Decode(bytes.NewReader(raw)); err != nil {
			t.Errorf("%s: not a PNG: %v", name, err)
		}
	}
	var flooded storage.Result
	u.must(http.StatusOK, "POST", "/api/drainage/calculate_storage/", run(1500, 0.1), &flooded)
	if !flooded.Flooded || flooded.Note == "" {
		t.Errorf("1500 m² at 0.1 l/s: flooded %v, note %q", flooded.Flooded, flooded.Note)
	}

	for _, c := range []struct {
		name  string
		edit  func(map[string]any)
		field string
	}{
		{"length", func(b map[string]any) { b["channel_length_m"] = 0 }, "channel_length_m"},
		{"area", func(b map[string]any) { delete(b, "catchment_area_m2") }, "catchment_area_m2"},
		{"r15", func(b map[string]any) { b["rainfall"].(map[string]any)["fifteenMinuteRate"] = 0 }, "rainfall.fifteenMinuteRate"},
		{"storm", func(b map[string]any) { b["rainfall"].(map[string]any)["storm_duration"] = -5 }, "rainfall.storm_duration"},
		{"system", func(b map[string]any) { b["channel_group"] = "fibre" }, "channel_group"},
		{"outflow", func(b map[string]any) { b["controlled_outflow"] = 0 }, "controlled_outflow"},
	} {
		b := run(300, 2)
		c.edit(b)
		var e errAnswer
		u.must(http.StatusBadRequest, "POST", "/api/drainage/calculate_storage/", b, &e)
		if e.Field != c.field || e.Error == "" {
			t.Errorf("%s: %+v, want a refusal of %s", c.name, e, c.field)
		}
	}
	// The high-capacity system is not sold in Australia (docs/catalogue.md).
	var e0 errAnswer
	signUpIn(t, p, "aussie", "AU").must(http.StatusBadRequest, "POST", "/api/drainage/calculate_storage/", run(300, 2), &e0)
	if e0.Field != "channel_group" || !strings.Contains(e0.Error, "not sold in AU") {
		t.Errorf("Australian user: %+v", e0)
	}
	b := run(300, 2)
	b["grating"] = "x"
	var e errAnswer
	u.must(http.StatusBadRequest, "POST", "/api/drainage/calculate_storage/", b, &e)
	if e.Error != `Unknown field "grating"` {
		t.Errorf("unknown field: %q", e.Error)
	}
}
