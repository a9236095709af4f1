package hydraulics

import (
	"math"
	"reflect"
)

// Shape is a channel cross-section: the flow area A(y), top width T(y) and
// wetted perimeter P(y) at water depth y above the invert (all in m).
//
// A shape must be defined for every y ≥ 0, including depths above the channel
// top (walls extended): a flooded channel still has to be computed to say by
// how much it floods. A must be increasing, and A, T, P continuous.
//
// A shape may also implement FirstMoment(y) (∫₀ʸ A dη, the first moment of the
// flow area about the water surface), CriticalDepth(Q) and Validate() error;
// the engine uses closed forms when present and numerical ones otherwise.
type Shape interface {
	Area(y float64) float64
	TopWidth(y float64) float64
	WettedPerimeter(y float64) float64
}

type firstMomenter interface{ FirstMoment(y float64) float64 }
type criticalDepther interface{ CriticalDepth(q float64) float64 }
type validater interface{ Validate() error }

// Rectangular is a channel of constant internal width (m), the shape of most
// EN 1433 channel bodies.
type Rectangular struct{ Width float64 }

func (r Rectangular) Area(y float64) float64            { return r.Width * y }
func (r Rectangular) TopWidth(float64) float64          { return r.Width }
func (r Rectangular) WettedPerimeter(y float64) float64 { return r.Width + 2*y }

// FirstMoment is B·y²/2.
func (r Rectangular) FirstMoment(y float64) float64 { return r.Width * y * y / 2 }

// CriticalDepth is (Q²/(g·B²))^(1/3) (Chow 1959, ch. 4).
func (r Rectangular) CriticalDepth(q float64) float64 {
	return math.Cbrt(q * q / (Gravity * r.Width * r.Width))
}

func (r Rectangular) Validate() error { return checkDim("width", r.Width) }

// Trapezoidal has a flat bottom of BottomWidth (m) and both walls sloping at
// SideSlope horizontal per unit vertical (0 gives a rectangle).
type Trapezoidal struct{ BottomWidth, SideSlope float64 }

func (t Trapezoidal) Area(y float64) float64     { return (t.BottomWidth + t.SideSlope*y) * y }
func (t Trapezoidal) TopWidth(y float64) float64 { return t.BottomWidth + 2*t.SideSlope*y }
func (t Trapezoidal) WettedPerimeter(y float64) float64 {
	return t.BottomWidth + 2*y*math.Sqrt(1+t.SideSlope*t.SideSlope)
}

// FirstMoment is b·y²/2 + z·y³/3.
func (t Trapezoidal) FirstMoment(y float64) float64 {
	return t.BottomWidth*y*y/2 + t.SideSlope*y*y*y/3
}

func (t Trapezoidal) Validate() error {
	if err := checkDim("bottom width", t.BottomWidth); err != nil {
		return err
	}
	if !(t.SideSlope >= 0 && t.SideSlope <= 10) {
		return inputErr("side slope", "must be between 0 and 10 (horizontal per vertical), got %g", t.SideSlope)
	}
	return nil
}

// UShape is the common channel body with a semicircular invert of diameter
// Width and vertical walls above it.
type UShape struct{ Width float64 }

func (u UShape) radius() float64 { return u.Width / 2 }

// uRadius lets the engine recognise a U section (and a type that embeds
// one) and take the fast path of reach.
func (u UShape) uRadius() float64 { return u.radius() }

type uRadiuser interface{ uRadius() float64 }

// Within the semicircle (0 < y < r) the water line ends at the angle θ from
// the vertical through the centre, with cos θ = (r − y)/r and
// sin θ = √(y(2r − y))/r: one arccosine gives every quantity, the sine and
// cosine being algebraic in y.

// uSegment is θ and sin θ of a depth within the semicircle.
func uSegment(r, y float64) (th, s float64) {
	// Plain comparisons: math.Max and math.Min are calls here.
	c := (r - y) / r
	if c > 1 {
		c = 1
	} else if c < -1 {
		c = -1
	}
	w := y * (2*r - y)
	if !(w > 0) {
		w = 0
	}
	return math.Acos(c), math.Sqrt(w) / r
}

// uArea is the flow area of a U of radius r at depth y.
func uArea(r, y float64) float64 {
	if y <= 0 {
		return 0
	}
	if y >= r {
		return math.Pi*r*r/2 + 2*r*(y-r)
	}
	th, s := uSegment(r, y)
	return r * r * (th - s*(r-y)/r)
}

// uAreaMoment is the area and its first moment about the water surface.
// The centroid of a circular segment lies 2r·sin³θ/(3(θ−sinθcosθ)) below
// the centre, which gives J = A·(y−r) + (2/3)·r³·sin³θ in the semicircle.
func uAreaMoment(r, y float64) (a, j float64) {
	if y <= 0 {
		return 0, 0
	}
	if y >= r {
		d := y - r
		return math.Pi*r*r/2 + 2*r*d, 2*r*r*r/3 + math.Pi*r*r/2*d + r*d*d
	}
	th, s := uSegment(r, y)
	a = r * r * (th - s*(r-y)/r)
	return a, a*(y-r) + 2*r*r*r*s*s*s/3
}

// uAreaMomentTop is the area, its first moment and the top width.
func uAreaMomentTop(r, y float64) (a, j, t float64) {
	if y <= 0 {
		return 0, 0, 0
	}
	if y >= r {
		d := y - r
		return math.Pi*r*r/2 + 2*r*d, 2*r*r*r/3 + math.Pi*r*r/2*d + r*d*d, 2 * r
	}
	th, s := uSegment(r, y)
	a = r * r * (th - s*(r-y)/r)
	return a, a*(y-r) + 2*r*r*r*s*s*s/3, 2 * math.Sqrt(y*(2*r-y))
}

// uAreaPerimeter is the area and the wetted perimeter.
func uAreaPerimeter(r, y float64) (a, p float64) {
	if y <= 0 {
		return 0, 0
	}
	if y >= r {
		return math.Pi*r*r/2 + 2*r*(y-r), math.Pi*r + 2*(y-r)
	}
	th, s := uSegment(r, y)
	return r * r * (th - s*(r-y)/r), 2 * r * th
}

// uTop is the top width.
func uTop(r, y float64) float64 {
	if y >= r {
		return 2 * r
	}
	if y <= 0 {
		return 0
	}
	return 2 * math.Sqrt(y*(2*r-y))
}

func (u UShape) Area(y float64) float64 { return uArea(u.radius(), y) }

func (u UShape) TopWidth(y float64) float64 { return uTop(u.radius(), y) }

func (u UShape) WettedPerimeter(y float64) float64 {
	_, p := uAreaPerimeter(u.radius(), y)
	return p
}

// FirstMoment is ∫₀ʸ A dη (uAreaMoment).
func (u UShape) FirstMoment(y float64) float64 {
	_, j := uAreaMoment(u.radius(), y)
	return j
}

func (u UShape) Validate() error { return checkDim("width", u.Width) }

func checkDim(name string, v float64) error {
	if !(v >= 0.005 && v <= 10) {
		return inputErr(name, "must be between 0.005 and 10 m, got %g", v)
	}
	return nil
}

// firstMoment is ∫₀ʸ A(η) dη, closed form when the shape offers one, else
// composite Gauss–Legendre quadrature (4 panels of 16 points), accurate to
// about 1e-7 even across a kink in the section such as the top of a U.
func firstMoment(s Shape, y float64) float64 {
	if y <= 0 {
		return 0
	}
	if fm, ok := s.(firstMomenter); ok {
		return fm.FirstMoment(y)
	}
	const panels = 4
	w := y / panels
	sum := 0.0
	for p := 0; p < panels; p++ {
		c := w * (float64(p) + 0.5)
		h := w / 2
		for i, xi := range glNodes {
			sum += h * glWeights[i] * (s.Area(c-h*xi) + s.Area(c+h*xi))
		}
	}
	return sum
}

// glNodes and glWeights are the positive half of the 16-point Gauss–Legendre rule.
var glNodes = [8]float64{
	0.0950125098376374, 0.2816035507792589, 0.4580167776572274, 0.6178762444026438,
	0.7554044083550030, 0.8656312023878318, 0.9445750230732326, 0.9894009349916499,
}
var glWeights = [8]float64{
	0.1894506104550685, 0.1826034150449236, 0.1691565193950025, 0.1495959888165767,
	0.1246289712555339, 0.0951585116824928, 0.0622535239386479, 0.0271524594117541,
}

// criticalDepth is the depth at which Q²T/(gA³) = 1 (Chow 1959, ch. 4), closed
// form when the shape offers one, else a bracketed bisection on A³/T, which
// increases with depth for every channel shape.
func criticalDepth(s Shape, q float64) float64 {
	if q <= 0 {
		return 0
	}
	if cd, ok := s.(criticalDepther); ok {
		return cd.CriticalDepth(q)
	}
	target := q * q / Gravity
	f := func(y float64) float64 {
		a := s.Area(y)
		return a*a*a - target*s.TopWidth(y)
	}
	lo, hi := 0.0, 0.01
	for i := 0; f(hi) < 0 && i < 80; i++ {
		lo, hi = hi, hi*2
	}
	for i := 0; i < 100 && hi-lo > 1e-13*hi; i++ {
		mid := (lo + hi) / 2
		if f(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// sameShape reports whether two shapes are the same value, without the panic
// that == gives on incomparable dynamic types.
func sameShape(a, b Shape) bool {
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	if ta != tb || ta == nil || !ta.Comparable() {
		return false
	}
	return a == b
}
