package hydraulics

import (
	"fmt"
	"math"
	"testing"
)

// With a level frictionless bed, M is constant along the run whatever the
// inflow pattern, and point inflows keep M across them (no momentum along the
// channel): the head depth is √3·yc of the total flow wherever the point
// inflows enter (Chow 1959, ch. 12; the momentum principle).
func TestPointInflowKeepsMomentum(t *testing.T) {
	t.Parallel()
	const b, l, q = 0.2, 30.0, 1e-4
	for _, x := range []float64{0, 7.5, 15, 29.9, 30} {
		t.Run(fmt.Sprintf("x=%g", x), func(t *testing.T) {
			t.Parallel()
			run := rectRun(b, l, 0, 5, 0, q, nil)
			run.Points = []PointInflow{{X: x, Flow: 0.004}}
			res := mustCalc(t, run, Options{SkipMaxDischarge: true})
			yc := Rectangular{Width: b}.CriticalDepth(q*l + 0.004)
			if x == 0 {
				// Flow from the head: M at the head includes Q²/gA.
				y := depthAt(t, res, 0)
				m := 0.004*0.004/(Gravity*b*y) + b*y*y/2
				if e := relErr(m, 1.5*b*yc*yc); e > 1e-6 {
					t.Fatalf("head momentum %.6g, outlet %.6g", m, 1.5*b*yc*yc)
				}
				return
			}
			t.Logf("TABLE| level frictionless, point inflow at %g m | head depth √3·yc(Q total) | %.3f mm | %.3f mm | %.1e |", x, 1000*math.Sqrt(3)*yc, 1000*depthAt(t, res, 0), relErr(depthAt(t, res, 0), math.Sqrt(3)*yc))
			if e := relErr(depthAt(t, res, 0), math.Sqrt(3)*yc); e > 1e-6 {
				t.Fatalf("head depth %.6g, want √3·yc = %.6g", depthAt(t, res, 0), math.Sqrt(3)*yc)
			}
		})
	}
}

// Across a change of section the energy level is kept, less a Borda–Carnot
// loss (V_u − V_d)²/2g where the flow expands (Borda–Carnot; e.g. Henderson 1966).
func TestJunctionKeepsEnergy(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ bu, bd, drop float64 }{
		{0.1, 0.2, 0},    // widening
		{0.2, 0.1, 0},    // narrowing
		{0.1, 0.1, 0.05}, // floor step down
		{0.15, 0.3, 0.1}, // both
	} {
		t.Run(fmt.Sprintf("%g-%g-%g", c.bu, c.bd, c.drop), func(t *testing.T) {
			t.Parallel()
			a := Section{Start: 0, End: 10, Shape: Rectangular{Width: c.bu}, InvertStart: 1, InvertEnd: 1, DepthStart: 2, DepthEnd: 2, N: 0.011}
			d := Section{Start: 10, End: 20, Shape: Rectangular{Width: c.bd}, InvertStart: 1 - c.drop, InvertEnd: 1 - c.drop, DepthStart: 2, DepthEnd: 2, N: 0.011}
			run := Run{Sections: []Section{a, d}, Points: []PointInflow{{X: 0, Flow: 0.01}}, Outlet: FixedLevel{Depth: 0.3}}
			res := mustCalc(t, run, Options{SkipMaxDischarge: true})
			up := res.Segments[0].Slices
			dn := res.Segments[1].Slices
			yu, yd := up[len(up)-1].DepthMM/1000, dn[0].DepthMM/1000
			vu, vd := 0.01/(c.bu*yu), 0.01/(c.bd*yd)
			loss := 0.0
			if vu > vd {
				loss = (vu - vd) * (vu - vd) / (2 * Gravity)
			}
			eu := 1 + yu + vu*vu/(2*Gravity)
			ed := 1 - c.drop + yd + vd*vd/(2*Gravity)
			if math.Abs(eu-loss-ed) > 1e-9 {
				t.Fatalf("energy upstream %.9f − loss %.9f ≠ downstream %.9f", eu, loss, ed)
			}
		})
	}
}

// A deep floor step under a low tailwater makes the upstream channel
// discharge over a free overfall: critical depth at its end, and a
// supercritical jet beyond the step (energy kept across it).
func TestFreeOverfallAtStep(t *testing.T) {
	t.Parallel()
	a := Section{Start: 0, End: 10, Shape: Rectangular{Width: 0.1}, InvertStart: 1, InvertEnd: 1, DepthStart: 0.3, DepthEnd: 0.3, N: 0.011}
	d := Section{Start: 10, End: 12, Shape: Rectangular{Width: 0.1}, InvertStart: 0.7, InvertEnd: 0.6, DepthStart: 0.6, DepthEnd: 0.6, N: 0.011}
	run := Run{Sections: []Section{a, d}, Lateral: LateralInflow{{0, 10, 5e-4, 5e-4}}}
	res := mustCalc(t, run, Options{SkipMaxDischarge: true})
	up := res.Segments[0].Slices
	yc := Rectangular{Width: 0.1}.CriticalDepth(0.005)
	if e := relErr(up[len(up)-1].DepthMM/1000, yc); e > 1e-6 {
		t.Fatalf("depth at the brink %.5g, want critical %.5g", up[len(up)-1].DepthMM/1000, yc)
	}
	if !res.WentSuperCritical || !res.Segments[1].Slices[0].Supercritical {
		t.Fatal("the jet below the step must be supercritical")
	}
}

// A raised outlet level forces a hydraulic jump on a steep run: the depths
// either side are conjugate, with equal momentum functions; for a rectangle
// y2/y1 = (√(1 + 8Fr1²) − 1)/2 (Bélanger; Chow 1959, ch. 15).
func TestHydraulicJumpConjugateDepths(t *testing.T) {
	t.Parallel()
	const b, l, q, s0 = 0.1, 50.0, 1e-4, 0.005
	run := rectRun(b, l, s0, 5, 0, q, FixedLevel{Depth: 0.1})
	m, err := compile(run, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := solveGVF(m, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.jumpsX) != 1 || !s.went {
		t.Fatalf("want one jump, got %v", s.jumpsX)
	}
	xj := s.jumpsX[0]
	if xj <= s.controlX[0] || xj >= l {
		t.Fatalf("jump at %g m, control at %v: the jump must stand between control and outlet", xj, s.controlX)
	}
	y1, super := s.depth(0, xj-1e-9)
	y2, sub := s.depth(0, xj)
	if !super || sub {
		t.Fatalf("regimes either side of the jump: %v, %v", super, sub)
	}
	qj := q * xj
	fr1 := math.Sqrt(qj * qj / (Gravity * b * b * y1 * y1 * y1))
	want := y1 * (math.Sqrt(1+8*fr1*fr1) - 1) / 2
	t.Logf("TABLE| frictionless, S0 %g, outlet level 0.1 m, jump at %.3f m | sequent depth, Bélanger | %.3f mm | %.3f mm | %.1e |", s0, xj, 1000*want, 1000*y2, relErr(y2, want))
	if e := relErr(y2, want); e > 1e-6 {
		t.Fatalf("sequent depth %.6g m, Bélanger %.6g m (y1 %.6g, Fr1 %.3f)", y2, want, y1, fr1)
	}
	res := mustCalc(t, run, Options{})
	if len(res.HydraulicJumpsM) != 1 || math.Abs(res.HydraulicJumpsM[0]-xj) > 1e-9 || !res.WentSuperCritical {
		t.Fatalf("results: jumps %v, supercritical %v", res.HydraulicJumpsM, res.WentSuperCritical)
	}
}
