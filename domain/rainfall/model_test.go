package rainfall

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"
)

func TestFindAnswer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		q        Query
		town     string
		ref      string
		region   Region
		standIn  bool
		extrapol bool
	}{
		{"London", Query{51.51, -0.13, 30, 30, 0}, "London", "TQ2980", EnglandWales, false, false},
		{"Sheffield", Query{53.38, -1.47, 60, 100, 20}, "Sheffield", "SK3587", EnglandWales, false, false},
		{"Cardiff", Query{51.48, -3.18, 15, 5, 10}, "Cardiff", "ST1876", EnglandWales, false, false},
		{"Penzance", Query{50.12, -5.54, 5, 2, 0}, "Penzance", "SW4730", EnglandWales, false, false},
		{"Edinburgh", Query{55.95, -3.19, 60, 100, 40}, "Edinburgh", "NT2573", Scotland, true, false},
		{"Belfast", Query{54.60, -5.93, 5, 1, 0}, "Belfast", "NW4629", NorthernIreland, true, false},
		{"Lerwick", Query{60.15, -1.15, 15, 10, 20}, "Lerwick", "HU4740", Scotland, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			a, err := Default().Find(c.q)
			if err != nil {
				t.Fatal(err)
			}
			if a.Town != c.town || a.LocationIndex != c.ref || a.Region != c.region {
				t.Errorf("town %q cell %q region %q; want %q, %q, %q", a.Town, a.LocationIndex, a.Region, c.town, c.ref, c.region)
			}
			e, n, err := ParseGridRef(a.LocationIndex)
			if err != nil || a.RainfallLocationID != int(e/1000)*10000+int(n/1000) {
				t.Errorf("rainfallLocationId %d does not name cell %s", a.RainfallLocationID, a.LocationIndex)
			}
			if a.LatLng != (LatLng{c.q.Latitude, c.q.Longitude}) {
				t.Errorf("latlng %+v, want the query's point", a.LatLng)
			}
			est, _ := Default().Estimate(c.q.Latitude, c.q.Longitude)
			if a.M5 != est.M5 || a.R != est.R {
				t.Errorf("M5 %v r %v; the field says %v, %v", a.M5, a.R, est.M5, est.R)
			}
			want := round(Intensity(a.M5, a.R, c.q.StormDuration, c.q.ReturnPeriod, c.q.ClimateFactor, a.Region), 3)
			if a.RainfallIntensity != want || want <= 0 {
				t.Errorf("rainfallIntensity %v, want %v", a.RainfallIntensity, want)
			}
			if len(a.Intensity) != len(TableDurations) {
				t.Fatalf("%d rows in the intensity table", len(a.Intensity))
			}
			for i, p := range a.Intensity {
				w := round(Intensity(a.M5, a.R, TableDurations[i], c.q.ReturnPeriod, c.q.ClimateFactor, a.Region), 3)
				if p.Minutes != TableDurations[i] || p.MMPerHour != w {
					t.Errorf("row %d = %+v, want [%g, %v]", i, p, TableDurations[i], w)
				}
				if p.Minutes == c.q.StormDuration && p.MMPerHour != a.RainfallIntensity {
					t.Errorf("table row for %g min %v differs from rainfallIntensity %v", p.Minutes, p.MMPerHour, a.RainfallIntensity)
				}
			}
			if !a.Indicative || !strings.HasPrefix(a.Source, "Indicative: interpolated from NRFA catchment rainfall") ||
				!strings.Contains(a.Source, "override with FSR values") || !strings.Contains(a.Source, "National River Flow Archive") {
				t.Errorf("indicative %v, source %q", a.Indicative, a.Source)
			}
			if got := strings.Contains(a.Source, "stand-in"); got != c.standIn {
				t.Errorf("source names the growth stand-in: %v, want %v: %q", got, c.standIn, a.Source)
			}
			if got := strings.Contains(a.Source, "extrapolated"); got != c.extrapol {
				t.Errorf("source says extrapolated: %v, want %v: %q", got, c.extrapol, a.Source)
			}
		})
	}
}

// The answer's JSON names are those of the spec's call answers, plus
// source, indicative and region; the table rows are [minutes, mm/h] pairs.
func TestAnswerJSON(t *testing.T) {
	t.Parallel()
	a, err := Default().Find(Query{Latitude: 52.94, Longitude: -1.43, StormDuration: 30, ReturnPeriod: 30})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	want := []string{"LocationIndex", "M5", "indicative", "intensity", "latlng", "r", "rainfallIntensity", "rainfallLocationId", "region", "source", "town", "uncertainty"}
	if !slices.Equal(keys, want) {
		t.Fatalf("keys %v, want %v", keys, want)
	}
	var rows [][]float64
	if err := json.Unmarshal(m["intensity"], &rows); err != nil || len(rows) != 8 || len(rows[0]) != 2 || rows[0][0] != 5 || rows[7][0] != 480 {
		t.Fatalf("intensity %s: %v", m["intensity"], err)
	}
	if string(m["latlng"]) != `{"lat":52.94,"lng":-1.43}` {
		t.Fatalf("latlng %s", m["latlng"])
	}
	var back Answer
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Intensity, a.Intensity) || back.M5 != a.M5 || back.Region != a.Region {
		t.Fatalf("round trip changed the answer: %+v", back)
	}
	if err := json.Unmarshal([]byte(`{"intensity":[[5]]}`), &back); err != nil {
		// A short pair decodes to zero minutes; anything not an array fails.
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`{"intensity":["5 min"]}`), &back); err == nil {
		t.Fatal("a row that is not a pair was accepted")
	}
}

func TestQueryJSONNames(t *testing.T) {
	t.Parallel()
	var q Query
	if err := json.Unmarshal([]byte(`{"latitude":53.38,"longitude":-1.47,"stormDuration":30,"returnPeriod":30,"climateFactor":20}`), &q); err != nil {
		t.Fatal(err)
	}
	if q != (Query{53.38, -1.47, 30, 30, 20}) {
		t.Fatalf("decoded %+v", q)
	}
	var u UpdateQuery
	if err := json.Unmarshal([]byte(`{"r":0.4,"M5":20.5,"LocationIndex":"SK3587","stormDuration":30,"returnPeriod":30,"climateFactor":20}`), &u); err != nil {
		t.Fatal(err)
	}
	if u != (UpdateQuery{0.4, 20.5, "SK3587", 30, 30, 20}) {
		t.Fatalf("decoded %+v", u)
	}
}

// updateRainStats with the values findRainStats gave must give the same
// intensities, so that a designer who reopens the dialog sees no change.
func TestUpdateWithFoundValuesRepeatsFind(t *testing.T) {
	t.Parallel()
	for _, q := range []Query{
		{51.51, -0.13, 30, 30, 0}, {55.95, -3.19, 60, 100, 40}, {54.60, -5.93, 5, 1, 0}, {50.12, -5.54, 240, 200, 15},
	} {
		f, err := Default().Find(q)
		if err != nil {
			t.Fatal(err)
		}
		u, err := Default().Update(UpdateQuery{R: f.R, M5: f.M5, LocationIndex: f.LocationIndex, StormDuration: q.StormDuration, ReturnPeriod: q.ReturnPeriod, ClimateFactor: q.ClimateFactor})
		if err != nil {
			t.Fatal(err)
		}
		if u.RainfallIntensity != f.RainfallIntensity || !slices.Equal(u.Intensity, f.Intensity) ||
			u.LocationIndex != f.LocationIndex || u.RainfallLocationID != f.RainfallLocationID || u.Region != f.Region || u.Town != f.Town {
			t.Errorf("%+v: update %+v differs from find %+v", q, u, f)
		}
		if u.Indicative || !strings.HasPrefix(u.Source, "M5-60 and r entered by the designer") {
			t.Errorf("update indicative %v source %q", u.Indicative, u.Source)
		}
		// The cell centre is within the 1 km cell of the clicked point.
		if d := kmBetween(u.LatLng.Lat, u.LatLng.Lng, q.Latitude, q.Longitude); d > 1.5 {
			t.Errorf("cell centre %+v is %.1f km from the point", u.LatLng, d)
		}
	}
}

func TestUpdateUsesTheDesignersValues(t *testing.T) {
	t.Parallel()
	a, err := Default().Update(UpdateQuery{R: 0.40, M5: 20.5, LocationIndex: "sk 3587", StormDuration: 360, ReturnPeriod: 10, ClimateFactor: 0})
	if err != nil {
		t.Fatal(err)
	}
	if a.M5 != 20.5 || a.R != 0.40 || a.Town != "Sheffield" || a.LocationIndex != "SK3587" {
		t.Fatalf("%+v", a)
	}
	// Sheffield worked example: M10-6h 39.7 mm over 6 hours.
	if want := round(Depth(20.5, 0.40, 360, 10, 0, EnglandWales)/6, 3); a.RainfallIntensity != want || math.Abs(want-6.62) > 0.01 {
		t.Fatalf("rainfallIntensity %v, want %v (about 6.62 mm/h)", a.RainfallIntensity, want)
	}
}

func TestRefusals(t *testing.T) {
	t.Parallel()
	dublinE, dublinN := LatLonToGrid(53.35, -6.26)
	dublinCell, err := GridRef(dublinE, dublinN)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		run  func() error
		is   error // ErrInSea, ErrOutsideUK, or nil for an *InputError
		msg  string
	}{
		{"North Sea", find(54.5, 2.5), ErrInSea, MsgInSea},
		{"Irish Sea", find(53.8, -5.0), ErrInSea, MsgInSea},
		{"Paris", find(48.86, 2.35), ErrOutsideUK, MsgOutsideUK},
		{"Dublin", find(53.35, -6.26), ErrOutsideUK, MsgOutsideUK},
		{"Amsterdam", find(52.37, 4.90), ErrOutsideUK, MsgOutsideUK},
		{"Isle of Man", find(54.15, -4.48), ErrOutsideUK, MsgOutsideUK},
		{"New York", find(40.71, -74.01), ErrOutsideUK, MsgOutsideUK},
		{"update of a Dublin cell", update(20, 0.3, dublinCell), ErrOutsideUK, MsgOutsideUK},
		{"latitude", find(91, 0), nil, "latitude"},
		{"longitude NaN", find(52, math.NaN()), nil, "longitude"},
		{"duration zero", findStorm(0, 30, 0), nil, "stormDuration"},
		{"duration over 48 h", findStorm(2881, 30, 0), nil, "stormDuration"},
		{"return period zero", findStorm(30, 0, 0), nil, "returnPeriod"},
		{"return period 500", findStorm(30, 500, 0), nil, "returnPeriod"},
		{"climate negative", findStorm(30, 30, -10), nil, "climateFactor"},
		{"climate over 100", findStorm(30, 30, 150), nil, "climateFactor"},
		{"M5 too small", update(4, 0.3, "SK3587"), nil, "M5"},
		{"M5 too big", update(45, 0.3, "SK3587"), nil, "M5"},
		{"r too small", update(20, 0.05, "SK3587"), nil, "r"},
		{"r too big", update(20, 0.55, "SK3587"), nil, "r"},
		{"empty LocationIndex", update(20, 0.3, ""), nil, "LocationIndex"},
		{"LocationIndex a number", update(20, 0.3, "4350387"), nil, "LocationIndex"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := c.run()
			if c.is != nil {
				var oe *OutsideError
				if !errors.As(err, &oe) || !errors.Is(err, c.is) || err.Error() != c.msg {
					t.Fatalf("err = %v, want an *OutsideError %q", err, c.msg)
				}
				other := ErrInSea
				if errors.Is(c.is, ErrInSea) {
					other = ErrOutsideUK
				}
				if errors.Is(err, other) {
					t.Fatalf("%v matches both sentinels", err)
				}
				return
			}
			var ie *InputError
			if !errors.As(err, &ie) || ie.Field != c.msg || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("err = %v, want an *InputError for %s", err, c.msg)
			}
		})
	}
}

func find(lat, lon float64) func() error {
	return func() error {
		_, err := Default().Find(Query{Latitude: lat, Longitude: lon, StormDuration: 30, ReturnPeriod: 30})
		return err
	}
}

func findStorm(d, T, cc float64) func() error {
	return func() error {
		_, err := Default().Find(Query{Latitude: 52, Longitude: -1, StormDuration: d, ReturnPeriod: T, ClimateFactor: cc})
		return err
	}
}

func update(m5, r float64, cell string) func() error {
	return func() error {
		_, err := Default().Update(UpdateQuery{R: r, M5: m5, LocationIndex: cell, StormDuration: 30, ReturnPeriod: 30})
		return err
	}
}

// A coastal cell whose centre lies offshore is still answered by update:
// it was found on land, and keeps its nearest place's region.
func TestUpdateOfACoastalCell(t *testing.T) {
	t.Parallel()
	// TR4070 touches North Foreland; its centre is just off the Kent
	// coast in the coarse outline.
	e, n, _ := ParseGridRef("TR4070")
	lat, lon := GridToLatLon(e+500, n+500)
	if k := classify(lat, lon).kind; k != atSea {
		t.Fatalf("the cell centre %.3f, %.3f is kind %d; the test wants one at sea", lat, lon, k)
	}
	a, err := Default().Update(UpdateQuery{R: 0.4, M5: 20, LocationIndex: "TR4070", StormDuration: 30, ReturnPeriod: 30})
	if err != nil {
		t.Fatalf("cell centre %.3f, %.3f (kind %d): %v", lat, lon, classify(lat, lon).kind, err)
	}
	if a.Region != EnglandWales || a.Town != "Margate" {
		t.Fatalf("%+v", a)
	}
}

func TestIntensityPointLabel(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		m    float64
		want string
	}{{5, "5 min"}, {30, "30 min"}, {60, "1 h"}, {120, "2 h"}, {480, "8 h"}, {90, "90 min"}} {
		if got := (IntensityPoint{Minutes: c.m}).Label(); got != c.want {
			t.Errorf("%g min labelled %q, want %q", c.m, got, c.want)
		}
	}
}

// The model is shared by every request; many finds at once must agree.
func TestConcurrentFinds(t *testing.T) {
	t.Parallel()
	want, err := Default().Find(Query{53.48, -2.24, 30, 30, 0})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan Answer, 16)
	for range 16 {
		go func() {
			a, _ := Default().Find(Query{53.48, -2.24, 30, 30, 0})
			done <- a
		}()
	}
	for range 16 {
		if a := <-done; a.RainfallIntensity != want.RainfallIntensity || a.M5 != want.M5 {
			t.Fatalf("concurrent answer %+v differs from %+v", a, want)
		}
	}
}

// The land guard refuses a point the outline calls land when no gauged
// catchment and no named place is near: with the real data that never
// happens (see TestLandGuardLeavesNoLandOut), so a model with four
// stations round London and one named place shows it working.
func TestLandGuard(t *testing.T) {
	t.Parallel()
	data := "station,easting_osgb,northing_osgb,rmed_1h_mm,rmed_1d_mm,rmed_2d_mm,saar_mm\n" +
		"1,520000,170000,10.8,32,42,650\n2,540000,170000,10.8,32,42,650\n" +
		"3,520000,190000,10.8,32,42,650\n4,540000,190000,10.8,32,42,650\n"
	m, err := Load(strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	m.places = []town{{"London", 51.51, -0.13, EnglandWales}}
	a, err := m.Find(Query{Latitude: 51.50, Longitude: -0.10, StormDuration: 30, ReturnPeriod: 30})
	if err != nil || a.M5 != 19.4 || a.R != 0.39 || a.Town != "London" {
		t.Fatalf("near the stations: %+v, %v; want M5 19.4 (1.80 x 10.8), r 0.39 (1.53 x 10.8/42)", a, err)
	}
	// York is land in the outline, but 280 km from these stations and 280
	// km from the one named place.
	if _, err := m.Find(Query{Latitude: 53.96, Longitude: -1.08, StormDuration: 30, ReturnPeriod: 30}); !errors.Is(err, ErrInSea) {
		t.Fatalf("err = %v, want the guard's sea refusal", err)
	}
	// A named place near the point lifts the guard; the field then
	// extrapolates and says so.
	m.places = append(m.places, town{"York", 53.96, -1.08, EnglandWales})
	a, err = m.Find(Query{Latitude: 53.96, Longitude: -1.08, StormDuration: 30, ReturnPeriod: 30})
	if err != nil || !strings.Contains(a.Source, "extrapolated") || a.Town != "York" {
		t.Fatalf("%+v, %v", a, err)
	}
}
