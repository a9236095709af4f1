package hydraulics

import "math"

// The momentum function (specific force per unit weight) of a section,
//
//	M(y, Q) = Q²/(g·A) + J(y),  J = ∫₀ʸ A dη,
//
// is what the solvers carry along the channel. With lateral inflow that
// brings no momentum along the channel, the momentum balance of a slice of a
// prismatic channel is (Chow 1959, ch. 12; Henderson 1966)
//
//	dM/dx = A·(S0 − Sf),
//
// which expands, with dJ/dx = A·dy/dx and dQ/dx = q, to the familiar
//
//	dy/dx = (S0 − Sf − 2Qq/(gA²)) / (1 − Q²T/(gA³)).
//
// Integrating M instead of y removes the 0/0 at critical depth from the
// right-hand side: the singularity moves into the algebraic inversion y(M, Q),
// which is solved exactly on the chosen branch (subcritical y ≥ yc or
// supercritical y ≤ yc).

// The reach functions below take a fast path for rectangular sections
// (rb > 0, the width), by far the most common, and for U sections (ru > 0,
// the radius), which avoids the interface calls in the innermost loops and,
// in a U, computes the area with the moment or the perimeter it goes with
// from one arccosine; the results are identical.

func (r *reach) area(y float64) float64 {
	if r.rb > 0 {
		return r.rb * y
	}
	if r.ru > 0 {
		return uArea(r.ru, y)
	}
	return r.sh.Area(y)
}

func (r *reach) top(y float64) float64 {
	if r.rb > 0 {
		return r.rb
	}
	if r.ru > 0 {
		return uTop(r.ru, y)
	}
	return r.sh.TopWidth(y)
}

func (r *reach) perimeter(y float64) float64 {
	if r.rb > 0 {
		return r.rb + 2*y
	}
	if r.ru > 0 {
		_, p := uAreaPerimeter(r.ru, y)
		return p
	}
	return r.sh.WettedPerimeter(y)
}

// areaPerimeter is the area and the wetted perimeter.
func (r *reach) areaPerimeter(y float64) (a, p float64) {
	if r.ru > 0 {
		return uAreaPerimeter(r.ru, y)
	}
	return r.area(y), r.perimeter(y)
}

func (r *reach) moment(y float64) float64 {
	if y <= 0 {
		return 0
	}
	if r.rb > 0 {
		return r.rb * y * y / 2
	}
	if r.ru > 0 {
		_, j := uAreaMoment(r.ru, y)
		return j
	}
	if r.fm != nil {
		return r.fm.FirstMoment(y)
	}
	return firstMoment(r.sh, y)
}

func (r *reach) yc(q float64) float64 {
	if q <= 0 {
		return 0
	}
	if r.rb > 0 {
		return math.Cbrt(q * q / (Gravity * r.rb * r.rb))
	}
	if q == r.ycQ {
		return r.ycY
	}
	var y float64
	if r.cd != nil {
		y = r.cd.CriticalDepth(q)
	} else {
		y = criticalDepth(r.sh, q)
	}
	r.ycQ, r.ycY = q, y
	return y
}

// M is the momentum function at depth y and flow q.
func (r *reach) M(y, q float64) float64 {
	if r.ru > 0 {
		a, j := uAreaMoment(r.ru, y)
		if q <= 0 {
			return j
		}
		if a <= 0 {
			return math.MaxFloat64
		}
		return q*q/(Gravity*a) + j
	}
	j := r.moment(y)
	if q <= 0 {
		return j
	}
	a := r.area(y)
	if a <= 0 {
		return math.MaxFloat64
	}
	return q*q/(Gravity*a) + j
}

// mSlope is M(y, q) − mv, dM/dy and the area at y, from one evaluation of
// the section in a U; the values are those of M, dMdy and area.
func (r *reach) mSlope(y, q, mv float64) (f, d, a float64) {
	if r.ru > 0 {
		var j, t float64
		a, j, t = uAreaMomentTop(r.ru, y)
		m := j
		if q > 0 {
			if a <= 0 {
				m = math.MaxFloat64
			} else {
				m = q*q/(Gravity*a) + j
			}
		}
		d = 0.0
		if a > 0 {
			d = a - q*q*t/(Gravity*a*a)
		}
		return m - mv, d, a
	}
	return r.M(y, q) - mv, r.dMdy(y, q), r.area(y)
}

// dMdy is A·(1 − Fr²).
func (r *reach) dMdy(y, q float64) float64 {
	a := r.area(y)
	if a <= 0 {
		return 0
	}
	return a - q*q*r.top(y)/(Gravity*a*a)
}

// sf is Manning's friction slope n²Q²P^(4/3)/A^(10/3) (Chow 1959, ch. 5).
func (r *reach) sf(y, q float64) float64 {
	if r.n2 == 0 || q == 0 {
		return 0
	}
	a, p := r.areaPerimeter(y)
	return r.sfOf(a, p, q)
}

// sfOf is sf from the area and wetted perimeter.
func (r *reach) sfOf(a, p, q float64) float64 {
	if r.n2 == 0 || q == 0 {
		return 0
	}
	if a <= 0 {
		return math.MaxFloat64
	}
	ratio := p / a
	return r.n2 * q * q * ratio * math.Cbrt(ratio) / (a * a)
}

// slopeTerm is dM/dx = A(S0 − Sf).
func (r *reach) slopeTerm(y, q float64) float64 {
	f, _ := r.slopeTermArea(y, q)
	return f
}

// slopeTermArea is slopeTerm and the area it was found with.
func (r *reach) slopeTermArea(y, q float64) (f, a float64) {
	if r.ru > 0 {
		a, p := uAreaPerimeter(r.ru, y)
		return a * (r.s0 - r.sfOf(a, p, q)), a
	}
	a = r.area(y)
	return a * (r.s0 - r.sf(y, q)), a
}

// froude2 is Q²T/(gA³).
func (r *reach) froude2(y, q float64) float64 {
	a := r.area(y)
	if a <= 0 {
		return math.Inf(1)
	}
	return q * q * r.top(y) / (Gravity * a * a * a)
}

// exactRoot: where M(y) − mv is exactly 0, y is the root, and the
// solvers below return it. Newton's step would stay on it, but the
// bracket's strict test would then bisect away from it, and the iteration
// came back to within its tolerance only after halving its way down from
// the last step (up to ten more evaluations of the section, at most a
// few 1e-13 of the depth away from y).

// ySub is the subcritical depth (y ≥ yc) whose momentum function is mv at
// flow q, by Newton's method safeguarded with bisection. M is convex and
// increasing above critical depth, so the iteration cannot escape upwards.
func (r *reach) ySub(mv, q, yc, guess float64) float64 {
	if mv <= 0 {
		return 0
	}
	if r.rb > 0 && q > 0 {
		if y, ok := r.rectNewton(mv, q, guess, yc, true); ok {
			return y
		}
		if y, ok := r.rectRoot(mv, q, 0); ok && y >= yc {
			return y
		}
	}
	lo, hi := yc, math.Inf(1)
	y := guess
	if !(y > lo) || !finite(y) {
		y = math.Max(2*yc, 1e-3)
	}
	for i := 0; i < 100; i++ {
		f := r.M(y, q) - mv
		if f > 0 {
			hi = y
		} else {
			lo = y
		}
		if f == 0 {
			return y // see exactRoot
		}
		d := r.dMdy(y, q)
		next := y - f/d
		if !(d > 0) || !(next > lo) || !(next < hi) {
			if math.IsInf(hi, 1) {
				next = 2 * math.Max(y, 1e-6)
			} else {
				next = (lo + hi) / 2
			}
		}
		if math.Abs(next-y) <= 1e-13*next+1e-15 {
			return next
		}
		y = next
	}
	return y
}

// ySup is the supercritical depth (0 < y ≤ yc) whose momentum function is mv
// at flow q > 0. M decreases and is convex below critical depth.
func (r *reach) ySup(mv, q, yc, guess float64) float64 {
	if r.rb > 0 && q > 0 {
		if y, ok := r.rectNewton(mv, q, guess, yc, false); ok {
			return y
		}
		if y, ok := r.rectRoot(mv, q, 1); ok && y > 0 && y <= yc {
			return y
		}
	}
	lo, hi := 0.0, yc
	y := guess
	if !(y > lo && y < hi) {
		y = yc / 2
	}
	for i := 0; i < 100; i++ {
		f := r.M(y, q) - mv
		if f > 0 {
			lo = y
		} else {
			hi = y
		}
		d := r.dMdy(y, q)
		next := y - f/d
		if !(d < 0) || !(next > lo) || !(next < hi) {
			next = (lo + hi) / 2
		}
		if math.Abs(next-y) <= 1e-13*next+1e-16 {
			return next
		}
		y = next
	}
	return y
}

// ySubFast is ySub without the critical depth, for the shapes whose
// critical depth is dear (every shape but the rectangle). It iterates
// exactly as ySub does from the same guess, Newton's method with ySub's
// bisection safeguard, the lower end of the bracket being critical depth
// until an iterate replaces it. It gives up (ok false) where ySub would
// have used critical depth, where an iterate leaves the subcritical branch
// and where the depth comes within reach of critical depth; the caller
// then asks ySub, which starts again from the same guess. A root it finds
// is therefore the one ySub finds, bit for bit, and lies above critical
// depth, so that mv exceeds the critical momentum.
func (r *reach) ySubFast(mv, q, guess float64) (float64, bool) {
	y, _, ok := r.ySubFastSlope(mv, q, guess)
	return y, ok
}

// ySubFastSlope is ySubFast and dM/dy at its last iterate (within the
// tolerance of the root): what a predictor of the next depth needs.
func (r *reach) ySubFastSlope(mv, q, guess float64) (float64, float64, bool) {
	if r.rb > 0 || !(mv > 0) || !(guess > 0) || !finite(guess) {
		return 0, 0, false
	}
	lo, hi := 0.0, math.Inf(1)
	loSet := false // else lo stands for critical depth, not known here
	y := guess
	for i := 0; i < 100; i++ {
		f, d, a := r.mSlope(y, q, mv)
		if f > 0 {
			hi = y
		} else {
			lo, loSet = y, true
		}
		// Well above critical depth: 1 − Fr² = d/A not small.
		if !(d > nearCritical*a) {
			return 0, 0, false
		}
		if f == 0 {
			return y, d, true // as ySub
		}
		next := y - f/d
		// An iterate at or below critical depth while lo is not set is
		// caught by the test above at the next iteration.
		if !(next < hi) || (loSet && !(next > lo)) {
			switch {
			case math.IsInf(hi, 1):
				next = 2 * math.Max(y, 1e-6)
			case loSet:
				next = (lo + hi) / 2
			default:
				return 0, 0, false
			}
		}
		if math.Abs(next-y) <= 1e-13*next+1e-15 {
			return next, d, true
		}
		y = next
	}
	return 0, 0, false
}

// ySupFast is ySup without the critical depth, as ySubFast is ySub's: the
// upper end of ySup's bracket is critical depth until an iterate replaces
// it.
func (r *reach) ySupFast(mv, q, guess float64) (float64, bool) {
	if r.rb > 0 || !(q > 0) || !(guess > 0) || !finite(guess) {
		return 0, false
	}
	lo, hi := 0.0, math.Inf(1)
	hiSet := false
	y := guess
	for i := 0; i < 100; i++ {
		f, d, a := r.mSlope(y, q, mv)
		if f > 0 {
			lo = y
		} else {
			hi, hiSet = y, true
		}
		if !(-d > nearCritical*a) {
			return 0, false
		}
		next := y - f/d
		if !(next > lo) || (hiSet && !(next < hi)) {
			if !hiSet {
				return 0, false
			}
			next = (lo + hi) / 2
		}
		if math.Abs(next-y) <= 1e-13*next+1e-16 {
			return next, true
		}
		y = next
	}
	return 0, false
}

// nearCritical: ySubFast and ySupFast leave depths with |1 − Fr²| below it
// to the bracketed solvers.
const nearCritical = 1e-6

// rectNewton polishes a guess on the cubic of rectRoot by Newton's method,
// which from the previous point's depth takes two or three iterations; it
// gives up (ok false) if an iterate leaves the branch.
func (r *reach) rectNewton(mv, q, y, yc float64, sub bool) (float64, bool) {
	if !(y > 0) || (sub && y <= yc) || (!sub && y >= yc) {
		return 0, false
	}
	p := 2 * mv / r.rb
	rr := 2 * q * q / (Gravity * r.rb * r.rb)
	for i := 0; i < 8; i++ {
		d := 3*y*y - p
		next := y - (y*y*y-p*y+rr)/d
		if !(next > 0) || !finite(next) || (sub && next <= yc) || (!sub && next >= yc) || next > 4*y {
			return 0, false
		}
		if math.Abs(next-y) <= 1e-13*next {
			return next, true
		}
		y = next
	}
	return 0, false
}

// rectRoot solves M(y) = mv in a rectangle of width B in closed form:
// B·y²/2 + Q²/(gBy) = M is the cubic y³ − P·y + R = 0 with P = 2M/B and
// R = 2Q²/(gB²), whose roots are y_k = 2√(P/3)·cos(φ/3 − 2πk/3),
// φ = acos(−(3R/2P)·√(3/P)): k = 0 the subcritical root, k = 1 the
// supercritical one. One Newton step polishes the root where the two meet.
func (r *reach) rectRoot(mv, q float64, k int) (float64, bool) {
	b := r.rb
	p := 2 * mv / b
	rr := 2 * q * q / (Gravity * b * b)
	if !(p > 0) {
		return 0, false
	}
	c := -(1.5 * rr / p) * math.Sqrt(3/p)
	if c < -1 {
		if c < -1-1e-12 {
			return 0, false
		}
		c = -1
	}
	phi := math.Acos(c)
	y := 2 * math.Sqrt(p/3) * math.Cos(phi/3-2*math.Pi/3*float64(k))
	if d := 3*y*y - p; d != 0 {
		if next := y - (y*y*y-p*y+rr)/d; next > 0 && finite(next) {
			y = next
		}
	}
	return y, finite(y)
}

// energy is the specific energy y + V²/2g.
func (r *reach) energy(y, q float64) float64 {
	a := r.area(y)
	if a <= 0 {
		if q > 0 {
			return math.MaxFloat64
		}
		return 0
	}
	v := q / a
	return y + v*v/(2*Gravity)
}

// energyUp carries a subcritical state upstream across a junction where the
// section changes: energy is conserved, with a Borda–Carnot loss (V_u −
// V_d)²/2g where the flow expands (Borda–Carnot; e.g. Henderson 1966). When even critical
// depth upstream has more energy than the downstream state offers, the
// upstream channel discharges over a free overfall and is at critical depth.
func energyUp(u, d *reach, q, yd float64) (yu float64, critical bool) {
	vd := 0.0
	if a := d.area(yd); a > 0 {
		vd = q / a
	}
	head := yd + vd*vd/(2*Gravity) + d.z0 - u.z1
	if q <= 0 {
		return math.Max(head, 0), false
	}
	f := func(y float64) float64 {
		vu := q / u.area(y)
		e := y + vu*vu/(2*Gravity)
		if vu > vd {
			e -= (vu - vd) * (vu - vd) / (2 * Gravity)
		}
		return e - head
	}
	yc := u.yc(q)
	if f(yc) >= 0 {
		return yc, true
	}
	lo, hi := yc, math.Max(head, 2*yc)
	for i := 0; f(hi) < 0 && i < 200; i++ {
		lo, hi = hi, 2*hi
	}
	for i := 0; i < 200 && hi-lo > 1e-13*hi; i++ {
		mid := (lo + hi) / 2
		if f(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2, false
}

// energyDown carries a supercritical state downstream across a junction,
// conserving energy. It fails when the downstream section cannot pass the
// flow supercritically with that energy: the flow chokes and a jump must
// stand upstream.
func energyDown(u, d *reach, q, yu float64) (yd float64, ok bool) {
	head := u.energy(yu, q) + u.z1 - d.z0
	yc := d.yc(q)
	if head < d.energy(yc, q)*(1-1e-12) {
		return 0, false
	}
	lo, hi := yc, yc
	for i := 0; i < 200; i++ {
		lo /= 2
		if d.energy(lo, q) > head {
			break
		}
	}
	for i := 0; i < 200 && hi-lo > 1e-13*hi; i++ {
		mid := (lo + hi) / 2
		if d.energy(mid, q) > head {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2, true
}

// numerator is N = S0 − Sf − 2Qq/(gA²), the numerator of the flow equation,
// and its derivative in y, N_y = −Sf·((4/3)P'/P − (10/3)T/A) + 4Qq·T/(gA³)
// (P' by a central difference, which costs no cube root).
func (r *reach) numerator(y, q, qx float64) (n, ny float64) {
	a := r.area(y)
	if a <= 0 {
		return math.Inf(-1), 0
	}
	t := r.top(y)
	sf := r.sf(y, q)
	n = r.s0 - sf - 2*q*qx/(Gravity*a*a)
	ny = 4 * q * qx * t / (Gravity * a * a * a)
	if sf > 0 {
		p := r.perimeter(y)
		d := 1e-6 * y
		dp := (r.perimeter(y+d) - r.perimeter(y-d)) / (2 * d)
		ny -= sf * (4.0/3.0*dp/p - 10.0/3.0*t/a)
	}
	return n, ny
}
