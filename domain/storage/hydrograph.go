package storage

// hydrograph is the inflow of one storm by the modified rational method: a
// uniform storm of duration D on a catchment whose time of concentration
// is tc gives a trapezoid that rises over min(D, tc) to
//
//	Qp = C·i(D)·A · min(D, tc) / tc
//
// holds until max(D, tc) and falls to zero at D + tc. Its volume is
// C·i·A·D, the whole storm's runoff. For D ≥ tc the peak is the rational
// C·i(D)·A; a storm shorter than tc never wets the whole catchment at once,
// which is why the rational method takes the design storm equal to tc.
type hydrograph struct {
	qp     float64 // peak, m³/s
	t1, t2 float64 // end of the rise and of the plateau, s
}

func newHydrograph(areaM2, runoff, mmPerHour, durationMin, tcMin float64) hydrograph {
	d, tc := durationMin*60, tcMin*60
	q := runoff * areaM2 * mmPerHour / 1000 / 3600
	t1, t2 := min(d, tc), max(d, tc)
	return hydrograph{qp: q * t1 / tc, t1: t1, t2: t2}
}

// end is when the inflow stops, s.
func (h hydrograph) end() float64 { return h.t1 + h.t2 }

// rate is the inflow at time t, m³/s.
func (h hydrograph) rate(t float64) float64 {
	switch {
	case t <= 0 || t >= h.end():
		return 0
	case t < h.t1:
		return h.qp * t / h.t1
	case t <= h.t2:
		return h.qp
	}
	return h.qp * (h.end() - t) / h.t1
}

// volume is the inflow up to time t, m³: the exact integral of rate, so
// that a routing step takes in exactly what fell in it.
func (h hydrograph) volume(t float64) float64 {
	switch {
	case t <= 0:
		return 0
	case t < h.t1:
		return h.qp * t * t / (2 * h.t1)
	case t <= h.t2:
		return h.qp * (h.t1/2 + t - h.t1)
	case t < h.end():
		s := h.end() - t
		return h.qp*h.t2 - h.qp*s*s/(2*h.t1)
	}
	return h.qp * h.t2
}
