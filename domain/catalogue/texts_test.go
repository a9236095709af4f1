package catalogue

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// fake writes a key with its data; it knows only keys of the catalogue
// namespace, as a catalogue without some key would.
func fake(key string, data map[string]any) string {
	if !strings.HasPrefix(key, "catalogue.") || strings.Contains(key, "missing") {
		return key
	}
	var b strings.Builder
	b.WriteString("<" + key)
	for _, k := range slices.Sorted(maps.Keys(data)) {
		fmt.Fprintf(&b, " %s=%v", k, data[k])
	}
	return b.String() + ">"
}

func TestDescribe(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		line MaterialLine
		want string
	}{
		{"a line stored before texts keeps its description", MaterialLine{Description: "End cap X"}, "End cap X"},
		{"an article", MaterialLine{Description: "End cap X", Text: item("10601")}, "<catalogue.article.10601>"},
		{"an unknown key keeps the description", MaterialLine{Description: "Old", Text: LineText{Key: "catalogue.missing"}}, "Old"},
		{"a grating with its size", MaterialLine{Text: LineText{Key: GratingKey("g"), GratingWidthMM: 100, GratingLengthMM: 500}},
			"<catalogue.grating.g>, <catalogue.line.gratingSize length=500 width=100>"},
		{"a whole element is its designation", MaterialLine{Description: "FC 100 Standard D150", Text: LineText{Designation: "FC 100 Standard D150"}}, "FC 100 Standard D150"},
		{"a cut, modified element", MaterialLine{Text: LineText{Designation: "D", CutToMM: 500, DrillPosition: DrillLeftWall, DrillDiameterMM: 75, DrillDistanceMM: 200}},
			"D, <catalogue.line.cutTo length=500>, <catalogue.line.modified.leftWall diameter=75 distance=200>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := tc.line.Describe(fake); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestLinesCarryTheirText: every line of a run with every kind of item
// names the item's text, and an element's text holds its cut and drilling.
func TestLinesCarryTheirText(t *testing.T) {
	t.Parallel()
	c := cat(t)
	els := layout(t, []RunPart{{"poly-100-10-0", 4}}, 3.5, "C")
	m, err := c.Materials(MaterialRequest{System: "poly-100", Loading: "C", Grating: "poly-100-slot-iron", Elements: els,
		Discharge: ModificationLastElement, Drilling: &Drilling{Position: "nowhere", HoleDiameterMM: 75, HoleDistanceMM: 200},
		Accessories: []PlacedAccessory{{Type: AccessoryTrashBox, DistanceM: 2}, {Type: AccessoryAccessBox, DistanceM: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	texts := c.Texts()
	for _, list := range [][]MaterialLine{m.Channel, m.Connectors, m.Endcaps, m.AccessCover, m.Box} {
		for _, l := range list {
			switch {
			case l.Text.Key != "" && texts[l.Text.Key] == "":
				t.Errorf("%s %q: key %q has no catalogue text", l.HAN, l.Description, l.Text.Key)
			case l.Text.Key == "" && (l.Text.Designation == "" || !strings.HasPrefix(l.Description, l.Text.Designation)):
				t.Errorf("%s %q: text %+v", l.HAN, l.Description, l.Text)
			}
		}
	}
	last := m.Channel[len(m.Channel)-2] // the gratings come after the elements
	want := LineText{Designation: "Polymer 100 Type 10.0", CutToMM: 500, DrillPosition: DrillBottom, DrillDiameterMM: 75, DrillDistanceMM: 200}
	if last.Text != want {
		t.Errorf("last element %q: text %+v, want %+v (an unknown position is drilled in the bottom)", last.Description, last.Text, want)
	}
}
