package hydraulics

import (
	"fmt"
	"math"
	"testing"
)

// Every slice carries the mean velocity and Froude number of its flow.
// For a rectangle of width B they are v = Q/(B·y) and Fr = v/√(g·y)
// (Chow 1959, "Open-channel hydraulics", ch. 3); a free outfall is a
// critical control, so the outlet slice has Fr = 1 whatever the shape
// (Chow 1959, ch. 3 and 12).
func TestSliceVelocityAndFroude(t *testing.T) {
	t.Parallel()
	const b, l, q = 0.15, 20.0, 1e-4
	cases := []struct {
		name  string
		shape Shape
	}{
		{"rectangular", Rectangular{Width: b}},
		{"U", UShape{Width: b}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			run := rectRun(b, l, 0.005, 0.3, 0.011, q, FreeOutfall{})
			run.Sections[0].Shape = c.shape
			res := mustCalc(t, run, Options{SkipMaxDischarge: true})
			slices := res.Segments[0].Slices
			for i, s := range slices {
				y, flow := s.DepthMM/1000, s.FlowLS/1000
				if y <= 0 {
					if s.VelocityMS != 0 || s.Froude != 0 {
						t.Errorf("slice %d: dry, but v %g m/s, Fr %g", i, s.VelocityMS, s.Froude)
					}
					continue
				}
				a, top := c.shape.Area(y), c.shape.TopWidth(y)
				wantV := flow / a
				wantFr := wantV / math.Sqrt(Gravity*a/top)
				if _, rect := c.shape.(Rectangular); rect {
					wantV, wantFr = flow/(b*y), flow/(b*y)/math.Sqrt(Gravity*y)
				}
				if !sliceNear(s.VelocityMS, wantV) || !sliceNear(s.Froude, wantFr) {
					t.Errorf("slice %d at %.2f m: v %g m/s Fr %g, want %g and %g", i, s.DistanceM, s.VelocityMS, s.Froude, wantV, wantFr)
				}
				if s.Supercritical != (s.Froude > 1+1e-9) && math.Abs(s.Froude-1) > 1e-6 {
					t.Errorf("slice %d: Fr %g but supercritical %v", i, s.Froude, s.Supercritical)
				}
			}
			out := slices[len(slices)-1]
			t.Logf("TABLE| %s, free outfall | Froude number at the outlet | 1 | %s | %.1e |", c.name, fmt.Sprintf("%.6f", out.Froude), math.Abs(out.Froude-1))
			if math.Abs(out.Froude-1) > 1e-6 {
				t.Errorf("outlet Froude %g, want 1 (critical control)", out.Froude)
			}
		})
	}
}

// sliceNear is equality to 1e-12, relative, or absolute near 0 (the head of
// the run carries no flow).
func sliceNear(got, want float64) bool {
	return math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))
}
