package catalogue

import (
	"errors"
	"math"
	"testing"
)

func checkContiguous(t *testing.T, els []Element, runMM int) {
	t.Helper()
	at := 0
	for i, e := range els {
		if e.Index != i || e.StartMM != at || e.EndMM != e.StartMM+e.LengthMM || e.LengthMM < MinPieceMM || e.LengthMM > e.ElementLengthMM {
			t.Fatalf("element %d not contiguous or badly cut: %+v", i, e)
		}
		if e.Cut != (e.LengthMM != e.ElementLengthMM) {
			t.Fatalf("element %d cut flag wrong", i)
		}
		at = e.EndMM
	}
	if at != runMM {
		t.Fatalf("run ends at %d mm, want %d", at, runMM)
	}
}

func TestLayoutCutsTheLastElement(t *testing.T) {
	t.Parallel()
	c := cat(t)
	cases := []struct {
		name    string
		parts   []RunPart
		runM    float64
		lengths map[int]int // index -> length, others 1000
		n       int
	}{
		{"20.5 m of 1 m elements", []RunPart{{"fibre-standard-100-150", 21}}, 20.5, map[int]int{20: 500}, 21},
		{"whole elements", []RunPart{{"fibre-standard-100-150", 20}}, 20, map[int]int{}, 20},
		{"run length 0 keeps them whole", []RunPart{{"fibre-standard-100-150", 3}}, 0, map[int]int{}, 3},
		{"a 50 mm tail is shared", []RunPart{{"fibre-standard-100-150", 21}}, 20.05, map[int]int{19: 525, 20: 525}, 21},
		{"L channel stays whole", []RunPart{{"fibre-standard-100-250", 3}, {"fibre-standard-100-250-l", 1}}, 3.4, map[int]int{2: 400}, 4},
		{"rounded to the mm", []RunPart{{"steel-100-100", 2}}, 1.2344, map[int]int{1: 234}, 2},
		{"short run", []RunPart{{"steel-100-100", 1}}, 0.1, map[int]int{0: 100}, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			els, err := c.Layout(tc.parts, tc.runM, "")
			if err != nil {
				t.Fatal(err)
			}
			if len(els) != tc.n {
				t.Fatalf("%d elements, want %d", len(els), tc.n)
			}
			run := 0
			for i, e := range els {
				want := 1000
				if l, ok := tc.lengths[i]; ok {
					want = l
				}
				if e.LengthMM != want {
					t.Errorf("element %d: %d mm, want %d", i, e.LengthMM, want)
				}
				run += e.LengthMM
			}
			checkContiguous(t, els, run)
		})
	}
}

func TestLayoutBuiltInFallDepths(t *testing.T) {
	t.Parallel()
	c := cat(t)
	els, err := c.Layout([]RunPart{{"poly-100-01", 1}, {"poly-100-02", 1}, {"poly-100-03", 1}}, 2.5, "C")
	if err != nil {
		t.Fatal(err)
	}
	checkContiguous(t, els, 2500)
	want := [][4]float64{ // invert up, down, max water up, down
		{100, 105, 80, 85},
		{105, 110, 85, 90},
		{110, 112.5, 90, 92.5},
	}
	for i, e := range els {
		got := [4]float64{e.InvertDepthUpstreamMM, e.InvertDepthDownstreamMM, e.MaxWaterDepthUpstreamMM, e.MaxWaterDepthDownstreamMM}
		if got != want[i] {
			t.Errorf("element %d depths %v, want %v", i, got, want[i])
		}
		if e.ManningN != 0.011 || e.Shape.Kind != ShapeU || e.Shape.RadiusMM != 50 || e.WidthMM != 100 {
			t.Errorf("element %d geometry %+v", i, e)
		}
		if i > 0 && e.FloorDropMM(els[i-1]) != 0 {
			t.Errorf("element %d: built-in fall must be continuous", i)
		}
	}
}

func TestLayoutCut(t *testing.T) {
	t.Parallel()
	c := cat(t)
	els, err := c.LayoutCut([]RunPart{{"poly-100-01", 1}, {"poly-100-02", 1}}, 200, 300, "")
	if err != nil {
		t.Fatal(err)
	}
	checkContiguous(t, els, 1500)
	if els[0].InvertDepthUpstreamMM != 101 || els[0].LengthMM != 800 || els[1].InvertDepthDownstreamMM != 108.5 {
		t.Errorf("cut depths: %+v / %+v", els[0], els[1])
	}
	_, err = c.LayoutCut([]RunPart{{"poly-100-01", 1}}, 500, 450, "")
	asRequest(t, err)
	_, err = c.LayoutCut([]RunPart{{"super-400-650-l", 1}}, 0, 200, "")
	asRequest(t, err)
}

func TestLayoutErrors(t *testing.T) {
	t.Parallel()
	c := cat(t)
	var lm *LengthMismatchError
	_, err := c.Layout([]RunPart{{"steel-100-100", 3}}, 3.5, "")
	if !errors.As(err, &lm) || !lm.Short() || math.Abs(lm.DifferenceM()-0.5) > 1e-9 {
		t.Errorf("want short mismatch of 0.5 m, got %v", err)
	}
	_, err = c.Layout([]RunPart{{"steel-100-100", 5}}, 3.5, "")
	if !errors.As(err, &lm) || lm.Short() || math.Abs(lm.DifferenceM()-1.5) > 1e-9 {
		t.Errorf("want long mismatch of 1.5 m, got %v", err)
	}
	for name, tc := range map[string]struct {
		parts []RunPart
		run   float64
		load  string
	}{
		"no channels":        {nil, 1, ""},
		"mixed systems":      {[]RunPart{{"steel-100-100", 1}, {"poly-100-0-0", 1}}, 0, ""},
		"L not last":         {[]RunPart{{"super-400-650-l", 1}, {"super-400-650", 1}}, 0, ""},
		"two L channels":     {[]RunPart{{"super-400-650", 1}, {"super-400-650-l", 2}}, 0, ""},
		"two height ranges":  {[]RunPart{{"super-500-hr", 2}}, 0, ""},
		"negative count":     {[]RunPart{{"steel-100-100", -1}}, 0, ""},
		"piece below 100 mm": {[]RunPart{{"steel-100-100", 1}}, 0.05, ""},
	} {
		if _, err := c.Layout(tc.parts, tc.run, tc.load); err == nil {
			t.Errorf("%s: no error", name)
		} else {
			asRequest(t, err)
		}
	}
	_, err = c.Layout([]RunPart{{"steel-100-100", 1}}, 1, "D400")
	asNotFound(t, err)
	_, err = c.Layout([]RunPart{{"fibre-ks-100-150", 1}}, 1, "E600")
	asNotFound(t, err)
}
