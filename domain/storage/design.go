package storage

import "math"

// problem is one channel under one run: the store, the storms and the
// outflow limit.
type problem struct {
	res    *reservoir
	storms []hydrograph // per Durations
	qLim   float64      // m³/s
}

// sweep is every storm routed through one orifice.
type sweep struct {
	d        float64
	storms   []routed
	qPeak    float64 // largest outflow of any storm, m³/s
	flooded  bool
	critical int // the storm that needs the most storage
}

// floodTolerance is the spill, as a share of the capacity, below which a
// store is not called flooded: the solver's rounding, not water.
const floodTolerance = 1e-9

func (p *problem) sweep(d float64) sweep {
	s := sweep{d: d, storms: make([]routed, len(p.storms))}
	for i, h := range p.storms {
		r := route(p.res, h, d, false)
		s.storms[i] = r
		s.qPeak = math.Max(s.qPeak, r.maxOutflow)
		if r.spilled > floodTolerance*p.res.capacity() {
			s.flooded = true
		}
		c := s.storms[s.critical]
		if r.needed > c.needed || (c.needed == 0 && r.needed == 0 && h.qp > p.storms[s.critical].qp) {
			s.critical = i
		}
	}
	return s
}

// peakInflow is the largest inflow of any storm, m³/s.
func (p *problem) peakInflow() float64 {
	q := 0.0
	for _, h := range p.storms {
		q = math.Max(q, h.qp)
	}
	return q
}

// maxOrifice is the diameter beyond which an orifice controls nothing a
// channel run delivers: the controlled outflow is then not a restriction.
const maxOrifice = 10.0 // m

// design sizes the orifice: the largest one whose outflow, over every
// storm, stays within the limit. A larger orifice passes more at every
// head and lowers every storm's peak level, so the storm that fills the
// store most is also the one whose outflow reaches the limit, and the
// orifice passes the controlled outflow exactly at that storm's highest
// water. The first try is the orifice that passes the limit with the
// channel full; if a storm still overflows, that is the design, flooded.
// Otherwise the diameter is bracketed by doubling and found by the
// Illinois method on its logarithm, keeping the side within the limit.
//
// A limit at or above the largest inflow of any storm restricts nothing:
// the answer is then no orifice (an infinite one) and no storage. One just
// below it needs a very large orifice; beyond maxOrifice the search stops
// and reports false, as no orifice restricts the run.
func (p *problem) design() (sweep, bool) {
	if p.qLim >= p.peakInflow() {
		return p.sweep(math.Inf(1)), false
	}
	lo := p.sweep(OrificeDiameter(p.qLim, p.res.fullDepth()))
	if lo.flooded {
		return lo, true
	}
	if lo.qPeak >= p.qLim {
		return lo, true
	}
	hi := lo
	for hi.qPeak < p.qLim {
		if hi.d*2 > maxOrifice {
			return hi, false
		}
		lo = hi
		hi = p.sweep(hi.d * 2)
	}
	f := func(s sweep) float64 { return s.qPeak/p.qLim - 1 }
	xl, xh := math.Log(lo.d), math.Log(hi.d)
	fl, fh := f(lo), f(hi)
	side := 0
	for range 60 {
		if fh <= 1e-5 || xh-xl < 1e-9 {
			break
		}
		x := xh - fh*(xh-xl)/(fh-fl)
		if !(x > xl && x < xh) {
			x = (xl + xh) / 2
		}
		s := p.sweep(math.Exp(x))
		fs := f(s)
		if fs > 0 {
			xh, fh, hi = x, fs, s
			if side == 1 {
				fl /= 2
			}
			side = 1
		} else {
			xl, fl, lo = x, fs, s
			if -fs <= 1e-5 {
				break
			}
			if side == -1 {
				fh /= 2
			}
			side = -1
		}
	}
	if f(hi) <= 1e-5 && f(hi) >= 0 {
		return hi, true
	}
	return lo, true
}
