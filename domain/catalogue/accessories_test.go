package catalogue

import (
	"reflect"
	"testing"
)

func TestAccessoriesAvailability(t *testing.T) {
	t.Parallel()
	c := cat(t)
	cases := []struct {
		channel, loading              string
		cover, access, trash, chamber bool
		boxes                         []string
	}{
		{"poly-100-10-0", "C", false, true, true, false, []string{"10702", "10703", "10801"}},
		{"poly-100-10-0", "A", false, true, true, false, []string{"10701", "10801"}},
		{"fibre-standard-150-250", "F900", false, false, false, false, []string{}},
		{"fibre-standard-200-300", "F900", false, false, true, false, []string{"20721", "20722"}},
		{"fibre-ks-100-150", "D", false, true, true, false, []string{"22701", "22801"}},
		{"super-400-500", "E", false, false, true, true, []string{"30741"}},
		{"super-300-400", "E", false, true, true, false, []string{"30731", "30804"}},
		{"big-bls-400-07-550", "O", false, false, false, true, []string{}},
		{"big-bls-150-03-300", "L", false, false, true, true, []string{"40701"}},
		{"steel-100-100", "B", true, false, true, false, []string{"60701"}},
		{"poly-hicap-250-450", "D", true, false, true, true, []string{"50711"}},
	}
	for _, tc := range cases {
		got, err := c.Accessories(tc.channel, tc.loading)
		if err != nil {
			t.Fatalf("%s: %v", tc.channel, err)
		}
		flags := []bool{got.UseAccessCover, got.UseAccessBox, got.UseTrashBox, got.UseConcreteChamber}
		if want := []bool{tc.cover, tc.access, tc.trash, tc.chamber}; !reflect.DeepEqual(flags, want) {
			t.Errorf("%s %s: cover/access/trash/chamber %v, want %v", tc.channel, tc.loading, flags, want)
		}
		boxes := []string{}
		for _, b := range got.AvailableBoxes {
			boxes = append(boxes, b.HAN)
			if (b.Type == AccessoryTrashBox) != (b.DischargeLPS > 0) {
				t.Errorf("%s: box %+v", tc.channel, b)
			}
		}
		if !reflect.DeepEqual(boxes, tc.boxes) {
			t.Errorf("%s %s: boxes %v, want %v", tc.channel, tc.loading, boxes, tc.boxes)
		}
	}
	got, err := c.Accessories("concrete", "")
	if err != nil || !got.UseConcreteChamber || got.UseTrashBox || got.UseAccessBox || got.UseAccessCover || got.AvailableBoxes == nil {
		t.Errorf("concrete: %+v %v", got, err)
	}
	_, err = c.Accessories("fibre", "C")
	asRequest(t, err)
	_, err = c.Accessories("poly-100-10-0", "D")
	asNotFound(t, err)
}

func TestDischargeTrashBoxLength(t *testing.T) {
	t.Parallel()
	c := cat(t)
	for channel, want := range map[string]int{
		"super-400-500": 1000, "super-500-750-l": 1000, "super-500-hr": 1000,
		"super-300-550": 500, "super-100-200": 500, "fibre-standard-300-550": 500, "poly-100-10-0": 500, "poly-hicap-250-750": 500,
	} {
		got, err := c.DischargeTrashBoxLengthMM(channel)
		if err != nil || got != want {
			t.Errorf("%s: %d %v, want %d", channel, got, err, want)
		}
	}
	// Every trash box in the data follows the rule.
	for _, b := range c.trashBoxes {
		want := 500
		if b.System == "super" && b.WidthMM >= 400 {
			want = 1000
		}
		if b.LengthMM != want {
			t.Errorf("trash box %s is %d mm, want %d", b.HAN, b.LengthMM, want)
		}
	}
}

func TestTrashBoxesForChannel(t *testing.T) {
	t.Parallel()
	c := cat(t)
	cases := []struct {
		channel, loading string
		want             []float64
	}{
		{"super-500-750", "F", []float64{60, 95}},
		{"fibre-standard-300-450", "E600", []float64{25, 38}},
		{"fibre-ks-300-450", "D", []float64{38}},
		{"big-bls-300-06-450", "N", nil},
	}
	for _, tc := range cases {
		boxes, err := c.TrashBoxes(tc.channel, tc.loading)
		if err != nil {
			t.Fatal(err)
		}
		var got []float64
		for _, b := range boxes {
			got = append(got, b.DischargeLPS)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s: %v, want %v", tc.channel, tc.loading, got, tc.want)
		}
	}
	_, err := c.TrashBoxes("nope", "D")
	asNotFound(t, err)
}
