package hydraulics

import (
	"math"
	"slices"
	"sort"
)

// The GVF solver follows the mixed-regime procedure used for steady
// gradually varied flow (Chow 1959, ch. 10 and 12; the same scheme as the
// mixed flow regime option of HEC-RAS, Brunner 2016):
//
//  1. A subcritical pass integrates the momentum function upstream from the
//     outlet control (critical depth, or the outlet device's depth if
//     higher). Where the subcritical profile cannot exist (the numerator of
//     the flow equation at critical depth, S0 − Sf − 2Qq/(gA²), is positive:
//     a "steep" stretch) the pass is held at critical depth. The upstream end
//     of such a stretch is a control section: Froude number 1 and numerator
//     0, the singular point of the flow equation.
//  2. From each control a supercritical pass integrates downstream, leaving
//     the singular point along the L'Hôpital slope.
//  3. The flow is supercritical downstream of a control for as long as its
//     momentum function exceeds that of the subcritical profile; where the
//     subcritical one becomes larger, a hydraulic jump stands (conjugate
//     depths have equal momentum functions: Bélanger's equation in its
//     general form).

type pt struct {
	x, M, f, y float64
	crit       bool // held at critical depth in the subcritical pass
}

type supSeg struct {
	xa, xb float64
	exits  bool // the flow is still supercritical at xb (reach end, no jump)
	pts    []pt
}

type gvfSolution struct {
	m        *model
	sub      [][]pt
	sup      [][]supSeg
	jumpsX   []float64
	controlX []float64
	went     bool
	atol     float64
	err      error // a non-finite state: the solve stops and reports it
	steps    int   // adaptive steps taken, at most maxSolveSteps
	// wcAt and wcOK remember whether the last interval of integration
	// points the dense profile was evaluated in is well conditioned
	// (wellConditioned at both ends): the slices of a run are evaluated in
	// order, several in each interval.
	wcAt *pt
	wcOK bool
	// devDepth is the outlet device's depth at the flow solved for: the
	// model's own is set again by every solve of it (the maximum
	// discharge search solves it at other flows).
	devDepth float64
	// snaps are the states of each reach's subcritical pass at the top of
	// its steps (subReach), for a solve that shares the reach but for its
	// upstream end to resume from (Reuse).
	snaps [][]subSnap
	// hAfter is the step the subcritical pass carried out of each reach
	// upstream, before a node reset it: what a solve that shares the
	// reaches below (Reuse) carries on with.
	hAfter []float64
}

const (
	hStart  = 0.05 // m, first step after a node: refinement at section changes
	hMin    = 1e-6 // m
	hDepart = 0.02 // m, L'Hôpital step away from a singular control section
)

// departStep is the length of the L'Hôpital step away from a control at x:
// short against hDepart and against x itself, since near the head the flow,
// and with it critical depth, changes on the scale of x.
func departStep(x float64) float64 { return math.Min(hDepart, math.Max(0.01*x, 1e-4)) }

// solveGVF solves m. When from is not nil, its last shared reaches are
// those of m (sharedReaches): their subcritical pass is taken from it.
func solveGVF(m *model, from *gvfSolution, shared int) (*gvfSolution, error) {
	s := &gvfSolution{m: m}
	if err := s.subPass(from, shared); err != nil {
		return nil, err
	}
	s.devDepth = m.devDepth
	s.sup = make([][]supSeg, len(m.reaches))
	covered := math.Inf(-1)
	prevCrit := false
	for r := range m.reaches {
		for k := range s.sub[r] {
			p := s.sub[r][k]
			if p.crit && !prevCrit && p.x > covered+1e-9 {
				covered = s.superFrom(r, k)
				if s.err != nil {
					return nil, s.err
				}
			}
			prevCrit = p.crit
		}
	}
	return s, nil
}

func (s *gvfSolution) subPass(from *gvfSolution, shared int) error {
	m := s.m
	nr := len(m.reaches)
	s.sub = make([][]pt, nr)
	s.hAfter = make([]float64, nr)
	s.snaps = make([][]subSnap, nr)
	M, y, crit, err := m.outletState()
	if err != nil {
		return err
	}
	// The absolute floor of the error test scales with the critical
	// momentum of the outlet flow, not with a device level that may be far
	// above it, so that thin flows upstream keep their relative accuracy.
	last := &m.reaches[nr-1]
	qOut := m.outletFlow()
	s.atol = m.opts.Tol * math.Max(last.M(last.yc(qOut), qOut), 1e-300)
	h := hStart
	for r := nr - 1; r >= 0; r-- {
		if k := nr - 1 - r; from != nil && k < shared {
			// The pass from the same state over the same reach: the same
			// points, and the same step carried on.
			o := len(from.sub) - 1 - k
			s.sub[r], h, s.snaps[r] = from.sub[o], from.hAfter[o], from.snaps[o]
		} else {
			var res *subResume
			if k := nr - 1 - r; from != nil && k == shared {
				res = resumable(from, len(from.sub)-1-k, m, r)
			}
			s.sub[r] = s.subReach(r, M, y, crit, &h, res)

		}
		s.hAfter[r] = h
		if s.err != nil {
			return s.err
		}
		if r > 0 {
			p := s.sub[r][0]
			M, y, crit = m.subTransfer(r, p.M, p.y, p.crit)
			if m.reaches[r].junction || m.reaches[r].pointIn > 0 {
				h = hStart
			}
		}
	}
	return nil
}

// outletState is the state on the channel side of the outlet: the larger of
// critical depth and the device's depth, carried across a point inflow at
// the very end if there is one. crit tells whether the outlet is a
// critical-depth control.
func (m *model) outletState() (M, y float64, crit bool, err error) {
	last := &m.reaches[len(m.reaches)-1]
	qOut := m.outletFlow()
	ycOut := last.yc(qOut)
	dev, err := m.outlet.DownstreamDepth(qOut)
	if err != nil {
		return 0, 0, false, err
	}
	if !finite(dev) {
		return 0, 0, false, inputErr("outlet", "the outlet device gave a non-finite depth")
	}
	m.devDepth = dev
	y = math.Max(ycOut, dev)
	crit = qOut > 0 && !(dev > ycOut)
	M = last.M(y, qOut)
	if qL := m.Q(last, m.L); qL < qOut {
		y = last.ySub(M, qL, last.yc(qL), y)
		crit = false
	}
	return M, y, crit, nil
}

// subTransfer carries the subcritical state at the start of reach r to the
// end of reach r−1: the point inflow at the node keeps M (no momentum along
// the channel), a change of section keeps energy (energyUp).
func (m *model) subTransfer(r int, M, y float64, crit bool) (float64, float64, bool) {
	d, u := &m.reaches[r], &m.reaches[r-1]
	qu := m.Q(u, u.x1)
	if d.pointIn > 0 {
		y = d.ySub(M, qu, d.yc(qu), y)
		crit = false
	}
	if d.junction {
		y, crit = energyUp(u, d, qu, y)
	}
	return u.M(y, qu), y, crit
}

// supTransfer carries a supercritical state at the end of reach r into reach
// r+1. ok is false when the flow cannot stay supercritical across the node.
func (s *gvfSolution) supTransfer(r int, y float64) (M, yd float64, ok bool) {
	m := s.m
	u, d := &m.reaches[r], &m.reaches[r+1]
	qu := m.Q(u, u.x1)
	if d.junction {
		if y, ok = energyDown(u, d, qu, y); !ok {
			return 0, 0, false
		}
	}
	M = d.M(y, qu)
	if d.pointIn > 0 {
		qd := m.Q(d, d.x0)
		yc := d.yc(qd)
		if M < d.M(yc, qd) {
			return 0, 0, false
		}
		y = d.ySup(M, qd, yc, y)
	}
	return M, y, true
}

// G is the numerator of the flow equation evaluated at critical depth: where
// it is positive the flow cannot be subcritical (Chow 1959, ch. 12, the
// condition for a control point in spatially varied flow).
func (m *model) G(rc *reach, x float64) float64 {
	q := m.Q(rc, x)
	if q <= 0 {
		return math.Inf(-1)
	}
	yc := rc.yc(q)
	a := rc.area(yc)
	return rc.s0 - rc.sf(yc, q) - 2*q*m.q(x)/(Gravity*a*a)
}

// trackFrac: where the flow relaxes to its equilibrium depth over less than
// trackFrac·MaxStep, the profile is followed along that equilibrium.
const trackFrac = 0.5

// equilibrium returns, on the given branch, the depth at which the numerator
// of the flow equation vanishes, N(y) = S0 − Sf − 2Qq/(gA²) = 0, and the
// length over which the flow relaxes to it, ℓ = |1 − Fr²|/N_y: near y_eq,
// dy/dx ≈ (N_y/D)·(y − y_eq), which decays in the direction of integration
// on both branches (upstream for subcritical, downstream for supercritical
// flow).
//
// When ℓ is short, the flow equation is stiff (in either form; near critical
// depth ℓ → 0 as D = 1 − Fr² → 0) and an explicit integrator is held to steps
// of a few ℓ. The profile is then y_eq lagging by ℓ·dy_eq/ds (the first term
// of the slow-manifold expansion), which is what the equation itself gives
// to within O(ℓ²): the tracking loses no accuracy where it is used.
func (m *model) equilibrium(rc *reach, x float64, sub bool, guess float64) (yEq, lr float64, ok bool) {
	q := m.Q(rc, x)
	if q <= 0 {
		return 0, 0, false
	}
	qx := m.q(x)
	yc := rc.yc(q)
	onBranch := func(y float64) bool { return (sub && y > yc) || (!sub && y < yc && y > 0) }
	// Newton from the caller's guess (the previous point's equilibrium, or
	// the present depth): two or three iterations where the manifold is
	// smooth, which is where it is used.
	if onBranch(guess) {
		y := guess
		for i := 0; i < 8; i++ {
			n, ny := rc.numerator(y, q, qx)
			if !(ny > 0) {
				break
			}
			next := y - n/ny
			if !onBranch(next) {
				break
			}
			if math.Abs(next-y) <= 1e-12*y {
				_, ny = rc.numerator(next, q, qx)
				return next, math.Abs(1-rc.froude2(next, q)) / ny, ny > 0
			}
			y = next
		}
	}
	num := func(y float64) float64 {
		n, _ := rc.numerator(y, q, qx)
		return n
	}
	fc := num(yc)
	var lo, hi, flo, fhi float64
	if sub {
		if !(fc < 0) {
			return 0, 0, false
		}
		lo, flo = yc, fc
		hi = yc * 1.001
		for fhi = num(hi); fhi < 0; fhi = num(hi) {
			if hi > 4*yc {
				return 0, 0, false
			}
			lo, flo = hi, fhi
			hi = yc + 2*(hi-yc)
		}
	} else {
		if !(fc > 0) {
			return 0, 0, false
		}
		hi, fhi = yc, fc
		lo = yc * 0.999
		for flo = num(lo); flo > 0; flo = num(lo) {
			if lo < yc/4 {
				return 0, 0, false
			}
			hi, fhi = lo, flo
			lo = yc - 2*(yc-lo)
		}
	}
	yEq = illinois(num, lo, hi, flo, fhi)
	_, ny := rc.numerator(yEq, q, qx)
	if !(ny > 0) {
		return 0, 0, false
	}
	return yEq, math.Abs(1-rc.froude2(yEq, q)) / ny, true
}

// singularSlope is dy/dx through a singular (control) section where both the
// numerator N and the denominator D of dy/dx = N/D vanish. By L'Hôpital's rule
// s = (Nx + Ny·s)/(Dx + Dy·s), i.e. Dy·s² + (Dx − Ny)·s − Nx = 0 (Chow 1959,
// ch. 12). Of the two roots the transitional profile is the one crossing the
// critical-depth line from above (s < dyc/dx).
func (m *model) singularSlope(rc *reach, x float64) float64 {
	q := m.Q(rc, x)
	yc := rc.yc(q)
	num := func(xx, yy float64) float64 {
		qq := m.Q(rc, xx)
		a := rc.area(yy)
		return rc.s0 - rc.sf(yy, qq) - 2*qq*m.q(xx)/(Gravity*a*a)
	}
	den := func(xx, yy float64) float64 { return 1 - rc.froude2(yy, m.Q(rc, xx)) }
	dx := math.Min(1e-3, (rc.x1-rc.x0)/4)
	xa, xb := math.Max(x-dx, rc.x0), math.Min(x+dx, rc.x1)
	dy := 1e-5 * yc
	nx := (num(xb, yc) - num(xa, yc)) / (xb - xa)
	ny := (num(x, yc+dy) - num(x, yc-dy)) / (2 * dy)
	dxD := (den(xb, yc) - den(xa, yc)) / (xb - xa)
	dyD := (den(x, yc+dy) - den(x, yc-dy)) / (2 * dy)
	ycp := (rc.yc(m.Q(rc, xb)) - rc.yc(m.Q(rc, xa))) / (xb - xa)
	a, b, c := dyD, dxD-ny, -nx
	var roots []float64
	if math.Abs(a) < 1e-300 {
		if b != 0 {
			roots = append(roots, -c/b)
		}
	} else if disc := b*b - 4*a*c; disc >= 0 {
		sq := math.Sqrt(disc)
		roots = append(roots, (-b-sq)/(2*a), (-b+sq)/(2*a))
	}
	best := math.Inf(-1)
	for _, r := range roots {
		if r < ycp && r > best && finite(r) {
			best = r
		}
	}
	if math.IsInf(best, -1) {
		return ycp
	}
	return best
}

// subReach integrates reach r upstream from its downstream end, returning the
// points in ascending chainage.
//
// With res, the pass starts where the remembered pass of res stood at the
// top of one of its steps, with the points it had made until then.
func (s *gvfSolution) subReach(r int, M, y float64, crit bool, h *float64, res *subResume) []pt {
	m := s.m
	rc := &m.reaches[r]
	maxStep := m.opts.MaxStep
	x := rc.x1
	var q, f float64
	var pts []pt
	if res == nil {
		q = m.Q(rc, x)
		f = rc.slopeTerm(y, q)
		pts = []pt{{x, M, f, y, crit}}
	}
	guess := y
	// The last evaluation of rhs, when it found the depth on the
	// subcritical branch without the critical depth (ySubFast): the state
	// is then above critical momentum, which the step loop need not check.
	var lastX, lastM, lastY float64
	lastSub := false
	// At the last evaluation on the branch: the flow, the area and dM/dy.
	var lastQ, lastA, lastD float64
	rhs := func(xx, mm float64) (float64, float64) {
		qq := m.Q(rc, xx)
		g := guess
		if lastSub {
			// The previous stage's depth, moved by the change of M and Q
			// to first order (dM = M_y·dy + 2Q/(gA)·dQ): one Newton
			// iteration fewer than from the depth itself.
			g = lastY
			if p := predictDepth(lastY, lastM, lastQ, lastA, lastD, mm, qq); p > 0 && finite(p) {
				g = p
			}
		}
		if yy, d, ok := rc.ySubFastSlope(mm, qq, g); ok {
			f, a := rc.slopeTermArea(yy, qq)
			lastX, lastM, lastY, lastSub = xx, mm, yy, a > 0 && d > 0
			lastQ, lastA, lastD = qq, a, d
			return f, yy
		}
		lastSub = false
		yc := rc.yc(qq)
		yy := yc
		if mm > rc.M(yc, qq) {
			yy = rc.ySub(mm, qq, yc, g)
		}
		return rc.slopeTerm(yy, qq), yy
	}
	if res != nil {
		sn := res.snaps[len(res.snaps)-1]
		x, M, f, y, q, crit, *h = sn.x, sn.M, sn.f, sn.y, sn.q, sn.crit, sn.h
		lastX, lastM, lastY, lastSub = sn.lastX, sn.lastM, sn.lastY, sn.lastSub
		lastQ, lastA, lastD = sn.lastQ, sn.lastA, sn.lastD
		pts = make([]pt, 0, len(res.pts))
		for i := len(res.pts) - 1; i >= len(res.pts)-sn.n; i-- {
			pts = append(pts, res.pts[i])
		}
		s.snaps[r] = append(s.snaps[r][:0], res.snaps[:len(res.snaps)-1]...)
	}
	st := &stepper{rhs: rhs, tol: m.opts.Tol, atol: s.atol, maxStep: maxStep, dir: -1}
	setCrit := func(xx float64) {
		x = xx
		q = m.Q(rc, x)
		y = rc.yc(q)
		M = rc.M(y, q)
		f = rc.slopeTerm(y, q)
	}
	// Only a pass that may be resumed is recorded: kept by a Reuse, and
	// not the head reach, which always begins at 0.
	record := m.reuse != nil && m.scale == 1 && r > 0
	for x > rc.x0+1e-12 {
		if record {
			s.snaps[r] = append(s.snaps[r], subSnap{
				n: len(pts), x: x, M: M, f: f, y: y, q: q, h: *h, crit: crit,
				lastX: lastX, lastM: lastM, lastY: lastY, lastQ: lastQ, lastA: lastA, lastD: lastD, lastSub: lastSub,
			})
		}
		if crit {
			if m.G(rc, x) > 0 {
				xn := math.Max(x-maxStep, rc.x0)
				if m.G(rc, xn) > 0 {
					setCrit(xn)
					pts = append(pts, pt{x, M, f, y, true})
					continue
				}
				lo, hi := xn, x // G(lo) ≤ 0 < G(hi)
				for hi-lo > 1e-10*math.Max(1, hi) {
					mid := (lo + hi) / 2
					if m.G(rc, mid) > 0 {
						hi = mid
					} else {
						lo = mid
					}
				}
				if hi < x-1e-12 {
					setCrit(hi)
					pts = append(pts, pt{x, M, f, y, true})
				}
				hd := math.Min(departStep(x), x-rc.x0)
				slope := m.singularSlope(rc, x)
				xn = x - hd
				qn := m.Q(rc, xn)
				ycn := rc.yc(qn)
				yn := y - slope*hd
				if !(yn > ycn) {
					yn = ycn
				}
				x, y, q = xn, yn, qn
				M = rc.M(y, q)
				f = rc.slopeTerm(y, q)
				crit = false
				pts = append(pts, pt{x, M, f, y, false})
				*h = hd
				continue
			}
			crit = false
		}
		guess = y
		if s.overBudget() {
			break
		}
		xn, m1, f1, y1, hn := st.step(x, M, f, *h, rc.x0)
		*h = hn
		if !finite(m1) || !finite(y1) {
			s.err = ErrNumerical
			break
		}
		qn := m.Q(rc, xn)
		if subcritical := lastSub && lastX == xn && lastM == m1; !subcritical {
			ycn := rc.yc(qn)
			if mcn := rc.M(ycn, qn); m1 <= mcn && qn > 0 {
				g := m.G(rc, xn)
				if g <= 0 && x-xn > 4*hMin {
					// Where the numerator at critical depth is negative the
					// subcritical profile moves away from critical depth going
					// upstream: reaching it means the step was too long.
					*h = (x - xn) / 4
					continue
				}
				m1, y1 = mcn, ycn
				f1 = rc.slopeTerm(y1, qn)
				crit = g > 0
			}
		}
		x, M, f, y, q = xn, m1, f1, y1, qn
		pts = append(pts, pt{x, M, f, y, crit})
		if !crit && *h < 0.2*maxStep {
			s.trackSub(rc, &pts, &x, &M, &f, &y, &q, &crit, h)
		}
	}
	slices.Reverse(pts)
	return pts
}

// overBudget counts an adaptive step and, past maxSolveSteps, stops the
// solve with errTooManySteps.
func (s *gvfSolution) overBudget() bool {
	s.steps++
	if s.steps <= maxSolveSteps {
		return false
	}
	if s.err == nil {
		s.err = errTooManySteps
	}
	return true
}

// predictDepth is the depth at momentum m and flow q to first order from
// the depth y0 at m0, q0 with area a0 and dM/dy d0: dM = M_y·dy + M_Q·dQ,
// M_Q = 2Q/(gA).
func predictDepth(y0, m0, q0, a0, d0, m, q float64) float64 {
	return y0 + (m-m0-2*q0*(q-q0)/(Gravity*a0))/d0
}

// subSnap is the state of subReach at the top of a step: the points made
// so far, the state, the step to try and the rhs's memory of its last
// evaluation.
type subSnap struct {
	n                                        int
	x, M, f, y, q, h                         float64
	crit                                     bool
	lastX, lastM, lastY, lastQ, lastA, lastD float64
	lastSub                                  bool
}

// subResume is where subReach resumes a remembered pass: its points
// (ascending) and its states up to the one to resume from.
type subResume struct {
	pts   []pt
	snaps []subSnap
}

// resumable is where the subcritical pass of reach r of m may resume the
// pass of reach o of from: the same reach but for its upstream end, entered in
// the same state (the reaches below are shared, and across a change of
// section at its lower end the levels are the same). Until the pass comes
// within a step (maxStep) of either upstream end, no decision of the pass
// reads that end: the steps are not cut short by it, the walk along
// critical depth and the tracking of the equilibrium do not reach it. The
// pass resumes from the last state more than a step and a millimetre above
// both ends. Nil when there is none.
func resumable(from *gvfSolution, o int, m *model, r int) *subResume {
	if o < 0 || r < 0 || len(from.snaps) <= o {
		return nil
	}
	a, b := &from.m.reaches[o], &m.reaches[r]
	c := *a
	c.x0 = b.x0
	if !sameReach(&c, b, false) {
		return nil
	}
	if r+1 < len(m.reaches) && m.reaches[r+1].junction &&
		(a.z1 != b.z1 || from.m.reaches[o+1].z0 != m.reaches[r+1].z0) {
		return nil
	}
	if (from.m.Q(a, a.x0) <= 0) != (m.Q(b, b.x0) <= 0) {
		return nil // the approach to a dry head differs
	}
	limit := math.Max(a.x0, b.x0) + m.opts.MaxStep + 1e-3
	sn := from.snaps[o]
	k := 0
	for k < len(sn) && sn[k].x > limit {
		k++
	}
	if k == 0 {
		return nil
	}
	return &subResume{pts: from.sub[o], snaps: sn[:k]}
}

// onManifold tells whether the state (x, y), just reached integrating in
// direction dir, lies on the slow manifold of equilibrium: ℓ short, the lag
// ℓ·dy_eq/ds a small correction, and y on the lagged equilibrium. It returns
// y_eq at x for the tracking loop.
func (s *gvfSolution) onManifold(rc *reach, x, y, dir float64, sub bool) (float64, bool) {
	m := s.m
	maxStep := m.opts.MaxStep
	// Cheap screen first, from the numerator and its slope at the present
	// depth: the relaxation length here, and how far the equilibrium is.
	q := m.Q(rc, x)
	if q <= 0 {
		return 0, false
	}
	qx := m.q(x)
	n, ny := rc.numerator(y, q, qx)
	if !(ny > 0) {
		return 0, false
	}
	if math.Abs(1-rc.froude2(y, q))/ny > 2*trackFrac*maxStep || math.Abs(n)/ny > 0.2*y {
		return 0, false
	}
	ye, lr, ok := m.equilibrium(rc, x, sub, y-n/ny)
	if !ok || lr > trackFrac*maxStep {
		return 0, false
	}
	// dy_eq/dx = −N_x/N_y (implicit function), N_x by a difference in x.
	dx := 1e-3 * maxStep
	xa, xb := math.Max(x-dx, rc.x0), math.Min(x+dx, rc.x1)
	if xb <= xa {
		return 0, false
	}
	na, _ := rc.numerator(ye, m.Q(rc, xa), m.q(xa))
	nb, _ := rc.numerator(ye, m.Q(rc, xb), m.q(xb))
	_, nye := rc.numerator(ye, q, qx)
	lag := lr * dir * (-(nb - na) / (xb - xa) / nye) // ℓ·dy_eq/ds
	if math.Abs(lag) > 2e-3*y {
		return 0, false
	}
	// Off the manifold by dev, the flow gets back to within 1e-4 of it over
	// ℓ·ln(dev/1e-4): accept when that is negligible against the step.
	dev := math.Abs(y-(ye-lag)) / y
	return ye, dev <= 1e-4 || lr*math.Log(dev/1e-4) <= 0.01*maxStep
}

// trackSub follows the subcritical equilibrium upstream, from the point just
// accepted, for as long as it remains a slow manifold (see equilibrium).
func (s *gvfSolution) trackSub(rc *reach, pts *[]pt, x, M, f, y, q *float64, crit *bool, h *float64) {
	m := s.m
	maxStep := m.opts.MaxStep
	ye0, ok := s.onManifold(rc, *x, *y, -1, true)
	if !ok {
		return
	}
	dryHead := m.Q(rc, rc.x0) <= 0
	for *x > rc.x0+1e-12 {
		xn := math.Max(*x-maxStep, rc.x0)
		if dryHead {
			// Towards a head with no flow the equilibrium depth vanishes
			// like a power of the distance: approach it geometrically, and
			// close the last millimetres with the limit, no water.
			if *x-rc.x0 < 1e-3*maxStep {
				*x, *y, *M, *f, *q = rc.x0, 0, 0, 0, 0
				*pts = append(*pts, pt{*x, 0, 0, 0, false})
				return
			}
			xn = math.Max(xn, rc.x0+(*x-rc.x0)/2)
		}
		if m.G(rc, xn) > 0 {
			// The flow chokes ahead: hand over to the walk along critical
			// depth, which finds the control section.
			*x = xn
			*q = m.Q(rc, xn)
			*y = rc.yc(*q)
			*M = rc.M(*y, *q)
			*f = rc.slopeTerm(*y, *q)
			*crit = true
			*pts = append(*pts, pt{*x, *M, *f, *y, true})
			return
		}
		ye, lr, ok := m.equilibrium(rc, xn, true, ye0)
		lag := lr * (ye - ye0) / (xn - *x) // dy_eq/ds with s = −x
		if !ok || lr > trackFrac*maxStep || math.Abs(lag) > 2e-3*ye {
			return
		}
		qn := m.Q(rc, xn)
		yn := math.Max(ye+lag, rc.yc(qn))
		*x, *y, *q = xn, yn, qn
		*M = rc.M(yn, qn)
		*f = rc.slopeTerm(yn, qn)
		*pts = append(*pts, pt{*x, *M, *f, *y, false})
		*h = maxStep / 10
		ye0 = ye
	}
}

// trackSup is trackSub for supercritical flow going downstream. It also
// ends the supercritical reach where it must end on the manifold: where the
// subcritical profile takes over (a jump), or where the equilibrium meets
// critical depth and the flow would choke (then the jump stands upstream of
// that point). It reports the jump's chainage when there is one.
func (s *gvfSolution) trackSup(r int, seg *supSeg, x, M, f, y, h *float64) (jump float64, jumped bool) {
	m := s.m
	rc := &m.reaches[r]
	maxStep := m.opts.MaxStep
	ye0, ok := s.onManifold(rc, *x, *y, 1, false)
	if !ok {
		return 0, false
	}
	// momentum of the supercritical flow on the manifold at ξ
	onM := func(xi float64) float64 {
		q := m.Q(rc, xi)
		if ye, _, ok := m.equilibrium(rc, xi, false, ye0); ok {
			return rc.M(ye, q)
		}
		return rc.M(rc.yc(q), q)
	}
	// the jump between a and b, where the subcritical momentum overtakes
	jumpBetween := func(a, b float64) (float64, bool) {
		lo, hi := a, b
		for i := 0; i < 60 && hi-lo > 1e-9; i++ {
			mid := (lo + hi) / 2
			if onM(mid) >= s.subM(r, mid)*(1+1e-9) {
				lo = mid
			} else {
				hi = mid
			}
		}
		q := m.Q(rc, hi)
		yj := rc.yc(q)
		if ye, _, ok := m.equilibrium(rc, hi, false, ye0); ok {
			yj = ye
		}
		seg.pts = append(seg.pts, pt{hi, rc.M(yj, q), rc.slopeTerm(yj, q), yj, false})
		return hi, true
	}
	for *x < rc.x1-1e-12 {
		xn := math.Min(*x+maxStep, rc.x1)
		ye, lr, ok := m.equilibrium(rc, xn, false, ye0)
		if !ok && m.G(rc, xn) <= 0 && m.G(rc, *x) > 0 {
			lo, hi := *x, xn
			for i := 0; i < 60 && hi-lo > 1e-9; i++ {
				mid := (lo + hi) / 2
				if m.G(rc, mid) > 0 {
					lo = mid
				} else {
					hi = mid
				}
			}
			return jumpBetween(*x, lo)
		}
		lag := lr * (ye - ye0) / (xn - *x)
		if !ok || lr > trackFrac*maxStep || math.Abs(lag) > 2e-3*ye {
			return 0, false
		}
		qn := m.Q(rc, xn)
		yn := math.Min(ye-lag, rc.yc(qn))
		mn := rc.M(yn, qn)
		if s.subM(r, xn) > mn*(1+1e-9) {
			return jumpBetween(*x, xn)
		}
		*x, *y, *M = xn, yn, mn
		*f = rc.slopeTerm(yn, qn)
		seg.pts = append(seg.pts, pt{*x, *M, *f, *y, false})
		*h = maxStep / 10
		ye0 = ye
	}
	return 0, false
}

// superFrom follows the supercritical flow downstream of the control at
// s.sub[r][k] until a jump or the outlet, and returns the chainage where it
// ends.
func (s *gvfSolution) superFrom(r, k int) float64 {
	m := s.m
	p := s.sub[r][k]
	rc := &m.reaches[r]
	var x, M, y float64
	var start []pt
	if p.x >= rc.x1-1e-9 {
		if r == len(m.reaches)-1 {
			return p.x
		}
		mn, yn, ok := s.supTransfer(r, p.y)
		if !ok {
			return p.x
		}
		r++
		rc = &m.reaches[r]
		if s.subM(r, rc.x0) > mn*(1+1e-9) {
			return p.x
		}
		x, M, y = rc.x0, mn, yn
		start = append(start, pt{x, M, rc.slopeTerm(y, m.Q(rc, x)), y, false})
	} else {
		x, M, y = p.x, p.M, p.y
		q := m.Q(rc, x)
		start = append(start, pt{x, M, rc.slopeTerm(y, q), y, false})
		if math.Abs(m.G(rc, x)) < 1e-7 && x < rc.x1 {
			hd := math.Min(departStep(x), rc.x1-x)
			slope := m.singularSlope(rc, x)
			xn := x + hd
			qn := m.Q(rc, xn)
			ycn := rc.yc(qn)
			yn := y + slope*hd
			if !(yn < ycn) || !(yn > 0) {
				yn = ycn
			}
			x, y = xn, yn
			M = rc.M(y, qn)
			start = append(start, pt{x, M, rc.slopeTerm(y, qn), y, false})
		}
	}
	s.controlX = append(s.controlX, p.x)
	s.went = true
	h := hStart
	seg := supSeg{xa: start[0].x, pts: start}
	maxStep := m.opts.MaxStep
	for {
		f := seg.pts[len(seg.pts)-1].f
		guess := y
		var lastX, lastM, lastY float64 // as in subReach
		lastSup := false
		rhs := func(xx, mm float64) (float64, float64) {
			qq := m.Q(rc, xx)
			g := guess
			if lastSup {
				g = lastY // as in subReach
			}
			if yy, ok := rc.ySupFast(mm, qq, g); ok {
				lastX, lastM, lastY, lastSup = xx, mm, yy, true
				return rc.slopeTerm(yy, qq), yy
			}
			lastSup = false
			yc := rc.yc(qq)
			yy := yc
			if mm > rc.M(yc, qq) {
				yy = rc.ySup(mm, qq, yc, g)
			}
			return rc.slopeTerm(yy, qq), yy
		}
		st := &stepper{rhs: rhs, tol: m.opts.Tol, atol: s.atol, maxStep: maxStep, dir: 1}
		for x < rc.x1-1e-12 {
			guess = y
			if s.overBudget() {
				s.sup[r] = append(s.sup[r], seg)
				return rc.x1
			}
			var xn, m1, f1, y1 float64
			xn, m1, f1, y1, h = st.step(x, M, f, h, rc.x1)
			if !finite(m1) || !finite(y1) {
				s.err = ErrNumerical
				s.sup[r] = append(s.sup[r], seg)
				return rc.x1
			}
			if supercritical := lastSup && lastX == xn && lastM == m1; !supercritical {
				qn := m.Q(rc, xn)
				ycn := rc.yc(qn)
				if mcn := rc.M(ycn, qn); m1 <= mcn {
					if m.G(rc, xn) > 0 && xn-x > 4*hMin {
						// Supercritical flow moves away from critical depth
						// going downstream where the numerator is positive.
						h = (xn - x) / 4
						continue
					}
					m1, y1 = mcn, ycn
					f1 = rc.slopeTerm(y1, qn)
				}
			}
			// Equal momentum at critical depth is not a jump: both passes
			// are at critical there, and the flow goes on supercritical.
			if s.subM(r, xn) > m1*(1+1e-9) {
				xj := s.jumpIn(r, x, xn, M, m1, f, f1)
				qj := m.Q(rc, xj)
				mj := hermite(x, xn, M, m1, f, f1, xj)
				ycj := rc.yc(qj)
				yj := ycj
				if mj > rc.M(ycj, qj) {
					yj = rc.ySup(mj, qj, ycj, y)
				}
				seg.pts = append(seg.pts, pt{xj, mj, rc.slopeTerm(yj, qj), yj, false})
				seg.xb = xj
				s.sup[r] = append(s.sup[r], seg)
				s.jumpsX = append(s.jumpsX, xj)
				return xj
			}
			x, M, f, y = xn, m1, f1, y1
			seg.pts = append(seg.pts, pt{x, M, f, y, false})
			if h < 0.2*maxStep {
				if xj, jumped := s.trackSup(r, &seg, &x, &M, &f, &y, &h); jumped {
					seg.xb = xj
					s.sup[r] = append(s.sup[r], seg)
					s.jumpsX = append(s.jumpsX, xj)
					return xj
				}
			}
		}
		seg.xb = rc.x1
		seg.exits = true
		if r == len(m.reaches)-1 {
			s.sup[r] = append(s.sup[r], seg)
			if m.devDepth > y {
				s.jumpsX = append(s.jumpsX, rc.x1)
			}
			return rc.x1
		}
		mn, yn, ok := s.supTransfer(r, y)
		if !ok || s.subM(r+1, m.reaches[r+1].x0) > mn*(1+1e-9) {
			seg.exits = false
			s.sup[r] = append(s.sup[r], seg)
			s.jumpsX = append(s.jumpsX, rc.x1)
			return rc.x1
		}
		s.sup[r] = append(s.sup[r], seg)
		r++
		rc = &m.reaches[r]
		x, M, y = rc.x0, mn, yn
		seg = supSeg{xa: x, pts: []pt{{x, M, rc.slopeTerm(y, m.Q(rc, x)), y, false}}}
		h = hStart
	}
}

// jumpIn locates the jump between x0 and x1, where the supercritical momentum
// function (Hermite between the step ends) falls to the subcritical one.
func (s *gvfSolution) jumpIn(r int, x0, x1, m0, m1, f0, f1 float64) float64 {
	lo, hi := x0, x1
	for i := 0; i < 60 && hi-lo > 1e-9; i++ {
		mid := (lo + hi) / 2
		if hermite(x0, x1, m0, m1, f0, f1, mid) >= s.subM(r, mid)*(1+1e-9) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// subM is the subcritical pass's momentum function at x in reach r.
func (s *gvfSolution) subM(r int, x float64) float64 {
	M, _ := s.denseSub(r, x, false)
	return M
}

// locate returns k with pts[k].x ≤ x ≤ pts[k+1].x.
func locate(pts []pt, x float64) int {
	k := sort.Search(len(pts), func(i int) bool { return pts[i].x > x }) - 1
	return max(0, min(k, len(pts)-2))
}

// wellConditioned: M(y) is steep enough at this point (|1 − Fr²| ≥ 0.2)
// for an interpolated M to give an accurate depth. Near critical depth a
// small error in M becomes a large one in y (M − Mc grows as (y − yc)²).
func (r *reach) wellConditioned(p pt, q float64) bool {
	return math.Abs(1-r.froude2(p.y, q)) >= 0.2
}

// wellConditioned is the reach's wellConditioned at both ends of the
// interval pts[k], pts[k+1], remembered for the last interval asked.
func (s *gvfSolution) wellConditioned(rc *reach, pts []pt, k int) bool {
	if s.wcAt == &pts[k] {
		return s.wcOK
	}
	m := s.m
	p0, p1 := pts[k], pts[k+1]
	s.wcAt, s.wcOK = &pts[k], rc.wellConditioned(p0, m.Q(rc, p0.x)) && rc.wellConditioned(p1, m.Q(rc, p1.x))
	return s.wcOK
}

// denseSub evaluates the subcritical pass at x: cubic Hermite interpolation
// of M between the integration points, inverted on the subcritical branch;
// near critical depth, where that inversion is ill-conditioned, linear
// interpolation of the depth (the steps there are short).
func (s *gvfSolution) denseSub(r int, x float64, wantY bool) (M, y float64) {
	m := s.m
	rc := &m.reaches[r]
	pts := s.sub[r]
	if len(pts) == 1 {
		return pts[0].M, pts[0].y
	}
	k := locate(pts, x)
	p0, p1 := pts[k], pts[k+1]
	q := m.Q(rc, x)
	wc := s.wellConditioned(rc, pts, k)
	if wantY && wc && !(p0.crit && p1.crit) {
		// The depth without the critical depth where ySubFast finds it:
		// then M is above the critical momentum, and the answer is the one
		// below, bit for bit.
		M = hermite(p0.x, p1.x, p0.M, p1.M, p0.f, p1.f, x)
		if y, ok := rc.ySubFast(M, q, lerp(p0.x, p1.x, p0.y, p1.y, x)); ok {
			return M, y
		}
	}
	yc := rc.yc(q)
	mc := rc.M(yc, q)
	if p0.crit && p1.crit {
		return mc, yc
	}
	if !wc {
		y = math.Max(lerp(p0.x, p1.x, p0.y, p1.y, x), yc)
		return rc.M(y, q), y
	}
	M = hermite(p0.x, p1.x, p0.M, p1.M, p0.f, p1.f, x)
	if M <= mc {
		return mc, yc
	}
	if !wantY {
		return M, 0
	}
	return M, rc.ySub(M, q, yc, lerp(p0.x, p1.x, p0.y, p1.y, x))
}

func (s *gvfSolution) denseSup(r int, pts []pt, x float64) float64 {
	m := s.m
	rc := &m.reaches[r]
	if len(pts) == 1 {
		return pts[0].y
	}
	k := locate(pts, x)
	p0, p1 := pts[k], pts[k+1]
	q := m.Q(rc, x)
	wc := s.wellConditioned(rc, pts, k)
	if wc {
		// as in denseSub
		M := hermite(p0.x, p1.x, p0.M, p1.M, p0.f, p1.f, x)
		if y, ok := rc.ySupFast(M, q, lerp(p0.x, p1.x, p0.y, p1.y, x)); ok {
			return y
		}
	}
	yc := rc.yc(q)
	if !wc {
		return math.Min(lerp(p0.x, p1.x, p0.y, p1.y, x), yc)
	}
	M := hermite(p0.x, p1.x, p0.M, p1.M, p0.f, p1.f, x)
	if M <= rc.M(yc, q) {
		return yc
	}
	return rc.ySup(M, q, yc, lerp(p0.x, p1.x, p0.y, p1.y, x))
}

// depth is the final profile at x in reach r.
func (s *gvfSolution) depth(r int, x float64) (float64, bool) {
	for i := range s.sup[r] {
		seg := &s.sup[r][i]
		if x >= seg.xa-1e-12 && (x < seg.xb-1e-12 || (seg.exits && x <= seg.xb+1e-12)) {
			y := s.denseSup(r, seg.pts, x)
			if x >= s.m.L-1e-12 && s.m.devDepth > y {
				// The run ends in a device that needs more depth than the
				// jet has: the water piles up against it, the jump stands
				// at the end wall.
				return s.m.devDepth, false
			}
			return y, true
		}
	}
	_, y := s.denseSub(r, x, true)
	return y, false
}

func (s *gvfSolution) keyPoints(r int, dst []float64) []float64 {
	for _, p := range s.sub[r] {
		dst = append(dst, p.x)
	}
	for _, seg := range s.sup[r] {
		for _, p := range seg.pts {
			dst = append(dst, p.x)
		}
	}
	return dst
}

// keyDepths gives the integration points of reach r with the final
// profile's depth there where it is the point's own depth: what depth
// would return at that chainage, up to the rounding of solving M(y) = M
// again from the same depth. A point where another regime takes over
// (a subcritical point under a supercritical stretch, the end of a
// supercritical one at its jump) is given without a depth (NaN).
func (s *gvfSolution) keyDepths(r int, dst []sample) []sample {
	covering := func(x float64) int {
		for i := range s.sup[r] {
			seg := &s.sup[r][i]
			if x >= seg.xa-1e-12 && (x < seg.xb-1e-12 || (seg.exits && x <= seg.xb+1e-12)) {
				return i
			}
		}
		return -1
	}
	for _, p := range s.sub[r] {
		y := p.y
		if len(s.sup[r]) > 0 && covering(p.x) >= 0 {
			y = math.NaN()
		}
		dst = append(dst, sample{p.x, y})
	}
	for i, seg := range s.sup[r] {
		for _, p := range seg.pts {
			y := p.y
			switch {
			case covering(p.x) != i:
				y = math.NaN()
			case p.x >= s.m.L-1e-12 && s.m.devDepth > y:
				y = s.m.devDepth
			}
			dst = append(dst, sample{p.x, y})
		}
	}
	return dst
}

func (s *gvfSolution) superCritical() bool { return s.went }
func (s *gvfSolution) jumps() []float64    { return s.jumpsX }
func (s *gvfSolution) controls() []float64 { return s.controlX }
