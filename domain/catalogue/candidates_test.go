package catalogue

import (
	"reflect"
	"strings"
	"testing"
)

func partsOf(cands []Candidate) [][]RunPart {
	var out [][]RunPart
	for _, c := range cands {
		out = append(out, c.Parts)
	}
	return out
}

func TestCandidatesSingleSizeOrder(t *testing.T) {
	t.Parallel()
	c := cat(t)
	cands, err := c.Candidates(CandidateRequest{System: "fibre", Loading: "C250", Grating: "fibre-std-mesh", RunLengthM: 12, Configuration: SingleSize})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"fibre-standard-100-150", "fibre-standard-100-200", "fibre-standard-100-250",
		"fibre-standard-150-200", "fibre-standard-150-250", "fibre-standard-150-300",
		"fibre-standard-200-250", "fibre-standard-200-300", "fibre-standard-200-350",
		"fibre-standard-300-350", "fibre-standard-300-450", "fibre-standard-300-550",
	}
	var got []string
	for _, cd := range cands {
		if len(cd.Parts) != 1 || cd.Parts[0].Count != 12 || cd.Configuration != SingleSize {
			t.Errorf("candidate %+v", cd.Parts)
		}
		got = append(got, cd.Parts[0].Slug)
		checkContiguous(t, cd.Elements, 12000)
		if cd.Grating == nil || cd.Grating.Slug != "fibre-std-mesh" || cd.WidthMM != cd.Elements[0].WidthMM {
			t.Errorf("grating %+v for width %d", cd.Grating, cd.WidthMM)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("order %v\nwant %v", got, want)
	}
}

// Channel types withdrawn where the run is designed are never candidates:
// the others keep their order.
func TestCandidatesExcludeSubProducts(t *testing.T) {
	t.Parallel()
	c := cat(t)
	for _, tc := range []struct {
		exclude []string
		widths  []int
	}{
		{nil, []int{100, 150, 200, 300}},
		{[]string{"10150", "10300"}, []int{100, 200}},
		{[]string{"8150"}, []int{100, 150, 200, 300}}, // the other family's: no effect
		{[]string{"10100", "10150", "10200", "10300"}, nil},
	} {
		cands, err := c.Candidates(CandidateRequest{System: "fibre", Loading: "C250", Grating: "fibre-std-mesh", RunLengthM: 12,
			Configuration: SingleSize, ExcludeSubProducts: tc.exclude})
		if err != nil {
			t.Fatal(err)
		}
		var widths []int
		for _, cd := range cands {
			if len(widths) == 0 || widths[len(widths)-1] != cd.WidthMM {
				widths = append(widths, cd.WidthMM)
			}
		}
		if !reflect.DeepEqual(widths, tc.widths) {
			t.Errorf("excluding %v: widths %v, want %v", tc.exclude, widths, tc.widths)
		}
	}
}

func TestCandidatesSteppedOrder(t *testing.T) {
	t.Parallel()
	c := cat(t)
	d := func(depth string) string { return "poly-100-" + depth + "-0" }
	cands, err := c.Candidates(CandidateRequest{System: "poly-100", Loading: "B", Grating: "poly-100-mesh-galv", RunLengthM: 10, Configuration: Stepped})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]RunPart{
		{{d("0"), 10}},
		{{d("0"), 5}, {d("10"), 5}},
		{{d("10"), 10}},
		{{d("0"), 3}, {d("10"), 3}, {d("20"), 4}},
		{{d("10"), 5}, {d("20"), 5}},
		{{d("20"), 10}},
		{{d("0"), 2}, {d("10"), 2}, {d("20"), 3}, {d("30"), 3}},
		{{d("10"), 3}, {d("20"), 3}, {d("30"), 4}},
		{{d("20"), 5}, {d("30"), 5}},
		{{d("30"), 10}},
	}
	if got := partsOf(cands); !reflect.DeepEqual(got, want) {
		t.Fatalf("stepped candidates\n%v\nwant\n%v", got, want)
	}
	// Progressively deeper toward the outlet: the invert never rises, and
	// drops 50 mm at each step.
	els := cands[6].Elements
	checkContiguous(t, els, 10000)
	steps := 0
	for i := 1; i < len(els); i++ {
		switch drop := els[i].FloorDropMM(els[i-1]); drop {
		case 0:
		case 50:
			steps++
		default:
			t.Errorf("joint %d drops %v mm", i, drop)
		}
	}
	if steps != 3 {
		t.Errorf("%d steps, want 3", steps)
	}

	short, err := c.Candidates(CandidateRequest{System: "poly-100", Loading: "B", Grating: "poly-100-mesh-galv", RunLengthM: 2, Configuration: Stepped})
	if err != nil {
		t.Fatal(err)
	}
	if len(short) != 7 {
		t.Errorf("2 m run: %d candidates, want 7 (no ladder longer than the run)", len(short))
	}
}

func TestCandidatesFamilies(t *testing.T) {
	t.Parallel()
	c := cat(t)
	cases := []struct {
		name, loading, grating, family string
		n                              int
		nameHas                        map[int]string // width -> name suffix
	}{
		{"E600 standard slot", "E600", "fibre-std-slot", "standard", 12, map[int]string{200: "+300", 100: "D"}},
		{"D400 ks slot", "D", "fibre-ks-slot", "ks", 12, map[int]string{200: "+200"}},
		{"F900 ks", "F900", "fibre-ks-f900", "ks", 12, map[int]string{200: "+300"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cands, err := c.Candidates(CandidateRequest{System: "fibre", Loading: tc.loading, Grating: tc.grating, RunLengthM: 3})
			if err != nil {
				t.Fatal(err)
			}
			if len(cands) != tc.n {
				t.Fatalf("%d candidates, want %d", len(cands), tc.n)
			}
			for _, cd := range cands {
				for _, e := range cd.Elements {
					if e.Family != tc.family {
						t.Fatalf("%s is not of family %s", e.Slug, tc.family)
					}
					if want, ok := tc.nameHas[e.WidthMM]; ok && !strings.Contains(e.Name, want) {
						t.Errorf("%s shown as %q, want %q in it", e.Slug, e.Name, want)
					}
				}
			}
		})
	}
	_, err := c.Candidates(CandidateRequest{System: "fibre", Loading: "E600", Grating: "fibre-ks-slot", RunLengthM: 3})
	asNotFound(t, err)
}

func TestCandidatesBigBLSByLoading(t *testing.T) {
	t.Parallel()
	c := cat(t)
	for letter, code := range map[string]string{"L": "03", "M": "04", "N": "06", "O": "07"} {
		cands, err := c.Candidates(CandidateRequest{System: "big-bls", Loading: letter, Grating: "big-bls-slot", RunLengthM: 4, MinimumSizeMM: 300})
		if err != nil {
			t.Fatal(err)
		}
		if len(cands) != 6 || cands[0].WidthMM != 300 {
			t.Fatalf("%s: %d candidates from width %d, want 6 from 300", letter, len(cands), cands[0].WidthMM)
		}
		for _, cd := range cands {
			if !strings.Contains(cd.Parts[0].Slug, "-"+code+"-") {
				t.Errorf("%s: %s is not code %s", letter, cd.Parts[0].Slug, code)
			}
		}
	}
}

func TestCandidatesHighCapacityAlwaysStepped(t *testing.T) {
	t.Parallel()
	c := cat(t)
	cands, err := c.Candidates(CandidateRequest{System: "poly-hicap", Loading: "D400", Grating: "ignored", RunLengthM: 30})
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != 20 || cands[0].Configuration != Stepped || cands[0].Grating != nil {
		t.Fatalf("%d candidates, first %+v", len(cands), cands[0])
	}
	if cands[1].Parts[0].Slug != "poly-hicap-150-300" || cands[1].Parts[1].Slug != "poly-hicap-150-400" {
		t.Errorf("second candidate %v", cands[1].Parts)
	}
	if e := cands[0].Elements[0]; e.Shape.Kind != ShapeSlot || e.Shape.SlotWidthMM != 20 || e.MaxWaterDepthDownstreamMM != 200 {
		t.Errorf("slot element %+v", e)
	}
	// Controlled discharge forbids stepping: then the single sizes.
	single, err := c.Candidates(CandidateRequest{System: "poly-hicap", Loading: "D400", RunLengthM: 30, Configuration: SingleSize})
	if err != nil || len(single) != 8 || len(single[0].Parts) != 1 || single[0].Configuration != SingleSize {
		t.Errorf("single size under controlled discharge: %d candidates, %v", len(single), err)
	}
}

func TestCandidatesBuiltInFall(t *testing.T) {
	t.Parallel()
	c := cat(t)
	req := CandidateRequest{System: "poly-100", Loading: "C250", Grating: "poly-100-slot-iron", RunLengthM: 20.5, Configuration: BuiltInFall}
	cands, err := c.Candidates(req)
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != 20 {
		t.Fatalf("%d candidates, want one per entry point (20)", len(cands))
	}
	for i, cd := range cands {
		els := cd.Elements
		checkContiguous(t, els, 20500)
		if len(els) != 21 || els[20].LengthMM != 500 || els[20].Slug != "poly-100-20-0" {
			t.Fatalf("candidate %d: %d elements, last %+v", i, len(els), els[20])
		}
		if els[0].InvertDepthUpstreamMM != float64(100+5*i) {
			t.Errorf("candidate %d enters at %v mm", i, els[0].InvertDepthUpstreamMM)
		}
		for j := 1; j < len(els); j++ {
			if els[j].FloorDropMM(els[j-1]) != 0 || els[j].InvertDepthDownstreamMM < els[j-1].InvertDepthDownstreamMM {
				t.Fatalf("candidate %d: invert not continuous at %d", i, j)
			}
		}
	}
	if cands[0].Parts[19] != (RunPart{"poly-100-20", 1}) || cands[0].Parts[20] != (RunPart{"poly-100-20-0", 1}) {
		t.Errorf("first candidate parts %v", cands[0].Parts)
	}

	req.RunLengthM = 5
	cands, _ = c.Candidates(req)
	first := cands[0].Elements
	if len(first) != 5 || first[4].Slug != "poly-100-05" || first[4].InvertDepthDownstreamMM != 125 {
		t.Errorf("5 m run: %+v", first[len(first)-1])
	}
	req.MinimumSizeMM = 150
	if cands, _ = c.Candidates(req); len(cands) != 0 {
		t.Errorf("minimum size 150 leaves no polymer 100 channel, got %d", len(cands))
	}
}

func TestCandidatesRequestErrors(t *testing.T) {
	t.Parallel()
	c := cat(t)
	for name, req := range map[string]CandidateRequest{
		"steel stepped":       {System: "steel", Loading: "A", Grating: "steel-heelsafe", RunLengthM: 5, Configuration: Stepped},
		"fibre built-in fall": {System: "fibre", Loading: "A", Grating: "fibre-std-mesh", RunLengthM: 5, Configuration: BuiltInFall},
		"concrete":            {System: "concrete", RunLengthM: 5},
		"gully":               {System: "gully-300", RunLengthM: 5},
		"grating missing":     {System: "fibre", Loading: "A", RunLengthM: 5},
		"loading missing":     {System: "fibre", Grating: "fibre-std-mesh", RunLengthM: 5},
		"no run length":       {System: "fibre", Loading: "A", Grating: "fibre-std-mesh"},
		"unknown config":      {System: "fibre", Loading: "A", Grating: "fibre-std-mesh", RunLengthM: 5, Configuration: "zigzag"},
	} {
		_, err := c.Candidates(req)
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		asRequest(t, err)
	}
	for name, req := range map[string]CandidateRequest{
		"unknown system":        {System: "x", Loading: "A", RunLengthM: 5},
		"loading not offered":   {System: "fibre", Loading: "LCN20", Grating: "fibre-std-mesh", RunLengthM: 5},
		"grating of another":    {System: "fibre", Loading: "D400", Grating: "super-slot-iron", RunLengthM: 5},
		"grating below loading": {System: "fibre", Loading: "D400", Grating: "fibre-std-mesh", RunLengthM: 5},
	} {
		_, err := c.Candidates(req)
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		asNotFound(t, err)
	}
}

func TestCandidatesMinimumSizeAndSpecials(t *testing.T) {
	t.Parallel()
	c := cat(t)
	cands, err := c.Candidates(CandidateRequest{System: "super", Loading: "D", Grating: "super-slot-iron", RunLengthM: 6, MinimumSizeMM: 400})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, cd := range cands {
		got = append(got, cd.Parts[0].Slug)
		if cd.Grating.Length != 500 {
			t.Errorf("grating %+v", cd.Grating)
		}
	}
	want := []string{"super-400-500", "super-400-650", "super-500-600", "super-500-750"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v (no L or height-range channels)", got, want)
	}
}
