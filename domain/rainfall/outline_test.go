package rainfall

import (
	"math"
	"testing"
)

func TestClassify(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		lat, lon float64
		kind     placeKind
		region   Region
	}{
		{"London", 51.51, -0.13, onLand, EnglandWales},
		{"Cardiff", 51.48, -3.18, onLand, EnglandWales},
		{"Edinburgh", 55.95, -3.19, onLand, Scotland},
		{"Belfast", 54.60, -5.93, onLand, NorthernIreland},
		{"Penzance", 50.12, -5.54, onLand, EnglandWales},
		{"Carlisle, just south of the border", 54.89, -2.93, onLand, EnglandWales},
		{"Gretna, just north of it", 55.00, -3.06, onLand, Scotland},
		{"Berwick-upon-Tweed", 55.77, -2.00, onLand, EnglandWales},
		{"Stranraer, Scotland south of Carlisle's latitude", 54.90, -5.02, onLand, Scotland},
		{"Lerwick", 60.15, -1.15, onLand, Scotland},
		{"St Mary's, Scilly", 49.92, -6.30, onLand, EnglandWales},
		{"Newport, Isle of Wight", 50.70, -1.29, onLand, EnglandWales},
		{"Enniskillen", 54.35, -7.64, onLand, NorthernIreland},
		{"Derry~Londonderry", 55.00, -7.32, onLand, NorthernIreland},
		{"Paris", 48.86, 2.35, abroad, ""},
		{"Dublin", 53.35, -6.26, abroad, ""},
		{"Amsterdam", 52.37, 4.90, abroad, ""},
		{"Calais", 50.95, 1.86, abroad, ""},
		{"Cherbourg", 49.64, -1.62, abroad, ""},
		{"Jersey", 49.21, -2.13, abroad, ""},
		{"Douglas, Isle of Man", 54.15, -4.48, abroad, ""},
		{"Letterkenny, Donegal", 54.95, -7.73, abroad, ""},
		{"Dundalk, across the border from Newry", 54.00, -6.40, abroad, ""},
		{"Bergen", 60.39, 5.32, abroad, ""},
		{"North Sea", 54.5, 2.5, atSea, ""},
		{"Irish Sea", 53.8, -5.0, atSea, ""},
		{"Bristol Channel", 51.30, -3.90, atSea, ""},
		{"English Channel", 50.30, -1.50, atSea, ""},
		{"The Minch", 58.00, -5.90, atSea, ""},
		{"North Channel", 55.00, -5.60, atSea, ""},
		{"Cardigan Bay", 52.40, -4.50, atSea, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := classify(c.lat, c.lon)
			if got.kind != c.kind || got.region != c.region {
				t.Fatalf("classify(%v, %v) = kind %d region %q; want kind %d region %q", c.lat, c.lon, got.kind, got.region, c.kind, c.region)
			}
		})
	}
}

// Every gauge of the data is inland, so an outline that leaves one out is
// wrong there.
func TestEveryStationIsOnLand(t *testing.T) {
	t.Parallel()
	for _, s := range Default().Stations() {
		lat, lon := GridToLatLon(s.Easting, s.Northing)
		if p := classify(lat, lon); p.kind != onLand {
			t.Errorf("station %d at %.3f, %.3f is not on land (kind %d)", s.ID, lat, lon, p.kind)
		}
		if got := classify(lat, lon).region; (s.ID >= 200000) != (got == NorthernIreland) {
			t.Errorf("station %d at %.3f, %.3f is in region %q; 2xxxxx stations are Northern Ireland's", s.ID, lat, lon, got)
		}
	}
}

func TestEveryTownIsOnLandInItsRegion(t *testing.T) {
	t.Parallel()
	for _, tw := range towns {
		p := classify(tw.lat, tw.lon)
		if p.kind != onLand || p.region != tw.region {
			t.Errorf("%s (%.2f, %.2f): kind %d region %q, want land in %q", tw.name, tw.lat, tw.lon, p.kind, p.region, tw.region)
		}
	}
}

// The land guard must never refuse real land: every point of the outline
// on a lattice of about 5 km is within the guard distance of a station or
// a named place.
func TestLandGuardLeavesNoLandOut(t *testing.T) {
	t.Parallel()
	type ll struct{ lat, lon float64 }
	var marks []ll
	for _, s := range Default().Stations() {
		lat, lon := GridToLatLon(s.Easting, s.Northing)
		marks = append(marks, ll{lat, lon})
	}
	for _, tw := range towns {
		marks = append(marks, ll{tw.lat, tw.lon})
	}
	checked := 0
	for lat := 49.85; lat < 60.9; lat += 0.045 {
		for lon := -8.2; lon < 1.8; lon += 0.07 {
			if classify(lat, lon).kind != onLand {
				continue
			}
			checked++
			best := math.Inf(1)
			for _, m := range marks {
				if d := kmBetween(lat, lon, m.lat, m.lon); d < best {
					best = d
					if best <= landGuardKm {
						break
					}
				}
			}
			if best > landGuardKm {
				t.Errorf("land at %.3f, %.3f is %.0f km from any station or named place", lat, lon, best)
			}
		}
	}
	if checked < 5000 {
		t.Fatalf("only %d lattice points on land; the lattice or the outline is wrong", checked)
	}
}

func TestScottishBorderLat(t *testing.T) {
	t.Parallel()
	cases := []struct{ lon, want float64 }{
		{-6, 54.62}, {-3.70, 54.62}, {-3.10, 54.965}, {-2.48, 55.35}, {-2.03, 55.80}, {1, 55.80},
		{-2.915, (55.04 + 55.07) / 2},
	}
	for _, c := range cases {
		if got := scottishBorderLat(c.lon); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("border at %g = %.4f, want %.4f", c.lon, got, c.want)
		}
	}
}

func TestKmBetween(t *testing.T) {
	t.Parallel()
	// London to Edinburgh is about 534 km great-circle.
	if d := kmBetween(51.5074, -0.1278, 55.9533, -3.1883); math.Abs(d-534) > 3 {
		t.Fatalf("London-Edinburgh %.1f km, want about 534", d)
	}
	if d := kmBetween(52, -1, 52, -1); d != 0 {
		t.Fatalf("same point %.3f km", d)
	}
}
