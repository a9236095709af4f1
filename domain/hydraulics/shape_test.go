package hydraulics

import (
	"fmt"
	"math"
	"testing"
)

// genericShape hides the closed forms so that the numerical fallbacks run.
type genericShape struct{ s Shape }

func (g genericShape) Area(y float64) float64            { return g.s.Area(y) }
func (g genericShape) TopWidth(y float64) float64        { return g.s.TopWidth(y) }
func (g genericShape) WettedPerimeter(y float64) float64 { return g.s.WettedPerimeter(y) }

// Geometric identities every section obeys: dA/dy = T and dJ/dy = A; the
// critical depth satisfies Q²T = gA³ (Chow 1959, ch. 4).
func TestShapeIdentities(t *testing.T) {
	t.Parallel()
	shapes := []Shape{
		Rectangular{Width: 0.2},
		Trapezoidal{BottomWidth: 0.1, SideSlope: 0.5},
		UShape{Width: 0.15},
		genericShape{UShape{Width: 0.15}},
		genericShape{Trapezoidal{BottomWidth: 0.1, SideSlope: 1}},
	}
	for _, s := range shapes {
		t.Run(fmt.Sprintf("%T%v", s, s), func(t *testing.T) {
			t.Parallel()
			for _, y := range []float64{0.01, 0.05, 0.074, 0.075, 0.076, 0.2} {
				const h = 1e-6
				if d := (s.Area(y+h) - s.Area(y-h)) / (2 * h); relErr(d, s.TopWidth(y)) > 1e-5 {
					t.Errorf("y=%g: dA/dy %g, T %g", y, d, s.TopWidth(y))
				}
				if d := (firstMoment(s, y+h) - firstMoment(s, y-h)) / (2 * h); relErr(d, s.Area(y)) > 1e-5 {
					t.Errorf("y=%g: dJ/dy %g, A %g", y, d, s.Area(y))
				}
			}
			for _, q := range []float64{1e-4, 3e-3, 0.05} {
				yc := criticalDepth(s, q)
				a := s.Area(yc)
				if fr := q * q * s.TopWidth(yc) / (Gravity * a * a * a); math.Abs(fr-1) > 1e-9 {
					t.Errorf("Q=%g: Froude² at critical depth %g", q, fr)
				}
			}
		})
	}
}

func TestUShapeAgreesWithCircleAndRectangle(t *testing.T) {
	t.Parallel()
	u := UShape{Width: 0.2}
	r := 0.1
	if got, want := u.Area(r), math.Pi*r*r/2; relErr(got, want) > 1e-12 {
		t.Fatalf("half-full area %g, want %g", got, want)
	}
	if got, want := u.WettedPerimeter(r), math.Pi*r; relErr(got, want) > 1e-12 {
		t.Fatalf("half-full perimeter %g, want %g", got, want)
	}
	if got, want := u.Area(0.3)-u.Area(0.2), 0.2*0.1; relErr(got, want) > 1e-12 {
		t.Fatalf("area above the semicircle grows by %g, want %g", got, want)
	}
}

func TestLayElementsBuildsInvertsAndSteps(t *testing.T) {
	t.Parallel()
	sh := Rectangular{Width: 0.1}
	// Two built-in-fall units (depth 0.10 → 0.105 → 0.11) then a deeper
	// plain unit: the floor steps down 0.04 m at the third.
	elems := []Element{
		{Name: "F1", Length: 1, Shape: sh, N: 0.011, DepthStart: 0.100, DepthEnd: 0.105},
		{Name: "F2", Length: 1, Shape: sh, N: 0.011, DepthStart: 0.105, DepthEnd: 0.110},
		{Name: "P", Length: 1, Shape: sh, N: 0.011, DepthStart: 0.150, DepthEnd: 0.150},
		{Name: "P", Length: 1, Shape: sh, N: 0.011, DepthStart: 0.150, DepthEnd: 0.150},
	}
	secs, err := LayElements(elems, 0.01, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(secs) != 3 {
		t.Fatalf("want 3 sections (the two plain units merged), got %d", len(secs))
	}
	if got := secs[0].InvertStart; math.Abs(got-9.9) > 1e-12 {
		t.Errorf("head invert %g, want 9.9", got)
	}
	if got := secs[1].InvertEnd; math.Abs(got-(10-0.02-0.11)) > 1e-12 {
		t.Errorf("invert after the fall units %g", got)
	}
	if got := secs[1].InvertEnd - secs[2].InvertStart; math.Abs(got-0.04) > 1e-12 {
		t.Errorf("floor step %g, want 0.04", got)
	}
	if got := secs[2].End; got != 4 {
		t.Errorf("merged section ends at %g, want 4", got)
	}
	res := mustCalc(t, Run{Sections: secs, Lateral: LateralInflow{{0, 4, 2e-4, 2e-4}}}, Options{SkipMaxDischarge: true})
	if got := res.Segments[2].FloorChangeMM; math.Abs(got-40) > 1e-9 {
		t.Errorf("segment floor change %g mm, want 40", got)
	}
	if got := res.InstalledGradient; math.Abs(got-1) > 1e-9 {
		t.Errorf("installed gradient %g %%, want 1", got)
	}
	if _, err := LayElements(nil, 0.01, 0); err == nil {
		t.Error("no elements: want an error")
	}
}
