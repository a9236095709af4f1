package catalogue

import (
	"math"
	"testing"
)

func TestConcreteChannel(t *testing.T) {
	t.Parallel()
	s, err := cat(t).System(ConcreteSlug)
	if err != nil || s.ProductType != ProductTypeConcrete || s.CanStep || s.Grated || len(s.LoadingClasses) != 0 {
		t.Fatalf("concrete system: %+v %v", s, err)
	}
	sec := ConcreteSection{WidthMM: 300, DepthMM: 400}
	if sec.WithDefaults().Roughness != 0.025 || math.Abs(sec.Kst()-40) > 1e-9 {
		t.Errorf("default roughness %v Kst %v, want 0.025 and 40", sec.WithDefaults().Roughness, sec.Kst())
	}
	if RoughnessFromKst(50) != 0.02 {
		t.Errorf("Kst 50 is n 0.02")
	}
	els, err := ConcreteElements(sec, 12.3)
	if err != nil {
		t.Fatal(err)
	}
	e := els[0]
	if len(els) != 1 || e.LengthMM != 12300 || e.EndMM != 12300 || e.ManningN != 0.025 || e.Shape.Kind != ShapeRectangular ||
		e.WidthMM != 300 || e.InvertDepthUpstreamMM != 400 || e.MaxWaterDepthDownstreamMM != 400 {
		t.Errorf("element %+v", e)
	}
	for name, bad := range map[string]ConcreteSection{
		"no width":       {DepthMM: 100},
		"no depth":       {WidthMM: 100},
		"too rough":      {WidthMM: 100, DepthMM: 100, Roughness: 0.3},
		"too smooth":     {WidthMM: 100, DepthMM: 100, Roughness: 0.000001},
		"negative":       {WidthMM: -100, DepthMM: 100},
		"negative rough": {WidthMM: 100, DepthMM: 100, Roughness: -0.01},
	} {
		if err := bad.Validate(); err == nil {
			t.Errorf("%s accepted", name)
		} else {
			asRequest(t, err)
		}
	}
	for _, ok := range []float64{0.00001, 0.2, 0.013} {
		if err := (ConcreteSection{WidthMM: 1, DepthMM: 1, Roughness: ok}).Validate(); err != nil {
			t.Errorf("roughness %v rejected: %v", ok, err)
		}
	}
	_, err = ConcreteElements(sec, 0.05)
	asRequest(t, err)
}
