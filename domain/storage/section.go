package storage

import (
	"fmt"
	"math"

	"draindesign/domain/catalogue"
)

// Section is the wetted cross-section of a channel body, in metres. Only
// the body up to FullDepthM (the catalogue's maximum water depth) stores
// water: above it a slot channel narrows to its slot and an open channel
// reaches the grating, and the catalogue takes neither as usable depth.
type Section struct {
	Kind    catalogue.ShapeKind
	WidthM  float64 // internal width
	RadiusM float64 // invert corner radius (U and slot bodies)
	// FullDepthM is the maximum water depth above the invert.
	FullDepthM float64
	// The rest only draws the section.
	SlotWidthM, SlotHeightM  float64
	OuterWidthM, BodyHeightM float64
	InvertDepthM             float64 // top of the channel to the invert
}

// sectionOf reads a catalogue channel. Built-in-fall elements are not
// offered for storage: the ponded level is taken over a constant depth.
func sectionOf(ch *catalogue.ChannelSpec) (Section, error) {
	s := Section{
		Kind:         ch.Shape.Kind,
		WidthM:       mm(ch.Shape.WidthMM),
		RadiusM:      mm(ch.Shape.RadiusMM),
		FullDepthM:   mm(ch.MaxDownstreamWaterDepthMM),
		SlotWidthM:   mm(ch.Shape.SlotWidthMM),
		SlotHeightM:  mm(ch.Shape.SlotHeightMM),
		OuterWidthM:  mm(ch.OuterWidthMM),
		BodyHeightM:  mm(ch.BodyHeightMM),
		InvertDepthM: mm(ch.InvertDepthDownstreamMM),
	}
	if s.WidthM == 0 {
		s.WidthM = mm(ch.WidthMM)
	}
	switch s.Kind {
	case catalogue.ShapeRectangular:
		s.RadiusM = 0
	case catalogue.ShapeU, catalogue.ShapeSlot:
	default:
		return Section{}, fmt.Errorf("storage: channel %s has shape %q, which has no storage geometry", ch.Slug, s.Kind)
	}
	if !(s.WidthM > 0 && s.FullDepthM > 0 && s.RadiusM >= 0 && s.RadiusM <= s.WidthM/2) {
		return Section{}, fmt.Errorf("storage: channel %s has an inconsistent section (width %g m, radius %g m, depth %g m)", ch.Slug, s.WidthM, s.RadiusM, s.FullDepthM)
	}
	return s, nil
}

func mm(v int) float64 { return float64(v) / 1000 }

// Area is the wetted area at depth y above the invert, m². The two rounded
// corners of radius R together make a circle cut by a strip of W-2R, so
// below R the area is the flat strip plus a circular segment, and above R
// the walls are vertical.
func (s Section) Area(y float64) float64 {
	if y <= 0 {
		return 0
	}
	w, r := s.WidthM, s.RadiusM
	flat := (w - 2*r) * y
	if r == 0 {
		return flat
	}
	if y >= r {
		return flat + math.Pi*r*r/2 + 2*r*(y-r)
	}
	c := r - y
	return flat + r*r*math.Acos(c/r) - c*math.Sqrt(y*(2*r-y))
}

// TopWidth is the width of the water surface at depth y, m.
func (s Section) TopWidth(y float64) float64 {
	w, r := s.WidthM, s.RadiusM
	if y < 0 || (y == 0 && r > 0) {
		return 0
	}
	if y >= r {
		return w
	}
	return w - 2*r + 2*math.Sqrt(y*(2*r-y))
}
