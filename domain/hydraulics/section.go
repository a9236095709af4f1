package hydraulics

import "math"

// Section is a stretch of the run with one channel cross-section: chainages
// Start and End (m from the head), the invert level at each end (m, any
// datum), the depth available from the invert to the channel top at each end
// (m; water above it floods), and Manning's n.
//
// Inverts and depths vary linearly within a section, which covers channels
// with built-in fall. A difference between one section's end invert and the
// next one's start invert is a step in the floor (stepped runs, changes of
// channel type).
type Section struct {
	Name        string // channel description, echoed in the result's segment
	Start, End  float64
	Shape       Shape
	InvertStart float64
	InvertEnd   float64
	DepthStart  float64
	DepthEnd    float64
	N           float64
}

// Length is End − Start.
func (s Section) Length() float64 { return s.End - s.Start }

// BedSlope is the fall of the invert per metre (positive falling towards the
// outlet).
func (s Section) BedSlope() float64 { return (s.InvertStart - s.InvertEnd) / s.Length() }

// InvertAt is the invert level at chainage x, linear within the section.
func (s Section) InvertAt(x float64) float64 {
	return lerp(s.Start, s.End, s.InvertStart, s.InvertEnd, x)
}

// DepthAt is the available depth at chainage x.
func (s Section) DepthAt(x float64) float64 { return lerp(s.Start, s.End, s.DepthStart, s.DepthEnd, x) }

// TopAt is the channel top (overflow) level at chainage x.
func (s Section) TopAt(x float64) float64 { return s.InvertAt(x) + s.DepthAt(x) }

// InternalWidth is the channel's top width at its available depth (for a
// rectangle, simply its width).
func (s Section) InternalWidth() float64 {
	return s.Shape.TopWidth(math.Max(s.DepthStart, s.DepthEnd))
}

// Volume is the internal volume of the channel (m³): ∫A(D(x))dx by Simpson's
// rule, exact for rectangles and trapezoids with linearly varying depth.
func (s Section) Volume() float64 {
	a0 := s.Shape.Area(s.DepthStart)
	am := s.Shape.Area((s.DepthStart + s.DepthEnd) / 2)
	a1 := s.Shape.Area(s.DepthEnd)
	return s.Length() * (a0 + 4*am + a1) / 6
}

func lerp(x0, x1, v0, v1, x float64) float64 {
	if x1 == x0 {
		return v0
	}
	t := (x - x0) / (x1 - x0)
	return v0 + (v1-v0)*t
}

// Element is one channel unit as laid: its length, cross-section, Manning's
// n, and the available depth at its upstream and downstream ends. For units
// with built-in fall DepthEnd exceeds DepthStart by the fall over the unit.
type Element struct {
	Name       string
	Length     float64
	Shape      Shape
	N          float64
	DepthStart float64
	DepthEnd   float64
}

// LayElements builds the sections of a run from its elements, laid head to
// outlet with their tops on a line falling at gradient (m/m, the installed
// gradient) from topAtHead. Inverts follow from the tops and the depths, so
// built-in fall and steps between channel types come out of the catalogue
// depths. Consecutive identical elements with a continuous invert are merged
// into one section.
func LayElements(elems []Element, gradient, topAtHead float64) ([]Section, error) {
	if len(elems) == 0 {
		return nil, inputErr("elements", "at least one element is needed")
	}
	if !finite(gradient) || !finite(topAtHead) {
		return nil, inputErr("gradient", "must be finite")
	}
	var secs []Section
	x := 0.0
	for i, e := range elems {
		if !(e.Length > 0) || !finite(e.Length) {
			return nil, inputErr("elements", "element %d: length must be positive, got %g", i, e.Length)
		}
		x1 := x + e.Length
		s := Section{
			Name:        e.Name,
			Start:       x,
			End:         x1,
			Shape:       e.Shape,
			DepthStart:  e.DepthStart,
			DepthEnd:    e.DepthEnd,
			N:           e.N,
			InvertStart: topAtHead - gradient*x - e.DepthStart,
			InvertEnd:   topAtHead - gradient*x1 - e.DepthEnd,
		}
		if n := len(secs); n > 0 && mergeable(secs[n-1], s) {
			secs[n-1].End = s.End
			secs[n-1].InvertEnd = s.InvertEnd
			secs[n-1].DepthEnd = s.DepthEnd
		} else {
			secs = append(secs, s)
		}
		x = x1
	}
	return secs, nil
}

// mergeable: the same channel continuing with the same bed and top slopes, so
// that one section describes both exactly.
func mergeable(a, b Section) bool {
	if a.Name != b.Name || a.N != b.N || !sameShape(a.Shape, b.Shape) {
		return false
	}
	const eps = 1e-9
	if math.Abs(a.InvertEnd-b.InvertStart) > eps || math.Abs(a.DepthEnd-b.DepthStart) > eps {
		return false
	}
	return math.Abs(a.BedSlope()-b.BedSlope()) < eps &&
		math.Abs((a.DepthEnd-a.DepthStart)/a.Length()-(b.DepthEnd-b.DepthStart)/b.Length()) < eps
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
