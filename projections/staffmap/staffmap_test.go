package staffmap_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/projections"
	"draindesign/projections/internal/testkit"
	"draindesign/projections/staffmap"
)

var t0 = time.Date(2026, 4, 1, 8, 0, 0, 0, time.UTC)

func rain(lat, lng float64, town string) project.Inputs {
	b, _ := json.Marshal(map[string]any{"rainfall_mm_per_hr": 50, "town": town, "latlng": map[string]float64{"lat": lat, "lng": lng}})
	return project.Inputs{"rainfall": b}
}

// projects: two calculated GB projects with runs near Leeds (one moved on
// to London), a calculated DE project without a place, a GB project never
// calculated, and a deleted calculated GB project.
func projects(t *testing.T, s eventstore.Store) {
	enc := testkit.Encode(t)
	created := func(id, country string) testkit.Encoded {
		return enc(project.Encode(project.Created{ProjectID: id, Owner: "u", Country: country, At: t0}))
	}
	calc := func(run string, in project.Inputs) testkit.Encoded {
		return enc(project.Encode(project.RunCalculated{RunID: run, Inputs: in, Summary: project.Summary{}}))
	}
	testkit.AppendAt(t, s, project.Stream("a"), "u", t0, created("a", "GB"),
		calc("r1", rain(53.80123, -1.54876, "Leeds")), calc("r2", rain(53.83, -1.52, "Leeds")))
	testkit.AppendAt(t, s, project.Stream("b"), "u", t0, created("b", "GB"),
		calc("r3", rain(53.8, -1.55, "Leeds")), calc("r4", rain(53.8, -1.55, "Leeds")), calc("r4", rain(51.5, -0.13, "London")))
	testkit.AppendAt(t, s, project.Stream("b"), "u", t0, enc(project.Encode(project.RunRemoved{RunID: "r3"})))
	testkit.AppendAt(t, s, project.Stream("c"), "u", t0, created("c", "DE"), calc("r5", project.Inputs{"rainfall": json.RawMessage(`{"rainfall_mm_per_hr":80}`)}))
	testkit.AppendAt(t, s, project.Stream("d"), "u", t0, created("d", "GB"))
	testkit.AppendAt(t, s, project.Stream("e"), "u", t0, created("e", "GB"), calc("r6", rain(55.95, -3.19, "Edinburgh")))
	testkit.AppendAt(t, s, project.Stream("e"), "u", t0, enc(project.Encode(project.Deleted{At: t0})))
}

func TestStaffMap(t *testing.T) {
	t.Parallel()
	for _, b := range testkit.Backends {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := testkit.RebuildMatchesLive(t, b, []projections.Projection{staffmap.Projection{}}, staffmap.Projection{},
				func(s eventstore.Store) { projects(t, s) })
			byCountry, err := staffmap.CalculatedByCountry(ctx, db)
			if err != nil || !reflect.DeepEqual(byCountry, map[string]int{"GB": 2, "DE": 1}) {
				t.Errorf("CalculatedByCountry = %v, %v", byCountry, err)
			}
			places, err := staffmap.Places(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			// Leeds: r1 (53.80, -1.55) and r2 (53.83, -1.52) of project a; r3
			// was removed. London: r4, moved there.
			want := []staffmap.PlaceCount{
				{Lat: 53.82, Lng: -1.54, Town: "Leeds", Projects: 1, Runs: 2},
				{Lat: 51.5, Lng: -0.13, Town: "London", Projects: 1, Runs: 1},
			}
			if !reflect.DeepEqual(places, want) {
				t.Errorf("Places = %+v\nwant %+v", places, want)
			}
		})
	}
}

func TestPlace(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		rainfall string
		lat, lng int64
		ok       bool
	}{
		{"from the map", `{"latlng":{"lat":53.80123,"lng":-1.54876},"town":"Leeds"}`, 5380, -155, true},
		{"entered by hand", `{"rainfall_mm_per_hr":50}`, 0, 0, false},
		{"no longitude", `{"latlng":{"lat":53.8}}`, 0, 0, false},
		{"out of range", `{"latlng":{"lat":91,"lng":0}}`, 0, 0, false},
		{"not an object", `50`, 0, 0, false},
	} {
		lat, lng, _, ok := staffmap.Place(project.Inputs{"rainfall": json.RawMessage(tc.rainfall)})
		if lat != tc.lat || lng != tc.lng || ok != tc.ok {
			t.Errorf("%s: %d %d %v", tc.name, lat, lng, ok)
		}
	}
}
