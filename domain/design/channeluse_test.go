package design

import (
	"math"
	"testing"

	"draindesign/domain/catalogue"
)

// A stepped run's stretches tile it head to outlet without gap or overlap,
// each with its channel's catalogue geometry and the deepest water the
// profile shows along it; the deepest of them is the run's maximum depth.
func TestChannelStretchesOfASteppedRun(t *testing.T) {
	t.Parallel()
	run := `{"channel_group": "poly-100", "loading": "C250", "grating": "poly-100-slot-iron", "channel_length_m": 60.5,
		"drainage_area_m2": 800, "rainfall": {"rainfall_mm_per_hr": 50}, "stepped": true, "ground_slope": 0.5}`
	res := mustCalc(t, body(t, run, nil))
	if len(res.ChannelsUsed) < 2 {
		t.Fatalf("a stepped run of %d stretches", len(res.ChannelsUsed))
	}
	at, deepest := 0.0, 0.0
	for i, u := range res.ChannelsUsed {
		if math.Abs(u.FromM-at) > 1e-9 || math.Abs(u.ToM-u.FromM-float64(u.LengthMM)/1000) > 1e-9 {
			t.Errorf("stretch %d (%s) lies %v to %v m with %d mm, after %v m", i, u.Name, u.FromM, u.ToM, u.LengthMM, at)
		}
		at = u.ToM
		spec, err := catalogue.Default().Channel(u.Slug)
		if err != nil {
			t.Fatal(err)
		}
		if u.WidthMM != spec.WidthMM || u.OuterWidthMM != spec.OuterWidthMM || u.Shape != spec.Shape ||
			u.InvertDepthDownstreamMM != float64(spec.InvertDepthDownstreamMM) || u.BodyHeightMM < spec.InvertDepthDownstreamMM {
			t.Errorf("stretch %d: geometry %+v, catalogue %+v", i, u, spec)
		}
		if !(u.MaxWaterDepthMM > 0) || u.MaxWaterDepthMM > float64(spec.InvertDepthDownstreamMM) {
			t.Errorf("stretch %d: deepest water %v mm in a %d mm deep channel that does not flood", i, u.MaxWaterDepthMM, spec.InvertDepthDownstreamMM)
		}
		deepest = math.Max(deepest, u.MaxWaterDepthMM)
	}
	if math.Abs(at-60.5) > 1e-9 {
		t.Errorf("the stretches end at %v m of a 60.5 m run", at)
	}
	if math.Abs(deepest-res.MaxDepthMM) > 1e-6 {
		t.Errorf("deepest stretch water %v mm, the run's maximum depth %v mm", deepest, res.MaxDepthMM)
	}
	last := res.ChannelsUsed[len(res.ChannelsUsed)-1]
	if last.InvertDepthDownstreamMM != res.InvertDepthMM {
		t.Errorf("outlet stretch invert %v mm, results %v mm", last.InvertDepthDownstreamMM, res.InvertDepthMM)
	}
}
