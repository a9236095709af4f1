package storage

import (
	"fmt"
	"math"

	"draindesign/domain/catalogue"
)

// The cross-section image: the channel body cut across, the water at its
// highest in the critical storm and the full (capacity) level. It is drawn
// from the catalogue's dimensions, not a product drawing, and says so.
const (
	sectionW, sectionH = 420, 420
	sectionTop         = 70  // room for the title
	sectionDrawH       = 260 // height given to the body
	sectionDrawW       = 200 // width given to the body
)

func sectionImage(ch *catalogue.ChannelSpec, sec Section, maxDepth float64, flooded bool) (string, error) {
	img := newCanvas(sectionW, sectionH)
	outerW := math.Max(sec.OuterWidthM, sec.WidthM)
	bodyH := math.Max(sec.BodyHeightM, sec.InvertDepthM)
	scale := math.Min(sectionDrawW/outerW, sectionDrawH/bodyH) // px per m
	cx := float64(sectionW) / 2
	top := float64(sectionTop) // the top of the channel (surface)
	invertY := top + sec.InvertDepthM*scale
	left := cx - outerW/2*scale

	// Ground line either side of the body.
	line(img, 20, top, float64(sectionW-20), top, 1, 0, black)
	// Body and cavity, pixel by pixel.
	for py := int(top); py < int(top+bodyH*scale)+1; py++ {
		for px := int(left); px < int(left+outerW*scale)+1; px++ {
			u := (float64(px) + 0.5 - cx) / scale
			z := (invertY - float64(py) - 0.5) / scale // height above the invert
			switch {
			case sec.inCavity(u, z):
				if z <= maxDepth {
					img.SetRGBA(px, py, water)
				}
			default:
				img.SetRGBA(px, py, body)
			}
		}
	}
	// Levels: full (the capacity) dashed red, the highest water blue.
	yFull := invertY - sec.FullDepthM*scale
	yMax := invertY - maxDepth*scale
	half := sec.WidthM / 2 * scale
	line(img, cx-half-30, yFull, cx+half+30, yFull, 1, 4, red)
	line(img, cx-half-30, yMax, cx+half+30, yMax, 1, 0, blue)
	lx := int(cx + half + 36)
	drawText(img, lx, int(yFull)-glyphH/2, fmt.Sprintf("Full %.3f m", sec.FullDepthM), 1, red)
	my := int(yMax) - glyphH/2
	if math.Abs(yMax-yFull) < 12 {
		my = int(yFull) + 8
	}
	label := fmt.Sprintf("Max water %.3f m", maxDepth)
	if flooded {
		label = "Flooded"
	}
	drawText(img, lx, my, label, 1, blue)
	// Width under the body.
	yb := top + bodyH*scale + 14
	line(img, cx-half, yb, cx+half, yb, 1, 0, black)
	line(img, cx-half, yb-4, cx-half, yb+4, 1, 0, black)
	line(img, cx+half, yb-4, cx+half, yb+4, 1, 0, black)
	wl := fmt.Sprintf("%.0f mm", sec.WidthM*1000)
	drawText(img, int(cx)-textWidth(wl, 1)/2, int(yb)+8, wl, 1, black)

	t := "Generic cross-section"
	drawText(img, (sectionW-textWidth(t, 2))/2, 10, t, 2, black)
	drawText(img, (sectionW-textWidth(ch.Name, 1))/2, 36, ch.Name, 1, black)
	foot := "generic: not a product drawing"
	drawText(img, (sectionW-textWidth(foot, 1))/2, sectionH-16, foot, 1, grey)
	return encodePNG(img)
}

// inCavity reports whether the point u across from the centre line and z
// above the invert (m) is inside the channel: the body up to its full
// depth, then the slot (or, open, the full width) up to the surface.
func (s Section) inCavity(u, z float64) bool {
	if z < 0 || z > s.InvertDepthM {
		return false
	}
	au := math.Abs(u)
	if z > s.FullDepthM && s.Kind == catalogue.ShapeSlot {
		return au <= s.SlotWidthM/2
	}
	if au > s.WidthM/2 {
		return false
	}
	r := s.RadiusM
	if z < r && au > s.WidthM/2-r {
		du, dz := au-(s.WidthM/2-r), r-z
		return du*du+dz*dz <= r*r
	}
	return true
}
