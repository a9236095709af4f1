package design

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"draindesign/domain/catalogue"
)

// The rounding sweep checks a change made for speed (docs/hydraulics.md,
// "Rounding-level changes for speed"): it calculates many standard-mode
// runs (every channel system at its first loading class and grating,
// lengths 3 to 3000 m, four catchments, four slopes, single size and
// stepped, and up to 200 m also into a trash box) and writes the answers, or compares them with answers written
// before the change. It is not part of the ordinary test run:
//
//	DESIGN_SWEEP_OUT=/tmp/before.json go test -run TestRoundingSweep ./domain/design/   # before the change
//	DESIGN_SWEEP_REF=/tmp/before.json go test -run TestRoundingSweep ./domain/design/   # after it
//
// The comparison asks for the same designs (channels, configuration, every
// string and flag, the same errors) and every number outside the profile
// slices within sweepTolerance (relative); it reports how many slice
// numbers differ by more than 1e-6 and the largest difference.

const sweepTolerance = 2e-7

type sweepCase struct {
	Name string          `json:"name"`
	Body json.RawMessage `json:"body"`
}

type sweepResult struct {
	Name   string          `json:"name"`
	Error  string          `json:"error,omitempty"`
	Answer json.RawMessage `json:"answer,omitempty"`
}

func sweepCases(t *testing.T, cat *catalogue.Catalogue) []sweepCase {
	t.Helper()
	var out []sweepCase
	for _, s := range cat.Systems() {
		if len(s.LoadingClasses) == 0 {
			continue // point and gully products have no run
		}
		loading := s.LoadingClasses[0]
		grating := ""
		if s.Grated {
			gs, err := cat.GratingsFor(s.Slug, loading)
			if err != nil || len(gs) == 0 {
				continue
			}
			grating = gs[0].Slug
		}
		for _, length := range []float64{3, 20, 75, 200, 500, 1500, 3000} {
			for _, width := range []float64{1, 4, 12, 30} {
				for _, slope := range []float64{0, 0.2, 1, 3} {
					for _, stepped := range []bool{false, true} {
						if stepped && !s.CanStep {
							continue
						}
						b := map[string]any{
							"channel_group": s.Slug, "loading": loading, "channel_length_m": length,
							"drainage_area_m2": math.Min(length*width, MaxAreaM2), "rainfall": map[string]any{"rainfall_mm_per_hr": 75},
							"ground_slope": slope, "stepped": stepped,
						}
						if grating != "" {
							b["grating"] = grating
						}
						raw, _ := json.Marshal(b)
						out = append(out, sweepCase{
							Name: fmt.Sprintf("%s/%gm/w%g/s%g/stepped=%v", s.Slug, length, width, slope, stepped),
							Body: raw,
						})
						if length > 200 {
							continue
						}
						// The same into the run's own trash box: an outlet
						// device whose depth rises with the flow.
						b["dischargeSetting"] = "outflow-in-trashbox"
						raw, _ = json.Marshal(b)
						out = append(out, sweepCase{
							Name: fmt.Sprintf("%s/%gm/w%g/s%g/stepped=%v/trash-box", s.Slug, length, width, slope, stepped),
							Body: raw,
						})
					}
				}
			}
		}
	}
	return out
}

func runSweep(t *testing.T) []sweepResult {
	cat := catalogue.Default()
	cases := sweepCases(t, cat)
	out := make([]sweepResult, 0, len(cases))
	for _, c := range cases {
		r := sweepResult{Name: c.Name}
		req, err := DecodeRequest(c.Body)
		if err == nil {
			var ans *Answer
			if ans, err = Calculate(cat, req); err == nil {
				r.Answer, _ = json.Marshal(ans)
			}
		}
		if err != nil {
			r.Error = err.Error()
		}
		out = append(out, r)
	}
	return out
}

func TestRoundingSweep(t *testing.T) {
	outPath, refPath := os.Getenv("DESIGN_SWEEP_OUT"), os.Getenv("DESIGN_SWEEP_REF")
	if outPath == "" && refPath == "" {
		t.Skip("set DESIGN_SWEEP_OUT or DESIGN_SWEEP_REF")
	}
	got := runSweep(t)
	if outPath != "" {
		raw, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(outPath, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%d runs written to %s", len(got), outPath)
	}
	if refPath == "" {
		return
	}
	raw, err := os.ReadFile(refPath)
	if err != nil {
		t.Fatal(err)
	}
	var ref []sweepResult
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref) != len(got) {
		t.Fatalf("%d runs, reference has %d", len(got), len(ref))
	}
	var st sweepStats
	calculated := 0
	for i := range got {
		g, r := got[i], ref[i]
		if g.Name != r.Name || g.Error != r.Error {
			t.Errorf("%s: error %q, reference %s %q", g.Name, g.Error, r.Name, r.Error)
			continue
		}
		if g.Error != "" {
			continue
		}
		calculated++
		var a, b any
		if err := json.Unmarshal(g.Answer, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(r.Answer, &b); err != nil {
			t.Fatal(err)
		}
		st.compare(t, g.Name, "", a, b, false)
	}
	t.Logf("largest change of a slice depth %.3g mm (%s)", st.depthWorst, st.depthWorstAt)
	t.Logf("%d runs (%d calculated, %d refused); largest relative difference %.3g outside the slices (at %s); "+
		"%d of %d slice numbers differ by more than 1e-6 (largest %.3g, %s)",
		len(got), calculated, len(got)-calculated, st.worst, st.worstAt, st.sliceOff, st.sliceNums, st.sliceWorst, st.sliceWorstAt)
}

type sweepStats struct {
	worst               float64
	worstAt             string
	sliceNums, sliceOff int
	sliceWorst          float64
	sliceWorstAt        string
	depthWorst          float64 // mm
	depthWorstAt        string
}

func relDiff(a, b float64) float64 {
	d := math.Abs(a - b)
	if d == 0 {
		return 0
	}
	return d / math.Max(math.Max(math.Abs(a), math.Abs(b)), 1e-9)
}

func (st *sweepStats) compare(t *testing.T, run, path string, a, b any, inSlice bool) {
	t.Helper()
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok || len(av) != len(bv) {
			t.Errorf("%s: %s differs in shape", run, path)
			return
		}
		keys := make([]string, 0, len(av))
		for k := range av {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			st.compare(t, run, path+"."+k, av[k], bv[k], inSlice || k == "slices")
		}
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			t.Errorf("%s: %s has %d elements, reference %v", run, path, len(av), b)
			return
		}
		for i := range av {
			st.compare(t, run, fmt.Sprintf("%s[%d]", path, i), av[i], bv[i], inSlice)
		}
	case float64:
		bv, ok := b.(float64)
		if !ok {
			t.Errorf("%s: %s is %v, reference %v", run, path, a, b)
			return
		}
		d := relDiff(av, bv)
		if inSlice {
			st.sliceNums++
			if d > 1e-6 {
				st.sliceOff++
			}
			if strings.HasSuffix(path, ".depth_mm") && math.Abs(av-bv) > st.depthWorst {
				st.depthWorst, st.depthWorstAt = math.Abs(av-bv), fmt.Sprintf("%s %s: %v, reference %v", run, path, av, bv)
			}
			if d > st.sliceWorst {
				st.sliceWorst, st.sliceWorstAt = d, fmt.Sprintf("%s %s: %v, reference %v", run, path, av, bv)
			}
			return
		}
		if d > st.worst {
			st.worst, st.worstAt = d, run+" "+path
		}
		if d > sweepTolerance {
			t.Errorf("%s: %s is %v, reference %v (relative difference %.3g)", run, path, av, bv, d)
		}
	default:
		if a != b {
			t.Errorf("%s: %s is %v, reference %v", run, path, a, b)
		}
	}
}
