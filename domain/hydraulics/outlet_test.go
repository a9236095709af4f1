package hydraulics

import (
	"errors"
	"math"
	"testing"
)

// Torricelli with Cd: q = Cd·a·√(2gh) (Bos 1989); a 100 mm orifice at
// Cd 0.6 under 0.5 m head passes 0.6·0.007854·√(9.81) = 14.76 l/s.
func TestOrificeLaw(t *testing.T) {
	t.Parallel()
	q := OrificeFlow(0.5, 0.1, 0.6)
	if math.Abs(q-0.6*math.Pi*0.01/4*math.Sqrt(2*Gravity*0.5)) > 1e-15 || math.Abs(q-0.014760) > 1e-5 {
		t.Fatalf("orifice flow %.6g m³/s", q)
	}
	if h := OrificeHead(q, 0.1, 0.6); math.Abs(h-0.5) > 1e-12 {
		t.Fatalf("OrificeHead does not invert OrificeFlow: %g", h)
	}
}

// Poleni: q = (2/3)·Cd·b·√(2g)·h^1.5 (Bos 1989); broad crest:
// q = 1.705·b·H^1.5 (Henderson 1966).
func TestWeirLaws(t *testing.T) {
	t.Parallel()
	for _, h := range []float64{0.01, 0.05, 0.2} {
		q := 2.0 / 3 * 0.62 * 0.3 * math.Sqrt(2*Gravity) * math.Pow(h, 1.5)
		if got := SharpWeirHead(q, 0.3, 0.62); relErr(got, h) > 1e-12 {
			t.Errorf("sharp weir head %g, want %g", got, h)
		}
		qb := 1.705 * 0.3 * math.Pow(h, 1.5)
		if got := BroadWeirHead(qb, 0.3); relErr(got, h) > 1e-3 {
			t.Errorf("broad weir head %g, want %g", got, h)
		}
	}
}

// Every outlet device needs a depth that rises with the flow, and a free
// outfall needs none.
func TestOutletDepthsRiseWithFlow(t *testing.T) {
	t.Parallel()
	devices := map[string]Outlet{
		"free":      FreeOutfall{},
		"orifice":   Orifice{Diameter: 0.11, CentreHeight: 0.055},
		"wall hole": Orifice{Diameter: 0.05, CentreHeight: 0.04},
		"bottom":    BottomOutlet{Diameter: 0.11},
		"weir":      Weir{Crest: 0.05, Length: 0.2},
		"broad":     Weir{Crest: 0.02, Length: 0.2, Broad: true},
		"trash box": TrashBox{RatedFlow: 0.01, RatedHead: 0.3},
		"level":     FixedLevel{Depth: 0.1},
	}
	for name, d := range devices {
		prev := math.Inf(-1)
		for q := 0.0; q <= 0.05; q += 0.0005 {
			y, err := d.DownstreamDepth(q)
			if err != nil || !finite(y) {
				t.Fatalf("%s at %g: %v %g", name, q, err, y)
			}
			if y < prev-1e-12 {
				t.Fatalf("%s: depth falls from %g to %g as the flow rises to %g", name, prev, y, q)
			}
			prev = y
		}
	}
	if y, _ := (FreeOutfall{}).DownstreamDepth(1); y != 0 {
		t.Fatalf("free outfall demands %g", y)
	}
	if y, _ := (TrashBox{RatedFlow: 0.01, RatedHead: 0.3}).DownstreamDepth(0.01); y != 0 {
		t.Fatalf("trash box at its rating demands %g", y)
	}
	// Beyond the rating: orifice law, Q ∝ √head.
	if y, _ := (TrashBox{RatedFlow: 0.01, RatedHead: 0.3}).DownstreamDepth(0.02); math.Abs(y-0.9) > 1e-12 {
		t.Fatalf("trash box at twice its rating demands %g, want 0.9", y)
	}
}

// An outlet device that needs more than critical depth raises the water at
// the outlet to its level; one that needs less leaves the outfall free.
func TestOutletDeviceControlsWhenAboveCritical(t *testing.T) {
	t.Parallel()
	const b, l, q = 0.15, 20.0, 2e-4
	yc := Rectangular{Width: b}.CriticalDepth(q * l)
	small := Orifice{Diameter: 0.05, CentreHeight: 0.025}
	need, _ := small.DownstreamDepth(q * l)
	res := mustCalc(t, rectRun(b, l, 0.002, 0.5, 0.013, q, small), Options{SkipMaxDischarge: true})
	if need <= yc || relErr(res.OutletDepthMM/1000, need) > 1e-9 {
		t.Fatalf("outlet depth %g, device needs %g (yc %g)", res.OutletDepthMM/1000, need, yc)
	}
	big := Orifice{Diameter: 0.3, CentreHeight: 0.15}
	res = mustCalc(t, rectRun(b, l, 0.002, 0.5, 0.013, q, big), Options{SkipMaxDischarge: true})
	if relErr(res.OutletDepthMM/1000, yc) > 1e-9 {
		t.Fatalf("large orifice: outlet depth %g, want critical %g", res.OutletDepthMM/1000, yc)
	}
}

func TestOutletValidation(t *testing.T) {
	t.Parallel()
	bad := []Outlet{
		Orifice{Diameter: 0},
		Orifice{Diameter: 0.1, CentreHeight: 0.01},
		BottomOutlet{Diameter: -1},
		Weir{Crest: -0.1, Length: 1},
		TrashBox{RatedFlow: 0, RatedHead: 1},
		FixedLevel{Depth: math.NaN()},
	}
	for _, o := range bad {
		_, err := Calculate(rectRun(0.1, 10, 0, 0.2, 0.013, 1e-4, o))
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Errorf("%#v: want *InputError, got %v", o, err)
		}
	}
}
