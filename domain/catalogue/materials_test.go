package catalogue

import (
	"reflect"
	"strings"
	"testing"
)

func layout(t *testing.T, parts []RunPart, runM float64, loading string) []Element {
	t.Helper()
	els, err := cat(t).Layout(parts, runM, loading)
	if err != nil {
		t.Fatal(err)
	}
	return els
}

func TestMaterials20_5mRun(t *testing.T) {
	t.Parallel()
	c := cat(t)
	els := layout(t, []RunPart{{"poly-100-10-0", 21}}, 20.5, "C250")
	m, err := c.Materials(MaterialRequest{System: "poly-100", Loading: "C", Grating: "poly-100-slot-iron", Elements: els})
	if err != nil {
		t.Fatal(err)
	}
	want := Materials{
		Channel: []MaterialLine{
			{HAN: "10091", Description: "Polymer 100 Type 10.0", Count: 20, Sort: 1, LengthMM: 1000, Text: LineText{Designation: "Polymer 100 Type 10.0"}},
			{HAN: "10091", Description: "Polymer 100 Type 10.0, cut to 500 mm", Count: 1, Sort: 2, LengthMM: 500, Text: LineText{Designation: "Polymer 100 Type 10.0", CutToMM: 500}},
			{HAN: "10504", Description: "Slotted grating, ductile iron, bolted, 100 mm wide, 500 mm long", Count: 41, Sort: 3, LengthMM: 500,
				Text: LineText{Key: "catalogue.grating.poly-100-slot-iron", GratingWidthMM: 100, GratingLengthMM: 500}},
		},
		Connectors:  []MaterialLine{{HAN: "10901", Description: "Joint sealant, 290 ml cartridge", Count: 2, Sort: 4, Text: LineText{Key: "catalogue.article.10901"}}},
		Endcaps:     []MaterialLine{{HAN: "10601", Description: "End cap Polymer 100, universal", Count: 1, Sort: 5, Text: LineText{Key: "catalogue.article.10601"}}},
		AccessCover: []MaterialLine{},
		Box:         []MaterialLine{},
	}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("got  %+v\nwant %+v", m, want)
	}
}

func hans(list []MaterialLine) map[string]int {
	out := map[string]int{}
	for _, l := range list {
		out[l.HAN] += l.Count
	}
	return out
}

func TestMaterialsDischarge(t *testing.T) {
	t.Parallel()
	c := cat(t)
	deep := layout(t, []RunPart{{"poly-100-10-0", 4}}, 3.5, "C")
	shallow := layout(t, []RunPart{{"poly-100-0-0", 4}}, 4, "C")
	lc := layout(t, []RunPart{{"fibre-standard-100-250", 3}, {"fibre-standard-100-250-l", 1}}, 4, "C")
	cases := []struct {
		name    string
		req     MaterialRequest
		endcaps map[string]int
		box     map[string]int
		last    string // suffix of the last channel line
	}{
		{"free outflow", MaterialRequest{Elements: deep}, map[string]int{"10601": 1}, map[string]int{}, "cut to 500 mm"},
		{"trash box 15 l/s", MaterialRequest{Elements: deep, Discharge: OutflowInTrashBox, TrashBoxDischargeLPS: 15}, map[string]int{"10601": 1}, map[string]int{"10703": 1}, ""},
		{"smallest trash box", MaterialRequest{Elements: deep, Discharge: OutflowInTrashBox}, map[string]int{"10601": 1}, map[string]int{"10702": 1}, ""},
		{"end cap with outlet", MaterialRequest{Elements: deep, Discharge: EndCapWithOutletSetting, EndCapID: "10603"}, map[string]int{"10601": 1, "10603": 1}, map[string]int{}, ""},
		{"modified last element", MaterialRequest{Elements: deep, Discharge: ModificationLastElement, Drilling: &Drilling{Position: DrillLeftWall, HoleDiameterMM: 75, HoleDistanceMM: 200}},
			map[string]int{"10601": 2}, map[string]int{}, "cut to 500 mm, modified: outlet hole DN 75 in the left wall, centre 200 mm from the end"},
		{"default drilling", MaterialRequest{Elements: shallow, Discharge: ModificationLastElement}, map[string]int{"10601": 2}, map[string]int{}, "Type 0.0, modified: outlet hole DN 50 in the bottom, centre 150 mm from the end"},
		{"L channel needs no end cap", MaterialRequest{System: "fibre", Grating: "fibre-std-mesh", Elements: lc, Discharge: ModificationLastElement}, map[string]int{"20601": 1}, map[string]int{}, "D250 L"},
		{"trash box repeated as accessory at 0", MaterialRequest{Elements: deep, Discharge: OutflowInTrashBox, Accessories: []PlacedAccessory{{Type: AccessoryTrashBox, DistanceM: 0}}},
			map[string]int{"10601": 1}, map[string]int{"10702": 1}, ""},
		{"trash box mid-run", MaterialRequest{Elements: deep, Accessories: []PlacedAccessory{{Type: AccessoryTrashBox, DistanceM: 2, DischargeLPS: 15}}},
			map[string]int{"10601": 1}, map[string]int{"10703": 1}, ""},
		{"end cap placed at the head", MaterialRequest{Elements: deep, Accessories: []PlacedAccessory{{Type: AccessoryEndCap, DistanceM: 3.5}}}, map[string]int{"10601": 1}, map[string]int{}, ""},
		{"no automatic at the head", MaterialRequest{Elements: deep, Accessories: []PlacedAccessory{{Type: AccessoryNoAutomatic, DistanceM: 3.5}}}, map[string]int{}, map[string]int{}, ""},
		{"access box", MaterialRequest{Elements: deep, Accessories: []PlacedAccessory{{Type: AccessoryAccessBox, DistanceM: 1}}}, map[string]int{"10601": 1}, map[string]int{"10801": 1}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req := tc.req
			if req.System == "" {
				req.System, req.Grating = "poly-100", "poly-100-slot-iron"
			}
			req.Loading = "C250"
			m, err := c.Materials(req)
			if err != nil {
				t.Fatal(err)
			}
			if got := hans(m.Endcaps); !reflect.DeepEqual(got, tc.endcaps) {
				t.Errorf("end caps %v, want %v", got, tc.endcaps)
			}
			if got := hans(m.Box); !reflect.DeepEqual(got, tc.box) {
				t.Errorf("boxes %v, want %v", got, tc.box)
			}
			var last string
			for _, l := range m.Channel {
				if !strings.Contains(l.Description, "grating") {
					last = l.Description
				}
			}
			if tc.last != "" && !strings.HasSuffix(last, tc.last) {
				t.Errorf("last channel line %q, want suffix %q", last, tc.last)
			}
		})
	}
}

func TestMaterialsConnectors(t *testing.T) {
	t.Parallel()
	c := cat(t)
	stepped := layout(t, []RunPart{{"poly-100-0-0", 5}, {"poly-100-10-0", 5}}, 10, "B")
	m, err := c.Materials(MaterialRequest{System: "poly-100", Loading: "B", Grating: "poly-100-mesh-galv", Elements: stepped,
		Accessories: []PlacedAccessory{{Type: AccessoryConnectionPlate, DistanceM: 7}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := hans(m.Connectors); !reflect.DeepEqual(got, map[string]int{"10901": 1, "10902": 1, "10903": 1}) {
		t.Errorf("poly stepped connectors %v: one sealant for 8 joints, one step adaptor, one plate", got)
	}
	if got := hans(m.Channel); got["10502"] != 10 || got["10090"] != 5 || got["10091"] != 5 {
		t.Errorf("channel lines %v", got)
	}
	fibre := layout(t, []RunPart{{"fibre-standard-100-150", 5}, {"fibre-standard-100-200", 5}}, 10, "B")
	m, err = c.Materials(MaterialRequest{System: "fibre", Loading: "B", Grating: "fibre-std-mesh", Elements: fibre})
	if err != nil {
		t.Fatal(err)
	}
	if got := hans(m.Connectors); !reflect.DeepEqual(got, map[string]int{"20901": 2}) {
		t.Errorf("fibre connectors %v: 9 joints at 8 a cartridge", got)
	}
	hc := layout(t, []RunPart{{"poly-hicap-150-300", 3}, {"poly-hicap-150-400", 3}}, 5.5, "D")
	m, err = c.Materials(MaterialRequest{System: "poly-hicap", Loading: "D", Elements: hc})
	if err != nil {
		t.Fatal(err)
	}
	if got := hans(m.Connectors); !reflect.DeepEqual(got, map[string]int{"50901": 4, "50902": 1}) {
		t.Errorf("high-capacity connectors %v", got)
	}
	if len(m.Channel) != 3 {
		t.Errorf("high-capacity is not grated: %v", m.Channel)
	}
}

func TestMaterialsAccessories(t *testing.T) {
	t.Parallel()
	c := cat(t)
	steel := layout(t, []RunPart{{"steel-150-200", 6}}, 6, "A")
	m, err := c.Materials(MaterialRequest{System: "steel", Loading: "A", Grating: "steel-heelsafe", Elements: steel,
		Accessories: []PlacedAccessory{{Type: AccessoryAccessCover, DistanceM: 3}, {Type: AccessoryAccessCover, DistanceM: 5}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := hans(m.AccessCover); !reflect.DeepEqual(got, map[string]int{"60802": 2}) {
		t.Errorf("access covers %v", got)
	}
	bls := layout(t, []RunPart{{"big-bls-400-07-550", 3}}, 3, "O")
	m, err = c.Materials(MaterialRequest{System: "big-bls", Loading: "O", Grating: "big-bls-slot", Elements: bls,
		Accessories: []PlacedAccessory{{Type: AccessoryConcreteChamber, DistanceM: 0}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Box) != 1 || m.Box[0].HAN != "" || !strings.Contains(m.Box[0].Description, "by others") {
		t.Errorf("concrete chamber %v", m.Box)
	}
	super := layout(t, []RunPart{{"super-400-500", 4}}, 4, "D")
	m, err = c.Materials(MaterialRequest{System: "super", Loading: "D", Grating: "super-slot-iron", Elements: super, Discharge: OutflowInTrashBox})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Box) != 1 || m.Box[0].HAN != "30741" || m.Box[0].LengthMM != 1000 {
		t.Errorf("super 400 trash box %v, want the 1 m box", m.Box)
	}
}

func TestMaterialsErrors(t *testing.T) {
	t.Parallel()
	c := cat(t)
	poly := layout(t, []RunPart{{"poly-100-0-0", 3}}, 3, "C")
	bls := layout(t, []RunPart{{"big-bls-400-07-550", 3}}, 3, "O")
	base := MaterialRequest{System: "poly-100", Loading: "C", Grating: "poly-100-slot-iron", Elements: poly}
	with := func(f func(*MaterialRequest)) MaterialRequest { r := base; f(&r); return r }
	unavailable := map[string]MaterialRequest{
		"no outlet on a shallow channel": with(func(r *MaterialRequest) { r.Discharge, r.EndCapID = EndCapWithOutletSetting, "10602" }),
		"no such trash box":              with(func(r *MaterialRequest) { r.Discharge, r.TrashBoxDischargeLPS = OutflowInTrashBox, 99 }),
		"no access cover on polymer": with(func(r *MaterialRequest) {
			r.Accessories = []PlacedAccessory{{Type: AccessoryAccessCover, DistanceM: 1}}
		}),
		"no concrete chamber on polymer": with(func(r *MaterialRequest) {
			r.Accessories = []PlacedAccessory{{Type: AccessoryConcreteChamber, DistanceM: 1}}
		}),
		"no trash box for LCN110":           {System: "big-bls", Loading: "O", Grating: "big-bls-slot", Elements: bls, Discharge: OutflowInTrashBox},
		"no end cap with outlet on big-bls": {System: "big-bls", Loading: "O", Grating: "big-bls-slot", Elements: bls, Discharge: EndCapWithOutletSetting, EndCapID: "40601"},
	}
	for name, req := range unavailable {
		if _, err := c.Materials(req); err == nil {
			t.Errorf("%s: no error", name)
		} else {
			asUnavailable(t, err)
		}
	}
	bad := map[string]MaterialRequest{
		"no elements": with(func(r *MaterialRequest) { r.Elements = nil }),
		"no grating":  with(func(r *MaterialRequest) { r.Grating = "" }),
		"accessory beyond run": with(func(r *MaterialRequest) {
			r.Accessories = []PlacedAccessory{{Type: AccessoryAccessBox, DistanceM: 3.2}}
		}),
		"unknown accessory": with(func(r *MaterialRequest) { r.Accessories = []PlacedAccessory{{Type: "rocket", DistanceM: 1}} }),
		"unknown discharge": with(func(r *MaterialRequest) { r.Discharge = "sideways" }),
		"other system":      with(func(r *MaterialRequest) { r.System, r.Grating = "fibre", "fibre-std-slot" }),
		"point product":     {System: "gully-300"},
		"modification on high-capacity": {System: "poly-hicap", Loading: "D", Discharge: ModificationLastElement,
			Elements: layout(t, []RunPart{{"poly-hicap-150-300", 2}}, 2, "D")},
	}
	for name, req := range bad {
		if _, err := c.Materials(req); err == nil {
			t.Errorf("%s: no error", name)
		} else {
			asRequest(t, err)
		}
	}
	_, err := c.Materials(with(func(r *MaterialRequest) { r.Discharge, r.EndCapID = EndCapWithOutletSetting, "99999" }))
	if err == nil {
		t.Error("unknown end cap accepted")
	}
}

func TestMaterialsConcreteAndPoint(t *testing.T) {
	t.Parallel()
	c := cat(t)
	m, err := c.Materials(MaterialRequest{System: "concrete", Accessories: []PlacedAccessory{{Type: AccessoryConcreteChamber}}})
	if err != nil || len(m.Box) != 1 || len(m.Channel) != 0 || m.Box[0].HAN != "" {
		t.Errorf("concrete: %+v %v", m, err)
	}
	_, err = c.Materials(MaterialRequest{System: "concrete", Accessories: []PlacedAccessory{{Type: AccessoryTrashBox}}})
	asUnavailable(t, err)

	cases := []struct {
		system string
		d      int
		hat    bool
		want   []string
	}{
		{"gully-300", 110, true, []string{"70101", "70110"}},
		{"gully-300", 160, false, []string{"70102"}},
		{"gully-450", 200, true, []string{"71102", "71110"}},
	}
	for _, tc := range cases {
		m, err := c.PointMaterials(tc.system, tc.d, tc.hat)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range m.Channel {
			got = append(got, l.HAN)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s DN %d hat %v: %v, want %v", tc.system, tc.d, tc.hat, got, tc.want)
		}
	}
	_, err = c.PointMaterials("gully-450", 250, true)
	asUnavailable(t, err)
	_, err = c.PointMaterials("gully-450", 110, false)
	asNotFound(t, err)
}
