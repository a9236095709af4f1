package catalogue

import (
	"reflect"
	"testing"
)

func TestLChannelDrilling(t *testing.T) {
	t.Parallel()
	for width, want := range map[int][2]int{100: {110, 106}, 150: {160, 131}, 200: {200, 152}, 300: {250, 178}, 400: {200, 153}, 500: {200, 153}} {
		d, ok := LChannelDrilling(width)
		if !ok || d.Position != DrillBottom || d.HoleDiameterMM != want[0] || d.HoleDistanceMM != want[1] {
			t.Errorf("width %d: %+v", width, d)
		}
	}
	if _, ok := LChannelDrilling(250); ok {
		t.Error("no preset for 250")
	}
}

func TestDrillDiameters(t *testing.T) {
	t.Parallel()
	c := cat(t)
	cases := []struct {
		channel, position string
		want              []int
	}{
		{"poly-100-10-0", DrillBottom, []int{50, 75, 110}},
		{"poly-100-0-0", DrillLeftWall, []int{50, 75}},
		{"fibre-standard-200-300", DrillBottom, []int{50, 75, 110, 125, 160, 200}},
		{"super-500-750", DrillRightWall, DrillDiameters},
		{"fibre-standard-300-350", DrillBottom, []int{50, 75, 110, 125, 160, 200, 225, 250, 315}},
	}
	for _, tc := range cases {
		got, err := c.DrillDiametersFor(tc.channel, tc.position)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s: %v %v, want %v", tc.channel, tc.position, got, err, tc.want)
		}
	}
	_, err := c.DrillDiametersFor("poly-100-10-0", "top")
	asRequest(t, err)
	if lo, hi := DrillDistanceRange(1000, 110); lo != 155 || hi != 845 {
		t.Errorf("range %d..%d", lo, hi)
	}
}
