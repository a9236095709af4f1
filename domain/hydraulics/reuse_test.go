package hydraulics

import (
	"fmt"
	"math"
	"reflect"
	"testing"
)

// stepRun is a run of U channels of one width laid as a design search lays
// them: section k from starts[k] to the next start (or l) with available
// depth depths[k], its invert that far below a channel top falling at
// gradient g. Deeper channels step the floor down.
func stepRun(width, l, g, q float64, starts, depths []float64, out Outlet) Run {
	run := Run{Lateral: LateralInflow{{Start: 0, End: l, QStart: q, QEnd: q}}, Outlet: out}
	for k, a := range starts {
		b := l
		if k+1 < len(starts) {
			b = starts[k+1]
		}
		d := depths[k]
		run.Sections = append(run.Sections, Section{
			Name: fmt.Sprintf("U%g", d), Start: a, End: b, Shape: UShape{Width: width}, N: 0.013,
			InvertStart: -g*a - d, InvertEnd: -g*b - d, DepthStart: d, DepthEnd: d,
		})
	}
	return run
}

// A solution reused for a run with the same hydraulics (the channels of
// one width differ in depth and invert only) gives what a fresh solve
// gives: the fill of each candidate bit for bit where the bed slopes are
// the same, within 1e-12 where they differ in the last bits (the invert
// levels round differently), and the full results of a calculation bit
// for bit. A run with other hydraulics (another flow or width) is solved
// afresh.
func TestReuseEqualsFreshSolve(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name           string
		width, l, g, q float64
		out            Outlet
	}{
		{"subcritical 120 m", 0.15, 120, 0.002, 2e-4, nil},
		{"steep 300 m with a jump", 0.1, 300, 0.01, 1e-4, TrashBox{RatedFlow: 0.02, RatedHead: 0.08}},
		{"level into an orifice", 0.2, 60, 0, 3e-4, Orifice{Diameter: 0.1, CentreHeight: 0.05}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var u Reuse
			var runs []Run
			for _, d := range []float64{0.15, 0.25, 0.35, 0.45} {
				runs = append(runs, stepRun(c.width, c.l, c.g, c.q, []float64{0}, []float64{d}, c.out))
			}
			// Another flow and another width: not the same hydraulics.
			runs = append(runs, stepRun(c.width, c.l, c.g, 1.5*c.q, []float64{0}, []float64{0.25}, c.out),
				stepRun(c.width+0.05, c.l, c.g, c.q, []float64{0}, []float64{0.25}, c.out))
			opts := Options{SkipMaxDischarge: true}
			for i, run := range runs {
				got, err := u.FillRatio(run, opts)
				if err != nil {
					t.Fatal(err)
				}
				want, err := FillRatio(run, opts)
				if err != nil {
					t.Fatal(err)
				}
				m0, _ := compile(runs[0], opts)
				mi, _ := compile(run, opts)
				tol := 0.0
				if m0.reaches[0].s0 != mi.reaches[0].s0 {
					tol = 1e-12
				}
				if math.Abs(got-want) > tol*want {
					t.Errorf("run %d: fill %v reused, %v fresh", i, got, want)
				}
			}
			if len(u.sols) != 3 {
				t.Errorf("%d solutions kept, want 3 (one per distinct hydraulics)", len(u.sols))
			}
			got, err := u.CalculateWith(runs[2], Options{})
			if err != nil {
				t.Fatal(err)
			}
			if want := mustCalc(t, runs[2], Options{}); !reflect.DeepEqual(got, want) {
				t.Errorf("results of a reused solution differ from a fresh calculation:\n%+v\n%+v", got, want)
			}
		})
	}
}

// The candidates of a stepped run's head stretch share the reaches below
// it: their subcritical pass is taken from the first candidate's, and each
// candidate's fill per section is what a fresh solve gives, bit for bit.
func TestReuseSharedReachesEqualsFreshSolve(t *testing.T) {
	t.Parallel()
	const width, l, g, q = 0.15, 200.0, 0.003, 3e-4
	depths := []float64{0.15, 0.2, 0.3}
	var u Reuse
	opts := Options{SkipMaxDischarge: true}
	var first *gvfSolution
	for _, head := range []float64{10, 40, 25, 33, 60} {
		run := stepRun(width, l, g, q, []float64{0, head, 120}, depths, nil)
		r, largest, atStart, err := u.SectionFill(run, opts)
		if err != nil {
			t.Fatal(err)
		}
		wr, wl, wa, err := SectionFill(run, opts)
		if err != nil {
			t.Fatal(err)
		}
		if r != wr || !reflect.DeepEqual(largest, wl) || !reflect.DeepEqual(atStart, wa) {
			t.Errorf("head %g m: fill %v %v %v reused, %v %v %v fresh", head, r, largest, atStart, wr, wl, wa)
		}
		s := u.sols[len(u.sols)-1]
		if first == nil {
			first = s
			continue
		}
		// The reach below the head stretch is the first candidate's.
		last := len(s.sub) - 1
		if &s.sub[last][0] != &first.sub[last][0] {
			t.Errorf("head %g m: the lowest reach was solved again", head)
		}
	}
}

// Across a change of section the energy rule reads both invert levels: a
// run whose floor steps down by another amount at a junction shares only
// the reaches below it, and gives what a fresh solve gives.
func TestReuseJunctionLevels(t *testing.T) {
	t.Parallel()
	const width, l, g, q = 0.15, 80.0, 0.002, 4e-4
	a := stepRun(width, l, g, q, []float64{0, 30, 50}, []float64{0.15, 0.2, 0.3}, nil)
	b := stepRun(width, l, g, q, []float64{0, 30, 50}, []float64{0.15, 0.25, 0.3}, nil)
	// b's middle channel is deeper: same reaches (the U does not see its
	// depth), other floor steps at 30 m and 50 m.
	ma, err := compile(a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mb, err := compile(b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if k := sharedReaches(ma.reaches, mb.reaches, false); k != 1 {
		t.Errorf("%d reaches shared, want 1 (the one below the changed steps)", k)
	}
	if k := sharedReaches(ma.reaches, ma.reaches, false); k != len(ma.reaches) {
		t.Errorf("a run shares %d of its %d reaches with itself", k, len(ma.reaches))
	}
	var u Reuse
	if _, err := u.CalculateWith(a, Options{}); err != nil {
		t.Fatal(err)
	}
	got, err := u.CalculateWith(b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := mustCalc(t, b, Options{}); !reflect.DeepEqual(got, want) {
		t.Errorf("results differ from a fresh calculation:\n%+v\n%+v", got, want)
	}
}

// Bed slopes are the same for a calculation only bit for bit; for a flood
// test within slopeULPs units in the last place, of the same sign.
func TestSameSlope(t *testing.T) {
	t.Parallel()
	s := 0.002
	for _, c := range []struct {
		a, b         float64
		exact, loose bool
	}{
		{s, s, true, true},
		{s, math.Nextafter(s, 1), false, true},
		{s, math.Float64frombits(math.Float64bits(s) - slopeULPs), false, true},
		{s, math.Float64frombits(math.Float64bits(s) + slopeULPs + 1), false, false},
		{s, 2 * s, false, false},
		{0, math.Copysign(0, -1), true, true},
		{1e-320, -1e-320, false, false},
	} {
		if got := sameSlope(c.a, c.b, false); got != c.exact {
			t.Errorf("sameSlope(%v, %v, exact) = %v", c.a, c.b, got)
		}
		if got := sameSlope(c.a, c.b, true); got != c.loose {
			t.Errorf("sameSlope(%v, %v, loose) = %v", c.a, c.b, got)
		}
	}
}

// The maximum discharge search solves the design's model again at other
// flows, which sets the outlet device's depth on it: a solution kept from
// that model and reused for the same run later has the depth of the
// design flow, and gives what a fresh calculation gives.
func TestReuseAfterMaxDischarge(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		g, q float64
		out  Outlet
	}{
		{"steep into a trash box", 0.03, 2e-4, TrashBox{RatedFlow: 0.01, RatedHead: 0.08}},
		{"steep into a weir", 0.05, 1e-4, Weir{Length: 0.1, Crest: 0.05}},
		{"steep into an orifice", 0.02, 3e-4, Orifice{Diameter: 0.08, CentreHeight: 0.04}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			run := stepRun(0.1, 100, c.g, c.q, []float64{0}, []float64{0.3}, c.out)
			want := mustCalc(t, run, Options{})
			var u Reuse
			for i := 0; i < 2; i++ {
				got, err := u.CalculateWith(run, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("calculation %d differs from a fresh one:\n%+v\n%+v", i, got, want)
				}
			}
			// The reused solution brings the device depth of the design flow.
			fresh, _ := compile(run, Options{})
			if _, _, _, err := fresh.outletState(); err != nil {
				t.Fatal(err)
			}
			m, _ := compile(run, Options{})
			if _, err := u.solve(m); err != nil {
				t.Fatal(err)
			}
			if m.devDepth != fresh.devDepth || fresh.devDepth == 0 {
				t.Errorf("device depth %v reused, %v fresh", m.devDepth, fresh.devDepth)
			}
		})
	}
}

// The candidates of a head stretch differ in where the reach below the
// moving junction begins: its subcritical pass resumes the remembered one
// from where that beginning first mattered, and each candidate's fill is
// what a fresh solve gives, bit for bit.
func TestReuseResumedReachEqualsFreshSolve(t *testing.T) {
	t.Parallel()
	for _, g := range []float64{0, 0.004} { // level: the same bed slope whatever the start
		const width, l, q = 0.15, 300.0, 2e-4
		var u Reuse
		opts := Options{SkipMaxDischarge: true}
		var first *gvfSolution
		resumed := 0
		for _, head := range []float64{150, 225, 190, 205, 198, 60, 280} {
			run := stepRun(width, l, g, q, []float64{0, head}, []float64{0.2, 0.3}, nil)
			if first != nil {
				m, err := compile(run, opts)
				if err != nil {
					t.Fatal(err)
				}
				if res := resumable(first, 1, m, 1); res != nil && res.snaps[len(res.snaps)-1].n > 0 {
					resumed++
				}
			}
			r, largest, atStart, err := u.SectionFill(run, opts)
			if err != nil {
				t.Fatal(err)
			}
			wr, wl, wa, err := SectionFill(run, opts)
			if err != nil {
				t.Fatal(err)
			}
			if r != wr || !reflect.DeepEqual(largest, wl) || !reflect.DeepEqual(atStart, wa) {
				t.Errorf("slope %g, head %g m: fill %v %v %v resumed, %v %v %v fresh", g, head, r, largest, atStart, wr, wl, wa)
			}
			if first == nil {
				first = u.sols[0]
			}
		}
		if g == 0 && resumed < 5 {
			t.Errorf("level run: %d of 6 candidates could resume the first one's pass", resumed)
		}
	}
}
