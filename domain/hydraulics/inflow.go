package hydraulics

import (
	"math"
	"sort"
)

// InflowPiece is lateral inflow over [Start, End] varying linearly from
// QStart to QEnd (m³/s per metre of channel).
type InflowPiece struct {
	Start, End   float64
	QStart, QEnd float64
}

// LateralInflow is the lateral inflow q(x) along a run: the sum of its
// pieces, which may overlap (left and right catchments).
type LateralInflow []InflowPiece

// At is q(x) in m³/s per m.
func (l LateralInflow) At(x float64) float64 {
	q := 0.0
	for _, p := range l {
		if x >= p.Start && x <= p.End && p.End > p.Start {
			q += lerp(p.Start, p.End, p.QStart, p.QEnd, x)
		}
	}
	return q
}

// Total is ∫q dx over the run, m³/s.
func (l LateralInflow) Total() float64 {
	t := 0.0
	for _, p := range l {
		t += (p.End - p.Start) * (p.QStart + p.QEnd) / 2
	}
	return t
}

// PointInflow is a concentrated inflow (m³/s) entering at chainage X, such as
// a pipe or another run discharging into the channel. It brings no momentum
// along the channel.
type PointInflow struct {
	X    float64
	Flow float64
}

// UniformInflow is the lateral inflow of a uniform catchment: the whole area
// (m², both sides together) at the given intensity (mm/h) and permeability
// spread evenly along a run of the given length.
func UniformInflow(length, areaM2, intensityMMH, permeability float64) (LateralInflow, error) {
	if !(length > 0) || !finite(length) {
		return nil, inputErr("channel length", "must be positive, got %g", length)
	}
	if !(areaM2 >= 0) || !finite(areaM2) {
		return nil, inputErr("drainage area", "must be 0 or more, got %g", areaM2)
	}
	if err := checkRain(intensityMMH, permeability); err != nil {
		return nil, err
	}
	q := RunoffM3S(areaM2, intensityMMH, permeability) / length
	return LateralInflow{{Start: 0, End: length, QStart: q, QEnd: q}}, nil
}

// CatchmentArea is one area of an irregular catchment beside the channel,
// from XOrigin along the run over Length, its width measured away from the
// channel changing linearly from StartWidth to EndWidth (m), with its own
// permeability (0 to 1).
type CatchmentArea struct {
	XOrigin      float64
	Length       float64
	StartWidth   float64
	EndWidth     float64
	Permeability float64
}

// Area is the plan area in m².
func (c CatchmentArea) Area() float64 { return c.Length * (c.StartWidth + c.EndWidth) / 2 }

// IrregularInflow turns the left and right areas of an irregular catchment
// into q(x): each strip of width w(x) and permeability C delivers w·C·i per
// metre of channel, on the assumption (the rational method's) that the whole
// catchment contributes at the design intensity.
func IrregularInflow(left, right []CatchmentArea, intensityMMH float64) (LateralInflow, error) {
	if err := checkRain(intensityMMH, 1); err != nil {
		return nil, err
	}
	i := MMHToMPerS(intensityMMH)
	var out LateralInflow
	for side, areas := range [][]CatchmentArea{left, right} {
		for k, a := range areas {
			field := [2]string{"left areas", "right areas"}[side]
			if !(a.Length > 0) || !finite(a.Length) || !(a.XOrigin >= 0) || !finite(a.XOrigin) {
				return nil, inputErr(field, "area %d: origin must be 0 or more and length positive", k)
			}
			if !(a.StartWidth >= 0) || !(a.EndWidth >= 0) || !finite(a.StartWidth) || !finite(a.EndWidth) {
				return nil, inputErr(field, "area %d: widths must be 0 or more", k)
			}
			if !(a.Permeability >= 0 && a.Permeability <= 1) {
				return nil, inputErr(field, "area %d: permeability must be between 0 and 1, got %g", k, a.Permeability)
			}
			out = append(out, InflowPiece{
				Start:  a.XOrigin,
				End:    a.XOrigin + a.Length,
				QStart: a.StartWidth * a.Permeability * i,
				QEnd:   a.EndWidth * a.Permeability * i,
			})
		}
	}
	return out, nil
}

func checkRain(intensityMMH, permeability float64) error {
	if !(intensityMMH >= 0) || intensityMMH > 10000 {
		return inputErr("rainfall intensity", "must be between 0 and 10000 mm/h, got %g", intensityMMH)
	}
	if !(permeability >= 0 && permeability <= 1) {
		return inputErr("permeability", "must be between 0 and 1, got %g", permeability)
	}
	return nil
}

// inflowTable is q(x) compiled to contiguous intervals on which q is linear,
// with the cumulative flow at each interval's start, so that Q(x) is exact.
type inflowTable struct {
	xs  []float64 // interval boundaries, ascending
	q0  []float64 // q at the start of interval i
	q1  []float64 // q at the end of interval i
	cum []float64 // ∫q from 0 to xs[i]
	// slope is q's slope on interval i, (q1 − q0)/(xs[i+1] − xs[i]):
	// the flow at x is asked for at every evaluation of the flow equation.
	slope []float64
}

func compileInflow(l LateralInflow) inflowTable {
	var xs []float64
	for _, p := range l {
		if p.End > p.Start {
			xs = append(xs, p.Start, p.End)
		}
	}
	sort.Float64s(xs)
	xs = dedupe(xs)
	t := inflowTable{xs: xs}
	if len(xs) < 2 {
		return inflowTable{}
	}
	n := len(xs) - 1
	t.q0, t.q1, t.cum, t.slope = make([]float64, n), make([]float64, n), make([]float64, n+1), make([]float64, n)
	for i := 0; i < n; i++ {
		a, b := xs[i], xs[i+1]
		for _, p := range l {
			if p.Start <= a && p.End >= b && p.End > p.Start {
				t.q0[i] += lerp(p.Start, p.End, p.QStart, p.QEnd, a)
				t.q1[i] += lerp(p.Start, p.End, p.QStart, p.QEnd, b)
			}
		}
		t.cum[i+1] = t.cum[i] + (b-a)*(t.q0[i]+t.q1[i])/2
		t.slope[i] = (t.q1[i] - t.q0[i]) / (b - a)
	}
	return t
}

func dedupe(xs []float64) []float64 {
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x-out[len(out)-1] > 1e-9 {
			out = append(out, x)
		}
	}
	return out
}

// locate returns the interval holding x (clamped to the table).
func (t *inflowTable) locate(x float64) int {
	n := len(t.q0)
	if n == 1 {
		return 0 // one interval: the usual uniform rain on the run
	}
	i := sort.SearchFloat64s(t.xs, x) - 1
	return max(0, min(i, n-1))
}

// cumulative is ∫₀ˣ q dx.
func (t *inflowTable) cumulative(x float64) float64 {
	if len(t.q0) == 0 || x <= t.xs[0] {
		return 0
	}
	if x >= t.xs[len(t.xs)-1] {
		return t.cum[len(t.cum)-1]
	}
	i := t.locate(x)
	d := x - t.xs[i]
	return t.cum[i] + d*(t.q0[i]+t.slope[i]*d/2)
}

// at is q(x); at a boundary between intervals it takes the upstream one.
func (t *inflowTable) at(x float64) float64 {
	if len(t.q0) == 0 || x < t.xs[0] || x > t.xs[len(t.xs)-1] {
		return 0
	}
	i := t.locate(x)
	return lerp(t.xs[i], t.xs[i+1], t.q0[i], t.q1[i], math.Min(x, t.xs[i+1]))
}
