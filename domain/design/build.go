package design

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"draindesign/domain/catalogue"
	"draindesign/domain/hydraulics"
)

// The catalogue describes an element by its depths below the top of the
// grating: the invert depth places the invert, the maximum water depth
// (a little less: the grating and its seat) is what the channel holds. The
// engine's Section keeps the two apart (invert levels, available depths), so
// sections are built here rather than with hydraulics.LayElements, whose
// single depth does both. The grating top is at level 0 at the head and
// falls at the installed gradient; chainages turn from mm into m.

// laid is a run as laid: its elements, the engine sections made from them,
// and for each section the index of its first element.
type laid struct {
	elements []catalogue.Element
	sections []hydraulics.Section
	first    []int
}

// shapeOf maps a catalogue cross-section to the engine's. A U whose radius
// is a full semicircle is UShape; the ks family's U with 25 mm corner
// radii is taken as rectangular (the corners hold about 270 mm² less, under
// 0.5 % of its area at the shallowest water depth). A slot channel's water
// stays within its U body below the maximum water depth, so its slot plays
// no part.
func shapeOf(s catalogue.Shape) hydraulics.Shape {
	w := float64(s.WidthMM) / 1000
	switch s.Kind {
	case catalogue.ShapeU, catalogue.ShapeSlot:
		if 2*s.RadiusMM >= s.WidthMM {
			return uShape{hydraulics.UShape{Width: w}}
		}
	}
	return hydraulics.Rectangular{Width: w}
}

// uShape is the engine's U section with a critical depth of its own. The
// engine finds the critical depth of a shape without one by bisection on
// A³/T, dozens of area evaluations each with an arccosine, and it needs it
// at every integration step: most of the time of a U-channel run. Here it
// is closed form once the water stands between the vertical walls (T = B,
// so A³ = Q²B/g), and Newton's method on A³/T − Q²/g, kept inside a
// shrinking bracket, within the semicircle, from a guess read off a table
// of the semicircle's A³/T (ucrit): two iterations instead of about seven
// from mid-depth. A shape may offer its own CriticalDepth
// (hydraulics.Shape).
type uShape struct{ hydraulics.UShape }

func (u uShape) CriticalDepth(q float64) float64 {
	if !(q > 0) {
		return 0
	}
	b := u.Width
	r := b / 2
	target := q * q / hydraulics.Gravity
	half := math.Pi * r * r / 2
	if a := math.Cbrt(target * b); a >= half {
		return r + (a-half)/b
	}
	// A³/T increases with depth; the root lies in (0, r).
	lo, hi := 0.0, r
	y := r * ucritGuess(target/(r*r*r*r*r))
	if !(y > lo && y < hi) {
		y = r / 2
	}
	for i := 0; i < 100 && hi-lo > 1e-15*r; i++ {
		a, t := u.Area(y), u.TopWidth(y)
		g := a*a*a/t - target
		if g < 0 {
			lo = y
		} else {
			hi = y
		}
		// d(A³/T)/dy = 3A² − A³·T'/T², with dA/dy = T and T' = 4(r − y)/T.
		dg := 3*a*a - a*a*a*4*(r-y)/(t*t*t)
		next := y - g/dg
		if !(next > lo && next < hi) || !(dg > 0) {
			next = (lo + hi) / 2
		}
		if math.Abs(next-y) < 1e-15*r {
			return next
		}
		y = next
	}
	return y
}

// ucrit tabulates the semicircle of radius 1: at depths t_i = i/n, the
// fourth root h of A³/T (which grows about linearly from 0, as
// (64/27)^(1/4)·t) and dt/dh. ucritGuess inverts it by cubic Hermite
// interpolation, to a few 1e-9 of the radius, a start that Newton's method
// takes to the root in two iterations.
var ucrit = func() (tab struct{ h, t, dt [ucritN + 1]float64 }) {
	for i := 0; i <= ucritN; i++ {
		t := float64(i) / ucritN
		tab.t[i] = t
		if i == 0 {
			tab.dt[i] = 1 / math.Sqrt(math.Sqrt(64.0/27))
			continue
		}
		c := 1 - t
		s := math.Sqrt(t * (2 - t))
		a := math.Acos(c) - s*c // area, r = 1
		w := 2 * s              // top width
		g := a * a * a / w
		dg := 3*a*a - a*a*a*(2*c/s)/(w*w) // dA/dt = w, dw/dt = 2c/s
		h := math.Sqrt(math.Sqrt(g))
		tab.h[i] = h
		tab.dt[i] = 4 * h * h * h / dg // dt/dh = 1/(g'/(4g^(3/4)))
	}
	return tab
}()

const ucritN = 32

// ucritGuess is the depth (in radii) at which the semicircle's A³/T (in
// r⁵) is g, for g below its value at the top of the semicircle.
func ucritGuess(g float64) float64 {
	h := math.Sqrt(math.Sqrt(g))
	hs := ucrit.h[:]
	i := sort.SearchFloat64s(hs, h) - 1
	i = max(0, min(i, ucritN-1))
	h0, h1 := hs[i], hs[i+1]
	d := h1 - h0
	u := (h - h0) / d
	u2, u3 := u*u, u*u*u
	return (2*u3-3*u2+1)*ucrit.t[i] + (u3-2*u2+u)*d*ucrit.dt[i] + (-2*u3+3*u2)*ucrit.t[i+1] + (u3-u2)*d*ucrit.dt[i+1]
}

// lay builds the engine sections of elements laid at gradient (m/m),
// merging consecutive pieces of one channel that continue one another.
func lay(els []catalogue.Element, gradient float64) (*laid, error) {
	if len(els) == 0 {
		return nil, errors.New("design: no channel elements to lay")
	}
	out := &laid{elements: els}
	for i, e := range els {
		x0, x1 := float64(e.StartMM)/1000, float64(e.EndMM)/1000
		s := hydraulics.Section{
			Name:        e.Name,
			Start:       x0,
			End:         x1,
			Shape:       shapeOf(e.Shape),
			InvertStart: -gradient*x0 - e.InvertDepthUpstreamMM/1000,
			InvertEnd:   -gradient*x1 - e.InvertDepthDownstreamMM/1000,
			DepthStart:  e.MaxWaterDepthUpstreamMM / 1000,
			DepthEnd:    e.MaxWaterDepthDownstreamMM / 1000,
			N:           e.ManningN,
		}
		if n := len(out.sections); n > 0 && continues(out.sections[n-1], s, els[out.first[n-1]].Slug == e.Slug) {
			prev := &out.sections[n-1]
			prev.End, prev.InvertEnd, prev.DepthEnd = s.End, s.InvertEnd, s.DepthEnd
			continue
		}
		out.sections = append(out.sections, s)
		out.first = append(out.first, i)
	}
	return out, nil
}

// joints are the chainages (m) where the elements of section i meet,
// inside the section.
func (l *laid) joints(i int) []float64 {
	end := len(l.elements)
	if i+1 < len(l.first) {
		end = l.first[i+1]
	}
	var out []float64
	for _, e := range l.elements[l.first[i]+1 : end] {
		out = append(out, float64(e.StartMM)/1000)
	}
	return out
}

// continues reports whether b carries on a's channel with the same bed and
// depth slopes, so that one section describes both exactly.
func continues(a, b hydraulics.Section, sameChannel bool) bool {
	const eps = 1e-7
	if !sameChannel || a.Name != b.Name || a.N != b.N || a.Shape != b.Shape {
		return false
	}
	if math.Abs(a.InvertEnd-b.InvertStart) > eps || math.Abs(a.DepthEnd-b.DepthStart) > eps {
		return false
	}
	return math.Abs(a.BedSlope()-b.BedSlope()) < eps &&
		math.Abs((a.DepthEnd-a.DepthStart)/a.Length()-(b.DepthEnd-b.DepthStart)/b.Length()) < eps
}

// gradient is the installed gradient in m/m.
func (p *plan) gradient() float64 { return p.slopePct / 100 }

// baseRun is the part of the engine run that does not depend on the
// channels.
func (p *plan) baseRun() hydraulics.Run {
	return hydraulics.Run{Lateral: p.lateral, Points: p.points, Method: p.method}
}

// runOf completes the base run with laid channels and the outlet their last
// element needs.
func (p *plan) runOf(cat *catalogue.Catalogue, l *laid) (hydraulics.Run, error) {
	run := p.baseRun()
	run.Sections = l.sections
	out, err := p.outlet(cat, l.elements[len(l.elements)-1])
	if err != nil {
		return run, err
	}
	run.Outlet = out
	return run, nil
}

// outlet models the discharge setting at the end of the run.
//
//   - free outflow, and outflow into another run's trash box: a free
//     overfall (critical depth);
//   - outflow in the run's own trash box: the box outlet is an orifice of
//     the box's outlet diameter that passes the rated discharge with the box
//     water level at the channel invert (Cd 0.6 gives a rated head of 8 to
//     9 cm for every box of the catalogue); above it the level rises;
//   - end cap with outlet: an orifice of its diameter at the invert;
//   - modification of the last element: a hole in the floor (weir round its
//     rim, then orifice) or, drilled in a wall, an orifice at the invert.
func (p *plan) outlet(cat *catalogue.Catalogue, last catalogue.Element) (hydraulics.Outlet, error) {
	switch p.discharge {
	case catalogue.OutflowInTrashBox:
		if p.sharedBox {
			return hydraulics.FreeOutfall{}, nil
		}
		box, err := p.trashBox(cat, last.Slug)
		if err != nil {
			return nil, err
		}
		q := box.DischargeLPS / 1000
		d := float64(box.OutletDiameterMM) / 1000
		return hydraulics.TrashBox{RatedFlow: q, RatedHead: hydraulics.OrificeHead(q, d, hydraulics.DefaultOrificeCd)}, nil
	case catalogue.EndCapWithOutletSetting:
		e, err := p.endCap(cat, last)
		if err != nil {
			return nil, err
		}
		d := float64(e.OutletDiameterMM) / 1000
		return hydraulics.Orifice{Diameter: d, CentreHeight: d / 2}, nil
	case catalogue.ModificationLastElement:
		dr, err := p.lastDrilling(cat, last)
		if err != nil {
			return nil, err
		}
		d := float64(dr.HoleDiameterMM) / 1000
		if dr.Position == catalogue.DrillBottom {
			return hydraulics.BottomOutlet{Diameter: d}, nil
		}
		return hydraulics.Orifice{Diameter: d, CentreHeight: d / 2}, nil
	}
	return hydraulics.FreeOutfall{}, nil
}

// trashBox is the trash box at the discharge: the chosen discharge, or the
// smallest that fits the channel.
func (p *plan) trashBox(cat *catalogue.Catalogue, slug string) (*catalogue.TrashBox, error) {
	boxes, err := cat.TrashBoxes(slug, p.loading)
	if err != nil || len(boxes) == 0 {
		return nil, failed(MsgNoTrashBoxes, err)
	}
	for _, b := range boxes {
		if p.trashBoxLPS == 0 || b.DischargeLPS == p.trashBoxLPS {
			return b, nil
		}
	}
	// The discharges offered are the system's; a width may lack the one
	// chosen, and standard mode then passes the width over.
	return nil, failed(MsgNoTrashBoxes, fmt.Errorf("no trash box of %s l/s fits channel %s at loading %s", num(p.trashBoxLPS), slug, p.loading))
}

// endCap is the end cap with outlet at the discharge: the chosen one, or
// the one with the smallest outlet that fits the last channel.
func (p *plan) endCap(cat *catalogue.Catalogue, last catalogue.Element) (catalogue.EndCapOption, error) {
	opts, err := cat.EndCapsWithOutlet(last.Slug)
	if err != nil || len(opts) == 0 {
		return catalogue.EndCapOption{}, failed(MsgNoEndCapOutlets, err)
	}
	if p.endCapID == "" {
		return opts[0], nil
	}
	for _, o := range opts {
		if o.ID == p.endCapID {
			return o, nil
		}
	}
	return catalogue.EndCapOption{}, failed(MsgNoEndCapOutlets, fmt.Errorf("end cap %q does not fit channel %s", p.endCapID, last.Name))
}

// lastDrilling is the drilling of the last element: an L channel's preset,
// the run's drilling, or the defaults; checked against the channel.
func (p *plan) lastDrilling(cat *catalogue.Catalogue, last catalogue.Element) (catalogue.Drilling, error) {
	if last.Kind == catalogue.KindL {
		if d, ok := catalogue.LChannelDrilling(last.WidthMM); ok {
			return d, nil
		}
	}
	d := catalogue.Drilling{Position: catalogue.DrillBottom, HoleDiameterMM: catalogue.DefaultDrillDiameterMM, HoleDistanceMM: catalogue.DefaultDrillDistanceMM}
	if p.drilling != nil {
		d = *p.drilling
	}
	allowed, err := cat.DrillDiametersFor(last.Slug, d.Position)
	if err != nil {
		return d, invalid("drilling", "%s", err.Error())
	}
	ok := false
	for _, a := range allowed {
		ok = ok || a == d.HoleDiameterMM
	}
	if !ok {
		return d, invalid("drilling", "A hole of %d mm cannot be drilled in the %s of %s (possible: %v mm)", d.HoleDiameterMM, d.Position, last.Name, allowed)
	}
	lo, hi := catalogue.DrillDistanceRange(last.LengthMM, d.HoleDiameterMM)
	if d.HoleDistanceMM < lo || d.HoleDistanceMM > hi {
		return d, invalid("drilling", "The hole centre must be between %d and %d mm from the end of the element", lo, max(lo, hi))
	}
	return d, nil
}
