package hydraulics

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// Invalid input is refused with an *InputError naming the field; the
// limits are those of specification §5 and §9.
func TestInvalidRunsGiveInputErrors(t *testing.T) {
	t.Parallel()
	base := func() Run { return rectRun(0.2, 50, 0.005, 0.3, 0.011, 1e-4, nil) }
	cases := []struct {
		name   string
		mutate func(*Run)
		want   string
	}{
		{"no sections", func(r *Run) { r.Sections = nil }, "at least one"},
		{"gap", func(r *Run) {
			s := r.Sections[0]
			a, b := s, s
			a.End, b.Start = 20, 21
			r.Sections = []Section{a, b}
		}, "starts at"},
		{"not from zero", func(r *Run) { r.Sections[0].Start = 1 }, "chainage 0"},
		{"NaN invert", func(r *Run) { r.Sections[0].InvertEnd = math.NaN() }, "finite"},
		{"no shape", func(r *Run) { r.Sections[0].Shape = nil }, "shape"},
		{"bad width", func(r *Run) { r.Sections[0].Shape = Rectangular{Width: -1} }, "width"},
		{"zero depth", func(r *Run) { r.Sections[0].DepthEnd = 0 }, "available depth"},
		{"negative n", func(r *Run) { r.Sections[0].N = -0.01 }, "Manning"},
		{"GVF over 3000 m", func(r *Run) { *r = rectRun(0.2, 3000.5, 0, 0.3, 0.011, 1e-6, nil) }, "3000"},
		{"GVF over 9.9 %", func(r *Run) { *r = rectRun(0.2, 50, 0.1, 0.3, 0.011, 1e-4, nil) }, "9.9"},
		{"uphill", func(r *Run) { *r = rectRun(0.2, 50, -0.01, 0.3, 0.011, 1e-4, nil) }, "rises"},
		{"inflow beyond the run", func(r *Run) { r.Points = []PointInflow{{X: 60, Flow: 0.001}} }, "outside"},
		{"negative inflow", func(r *Run) { r.Points = []PointInflow{{X: 10, Flow: -1}} }, "flow"},
		{"lateral beyond the run", func(r *Run) { r.Lateral = LateralInflow{{0, 80, 1e-4, 1e-4}} }, "outside"},
		{"unknown method", func(r *Run) { r.Method = Method(7) }, "method"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			run := base()
			c.mutate(&run)
			_, err := Calculate(run)
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("want *InputError, got %v", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("message %q does not mention %q", err.Error(), c.want)
			}
		})
	}
}

func TestParseMethod(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Method{"GVF": GVF, "manning": GVF, "": GVF, "HRW": HRW, " hrw ": HRW} { //nolint:gocritic // the spaces are the point: input is trimmed
		if got, err := ParseMethod(in); err != nil || got != want {
			t.Errorf("ParseMethod(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseMethod("colebrook"); err == nil {
		t.Error("unknown method accepted")
	}
}

// A zero-flow run is valid and gives a dry channel.
func TestNoFlowIsDry(t *testing.T) {
	t.Parallel()
	res := mustCalc(t, rectRun(0.2, 20, 0.005, 0.3, 0.011, 0, nil), Options{})
	if res.MaxDepthMM != 0 || res.ChannelDischarge != 0 || res.Overflowed || res.MaxPossibleDischarge != 0 {
		t.Fatalf("dry run: %+v", res)
	}
}

// Results carry what the profile drawing needs: slices at least every
// 0.5 m and at both ends of every section, with invert and top levels.
func TestSlicesCoverEverySection(t *testing.T) {
	t.Parallel()
	sh := Rectangular{Width: 0.15}
	secs, err := LayElements([]Element{
		{Name: "A", Length: 2.3, Shape: sh, N: 0.011, DepthStart: 0.15, DepthEnd: 0.15},
		{Name: "B", Length: 0.7, Shape: sh, N: 0.011, DepthStart: 0.2, DepthEnd: 0.2},
		{Name: "C", Length: 5, Shape: Rectangular{Width: 0.2}, N: 0.011, DepthStart: 0.25, DepthEnd: 0.25},
	}, 0.005, 5)
	if err != nil {
		t.Fatal(err)
	}
	res := mustCalc(t, Run{Sections: secs, Lateral: LateralInflow{{0, 8, 2e-4, 2e-4}}, Points: []PointInflow{{X: 3, Flow: 0.002}}}, Options{})
	if len(res.Segments) != 3 {
		t.Fatalf("%d segments, want 3", len(res.Segments))
	}
	for i, seg := range res.Segments {
		sl := seg.Slices
		if sl[0].DistanceM != secs[i].Start || sl[len(sl)-1].DistanceM != secs[i].End {
			t.Fatalf("segment %d slices span [%g, %g], section [%g, %g]", i, sl[0].DistanceM, sl[len(sl)-1].DistanceM, secs[i].Start, secs[i].End)
		}
		for k := 1; k < len(sl); k++ {
			if d := sl[k].DistanceM - sl[k-1].DistanceM; d > 0.5+1e-12 || d <= 0 {
				t.Fatalf("segment %d: slices %g m apart", i, d)
			}
		}
		for _, c := range sl {
			if math.Abs(c.TopLevelM-c.InvertLevelM-secs[i].DepthAt(c.DistanceM)) > 1e-12 {
				t.Fatalf("top − invert ≠ available depth at %g", c.DistanceM)
			}
		}
	}
	if res.Segments[1].Description != "B" || math.Abs(res.Segments[1].LengthMM-700) > 1e-9 {
		t.Fatalf("segment description/length: %q %g", res.Segments[1].Description, res.Segments[1].LengthMM)
	}
	if want := 0.15*0.15*2.3 + 0.15*0.2*0.7 + 0.2*0.25*5; math.Abs(res.TotalSystemVolume-want) > 1e-12 {
		t.Fatalf("volume %g m³, want %g", res.TotalSystemVolume, want)
	}
}
