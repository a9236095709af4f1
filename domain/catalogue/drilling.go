package catalogue

import "strconv"

func itoa(i int) string { return strconv.Itoa(i) }

// Drilling positions.
const (
	DrillBottom    = "bottom"
	DrillLeftWall  = "leftWall"
	DrillRightWall = "rightWall"
)

// Drilling is an outlet hole drilled in the last element
// (modification-last-element).
type Drilling struct {
	Position       string `json:"position"`
	HoleDistanceMM int    `json:"hole_distance_mm"`
	HoleDiameterMM int    `json:"hole_diameter_mm"`
}

// Drilling defaults and limits (design-tool spec, sections 5 and 9).
const (
	DefaultDrillDiameterMM = 50
	DefaultDrillDistanceMM = 150
	DrillMarginMM          = 100
)

// DrillDiameters are the hole diameters that can be drilled.
var DrillDiameters = []int{50, 75, 110, 125, 160, 200, 225, 250, 315}

// lChannelDrilling: preset outlet of an L channel by width (diameter and
// centre distance from the end, mm). 100, 150, 200 and 500 are the spec's;
// 300 and 400 ("not shown") follow its pattern: the 300 takes the 250 outlet
// at 125 + 53 mm, the 400 the 200 outlet of the 500.
var lChannelDrilling = map[int][2]int{
	100: {110, 106},
	150: {160, 131},
	200: {200, 152},
	300: {250, 178},
	400: {200, 153},
	500: {200, 153},
}

// LChannelDrilling is the preset drilling selected with an L channel of a
// width: position bottom, diameter and centre distance by width.
func LChannelDrilling(widthMM int) (Drilling, bool) {
	d, ok := lChannelDrilling[widthMM]
	if !ok {
		return Drilling{}, false
	}
	return Drilling{Position: DrillBottom, HoleDiameterMM: d[0], HoleDistanceMM: d[1]}, true
}

// DrillDiametersFor lists the diameters that can be drilled in a channel at
// a position (DrillDiametersForSize with the channel's width and maximum
// downstream water depth).
func (c *Catalogue) DrillDiametersFor(channel, position string) ([]int, error) {
	ch, err := c.Channel(channel)
	if err != nil {
		return nil, err
	}
	if position != DrillBottom && position != DrillLeftWall && position != DrillRightWall {
		return nil, &RequestError{Reason: "drilling position " + strconv.Quote(position) + " unknown"}
	}
	return DrillDiametersForSize(ch.WidthMM, ch.MaxDownstreamWaterDepthMM, position), nil
}

// DrillDiametersForSize lists the diameters that can be drilled in a
// channel of a width: up to the first size at or above the width, and for
// a side wall no larger than the maximum downstream water depth. The
// advanced screen offers the same list (web/src/design/advancedRules.ts;
// both are held to domain/design/testdata/advanced.json).
func DrillDiametersForSize(widthMM, maxDownstreamMM int, position string) []int {
	out := []int{}
	for _, d := range DrillDiameters {
		if position != DrillBottom && d > maxDownstreamMM {
			break
		}
		out = append(out, d)
		if d >= widthMM {
			break
		}
	}
	return out
}

// DrillDistanceRange is the allowed hole centre distance from the element
// end for a diameter: diameter/2 + 100 to length - diameter/2 - 100.
func DrillDistanceRange(elementLengthMM, diameterMM int) (min, max int) {
	return diameterMM/2 + DrillMarginMM, elementLengthMM - diameterMM/2 - DrillMarginMM
}
