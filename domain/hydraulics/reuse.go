package hydraulics

import (
	"math"
	"reflect"
)

// Reuse remembers the GVF solutions of the runs one design solves, so that
// a run that is hydraulically the same as one already solved is not solved
// again, and a run whose downstream reaches are the same as one solved
// starts its subcritical pass where they end, and in the next reach up,
// when only its upstream end differs, from where that end first mattered
// to the remembered pass.
//
// A design search solves runs that differ little: the channels of one
// width differ only in their depth and the level of their invert, which
// the flow does not see (the depths are the same, only the fill differs);
// the design finally calculated is a candidate the search has tested; the
// candidates of one head stretch of a stepped run share every reach below
// the stretch, and the reach below the moving junction differs only in its
// upstream end. What is reused is exactly what the solver would compute
// again: a solution is reused only when every number the solver reads is
// the same, bit for bit (sameFlow, sameReach), so the answer is the one a
// fresh solve gives.
//
// A Reuse is not safe for concurrent use; the zero value is ready, and a
// nil *Reuse reuses nothing.
type Reuse struct {
	sols []*gvfSolution
}

// reuseKeep is how many solutions a Reuse remembers: a search tests about
// log2(sizes) candidates per width and about 3·log2(elements) per head
// stretch, and what is reused is mostly recent.
const reuseKeep = 24

// Floods is the package's Floods, reusing solutions.
func (u *Reuse) Floods(run Run, opts Options) (bool, error) {
	r, err := u.FillRatio(run, opts)
	if err != nil {
		return false, err
	}
	return r > 1, nil
}

// FillRatio is the package's FillRatio, reusing solutions.
func (u *Reuse) FillRatio(run Run, opts Options) (float64, error) {
	m, err := compile(run, opts)
	if err != nil {
		return 0, err
	}
	m.reuse, m.search = u, true
	return fillRatio(m)
}

// SectionFill is the package's SectionFill, reusing solutions.
func (u *Reuse) SectionFill(run Run, opts Options) (ratio float64, largest, atStart []float64, err error) {
	return sectionFill(run, opts, u)
}

// CalculateWith is the package's CalculateWith, reusing solutions.
func (u *Reuse) CalculateWith(run Run, opts Options) (*Results, error) {
	return calculateWith(run, opts, u)
}

// solve finds m's solution among those remembered, or solves it with the
// longest run of downstream reaches that a remembered solution shares, and
// remembers it. The solutions of a scaled model (the maximum discharge
// search) are neither looked up nor kept.
func (u *Reuse) solve(m *model) (*gvfSolution, error) {
	if u == nil || m.scale != 1 {
		return solveGVF(m, nil, 0)
	}
	var from *gvfSolution
	shared, resumed := 0, 0
	for _, s := range u.sols {
		if !sameRun(s.m, m) {
			continue
		}
		k := sharedReaches(s.m.reaches, m.reaches, false)
		if k == len(m.reaches) && k == len(s.m.reaches) {
			return s.rebind(m), nil
		}
		if m.search && len(m.reaches) == len(s.m.reaches) && sharedReaches(s.m.reaches, m.reaches, true) == len(m.reaches) {
			return s.rebind(m), nil
		}

		// Above the shared reaches, the next may resume a remembered pass
		// (resumable): the more of it, the better.
		n := 0
		if res := resumable(s, len(s.m.reaches)-1-k, m, len(m.reaches)-1-k); res != nil {
			n = res.snaps[len(res.snaps)-1].n
		}
		if k > shared || (k == shared && n > resumed) {
			from, shared, resumed = s, k, n
		}
	}
	s, err := solveGVF(m, from, shared)
	if err != nil {
		return nil, err
	}
	if len(u.sols) == reuseKeep {
		copy(u.sols, u.sols[1:])
		u.sols = u.sols[:reuseKeep-1]
	}
	u.sols = append(u.sols, s)
	return s, nil
}

// rebind is the solution s for the model m, which sameRun and
// sharedReaches found hydraulically the same as s.m: the profile is read
// through m (the same reaches), and m gets the outlet device's depth of
// the solve (not s.m's, which a maximum discharge search may have solved
// again at other flows since).
func (s *gvfSolution) rebind(m *model) *gvfSolution {
	c := *s
	c.m = m
	m.devDepth = s.devDepth
	return &c
}

// A flood test takes the solution of a run whose bed slopes differ from
// its own by at most slopeULPs units in the last place: channels of one
// width laid at one gradient, whose invert levels round differently. The
// verdict can differ from a fresh solve's only for a fill within about
// 1e-12 of the brim, far inside the margin by which the search and the
// final calculation may already disagree (both sample the profile at
// their own points, and the design steps back should they disagree); the
// final calculation reuses a solution only when it is the same, bit for
// bit.
const slopeULPs = 4

// sameRun: everything the solver reads outside the reaches is the same in
// both models (the numerics, the inflows, the outlet).
func sameRun(a, b *model) bool {
	return a.method == GVF && b.method == GVF && a.scale == b.scale && a.L == b.L && a.pointAtL == b.pointAtL &&
		a.opts.MaxStep == b.opts.MaxStep && a.opts.Tol == b.opts.Tol &&
		sameOutlet(a.outlet, b.outlet) && sameInflow(&a.lat, &b.lat)
}

func sameOutlet(a, b Outlet) bool {
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	if ta != tb || ta == nil || !ta.Comparable() {
		return false
	}
	return a == b
}

func sameInflow(a, b *inflowTable) bool {
	return equalFloats(a.xs, b.xs) && equalFloats(a.q0, b.q0) && equalFloats(a.q1, b.q1) && equalFloats(a.cum, b.cum)
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// sharedReaches is the number of reaches at the downstream end that a and
// b share: the same in every number the solver reads in a reach, and,
// across a change of section between two of them, the same invert levels
// (the energy rule reads them).
// With loose, the bed slopes may differ by slopeULPs.
func sharedReaches(a, b []reach, loose bool) int {
	k := 0
	for k < len(a) && k < len(b) {
		ra, rb := &a[len(a)-1-k], &b[len(b)-1-k]
		if !sameReach(ra, rb, loose) {
			break
		}
		k++
	}
	// A change of section at the start of a shared reach, with the reach
	// above it shared too, is carried across with both reaches' levels.
	for i := len(b) - k + 1; i < len(b); i++ {
		ra, rb := &a[len(a)-len(b)+i], &b[i]
		if rb.junction && (ra.z0 != rb.z0 || a[len(a)-len(b)+i-1].z1 != b[i-1].z1) {
			k = len(b) - i
		}
	}
	return k
}

// sameReach: the solver reads the same numbers in both reaches (the invert
// levels aside, which only the energy rule at a change of section reads);
// with loose, the bed slopes may differ by slopeULPs.
func sameReach(a, b *reach, loose bool) bool {
	return a.x0 == b.x0 && a.x1 == b.x1 && a.rb == b.rb && a.ru == b.ru && a.n2 == b.n2 && sameSlope(a.s0, b.s0, loose) &&
		a.qBase == b.qBase && a.pointIn == b.pointIn && a.junction == b.junction && sameShape(a.sh, b.sh)
}

func sameSlope(a, b float64, loose bool) bool {
	if a == b {
		return true
	}
	if !loose || math.Signbit(a) != math.Signbit(b) {
		return false
	}
	d := int64(math.Float64bits(a)) - int64(math.Float64bits(b))
	return d >= -slopeULPs && d <= slopeULPs
}
