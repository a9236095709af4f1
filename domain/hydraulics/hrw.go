package hydraulics

import "math"

// The HRW method is the closed-form momentum solution for a channel
// collecting uniform lateral inflow, as given by HR Wallingford for the
// design of linear drainage channels (Escarameia & May, HR Wallingford; the
// form below is the one quoted in the design brief):
//
//	y_u = √(2·yc³/y_L + (y_L − S·L/3)²) − 2·S·L/3
//
// with y_u the depth at the head, y_L the depth at the outlet (critical depth
// yc for a free outfall), L the length and S the slope. Rearranged, it is the
// momentum balance M(y_u, 0) = M(y_L, Q_L) − S·L·A(ȳ) of a rectangular
// channel with the weight component taken at the weighted depth
// ȳ = 2y_u/3 + y_L/3 + S·L/6. The engine applies that balance between any
// chainage x and the downstream end of its reach, with M in its general form
// (so that point inflows, several sections and non-rectangular shapes are
// covered, and the formula is reproduced exactly for a single rectangular
// channel with uniform inflow).
//
// Friction is folded in through an effective slope S = S0 − k·S̄f, with S̄f
// Manning's friction slope for the mean square flow over the stretch (for
// a linear rise of Q from Qa to Qb, (Qa² + Qa·Qb + Qb²)/3) at the mean depth.
// k = hrwFrictionFactor was calibrated against GVF (docs/hydraulics.md).
//
// The method assumes subcritical flow; where the balance has no subcritical
// solution the depth is taken as critical (conservative: the true
// supercritical depth is lower) and the run is reported as having gone
// supercritical.

// hrwFrictionFactor k in S = S0 − k·S̄f. Calibrated against GVF over 238
// subcritical cases (10–500 m, 0–3.3 %, 100–300 mm wide, n 0.011–0.014):
// k = 1, the physical mean-square friction, keeps HRW on the safe side
// (never more than 0.3 % below GVF, up to 25 % above on long flat rough
// runs); k = 0.8 centres the error (mean +0.6 %) but under-predicts by up
// to 7 %, which a design approximation should not. See docs/hydraulics.md.
const hrwFrictionFactor = 1.0

type hrwSolution struct {
	m    *model
	yEnd []float64 // depth at the downstream end of each reach
	went bool
	grid float64
}

func solveHRW(m *model) (*hrwSolution, error) {
	s := &hrwSolution{m: m, yEnd: make([]float64, len(m.reaches)), grid: m.opts.MaxStep / 2.5}
	M, y, _, err := m.outletState()
	if err != nil {
		return nil, err
	}
	_ = M
	for r := len(m.reaches) - 1; r >= 0; r-- {
		s.yEnd[r] = y
		if r > 0 {
			rc := &m.reaches[r]
			y0, sup := s.at(r, rc.x0)
			s.went = s.went || sup
			M0 := rc.M(y0, m.Q(rc, rc.x0))
			_, y, _ = m.subTransfer(r, M0, y0, sup)
		}
	}
	// The head of the run is where the approximation is most likely to lose
	// its subcritical solution; evaluate it so that the flag is set even when
	// no slice is asked for.
	_, sup := s.at(0, m.reaches[0].x0)
	s.went = s.went || sup
	return s, nil
}

// at solves the HRW momentum balance between x and the downstream end of
// reach r.
func (s *hrwSolution) at(r int, x float64) (float64, bool) {
	m := s.m
	rc := &m.reaches[r]
	yb := s.yEnd[r]
	l := rc.x1 - x
	if l <= 1e-12 {
		return yb, false
	}
	qb, qx := m.Q(rc, rc.x1), m.Q(rc, x)
	mb := rc.M(yb, qb)
	qm2 := (qx*qx + qx*qb + qb*qb) / 3
	F := func(y float64) float64 {
		ybar := (y + yb) / 2
		sf := 0.0
		if rc.n2 > 0 && qm2 > 0 {
			a := rc.area(ybar)
			ratio := rc.perimeter(ybar) / a
			sf = rc.n2 * qm2 * ratio * math.Cbrt(ratio) / (a * a)
		}
		seff := rc.s0 - hrwFrictionFactor*sf
		yw := math.Max(0, 2*y/3+yb/3+seff*l/6)
		return rc.M(y, qx) - mb + l*seff*rc.area(yw)
	}
	yc := rc.yc(qx)
	flo := F(yc)
	if flo >= 0 {
		// No subcritical solution: the approximation breaks down because
		// the flow is supercritical here.
		return yc, true
	}
	lo, hi := yc, math.Max(2*yc, yb)+1e-3
	fhi := F(hi)
	for i := 0; fhi < 0 && i < 200; i++ {
		lo, flo = hi, fhi
		hi *= 2
		fhi = F(hi)
	}
	return illinois(F, lo, hi, flo, fhi), false
}

func (s *hrwSolution) depth(r int, x float64) (float64, bool) {
	y, sup := s.at(r, x)
	return y, sup
}

func (s *hrwSolution) keyPoints(r int, dst []float64) []float64 {
	rc := &s.m.reaches[r]
	n := int(math.Ceil((rc.x1 - rc.x0) / s.grid))
	for i := 0; i <= n; i++ {
		dst = append(dst, rc.x0+(rc.x1-rc.x0)*float64(i)/float64(n))
	}
	return dst
}

func (s *hrwSolution) superCritical() bool { return s.went }
func (s *hrwSolution) jumps() []float64    { return nil }
func (s *hrwSolution) controls() []float64 { return nil }

// illinois finds the root of f in [lo, hi] given f(lo) ≤ 0 ≤ f(hi), by the
// Illinois variant of regula falsi: bracketing like bisection, superlinear
// like the secant method.
func illinois(f func(float64) float64, lo, hi, flo, fhi float64) float64 {
	side := 0
	for i := 0; i < 200; i++ {
		if hi-lo <= 1e-13*math.Abs(hi) || fhi == flo {
			break
		}
		x := (lo*fhi - hi*flo) / (fhi - flo)
		if !(x > lo && x < hi) {
			x = (lo + hi) / 2
		}
		fx := f(x)
		if fx == 0 {
			return x
		}
		if fx < 0 {
			lo, flo = x, fx
			if side == -1 {
				fhi /= 2
			}
			side = -1
		} else {
			hi, fhi = x, fx
			if side == 1 {
				flo /= 2
			}
			side = 1
		}
	}
	if fhi == flo {
		return (lo + hi) / 2
	}
	x := (lo*fhi - hi*flo) / (fhi - flo)
	if !(x >= lo && x <= hi) {
		return (lo + hi) / 2
	}
	return x
}
