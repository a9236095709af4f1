package catalogue

import (
	"encoding/json"
	"reflect"
	"sort"
	"testing"
)

func slugsOf(list []SelectedSystem) []string {
	var out []string
	for _, s := range list {
		out = append(out, s.Slug)
	}
	return out
}

func TestSystemsForCountry(t *testing.T) {
	t.Parallel()
	c := cat(t)
	all := []string{"poly-100", "poly-hicap", "fibre", "super", "big-bls", "steel", "concrete", "gully-300", "gully-450"}
	cases := []struct {
		iso  string
		want []string
	}{
		{"DE", all},
		{"gb", []string{"poly-100", "poly-hicap", "fibre", "super", "steel", "concrete", "gully-300"}},
		{"IE", []string{"poly-100", "poly-hicap", "fibre", "super", "steel", "concrete", "gully-300", "gully-450"}},
		{"RS", []string{"poly-100", "poly-hicap", "fibre", "super", "big-bls", "concrete", "gully-300", "gully-450"}},
		{"AE", []string{"poly-100", "fibre", "super", "big-bls", "concrete", "gully-300", "gully-450"}},
	}
	for _, tc := range cases {
		t.Run(tc.iso, func(t *testing.T) {
			t.Parallel()
			got, err := c.SystemsForCountry(tc.iso)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(slugsOf(got), tc.want) {
				t.Errorf("got %v, want %v", slugsOf(got), tc.want)
			}
		})
	}
	_, err := c.SystemsForCountry("XX")
	if nf := asNotFound(t, err); nf.Kind != "country" {
		t.Errorf("kind %q", nf.Kind)
	}
	if k, _ := c.Country("gb"); k.Region != "UK" {
		t.Errorf("GB region %q, want UK", k.Region)
	}
}

func TestSelectedSystemJSONShape(t *testing.T) {
	t.Parallel()
	c := cat(t)
	for _, slug := range []string{"fibre", "concrete", "gully-450", "poly-hicap"} {
		v, err := c.SelectedSystem(slug)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(v)
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		var keys []string
		for k, val := range m {
			keys = append(keys, k)
			if val == nil {
				t.Errorf("%s: %s is null", slug, k)
			}
		}
		sort.Strings(keys)
		want := []string{"canStep", "grated", "gratings", "loading_classes", "minimumSizeOptions", "name", "pipeDiameters", "product_image_name", "product_type", "range", "slug"}
		if !reflect.DeepEqual(keys, want) {
			t.Errorf("%s keys %v", slug, keys)
		}
	}
}

func TestSystemRules(t *testing.T) {
	t.Parallel()
	c := cat(t)
	cases := []struct {
		slug, productType                   string
		canStep, alwaysStepped, hrw, grated bool
		controlled, modification, theory    bool
	}{
		{"poly-100", "S", true, false, false, true, false, true, true},
		{"poly-hicap", "C", true, true, true, false, true, false, false},
		{"fibre", "S", true, false, false, true, false, true, false},
		{"super", "S", true, false, false, true, false, true, false},
		{"big-bls", "S", true, false, false, true, false, true, false},
		{"steel", "S", false, false, false, true, false, true, false},
		{"concrete", "M", false, false, false, false, false, false, false},
		{"gully-300", "P", false, false, false, false, false, false, false},
	}
	for _, tc := range cases {
		s, err := c.System(tc.slug)
		if err != nil {
			t.Fatal(err)
		}
		got := []bool{s.SteppingAllowed(), s.AlwaysStepped, s.OffersMethod("hrw"), s.Grated, s.ControlledDischarge, s.ModificationLastElement, s.TheoreticalStepping()}
		want := []bool{tc.canStep, tc.alwaysStepped, tc.hrw, tc.grated, tc.controlled, tc.modification, tc.theory}
		if s.ProductType != tc.productType || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: type %s rules %v, want %s %v", tc.slug, s.ProductType, got, tc.productType, want)
		}
		if !s.OffersMethod(MethodGVF) {
			t.Errorf("%s: GVF not offered", tc.slug)
		}
	}
	hc, _ := c.System("poly-hicap")
	if hc.ChannelTypeChoice || hc.HighestLoading() != "D400" {
		t.Errorf("high-capacity: no channel-type choice, highest D400; got %v %s", hc.ChannelTypeChoice, hc.HighestLoading())
	}
	bls, _ := c.System("big-bls")
	if bls.EndCapWithOutlet || bls.HighestLoading() != "LCN110" {
		t.Errorf("big-bls: no end cap with outlet, highest LCN110")
	}
	_, err := c.System("nope")
	asNotFound(t, err)
}

func TestPipeDiameters(t *testing.T) {
	t.Parallel()
	c := cat(t)
	v, _ := c.SelectedSystem("gully-450")
	want := map[string]PipeOption{"160": {160, true}, "200": {200, true}, "250": {250, false}}
	if !reflect.DeepEqual(v.PipeDiameters, want) {
		t.Errorf("pipeDiameters %v", v.PipeDiameters)
	}
	list, err := c.PipeDiameters("gully-300")
	if err != nil || len(list) != 2 || list[0].DiameterMM != 110 || !list[0].ExtensionHat {
		t.Errorf("gully-300 diameters %v %v; smallest first, 110 with hat", list, err)
	}
	f, _ := c.SelectedSystem("fibre")
	if len(f.PipeDiameters) != 0 || len(f.Gratings) != 6 || !reflect.DeepEqual(f.MinimumSizeOptions, []int{100, 150, 200, 300}) {
		t.Errorf("fibre: %+v", f)
	}
	_, err = c.PipeDiameters("fibre")
	asNotFound(t, err)
}

func TestGratingsForLoading(t *testing.T) {
	t.Parallel()
	c := cat(t)
	cases := []struct {
		system, loading string
		want            []string
	}{
		{"fibre", "E600", []string{"fibre-std-slot"}},
		{"fibre", "F", []string{"fibre-std-f900", "fibre-ks-f900"}},
		{"fibre", "C250", []string{"fibre-std-mesh", "fibre-std-slot", "fibre-ks-mesh", "fibre-ks-slot"}},
		{"big-bls", "O", []string{"big-bls-slot"}},
		{"poly-100", "A15", []string{"poly-100-slot-galv", "poly-100-mesh-galv", "poly-100-heelsafe-ss"}},
	}
	for _, tc := range cases {
		gs, err := c.GratingsFor(tc.system, tc.loading)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, g := range gs {
			got = append(got, g.Slug)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s: %v, want %v", tc.system, tc.loading, got, tc.want)
		}
	}
}
