package hydraulics

import (
	"errors"
	"testing"
)

// filmRun is the run fuzzing found (testdata/fuzz/FuzzGVF/6043c3c84ccaf6d7):
// a 2 mm deep channel, 2,062 m at 9.9 %, with a floor step halfway, a
// trickle of lateral inflow and 57 m³/s at one point, at scale times its
// flows.
func filmRun(scale float64) Run {
	const width, length, slope, depth = 1.05, 2062.0, 0.099, 0.0020833333333333333
	run := rectRun(width, length, slope, depth, 0.02, scale*5.555555555555556e-07, nil)
	withFloorStep(&run, width, length, depth)
	run.Points = []PointInflow{{X: 137, Flow: scale * 57}}
	return run
}

// A profile that would need more than maxSolveSteps is refused as input
// out of the engine's range: at 2.4 millionths of its flows the run's head
// carries 0.2 nl/s in a film of about a micrometre, which the integrator
// crossed in steps of 20 µm (millions of them before the budget).
func TestStepBudget(t *testing.T) {
	_, err := CalculateWith(filmRun(2.4e-6), Options{SkipMaxDischarge: true})
	var ie *InputError
	if !errors.Is(err, errTooManySteps) || !errors.As(err, &ie) {
		t.Fatalf("error %v; want the step budget's input error", err)
	}
}

// The maximum-discharge search that asked for such a film keeps the
// largest flow it found not to flood, on the safe side: here every scale
// it could integrate flooded (the channel is 2 mm deep), so the run is
// calculated and reports no capacity, rather than hanging or failing.
func TestMaxDischargeStopsAtTheStepBudget(t *testing.T) {
	res, err := CalculateWith(filmRun(1), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.MaxPossibleDischarge != 0 || res.PercentageFull <= 100 {
		t.Fatalf("maximum discharge %g l/s at %g %% full; want 0 for a flooded 2 mm channel", res.MaxPossibleDischarge, res.PercentageFull)
	}
}
