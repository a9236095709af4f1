package hydraulics

import (
	"errors"
	"math"
	"testing"
)

// Unit factors of the specification (§3 enumerations, §9): l/s/m² is
// 0.000278 × mm/h and l/(s·ha) is 2.78 × mm/h.
func TestRainfallUnits(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"1 mm/h in l/s/m²", MMHToLPSPerM2(1), 2.778e-4, 1e-3},
		{"50 mm/h in l/s/m²", MMHToLPSPerM2(50), 50.0 / 3600, 1e-12},
		{"1 mm/h in l/(s·ha)", MMHToLPSPerHa(1), 2.78, 1e-3},
		{"round trip l/s/m²", LPSPerM2ToMMH(MMHToLPSPerM2(73.5)), 73.5, 1e-12},
		{"round trip l/(s·ha)", LPSPerHaToMMH(MMHToLPSPerHa(12)), 12, 1e-12},
		{"1 mm/h in m/s", MMHToMPerS(1), 1e-3 / 3600, 1e-12},
		{"rational Q", RunoffLPS(1000, 50, 0.9), 1000 * 50 / 3600.0 * 0.9, 1e-12},
		{"rational Q m³/s", RunoffM3S(1000, 50, 0.9), 1000 * 50 / 3600.0 * 0.9 / 1000, 1e-12},
	}
	for _, c := range cases {
		if relErr(c.got, c.want) > c.tol {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
}

// The flow leaving the run is the rational-method runoff A·i·C of its
// catchment, whatever its shape (continuity).
func TestOutletDischargeEqualsRunoff(t *testing.T) {
	t.Parallel()
	const l, intensity = 40.0, 75.0
	uni, err := UniformInflow(l, 800, intensity, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	left := []CatchmentArea{
		{XOrigin: 0, Length: 15, StartWidth: 0, EndWidth: 12, Permeability: 1},
		{XOrigin: 15, Length: 25, StartWidth: 12, EndWidth: 4, Permeability: 0.6},
	}
	right := []CatchmentArea{{XOrigin: 5, Length: 30, StartWidth: 8, EndWidth: 8, Permeability: 0.3}}
	irr, err := IrregularInflow(left, right, intensity)
	if err != nil {
		t.Fatal(err)
	}
	irrWant := 0.0
	for _, a := range append(append([]CatchmentArea{}, left...), right...) {
		irrWant += RunoffLPS(a.Area(), intensity, a.Permeability)
	}
	cases := []struct {
		name   string
		lat    LateralInflow
		points []PointInflow
		want   float64 // l/s
	}{
		{"uniform", uni, nil, RunoffLPS(800, intensity, 0.9)},
		{"irregular", irr, nil, irrWant},
		{"uniform plus inflows", uni, []PointInflow{{X: 10, Flow: 0.002}, {X: 40, Flow: 0.001}}, RunoffLPS(800, intensity, 0.9) + 3},
	}
	for _, c := range cases {
		run := rectRun(0.2, l, 0.005, 0.3, 0.013, 0, nil)
		run.Lateral, run.Points = c.lat, c.points
		res := mustCalc(t, run, Options{SkipMaxDischarge: true})
		if relErr(res.ChannelDischarge, c.want) > 1e-9 {
			t.Errorf("%s: outlet discharge %.9g l/s, want A·i·C = %.9g l/s", c.name, res.ChannelDischarge, c.want)
		}
		last := res.Segments[len(res.Segments)-1].Slices
		// The last slice is on the channel side of an inflow at the very end.
		pointAtEnd := 0.0
		for _, p := range c.points {
			if p.X >= l {
				pointAtEnd += 1000 * p.Flow
			}
		}
		if got := last[len(last)-1].FlowLS + pointAtEnd; relErr(got, c.want) > 1e-9 {
			t.Errorf("%s: flow in the last slice %.9g l/s, want %.9g", c.name, got, c.want)
		}
	}
}

func TestLateralInflowTable(t *testing.T) {
	t.Parallel()
	// q = 1 + 0.2x on [0, 10] plus 2 on [5, 15]: Q = x + 0.1x² + 2(x − 5)⁺.
	l := LateralInflow{{0, 10, 1, 3}, {5, 15, 2, 2}}
	tab := compileInflow(l)
	cases := []struct{ x, cum float64 }{
		{0, 0},
		{5, 7.5},
		{7.5, 7.5 + 0.1*7.5*7.5 + 5},
		{12, 20 + 14},
		{20, 40},
	}
	for _, c := range cases {
		if got := tab.cumulative(c.x); math.Abs(got-c.cum) > 1e-12 {
			t.Errorf("Q(%g) = %g, want %g", c.x, got, c.cum)
		}
	}
	if got := tab.at(7.5); math.Abs(got-4.5) > 1e-12 {
		t.Errorf("q(7.5) = %g, want 4.5", got)
	}
	if got, want := l.Total(), 40.0; math.Abs(got-want) > 1e-12 {
		t.Errorf("total %g, want %g", got, want)
	}
	if got := l.At(12); math.Abs(got-2) > 1e-12 {
		t.Errorf("At(12) = %g, want 2", got)
	}
}

func TestCatchmentInputErrors(t *testing.T) {
	t.Parallel()
	var ie *InputError
	if _, err := UniformInflow(0, 100, 50, 1); !errors.As(err, &ie) {
		t.Errorf("zero length: want *InputError, got %v", err)
	}
	if _, err := UniformInflow(10, 100, 50, 1.2); !errors.As(err, &ie) {
		t.Errorf("permeability 1.2: want *InputError, got %v", err)
	}
	if _, err := UniformInflow(10, 100, -1, 1); !errors.As(err, &ie) {
		t.Errorf("negative rain: want *InputError, got %v", err)
	}
	if _, err := IrregularInflow([]CatchmentArea{{Length: 5, StartWidth: -1, EndWidth: 1, Permeability: 1}}, nil, 50); !errors.As(err, &ie) {
		t.Errorf("negative width: want *InputError, got %v", err)
	}
}
