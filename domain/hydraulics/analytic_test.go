package hydraulics

import (
	"fmt"
	"math"
	"testing"
)

// Level, frictionless rectangular channel with uniform lateral inflow and a
// free outfall: the momentum equation integrates to
// (x/L)² = (y/yc)·(1.5 − 0.5·(y/yc)²), so the head depth is √3·yc
// (Hinds 1926, "Side channel spillways", Trans. ASCE 89; Chow 1959,
// "Open-channel hydraulics", ch. 12).
func TestLevelFrictionlessHeadDepthIsRoot3Yc(t *testing.T) {
	t.Parallel()
	cases := []struct{ b, l, q float64 }{
		{0.1, 10, 1e-4},
		{0.1, 50, 1e-4},
		{0.2, 200, 5e-5},
		{0.5, 1000, 2e-5},
		{0.15, 3000, 1e-6},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("B%g_L%g", c.b, c.l), func(t *testing.T) {
			t.Parallel()
			res := mustCalc(t, rectRun(c.b, c.l, 0, 5, 0, c.q, nil), Options{})
			yc := Rectangular{Width: c.b}.CriticalDepth(c.q * c.l)
			got := depthAt(t, res, 0)
			t.Logf("TABLE| level frictionless, B %g m, L %g m | head depth √3·yc | %.3f mm | %.3f mm | %.1e |", c.b, c.l, 1000*math.Sqrt(3)*yc, 1000*got, relErr(got, math.Sqrt(3)*yc))
			if e := relErr(got, math.Sqrt(3)*yc); e > 0.005 {
				t.Fatalf("head depth %.6g m, want √3·yc = %.6g m (error %.3g %%)", got, math.Sqrt(3)*yc, 100*e)
			}
			if e := relErr(res.CriticalDepthMM/1000, yc); e > 1e-9 {
				t.Fatalf("outlet critical depth %.6g, want %.6g", res.CriticalDepthMM/1000, yc)
			}
		})
	}
}

// The same case, compared along the whole profile with the analytic
// solution (Chow 1959, ch. 12, the level channel with a free outfall).
func TestLevelFrictionlessProfileMatchesAnalytic(t *testing.T) {
	t.Parallel()
	const b, l, q = 0.15, 40.0, 2e-4
	res := mustCalc(t, rectRun(b, l, 0, 5, 0, q, nil), Options{})
	yc := Rectangular{Width: b}.CriticalDepth(q * l)
	worst := 0.0
	n := 0
	for _, s := range res.Segments {
		for _, c := range s.Slices {
			want := yc * analyticEta(math.Pow(c.DistanceM/l, 2))
			worst = math.Max(worst, relErr(c.DepthMM/1000, want))
			n++
		}
	}
	if n < int(l/0.5) {
		t.Fatalf("only %d slices for %g m: the profile must be sampled at least every 0.5 m", n, l)
	}
	if worst > 0.005 {
		t.Fatalf("largest deviation from the analytic profile %.3g %%", 100*worst)
	}
	t.Logf("largest deviation from the analytic profile: %.2e", worst)
}

// analyticEta solves (x/L)² = η(1.5 − 0.5η²) for η in [1, √3].
func analyticEta(xi2 float64) float64 {
	lo, hi := 1.0, math.Sqrt(3)
	for i := 0; i < 200; i++ {
		mid := (lo + hi) / 2
		if mid*(1.5-0.5*mid*mid) > xi2 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// For any outlet depth yL ≥ yc in a level frictionless channel, momentum
// between head and outlet gives y_u = √(yL² + 2yc³/yL) (Chow 1959, ch. 12).
func TestOutletDepthAboveCriticalLevelFrictionless(t *testing.T) {
	t.Parallel()
	const b, l, q = 0.2, 60.0, 1.5e-4
	yc := Rectangular{Width: b}.CriticalDepth(q * l)
	for _, k := range []float64{1, 1.05, 1.3, 2, 4} {
		t.Run(fmt.Sprintf("yL=%.2fyc", k), func(t *testing.T) {
			t.Parallel()
			yl := k * yc
			res := mustCalc(t, rectRun(b, l, 0, 5, 0, q, FixedLevel{Depth: yl}), Options{})
			want := math.Sqrt(yl*yl + 2*yc*yc*yc/yl)
			t.Logf("TABLE| level frictionless, yL = %.2f·yc | head depth √(yL² + 2yc³/yL) | %.3f mm | %.3f mm | %.1e |", k, 1000*want, 1000*depthAt(t, res, 0), relErr(depthAt(t, res, 0), want))
			if e := relErr(depthAt(t, res, 0), want); e > 0.005 {
				t.Fatalf("head depth %.6g, want %.6g (error %.3g %%)", depthAt(t, res, 0), want, 100*e)
			}
			if e := relErr(res.OutletDepthMM/1000, yl); e > 1e-9 {
				t.Fatalf("outlet depth %.6g, want the imposed %.6g", res.OutletDepthMM/1000, yl)
			}
		})
	}
}

// In a frictionless sloped rectangular channel with uniform inflow q per
// metre, the control section (Froude 1 where S0 = 2Qq/(gA²)) lies at
// x = 8q²/(g·B²·S0³) (Chow 1959, ch. 12; derived from Fr = 1 and a zero
// numerator with Q = q·x and yc = (Q²/(gB²))^(1/3)).
func TestInternalCriticalSectionLocation(t *testing.T) {
	t.Parallel()
	const b, l, q = 0.1, 50.0, 1e-4
	for _, s0 := range []float64{0.003, 0.004, 0.006, 0.01, 0.02} {
		t.Run(fmt.Sprintf("S0=%g", s0), func(t *testing.T) {
			t.Parallel()
			want := 8 * q * q / (Gravity * b * b * s0 * s0 * s0)
			res := mustCalc(t, rectRun(b, l, s0, 5, 0, q, nil), Options{})
			if !res.WentSuperCritical || len(res.CriticalSectionsM) != 1 {
				t.Fatalf("want one control section and supercritical flow, got %v (super %v)", res.CriticalSectionsM, res.WentSuperCritical)
			}
			t.Logf("TABLE| frictionless, S0 = %g | control section x = 8q²/(gB²S0³) | %.4f m | %.4f m | %.1e |", s0, want, res.CriticalSectionsM[0], relErr(res.CriticalSectionsM[0], want))
			if e := relErr(res.CriticalSectionsM[0], want); e > 0.005 {
				t.Fatalf("control at %.5g m, want %.5g m", res.CriticalSectionsM[0], want)
			}
			// At the control the depth is critical.
			yc := Rectangular{Width: b}.CriticalDepth(q * want)
			if e := relErr(depthAt(t, mustCalc(t, rectRun(b, l, s0, 5, 0, q, nil), Options{SliceSpacing: 0.01}), want), yc); e > 0.01 {
				t.Fatalf("depth at the control differs from critical by %.3g %%", 100*e)
			}
		})
	}
	// Mild enough that x_c > L: no control inside, outlet control only.
	res := mustCalc(t, rectRun(b, l, 0.001, 5, 0, q, nil), Options{})
	if res.WentSuperCritical || len(res.CriticalSectionsM) != 0 {
		t.Fatalf("S0=0.001: control expected at the outlet only, got %v", res.CriticalSectionsM)
	}
}

// L'Hôpital's rule at the control section of the frictionless case gives
// dy/dx = k·yc/x with 3k² − 6k + 2 = 0, the transitional root
// k = 1 − 1/√3 (below the critical-depth line's slope 2yc/(3x)).
func TestSingularSlopeLHopital(t *testing.T) {
	t.Parallel()
	const b, l, q, s0 = 0.1, 50.0, 1e-4, 0.004
	m, err := compile(rectRun(b, l, s0, 5, 0, q, nil), Options{})
	if err != nil {
		t.Fatal(err)
	}
	xc := 8 * q * q / (Gravity * b * b * s0 * s0 * s0)
	yc := Rectangular{Width: b}.CriticalDepth(q * xc)
	got := m.singularSlope(&m.reaches[0], xc)
	want := (1 - 1/math.Sqrt(3)) * yc / xc
	t.Logf("TABLE| frictionless, S0 = %g, at the control | L'Hôpital slope (1 − 1/√3)·yc/x | %.6f | %.6f | %.1e |", s0, want, got, relErr(got, want))
	if e := relErr(got, want); e > 1e-3 {
		t.Fatalf("singular slope %.6g, want %.6g", got, want)
	}
}

// With friction and slope the engine (momentum function form) must agree
// with a direct fine-step RK4 integration of the brief's form
// dy/dx = (S0 − Sf − 2Qq/(gA²)) / (1 − Q²T/(gA³)) (Chow 1959, eq. 12-5),
// here with a subcritical outlet level so that the profile stays clear of
// critical depth.
func TestAgreesWithDirectIntegrationOfDyDx(t *testing.T) {
	t.Parallel()
	cases := []struct{ b, l, s0, n, q, yl float64 }{
		{0.1, 30, 0.005, 0.013, 1e-4, 0.12},
		{0.2, 100, 0.0, 0.015, 5e-5, 0.1},
		{0.15, 200, 0.003, 0.011, 4e-5, 0.15},
		{0.3, 500, 0.0002, 0.013, 2e-5, 0.2},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("L%g_S%g", c.l, c.s0), func(t *testing.T) {
			t.Parallel()
			res := mustCalc(t, rectRun(c.b, c.l, c.s0, 5, c.n, c.q, FixedLevel{Depth: c.yl}), Options{})
			sh := Rectangular{Width: c.b}
			dydx := func(x, y float64) float64 {
				qq := c.q * x
				a := sh.Area(y)
				p := sh.WettedPerimeter(y)
				sf := c.n * c.n * qq * qq * math.Pow(p, 4.0/3) / math.Pow(a, 10.0/3)
				num := c.s0 - sf - 2*qq*c.q/(Gravity*a*a)
				den := 1 - qq*qq*sh.TopWidth(y)/(Gravity*a*a*a)
				return num / den
			}
			const h = 1e-3
			y := c.yl
			steps := int(math.Round(c.l / h))
			yMid := math.NaN()
			for i := 0; i < steps; i++ {
				x := c.l - float64(i)*h
				k1 := dydx(x, y)
				k2 := dydx(x-h/2, y-h/2*k1)
				k3 := dydx(x-h/2, y-h/2*k2)
				k4 := dydx(x-h, y-h*k3)
				y -= h / 6 * (k1 + 2*k2 + 2*k3 + k4)
				if i+1 == steps/2 {
					yMid = y
				}
			}
			mid := depthAt(t, res, c.l/2)
			t.Logf("TABLE| B %g m, L %g m, S0 %g, n %g, yL %g m | depth at L/2, RK4 of dy/dx at 1 mm steps | %.3f mm | %.3f mm | %.1e |", c.b, c.l, c.s0, c.n, c.yl, 1000*yMid, 1000*mid, relErr(mid, yMid))
			if e := relErr(mid, yMid); !(e <= 1e-4) {
				t.Fatalf("depth at L/2 %.7g, direct integration %.7g (error %.2e)", mid, yMid, e)
			}
			if e := relErr(depthAt(t, res, 0), y); !(e <= 1e-4) {
				t.Fatalf("head depth %.7g, direct integration %.7g (error %.2e)", depthAt(t, res, 0), y, e)
			}
		})
	}
}

// HRW reproduces the published closed form exactly for the case it was
// derived for: one rectangular channel, uniform inflow, no friction.
func TestHRWClosedForm(t *testing.T) {
	t.Parallel()
	cases := []struct{ b, l, s0, q float64 }{
		{0.1, 50, 0, 1e-4},
		{0.1, 50, 0.0005, 1e-4},
		{0.2, 200, 0.0002, 5e-5},
		{0.3, 500, 0.0001, 2e-5},
		{0.1, 50, 0.005, 1e-4}, // formula negative: no subcritical solution
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("L%g_S%g", c.l, c.s0), func(t *testing.T) {
			t.Parallel()
			run := rectRun(c.b, c.l, c.s0, 5, 0, c.q, nil)
			run.Method = HRW
			res := mustCalc(t, run, Options{})
			yc := Rectangular{Width: c.b}.CriticalDepth(c.q * c.l)
			yl := yc
			sl := c.s0 * c.l
			want := math.Sqrt(2*yc*yc*yc/yl+(yl-sl/3)*(yl-sl/3)) - 2*sl/3
			if want < 0 {
				if !res.WentSuperCritical {
					t.Fatalf("formula gives %.4g m at the head: HRW must report supercritical flow", want)
				}
				return
			}
			t.Logf("TABLE| HRW, B %g m, L %g m, S0 %g, frictionless | published formula | %.3f mm | %.3f mm | %.1e |", c.b, c.l, c.s0, 1000*want, 1000*depthAt(t, res, 0), relErr(depthAt(t, res, 0), want))
			if e := relErr(depthAt(t, res, 0), want); e > 1e-9 {
				t.Fatalf("HRW head depth %.9g, formula %.9g", depthAt(t, res, 0), want)
			}
		})
	}
}
