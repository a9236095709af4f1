package rainfall

import (
	"strings"
	"testing"
)

func TestTownsList(t *testing.T) {
	t.Parallel()
	if len(towns) < 150 {
		t.Fatalf("%d named places; the map wants at least 150", len(towns))
	}
	seen := map[string]bool{}
	count := map[Region]int{}
	for _, tw := range towns {
		if strings.TrimSpace(tw.name) != tw.name || tw.name == "" {
			t.Errorf("bad name %q", tw.name)
		}
		if seen[tw.name] {
			t.Errorf("%q listed twice", tw.name)
		}
		seen[tw.name] = true
		count[tw.region]++
	}
	for _, r := range []Region{EnglandWales, Scotland, NorthernIreland} {
		if count[r] < 15 {
			t.Errorf("%s has only %d named places", r, count[r])
		}
	}
}

func TestNearestTown(t *testing.T) {
	t.Parallel()
	cases := []struct {
		lat, lon float64
		want     string
	}{
		{53.38, -1.47, "Sheffield"},
		{53.39, -2.36, "Altrincham"},
		{52.10, 0.01, "Meldreth"},
		{54.59, -5.92, "Belfast"},
		{55.94, -3.20, "Edinburgh"},
		{51.50, -3.17, "Cardiff"},
		{60.16, -1.14, "Lerwick"},
	}
	for _, c := range cases {
		if got, km := nearestTown(c.lat, c.lon); got.name != c.want || km > 5 {
			t.Errorf("nearest to %.2f, %.2f is %s at %.1f km, want %s", c.lat, c.lon, got.name, km, c.want)
		}
	}
}
