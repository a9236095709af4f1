package catalogue

import (
	"fmt"
	"math"
)

// Concrete channel roughness: Manning's n (the spec's "roughness", its
// inverse the Strickler coefficient Kst).
const (
	DefaultConcreteRoughness = 0.025
	MinConcreteRoughness     = 0.00001
	MaxConcreteRoughness     = 0.2
)

// ConcreteSlug is the slug of the in-situ concrete channel system.
const ConcreteSlug = "concrete"

// ConcreteSection is a run's concreteChannel: an in-situ rectangular channel
// of width and depth (whole mm) and roughness (Manning's n; 0 takes the
// default 0.025).
type ConcreteSection struct {
	WidthMM   int     `json:"width"`
	DepthMM   int     `json:"depth"`
	Roughness float64 `json:"roughness"`
}

// WithDefaults fills the default roughness.
func (s ConcreteSection) WithDefaults() ConcreteSection {
	if s.Roughness == 0 {
		s.Roughness = DefaultConcreteRoughness
	}
	return s
}

// Kst is the roughness coefficient 1/n (the default gives 40).
func (s ConcreteSection) Kst() float64 { return 1 / s.WithDefaults().Roughness }

// RoughnessFromKst converts a roughness coefficient back to Manning's n.
func RoughnessFromKst(kst float64) float64 { return 1 / kst }

// Validate checks width and depth above 0 and the roughness within
// 0.00001..0.2 (Kst 5..100000).
func (s ConcreteSection) Validate() error {
	s = s.WithDefaults()
	if s.WidthMM <= 0 || s.DepthMM <= 0 {
		return &RequestError{Reason: fmt.Sprintf("concrete channel width and depth must be above 0 (got %d x %d mm)", s.WidthMM, s.DepthMM)}
	}
	if math.IsNaN(s.Roughness) || s.Roughness < MinConcreteRoughness || s.Roughness > MaxConcreteRoughness {
		return &RequestError{Reason: fmt.Sprintf("concrete channel roughness %v outside %v..%v", s.Roughness, MinConcreteRoughness, MaxConcreteRoughness)}
	}
	return nil
}

// ConcreteElements describes an in-situ concrete channel run as one
// rectangular element over the run length; it can be filled to the top.
func ConcreteElements(s ConcreteSection, runLengthM float64) ([]Element, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	run := int(math.Round(runLengthM * 1000))
	if run < MinPieceMM {
		return nil, &RequestError{Reason: fmt.Sprintf("run length %d mm is below the %d mm minimum", run, MinPieceMM)}
	}
	s = s.WithDefaults()
	d := float64(s.DepthMM)
	return []Element{{
		Slug: ConcreteSlug, Name: fmt.Sprintf("In-situ concrete channel %d x %d mm", s.WidthMM, s.DepthMM),
		System: ConcreteSlug, Kind: KindStandard, StartMM: 0, EndMM: run, LengthMM: run, ElementLengthMM: run,
		WidthMM: s.WidthMM, OuterWidthMM: s.WidthMM, BodyHeightMM: s.DepthMM,
		InvertDepthUpstreamMM: d, InvertDepthDownstreamMM: d, MaxWaterDepthUpstreamMM: d, MaxWaterDepthDownstreamMM: d,
		ManningN: s.Roughness, Shape: Shape{Kind: ShapeRectangular, WidthMM: s.WidthMM},
	}}, nil
}
