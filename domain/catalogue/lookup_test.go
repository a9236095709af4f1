package catalogue

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestChannelsLookup(t *testing.T) {
	t.Parallel()
	c := cat(t)
	cases := []struct {
		name      string
		q         ChannelQuery
		count     int
		first     string
		allPrefix string
	}{
		{"poly all", ChannelQuery{Product: "poly-100", Loading: "C", SubProduct: "100"}, 24, "poly-100-0-0", "poly-100-"},
		{"poly no built-in fall", ChannelQuery{Product: "poly-100", Loading: "C", SubProduct: "100", NoBuiltInFall: true}, 4, "poly-100-0-0", "poly-100-"},
		{"fibre standard 200 at E", ChannelQuery{Product: "fibre", Loading: "E", SubProduct: "10200"}, 4, "fibre-standard-200-250", "fibre-standard-200-"},
		{"fibre ks 200 at E", ChannelQuery{Product: "fibre", Loading: "E", SubProduct: "8200"}, 0, "", ""},
		{"big-bls 300 at N", ChannelQuery{Product: "big-bls", Loading: "N", SubProduct: "300"}, 2, "big-bls-300-06-450", "big-bls-300-06-"},
		{"big-bls 300 at O", ChannelQuery{Product: "big-bls", Loading: "O", SubProduct: "300"}, 2, "big-bls-300-07-450", "big-bls-300-07-"},
		{"high-capacity, no sub-product", ChannelQuery{Product: "poly-hicap", Loading: "D"}, 8, "poly-hicap-150-300", "poly-hicap-"},
		{"super 500 with L and height range", ChannelQuery{Product: "super", Loading: "F", SubProduct: "500"}, 4, "super-500-600", "super-500-"},
		{"concrete has none", ChannelQuery{Product: "concrete"}, 0, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := c.Channels(tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tc.count {
				t.Fatalf("%d channels, want %d", len(got), tc.count)
			}
			for i, ch := range got {
				if !strings.HasPrefix(ch.Slug, tc.allPrefix) {
					t.Errorf("unexpected %s", ch.Slug)
				}
				if i > 0 && ch.DisplayOrder <= got[i-1].DisplayOrder {
					t.Errorf("not in display order at %s", ch.Slug)
				}
				if tc.q.NoBuiltInFall && ch.UpstreamWaterDepthMM != 0 {
					t.Errorf("%s has a built-in fall", ch.Slug)
				}
			}
			if tc.count > 0 && got[0].Slug != tc.first {
				t.Errorf("first %s, want %s", got[0].Slug, tc.first)
			}
		})
	}
}

func TestChannelEntity(t *testing.T) {
	t.Parallel()
	c := cat(t)
	got, _ := c.Channels(ChannelQuery{Product: "poly-100", Loading: "C250", SubProduct: "100"})
	var fall Channel
	for _, ch := range got {
		if ch.Slug == "poly-100-05" {
			fall = ch
		}
	}
	want := Channel{Slug: "poly-100-05", Name: "Polymer 100 Type 5", ProductType: "S", SubProduct: "100", ChannelLengthMM: 1000,
		BodyHeightMM: 155, WidthMM: 100, OuterWidthMM: 150, MaxDownstreamWaterDepthMM: 105, UpstreamWaterDepthMM: 100,
		DisplayOrder: 6, Kind: KindStandard}
	if !reflect.DeepEqual(fall, want) {
		t.Errorf("got %+v\nwant %+v", fall, want)
	}
	b, _ := json.Marshal(fall)
	for _, k := range []string{`"slug"`, `"name"`, `"product_type"`, `"sub_product"`, `"channel_length_mm"`, `"body_height_mm"`, `"width_mm"`,
		`"outer_width_mm"`, `"max_downstream_water_depth_mm"`, `"upstream_water_depth_mm"`, `"display_order"`} {
		if !strings.Contains(string(b), k+":") {
			t.Errorf("JSON lacks %s: %s", k, b)
		}
	}
	heavy, _ := c.Channels(ChannelQuery{Product: "fibre", Loading: "F", SubProduct: "10200"})
	if heavy[0].Name != "FC 200 Standard D250 +300" || heavy[0].BodyHeightMM != 250+60+300 {
		t.Errorf("F900 10200 shown as %q %d", heavy[0].Name, heavy[0].BodyHeightMM)
	}
	light, _ := c.Channels(ChannelQuery{Product: "fibre", Loading: "D", SubProduct: "10200"})
	if light[0].Name != "FC 200 Standard D250 +200" || light[0].BodyHeightMM != 250+60+200 {
		t.Errorf("D400 10200 shown as %q %d", light[0].Name, light[0].BodyHeightMM)
	}
}

func TestChannelsLookupErrors(t *testing.T) {
	t.Parallel()
	c := cat(t)
	for _, q := range []ChannelQuery{
		{Product: "nope", Loading: "A"},
		{Product: "fibre", Loading: "Z", SubProduct: "10100"},
		{Product: "fibre", Loading: "A", SubProduct: "999"},
		{Product: "big-bls", Loading: "F", SubProduct: "300"},
	} {
		_, err := c.Channels(q)
		asNotFound(t, err)
	}
}

func TestSubProducts(t *testing.T) {
	t.Parallel()
	c := cat(t)
	all6 := []string{"A", "B", "C", "D", "E", "F"}
	ks := []string{"A", "B", "C", "D", "F"}
	lcn := []string{"L", "M", "N", "O"}
	cases := []struct {
		product, letter string
		want            map[string][]string
	}{
		{"fibre", "E", map[string][]string{"10100": all6, "10150": all6, "10200": all6, "10300": all6}},
		{"fibre", "C", map[string][]string{"10100": all6, "10150": all6, "10200": all6, "10300": all6, "8100": ks, "8150": ks, "8200": ks, "8300": ks}},
		{"big-bls", "N", map[string][]string{"150": lcn, "200": lcn, "300": lcn, "400": lcn, "500": lcn}},
		{"poly-100", "A", map[string][]string{"100": {"A", "B", "C"}}},
		{"steel", "c", map[string][]string{"100": {"A", "B", "C"}, "150": {"A", "B", "C"}, "200": {"A", "B", "C"}}},
		{"poly-hicap", "D", map[string][]string{}},
		{"concrete", "", map[string][]string{}},
	}
	for _, tc := range cases {
		got, err := c.SubProducts(tc.product, tc.letter)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.product, tc.letter, err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s: %v, want %v", tc.product, tc.letter, got, tc.want)
		}
	}
	_, err := c.SubProducts("poly-100", "D")
	asNotFound(t, err)
}

func TestEndCapsWithOutlet(t *testing.T) {
	t.Parallel()
	c := cat(t)
	cases := []struct {
		channel   string
		diameters []int
		material  string
	}{
		{"poly-100-0-0", []int{}, ""},
		{"poly-100-05", []int{}, ""},
		{"poly-100-06", []int{100}, "polymer concrete"},
		{"poly-100-10-0", []int{100, 110}, "polymer concrete"},
		{"fibre-standard-200-300", []int{160, 200}, "fibre concrete"},
		{"fibre-ks-100-150", []int{110}, "galvanised steel"},
		{"fibre-ks-200-250", []int{160, 200}, "galvanised steel"},
		{"super-500-750", []int{315, 400}, "ductile iron"},
		{"big-bls-500-07-800", []int{}, ""},
		{"steel-100-100", []int{75}, "stainless steel"},
	}
	for _, tc := range cases {
		got, err := c.EndCapsWithOutlet(tc.channel)
		if err != nil {
			t.Fatal(err)
		}
		d := []int{}
		for _, e := range got {
			d = append(d, e.OutletDiameterMM)
			if e.ID == "" {
				t.Errorf("%s: cap without id", tc.channel)
			}
		}
		if !reflect.DeepEqual(d, tc.diameters) {
			t.Errorf("%s: outlets %v, want %v", tc.channel, d, tc.diameters)
		}
		if len(got) > 0 && got[0].Material != tc.material {
			t.Errorf("%s: material %q, want %q", tc.channel, got[0].Material, tc.material)
		}
	}
	b, _ := json.Marshal(EndCapOption{ID: "1", Material: "m", OutletDiameterMM: 2})
	if string(b) != `{"id":"1","material":"m","outlet_diameter_mm":2}` {
		t.Errorf("JSON %s", b)
	}
	_, err := c.EndCapsWithOutlet("poly-100-99")
	asNotFound(t, err)
}

func TestTrashBoxDischarges(t *testing.T) {
	t.Parallel()
	c := cat(t)
	cases := []struct {
		product, productType, loading string
		want                          []float64
	}{
		{"super", "S", "D", []float64{15, 25, 38, 60, 95}},
		{"fibre", "S", "E", []float64{7.5, 15, 25, 38}},
		{"fibre", "", "F900", []float64{15, 25, 38}},
		{"poly-100", "S", "A", []float64{7.5}},
		{"poly-100", "S", "C", []float64{7.5, 15}},
		{"big-bls", "S", "L", []float64{25, 38}},
		{"big-bls", "S", "O", []float64{}},
		{"poly-hicap", "C", "D", []float64{15, 25}},
		{"concrete", "M", "", []float64{}},
	}
	for _, tc := range cases {
		got, err := c.TrashBoxDischarges(tc.product, tc.productType, tc.loading)
		if err != nil {
			t.Fatalf("%s: %v", tc.product, err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s: %v, want %v", tc.product, tc.loading, got, tc.want)
		}
	}
	for _, tc := range []struct {
		product, channel, loading string
		want                      []float64
	}{
		{"fibre", "fibre-standard-200-300", "C250", []float64{15, 25}},
		{"fibre", "fibre-ks-200-300", "C", []float64{25}},
		{"fibre", "fibre-standard-300-450", "F900", []float64{25, 38}},
		{"poly-100", "poly-100-10-0", "A", []float64{7.5}},
		{"big-bls", "big-bls-400-03-550", "L", []float64{}},
	} {
		got, err := c.TrashBoxDischargesFor(tc.product, tc.channel, tc.loading)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s at %s: %v %v, want %v", tc.channel, tc.loading, got, err, tc.want)
		}
	}
	_, err := c.TrashBoxDischargesFor("super", "fibre-standard-200-300", "D")
	asRequest(t, err)
	_, err = c.TrashBoxDischarges("super", "P", "D")
	asRequest(t, err)
	_, err = c.TrashBoxDischarges("super", "", "C")
	asNotFound(t, err)
}

func TestGratingSpec(t *testing.T) {
	t.Parallel()
	c := cat(t)
	g, err := c.GratingSpec("fibre-std-slot", 150)
	if err != nil {
		t.Fatal(err)
	}
	want := GratingSpec{Slug: "fibre-std-slot", HAN: "20512", Description: "Slotted grating, ductile iron, bolted", SlotDimensions: "18 x 132 mm", OpenArea: 680, Length: 500}
	if g != want {
		t.Errorf("got %+v", g)
	}
	_, err = c.GratingSpec("fibre-std-slot", 400)
	asNotFound(t, err)
}
