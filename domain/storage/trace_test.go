package storage

import (
	"math"
	"testing"
)

// The answer carries the critical storm as numbers for the client's
// storage graph: in time order from the start of the storm, with the same
// peaks as the result's fields, the volumes balanced (what came in left
// through the orifice, spilled or is still stored), and thinned to about
// traceLength points.
func TestCriticalStormTrace(t *testing.T) {
	cases := []struct {
		name    string
		area    float64
		outflow float64
		flooded bool
	}{
		{"held", 300, 2, false},
		{"flooded", 1500, 0.1, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := typical(t)
			req.CatchmentAreaM2, req.ControlledOutflowLS = c.area, c.outflow
			d := mustCalc(t, req)
			r, tr := d.res, d.res.CriticalStorm
			if r.Flooded != c.flooded {
				t.Fatalf("flooded %v, want %v", r.Flooded, c.flooded)
			}
			if len(tr) < 100 || len(tr) > traceLength+3 {
				t.Fatalf("%d points, want about %d", len(tr), traceLength)
			}
			if tr[0].TimeMin != 0 || tr[0].StoredM3 != 0 {
				t.Errorf("starts at %g min with %g m³, want an empty store at 0", tr[0].TimeMin, tr[0].StoredM3)
			}
			var maxStored, maxHeld, maxDepth float64
			for i, p := range tr {
				if i > 0 && !(p.TimeMin > tr[i-1].TimeMin) {
					t.Fatalf("point %d at %g min after %g min", i, p.TimeMin, tr[i-1].TimeMin)
				}
				maxStored = math.Max(maxStored, p.StoredM3)
				maxHeld = math.Max(maxHeld, p.StoredM3+p.SpilledM3)
				maxDepth = math.Max(maxDepth, p.DepthM)
				if p.OutflowLS > r.ControlledOutflowLS*(1+1e-4)+1e-3 {
					t.Errorf("%g min: outflow %g l/s above the limit %g", p.TimeMin, p.OutflowLS, r.ControlledOutflowLS)
				}
			}
			if math.Abs(maxStored-r.MaxStoredM3) > 1e-3 || math.Abs(maxHeld-r.StorageNeededM3) > 1e-3 || math.Abs(maxDepth-r.MaxWaterDepthM) > 1e-4 {
				t.Errorf("peaks %.4f m³ stored, %.4f held, %.4f m deep; result %.3f, %.3f, %.4f",
					maxStored, maxHeld, maxDepth, r.MaxStoredM3, r.StorageNeededM3, r.MaxWaterDepthM)
			}
			last := tr[len(tr)-1]
			if math.Abs(last.SpilledM3-r.FloodVolumeM3) > 1e-3 {
				t.Errorf("spilled %.4f m³ by the end, flood volume %.3f", last.SpilledM3, r.FloodVolumeM3)
			}
			if last.StoredM3 > 0.01*maxStored {
				t.Errorf("ends with %.4f m³ of %.4f still stored", last.StoredM3, maxStored)
			}
			// Water balance by the trapezoidal rule over the thinned points:
			// inflow − outflow over the storm is what is left plus what spilled.
			var in, out float64
			for i := 1; i < len(tr); i++ {
				dt := 60 * (tr[i].TimeMin - tr[i-1].TimeMin)
				in += dt * (tr[i].InflowLS + tr[i-1].InflowLS) / 2000
				out += dt * (tr[i].OutflowLS + tr[i-1].OutflowLS) / 2000
			}
			if bal := in - out - last.StoredM3 - last.SpilledM3; math.Abs(bal) > 0.02*in {
				t.Errorf("in %.3f m³, out %.3f, left %.3f, spilled %.3f: %.3f m³ unaccounted", in, out, last.StoredM3, last.SpilledM3, bal)
			}
		})
	}
}

// Thinning keeps the ends and the peak, whichever stride it takes.
func TestTracePointsKeepPeak(t *testing.T) {
	steps := make([]Step, 1000)
	for i := range steps {
		steps[i] = Step{T: float64(i) * 6, Stored: float64(i)}
	}
	steps[501].Stored = 5000 // between two strides of 4
	got := tracePoints(steps, 250)
	if len(got) != 252 {
		t.Fatalf("%d points, want 250 by stride 4, the last and the peak", len(got))
	}
	if got[0].TimeMin != 0 || got[len(got)-1].TimeMin != 99.9 {
		t.Errorf("runs %g to %g min, want 0 to 99.9", got[0].TimeMin, got[len(got)-1].TimeMin)
	}
	found := false
	for _, p := range got {
		found = found || p.StoredM3 == 5000
	}
	if !found {
		t.Error("the peak was thinned away")
	}
}
