package design

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"draindesign/domain/catalogue"
)

// Advanced mode's rules are shared with the screen through one table of
// cases, testdata/advanced.json, which web/src/design/advancedRules.test.ts
// reads too. The screen applies every case; here each case is checked
// where the server applies the same rule: the validation refuses what the
// screen refuses and takes what it takes, the catalogue gives the lists
// and presets the screen offers, and every auto-cut the screen makes lays
// its channels to the run length to the millimetre.

type advancedTable struct {
	Runs      map[string]map[string]any `json:"runs"`
	Catalogue []struct {
		System, Loading string
		SubProduct      string `json:"sub_product"`
		Channels        []catalogue.Channel
	} `json:"catalogue"`
	Selection []struct {
		Name       string
		Run        string
		Before     map[string]any
		After      map[string]any
		Calculates bool
	}
	Counts []struct {
		Name, Run, Base, Channel, Kind string
		Count                          float64
		Problem                        *string
	}
	Discharge []struct {
		Name, Run       string
		Channels        [][2]any
		ConcreteChannel map[string]any `json:"concreteChannel"`
		Enabled         map[string]bool
		ClientOnly      string `json:"client_only"`
	}
	Cutting []struct {
		Name       string
		RunLengthM float64 `json:"run_length_m"`
		Cut        CuttingInput
		Problem    *string
	}
	DrillDiameters []struct {
		WidthMM         int `json:"width_mm"`
		MaxDownstreamMM int `json:"max_downstream_mm"`
		Position        string
		Diameters       []int
	} `json:"drill_diameters"`
	DrillDistance []struct {
		ElementMM  int `json:"element_mm"`
		DiameterMM int `json:"diameter_mm"`
		Min, Max   int
	} `json:"drill_distance"`
	DrillAdjust []struct {
		ElementMM  int `json:"element_mm"`
		DistanceMM int `json:"distance_mm"`
		DiameterMM int `json:"diameter_mm"`
		Adjusted   int
	} `json:"drill_adjust"`
	Drilling []struct {
		Name, Run        string
		Channels         [][2]any
		DischargeCutting map[string]any `json:"dischargeCutting"`
		Drilling         map[string]any
		Problem          *string
	}
	LPresets [][3]*int `json:"l_presets"`
	AutoCut  []struct {
		Name             string
		Run              string
		Channels         [][2]any
		DischargeCutting int     `json:"dischargeCutting"`
		RunLengthM       float64 `json:"run_length_m"`
		Choice           string
		Result           *struct {
			Channels         [][2]any
			HeadCutting      int     `json:"headCutting"`
			DischargeCutting int     `json:"dischargeCutting"`
			RunLengthM       float64 `json:"run_length_m"`
		}
		RefusedCut *struct {
			DischargeCutting int `json:"dischargeCutting"`
		} `json:"refused_cut"`
	} `json:"auto_cut"`
	Concrete []struct {
		Name    string
		Section ConcreteInput
		Problem *string
	}
}

func readAdvancedTable(t *testing.T) advancedTable {
	t.Helper()
	b, err := os.ReadFile("testdata/advanced.json")
	if err != nil {
		t.Fatal(err)
	}
	var table advancedTable
	if err := json.Unmarshal(b, &table); err != nil {
		t.Fatal(err)
	}
	return table
}

// uses turns the table's [slug, count] pairs into the request's channels.
func uses(pairs [][2]any) []any {
	out := []any{}
	for _, p := range pairs {
		out = append(out, map[string]any{"slug": p[0], "count": p[1]})
	}
	return out
}

// laidM is the length of 1 m elements, less the cuttings.
func laidM(pairs [][2]any, cutsMM ...float64) float64 {
	n := 0.0
	for _, p := range pairs {
		n += p[1].(float64)
	}
	mm := n * 1000
	for _, c := range cutsMM {
		mm -= c
	}
	return mm / 1000
}

// advancedRun is a table run with the fields given (nil deletes one).
func advancedRun(t *testing.T, table advancedTable, run string, fields map[string]any) *Request {
	t.Helper()
	base, ok := table.Runs[run]
	if !ok {
		t.Fatalf("no run %q in the table", run)
	}
	m := map[string]any{}
	for k, v := range base {
		m[k] = v
	}
	for k, v := range fields {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	raw, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	r, err := DecodeRequest(raw)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func fieldOf(err error) string {
	var ve *ValidationError
	if errors.As(err, &ve) {
		return ve.Field
	}
	return ""
}

func TestAdvancedTableCatalogue(t *testing.T) {
	table := readAdvancedTable(t)
	cat := catalogue.Default()
	for _, group := range table.Catalogue {
		list, err := cat.Channels(catalogue.ChannelQuery{Product: group.System, Loading: group.Loading, SubProduct: group.SubProduct})
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range group.Channels {
			i := -1
			for j := range list {
				if list[j].Slug == want.Slug {
					i = j
				}
			}
			if i < 0 {
				t.Errorf("%s at %s: no %s", group.System, group.Loading, want.Slug)
				continue
			}
			got := list[i]
			// The table names what the screen reads of a channel.
			got.ProductType, got.SubProduct, got.OuterWidthMM, got.HeightRange = "", "", 0, nil
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: the table has %+v, the catalogue %+v", want.Slug, want, got)
			}
		}
	}
}

func TestAdvancedTableSelection(t *testing.T) {
	table := readAdvancedTable(t)
	cat := catalogue.Default()
	for _, c := range table.Selection {
		after := map[string]any{}
		for k, v := range c.Before {
			after[k] = v
		}
		for k, v := range c.After {
			after[k] = v
		}
		var pairs [][2]any
		b, _ := json.Marshal(after["channels"])
		_ = json.Unmarshal(b, &pairs)
		if len(pairs) == 0 {
			continue
		}
		fields := map[string]any{"channels": uses(pairs), "channel_length_m": laidM(pairs)}
		for _, k := range []string{"dischargeSetting", "drilling", "dischargeCutting", "outflowTrashbox", "outflowEndcap", "stepped"} {
			if v, ok := after[k]; ok {
				fields[k] = v
			}
		}
		// Stepped: the screen's choice is one the validation takes, and
		// where the screen keeps a run of several types single, the
		// validation refuses it stepped.
		if stepped, ok := c.After["stepped"].(bool); ok && len(pairs) > 1 {
			fields["stepped"] = true
			_, err := prepare(cat, advancedRun(t, table, c.Run, fields))
			if stepped && fieldOf(err) == "stepped" {
				t.Errorf("%s: the screen steps, the validation refuses: %v", c.Name, err)
			}
			if !stepped && fieldOf(err) != "stepped" {
				t.Errorf("%s: the screen keeps the run single, the validation takes it stepped (%v)", c.Name, err)
			}
			fields["stepped"] = stepped
		}
		if c.Calculates {
			if _, err := Calculate(cat, advancedRun(t, table, c.Run, fields)); err != nil {
				t.Errorf("%s: the run the screen makes does not calculate: %v", c.Name, err)
			}
		}
	}
}

func TestAdvancedTableCounts(t *testing.T) {
	table := readAdvancedTable(t)
	cat := catalogue.Default()
	for _, c := range table.Counts {
		pairs := [][2]any{{c.Base, 2.0}, {c.Channel, c.Count}}
		length := 2 + math.Max(0, math.Trunc(c.Count))
		_, err := Calculate(cat, advancedRun(t, table, c.Run, map[string]any{"channels": uses(pairs), "channel_length_m": length}))
		switch {
		case c.Problem == nil && err != nil:
			t.Errorf("%s: the screen takes %v %s, the server refuses: %v", c.Name, c.Count, c.Channel, err)
		case c.Problem != nil && err == nil:
			t.Errorf("%s: the screen refuses %v %s (%s), the server takes it", c.Name, c.Count, c.Channel, *c.Problem)
		}
	}
}

func TestAdvancedTableDischarge(t *testing.T) {
	table := readAdvancedTable(t)
	cat := catalogue.Default()
	for _, c := range table.Discharge {
		if c.ClientOnly != "" {
			continue
		}
		for setting, enabled := range c.Enabled {
			fields := map[string]any{"dischargeSetting": setting, "outflowTrashbox": 15, "outflowEndcap": "any"}
			if len(c.Channels) > 0 {
				fields["channels"] = uses(c.Channels)
				fields["channel_length_m"] = laidM(c.Channels)
			}
			if c.ConcreteChannel != nil {
				fields["concreteChannel"] = c.ConcreteChannel
			}
			_, err := prepare(cat, advancedRun(t, table, c.Run, fields))
			if refused := fieldOf(err) == "dischargeSetting"; refused == enabled {
				t.Errorf("%s, %s: the screen offers it %v, the validation says %v", c.Name, setting, enabled, err)
			}
			if enabled && err != nil {
				t.Errorf("%s, %s: %v", c.Name, setting, err)
			}
		}
	}
}

func TestAdvancedTableCutting(t *testing.T) {
	table := readAdvancedTable(t)
	for _, c := range table.Cutting {
		p := &plan{lengthM: c.RunLengthM}
		_, err := p.cutting("dischargeCutting", &c.Cut)
		got := ""
		if err != nil {
			got = "distance"
			if strings.Contains(err.Error(), "angle") {
				got = "angle"
			}
		}
		if want := deref(c.Problem); got != want {
			t.Errorf("%s: the server says %q, the screen %q", c.Name, got, want)
		}
	}
}

func TestAdvancedTableDrilling(t *testing.T) {
	table := readAdvancedTable(t)
	cat := catalogue.Default()
	for _, c := range table.DrillDiameters {
		if got := catalogue.DrillDiametersForSize(c.WidthMM, c.MaxDownstreamMM, c.Position); !reflect.DeepEqual(got, c.Diameters) {
			t.Errorf("%d mm wide, %d mm deep, %s: %v, the screen offers %v", c.WidthMM, c.MaxDownstreamMM, c.Position, got, c.Diameters)
		}
	}
	for _, c := range table.DrillDistance {
		if lo, hi := catalogue.DrillDistanceRange(c.ElementMM, c.DiameterMM); lo != c.Min || hi != c.Max {
			t.Errorf("%d mm hole in %d mm: %d..%d, the screen %d..%d", c.DiameterMM, c.ElementMM, lo, hi, c.Min, c.Max)
		}
	}
	for _, c := range table.DrillAdjust {
		if lo, hi := catalogue.DrillDistanceRange(c.ElementMM, c.DiameterMM); c.Adjusted < lo || c.Adjusted > hi {
			t.Errorf("the screen moves a %d mm hole to %d mm, outside %d..%d", c.DiameterMM, c.Adjusted, lo, hi)
		}
	}
	for _, c := range table.Drilling {
		fields := map[string]any{"channels": uses(c.Channels), "dischargeSetting": "modification-last-element", "drilling": c.Drilling}
		cut := 0.0
		if c.DischargeCutting != nil {
			fields["dischargeCutting"] = c.DischargeCutting
			cut = c.DischargeCutting["distance_in_mm"].(float64)
		}
		fields["channel_length_m"] = laidM(c.Channels, cut)
		_, err := prepare(cat, advancedRun(t, table, c.Run, fields))
		got := ""
		switch msg := errString(err); {
		case err == nil:
		case fieldOf(err) != "drilling":
			t.Errorf("%s: %v", c.Name, err)
		case strings.Contains(msg, "diameter"):
			got = "diameter"
		case strings.Contains(msg, "does not fit"):
			got = "noFit"
		default:
			got = "distance"
		}
		if want := deref(c.Problem); got != want {
			t.Errorf("%s: the server says %q (%v), the screen %q", c.Name, got, err, want)
		}
	}
	for _, p := range table.LPresets {
		d, ok := catalogue.LChannelDrilling(*p[0])
		if ok != (p[1] != nil) || (ok && (d.HoleDiameterMM != *p[1] || d.HoleDistanceMM != *p[2] || d.Position != catalogue.DrillBottom)) {
			want := "none"
			if p[1] != nil {
				want = fmt.Sprintf("%d/%d", *p[1], *p[2])
			}
			t.Errorf("L channel %d: the catalogue's preset %+v (%v), the screen's %s", *p[0], d, ok, want)
		}
	}
}

func TestAdvancedTableAutoCut(t *testing.T) {
	table := readAdvancedTable(t)
	cat := catalogue.Default()
	parts := func(pairs [][2]any) []catalogue.RunPart {
		var out []catalogue.RunPart
		for _, p := range pairs {
			out = append(out, catalogue.RunPart{Slug: p[0].(string), Count: int(p[1].(float64))})
		}
		return out
	}
	for _, c := range table.AutoCut {
		loading := table.Runs[c.Run]["loading"].(string)
		if r := c.Result; r != nil {
			els, err := cat.LayoutCut(parts(r.Channels), r.HeadCutting, r.DischargeCutting, loading)
			length := c.RunLengthM
			if r.RunLengthM > 0 {
				length = r.RunLengthM
			}
			if err != nil || els[len(els)-1].EndMM != int(math.Round(length*1000)) {
				t.Errorf("%s: the screen's cut does not lay %v m: %v", c.Name, length, err)
			}
		}
		if r := c.RefusedCut; r != nil {
			if _, err := cat.LayoutCut(parts(c.Channels), 0, r.DischargeCutting, loading); err == nil {
				t.Errorf("%s: the screen refuses a %d mm cut at the discharge, the catalogue lays it", c.Name, r.DischargeCutting)
			}
		}
	}
}

func TestAdvancedTableConcrete(t *testing.T) {
	table := readAdvancedTable(t)
	cat := catalogue.Default()
	for _, c := range table.Concrete {
		_, err := prepare(cat, advancedRun(t, table, "concrete", map[string]any{"concreteChannel": c.Section}))
		got := ""
		if err != nil {
			if fieldOf(err) != "concreteChannel" {
				t.Errorf("%s: %v", c.Name, err)
			}
			got = "size"
			if strings.Contains(err.Error(), "roughness") {
				got = "roughness"
			}
		}
		if want := deref(c.Problem); got != want {
			t.Errorf("%s: the server says %q (%v), the screen %q", c.Name, got, err, want)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
