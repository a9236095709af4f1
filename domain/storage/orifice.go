package storage

import "math"

// Cd is the discharge coefficient of the flow-control orifice: a thin,
// sharp-edged plate in the end cap, for which 0.6 is the usual value.
const Cd = 0.6

const gravity = 9.81 // m/s²

// orificeFlow is the flow through a circular orifice of diameter d whose
// invert is at the channel invert, with the water h above that invert,
// m³/s. Drowned (h ≥ d) it is the orifice law on the head over the centre,
//
//	Q = Cd · πd²/4 · √(2g(h − d/2)).
//
// Below its soffit the orifice runs part full, like a weir; we take
// Q = Cd·πd²/4·√(gd)·(h/d)^1.5, the 1.5 power of a weir scaled so that it
// meets the orifice law at h = d. Both branches grow with h and with d, so
// a larger orifice always passes more and a storm's highest water gives
// its largest outflow.
func orificeFlow(d, h float64) float64 {
	if d <= 0 || h <= 0 {
		return 0
	}
	a := math.Pi * d * d / 4
	if h >= d {
		return Cd * a * math.Sqrt(2*gravity*(h-d/2))
	}
	return Cd * a * math.Sqrt(gravity*d) * math.Pow(h/d, 1.5)
}

// orificeSlope is d(orificeFlow)/dh.
func orificeSlope(d, h float64) float64 {
	if d <= 0 || h <= 0 {
		return 0
	}
	a := math.Pi * d * d / 4
	if h >= d {
		return Cd * a * gravity / math.Sqrt(2*gravity*(h-d/2))
	}
	return Cd * a * math.Sqrt(gravity*d) * 1.5 * math.Sqrt(h) / math.Pow(d, 1.5)
}

// OrificeDiameter is the diameter, m, of the orifice that passes q m³/s
// with the water h m above its invert. The flow grows with the diameter
// without bound, so there is always one; it is found by bisection on the
// logarithm of the diameter to a relative 1e-10.
func OrificeDiameter(q, h float64) float64 {
	if !(q > 0 && h > 0) {
		return 0
	}
	lo, hi := 1e-6, 1.0
	for orificeFlow(hi, h) < q {
		hi *= 2
		if hi > 1e6 {
			return math.Inf(1)
		}
	}
	for hi/lo > 1+1e-10 {
		mid := math.Sqrt(lo * hi)
		if orificeFlow(mid, h) < q {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Sqrt(lo * hi)
}

// OrificeFlow is orificeFlow for callers outside the package (tests of the
// answer, the documentation's examples): l/s through an orifice of dMM mm
// with the water hM m above its invert.
func OrificeFlow(dMM, hM float64) float64 { return 1000 * orificeFlow(dMM/1000, hM) }
