package hydraulics

import "math"

// rhsFunc returns dM/dx and the depth at (x, M) on the branch being followed.
type rhsFunc func(x, M float64) (f, y float64)

// Dormand–Prince 5(4) coefficients (Dormand & Prince 1980; Hairer, Nørsett &
// Wanner, "Solving ODEs I", §II.5). The fifth-order solution is propagated;
// the embedded fourth-order one gives the error estimate. Its last stage is
// the derivative at the new point (FSAL), reused by the next step and by the
// Hermite dense output.
const (
	dpC2, dpC3, dpC4, dpC5 = 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9

	dpA21 = 1.0 / 5
	dpA31 = 3.0 / 40
	dpA32 = 9.0 / 40
	dpA41 = 44.0 / 45
	dpA42 = -56.0 / 15
	dpA43 = 32.0 / 9
	dpA51 = 19372.0 / 6561
	dpA52 = -25360.0 / 2187
	dpA53 = 64448.0 / 6561
	dpA54 = -212.0 / 729
	dpA61 = 9017.0 / 3168
	dpA62 = -355.0 / 33
	dpA63 = 46732.0 / 5247
	dpA64 = 49.0 / 176
	dpA65 = -5103.0 / 18656
	dpB1  = 35.0 / 384
	dpB3  = 500.0 / 1113
	dpB4  = 125.0 / 192
	dpB5  = -2187.0 / 6784
	dpB6  = 11.0 / 84
	dpE1  = 71.0 / 57600
	dpE3  = -71.0 / 16695
	dpE4  = 71.0 / 1920
	dpE5  = -17253.0 / 339200
	dpE6  = 22.0 / 525
	dpE7  = -1.0 / 40
)

// dpStep advances M from x by the signed step h. f0 is dM/dx at (x, M).
func dpStep(rhs rhsFunc, x, M, f0, h float64) (m1, f1, y1, errEst float64) {
	k1 := f0
	k2, _ := rhs(x+dpC2*h, M+h*dpA21*k1)
	k3, _ := rhs(x+dpC3*h, M+h*(dpA31*k1+dpA32*k2))
	k4, _ := rhs(x+dpC4*h, M+h*(dpA41*k1+dpA42*k2+dpA43*k3))
	k5, _ := rhs(x+dpC5*h, M+h*(dpA51*k1+dpA52*k2+dpA53*k3+dpA54*k4))
	k6, _ := rhs(x+h, M+h*(dpA61*k1+dpA62*k2+dpA63*k3+dpA64*k4+dpA65*k5))
	m1 = M + h*(dpB1*k1+dpB3*k3+dpB4*k4+dpB5*k5+dpB6*k6)
	f1, y1 = rhs(x+h, m1)
	errEst = h * (dpE1*k1 + dpE3*k3 + dpE4*k4 + dpE5*k5 + dpE6*k6 + dpE7*f1)
	return m1, f1, y1, errEst
}

// hermite is the cubic Hermite interpolant through (x0, m0, f0), (x1, m1, f1)
// at x: third-order accurate dense output between integration steps.
func hermite(x0, x1, m0, m1, f0, f1, x float64) float64 {
	h := x1 - x0
	if h == 0 {
		return m0
	}
	t := (x - x0) / h
	t2, t3 := t*t, t*t*t
	return (2*t3-3*t2+1)*m0 + (t3-2*t2+t)*h*f0 + (-2*t3+3*t2)*m1 + (t3-t2)*h*f1
}

// stepper takes adaptive steps along one reach in one direction.
type stepper struct {
	rhs     rhsFunc
	tol     float64 // relative
	atol    float64 // absolute floor, in units of M
	maxStep float64
	dir     float64 // +1 downstream, −1 upstream
	steps   int     // accepted steps, for the benchmarks' record
}

// step advances from (x, M) with derivative f, trying the step length h
// (> 0) but not beyond xEnd. It returns the accepted point and the step to
// try next.
func (st *stepper) step(x, M, f, h, xEnd float64) (x1, m1, f1, y1, hNext float64) {
	if !finite(M) || !finite(f) {
		return xEnd, math.NaN(), math.NaN(), math.NaN(), h
	}
	for tries := 0; ; tries++ {
		hh := math.Min(math.Min(h, st.maxStep), math.Abs(xEnd-x))
		if math.Abs(xEnd-x)-hh < 1e-6 {
			hh = math.Abs(xEnd - x)
		}
		sh := st.dir * hh
		var e float64
		m1, f1, y1, e = dpStep(st.rhs, x, M, f, sh)
		en := math.Abs(e) / (st.tol*math.Max(math.Abs(M), math.Abs(m1)) + st.atol)
		const order = 5.0
		grow := 5.0
		if en > 0 {
			grow = math.Min(5, math.Max(0.2, 0.9*math.Pow(en, -1/order)))
		}
		// Past hMin (or after many rejections, which only a state on the
		// edge of the engine's range causes) the step is taken as it is.
		if (en > 1 || !finite(m1)) && hh > 2*hMin && tries < 60 {
			h = math.Max(hh*math.Min(grow, 0.5), hMin)
			continue
		}
		x1 = x + sh
		if math.Abs(xEnd-x1) < 1e-12 {
			x1 = xEnd
		}
		st.steps++
		return x1, m1, f1, y1, math.Min(hh*grow, st.maxStep)
	}
}
