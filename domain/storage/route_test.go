package storage

import (
	"math"
	"testing"
)

// Water is neither made nor lost: at every step the inflow so far equals
// the outflow so far (integrated independently here, by the trapezoidal
// rule over the reported outflow) plus what is stored plus what spilled,
// within 0.1 % of the inflow so far.
func TestRouteMassBalance(t *testing.T) {
	sec := hicap(t, "poly-hicap-250-750")
	for _, c := range []struct {
		name          string
		slope         float64
		area, mmh     float64
		dur, tc, dMM  float64
		wantSpill     bool
		wantNoStorage bool
	}{
		{"holds", 0, 300, 31.25, 60, 30, 40, false, false},
		{"floods, 5 l/s orifice", 0, 1500, 49.3, 30, 30, 40, true, false},
		{"almost shut", 0, 300, 19.3, 120, 30, 5, true, false},
		{"wide open", 0, 300, 130, 5, 5, 300, false, false},
		{"sloped 1 %", 0.01, 200, 31.25, 60, 30, 45, false, false},
		{"two-day storm", 0, 500, 1.67, 2880, 30, 20, false, false},
		{"no orifice", 0, 1500, 49.3, 30, 30, math.Inf(1), false, true},
	} {
		res := newReservoir(sec, 50, c.slope)
		in := newHydrograph(c.area, 1, c.mmh, c.dur, c.tc)
		r := route(res, in, c.dMM/1000, true)
		if got := r.spilled > 0; got != c.wantSpill {
			t.Errorf("%s: spilled %.3f m³, want spill %v", c.name, r.spilled, c.wantSpill)
		}
		if c.wantNoStorage && r.maxStored != 0 {
			t.Errorf("%s: stored %.4f m³ with no orifice", c.name, r.maxStored)
		}
		out := 0.0
		for i, s := range r.steps {
			if i > 0 {
				p := r.steps[i-1]
				if s.Stored > 0 || p.Stored > 0 || math.IsInf(c.dMM, 1) {
					out += (s.T - p.T) * (s.Outflow + p.Outflow) / 2
				} else {
					out += s.OutVol - p.OutVol // an empty store passes what comes
				}
			}
			if want := in.volume(s.T); !near(s.InVol, want, 1e-12) {
				t.Fatalf("%s: step %d: inflow so far %.6f, hydrograph %.6f", c.name, i, s.InVol, want)
			}
			if math.Abs(s.OutVol-out) > 1e-3*s.InVol+1e-9 {
				t.Fatalf("%s: step %d: the router booked %.6f m³ out, its outflow carries %.6f", c.name, i, s.OutVol, out)
			}
			if bal := s.InVol - out - s.Stored - s.Spilled; math.Abs(bal) > 1e-3*s.InVol+1e-9 {
				t.Fatalf("%s: step %d (t %.0f s): in %.6f ≠ out %.6f + stored %.6f + spilled %.6f (off by %.3g m³)",
					c.name, i, s.T, s.InVol, out, s.Stored, s.Spilled, bal)
			}
		}
		// Routed on until nearly empty, or for eight storm lengths when the
		// orifice is almost shut.
		if last := r.steps[len(r.steps)-1]; last.T < in.end() || (last.Stored > 0.006*r.maxStored+1e-12 && last.T < 7.99*in.end()) {
			t.Errorf("%s: routed to t %.0f s with %.4f m³ still stored (peak %.4f)", c.name, last.T, last.Stored, r.maxStored)
		}
	}
}

// A storm long enough to reach a steady state: the pond settles where the
// orifice passes the inflow, Cd·a·√(2g(h − d/2)) = Q, so
// h = d/2 + (Q/(Cd·a))²/(2g), computed here by hand.
func TestRouteSteadyState(t *testing.T) {
	sec := hicap(t, "poly-hicap-250-750")
	res := newReservoir(sec, 50, 0)
	in := newHydrograph(1000, 1, 9, 2880, 5) // 2.5 l/s for two days
	d := 0.04
	a := math.Pi * d * d / 4
	want := d/2 + math.Pow(in.qp/(Cd*a), 2)/(2*gravity)
	r := route(res, in, d, false)
	if !near(r.maxDepth, want, 1e-3) {
		t.Errorf("steady depth %.5f m, want %.5f", r.maxDepth, want)
	}
	if !near(r.maxOutflow, in.qp, 1e-3) {
		t.Errorf("steady outflow %.5f l/s, want the inflow %.5f", 1000*r.maxOutflow, 1000*in.qp)
	}
}

// The step is fine enough: eight times as many steps move the peak store
// by less than 0.1 %, on short and long storms.
func TestRouteStepConvergence(t *testing.T) {
	sec := hicap(t, "poly-hicap-150-600")
	res := newReservoir(sec, 50, 0)
	for _, c := range []struct{ mmh, dur, d float64 }{{130, 5, 0.03}, {37.8, 45, 0.038}, {11.5, 240, 0.02}, {1.67, 2880, 0.012}} {
		in := newHydrograph(300, 1, c.mmh, c.dur, 30)
		coarse, fine := routeN(res, in, c.d, false, routeSteps), routeN(res, in, c.d, false, 8*routeSteps)
		if !near(coarse.needed, fine.needed, 1e-3) {
			t.Errorf("%g min: peak store %.5f m³ at %d steps, %.5f at %d", c.dur, coarse.needed, routeSteps, fine.needed, 8*routeSteps)
		}
	}
}
