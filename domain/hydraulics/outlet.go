package hydraulics

import "math"

// Outlet is the condition at the discharge end of a run. DownstreamDepth is
// the water depth above the outlet invert (m) that the device needs in order
// to pass the flow q (m³/s). The engine takes the larger of it and the
// critical depth: a device that needs less than critical depth does not
// control the flow, which then leaves over a free overfall.
type Outlet interface {
	DownstreamDepth(q float64) (float64, error)
}

// FreeOutfall is free outflow at the end of the run: critical depth control
// (Chow 1959, ch. 4; Henderson 1966).
type FreeOutfall struct{}

func (FreeOutfall) DownstreamDepth(float64) (float64, error) { return 0, nil }

// FixedLevel is a water depth imposed at the outlet (m above the outlet
// invert), e.g. a receiving chamber's known level.
type FixedLevel struct{ Depth float64 }

func (f FixedLevel) DownstreamDepth(float64) (float64, error) { return f.Depth, nil }

func (f FixedLevel) Validate() error {
	if !(f.Depth >= 0 && f.Depth <= 100) {
		return inputErr("outlet depth", "must be between 0 and 100 m, got %g", f.Depth)
	}
	return nil
}

// DefaultOrificeCd is the discharge coefficient of a sharp-edged circular
// orifice (about 0.6: Bos 1989, "Discharge measurement structures").
const DefaultOrificeCd = 0.6

// Orifice is a circular opening in the end of the run or in its last element:
// an end cap with a spigot, or a drilled hole in a wall. CentreHeight is the
// height of the opening's centre above the outlet invert (m).
//
// Below its soffit the opening runs part full and behaves as a weir of width
// equal to the diameter with its crest at the opening's bottom; once drowned
// it is an orifice, Q = Cd·a·√(2gh) with h the head over the centre. This is
// the weir-then-orifice behaviour EN 12056-3 (outlets) describes for
// outlets; we use the standard physical laws with Cd = 0.6 rather than the
// standard's empirical tables.
type Orifice struct {
	Diameter     float64
	CentreHeight float64
	Cd           float64 // 0 means DefaultOrificeCd
}

func (o Orifice) cd() float64 {
	if o.Cd > 0 {
		return o.Cd
	}
	return DefaultOrificeCd
}

func (o Orifice) DownstreamDepth(q float64) (float64, error) {
	if q <= 0 {
		return 0, nil
	}
	crest := o.CentreHeight - o.Diameter/2
	weir := crest + SharpWeirHead(q, o.Diameter, o.cd())
	if weir <= crest+o.Diameter {
		return weir, nil
	}
	return math.Max(crest+o.Diameter, o.CentreHeight+OrificeHead(q, o.Diameter, o.cd())), nil
}

func (o Orifice) Validate() error {
	if !(o.Diameter >= 0.005 && o.Diameter <= 5) {
		return inputErr("outlet diameter", "must be between 5 mm and 5 m, got %g m", o.Diameter)
	}
	if !(o.CentreHeight >= o.Diameter/2-1e-9 && o.CentreHeight <= 100) {
		return inputErr("outlet centre height", "must be at least half the diameter, got %g m", o.CentreHeight)
	}
	if !(o.Cd >= 0 && o.Cd <= 1) {
		return inputErr("discharge coefficient", "must be between 0 and 1, got %g", o.Cd)
	}
	return nil
}

// BottomOutlet is a circular hole in the floor of the last element (a
// drilled last element with the hole in the bottom). At small heads the water
// falls over the hole's rim as a weir of length πD, at larger heads the hole
// runs as an orifice; the capacity is the lesser of the two, so the depth
// needed is the greater of the two heads (EN 12056-3, outlets; FHWA HEC-22
// treats sag inlets the same way).
type BottomOutlet struct {
	Diameter float64
	Cd       float64 // 0 means DefaultOrificeCd
}

func (b BottomOutlet) DownstreamDepth(q float64) (float64, error) {
	cd := b.Cd
	if cd <= 0 {
		cd = DefaultOrificeCd
	}
	if q <= 0 {
		return 0, nil
	}
	return math.Max(SharpWeirHead(q, math.Pi*b.Diameter, cd), OrificeHead(q, b.Diameter, cd)), nil
}

func (b BottomOutlet) Validate() error {
	return Orifice{Diameter: b.Diameter, CentreHeight: b.Diameter / 2, Cd: b.Cd}.Validate()
}

// Weir is an end plate or box wall the water must overtop: crest height above
// the outlet invert (m), crest length (m), sharp-crested or broad-crested.
type Weir struct {
	Crest  float64
	Length float64
	Broad  bool
	Cd     float64 // sharp-crested coefficient; 0 means DefaultWeirCd
}

// DefaultWeirCd is the Rehbock-type discharge coefficient of a sharp-crested
// rectangular weir at low heads (about 0.62; Bos 1989).
const DefaultWeirCd = 0.62

func (w Weir) DownstreamDepth(q float64) (float64, error) {
	if q <= 0 {
		return w.Crest, nil
	}
	if w.Broad {
		return w.Crest + BroadWeirHead(q, w.Length), nil
	}
	cd := w.Cd
	if cd <= 0 {
		cd = DefaultWeirCd
	}
	return w.Crest + SharpWeirHead(q, w.Length, cd), nil
}

func (w Weir) Validate() error {
	if !(w.Crest >= 0 && w.Crest <= 100) {
		return inputErr("weir crest", "must be between 0 and 100 m, got %g", w.Crest)
	}
	if !(w.Length >= 0.005 && w.Length <= 100) {
		return inputErr("weir length", "must be between 5 mm and 100 m, got %g", w.Length)
	}
	if !(w.Cd >= 0 && w.Cd <= 1) {
		return inputErr("weir coefficient", "must be between 0 and 1, got %g", w.Cd)
	}
	return nil
}

// TrashBox is a box at the end of the run whose outlet is rated by the
// catalogue at RatedFlow (m³/s) with the box water level at the channel
// invert, RatedHead (m) above the box outlet. Up to the rating the channel
// discharges freely into the box; above it the box outlet behaves as an
// orifice, Q ∝ √head, so the level rises to RatedHead·((Q/RatedFlow)² − 1)
// above the channel invert.
type TrashBox struct {
	RatedFlow float64
	RatedHead float64
}

func (t TrashBox) DownstreamDepth(q float64) (float64, error) {
	r := q / t.RatedFlow
	return math.Max(0, t.RatedHead*(r*r-1)), nil
}

func (t TrashBox) Validate() error {
	if !(t.RatedFlow > 0 && t.RatedFlow <= 100) {
		return inputErr("trash box discharge", "must be positive, got %g m³/s", t.RatedFlow)
	}
	if !(t.RatedHead > 0 && t.RatedHead <= 100) {
		return inputErr("trash box head", "must be positive, got %g m", t.RatedHead)
	}
	return nil
}

// OrificeHead is the head over the centre of a circular orifice of the given
// diameter (m) needed to pass q (m³/s): Torricelli's law with a discharge
// coefficient, q = Cd·(πD²/4)·√(2gh), so h = (q/(Cd·a))²/(2g).
func OrificeHead(q, diameter, cd float64) float64 {
	a := math.Pi * diameter * diameter / 4
	v := q / (cd * a)
	return v * v / (2 * Gravity)
}

// OrificeFlow is the inverse of OrificeHead: q = Cd·a·√(2gh).
func OrificeFlow(head, diameter, cd float64) float64 {
	if head <= 0 {
		return 0
	}
	return cd * math.Pi * diameter * diameter / 4 * math.Sqrt(2*Gravity*head)
}

// SharpWeirHead is the head over a sharp-crested rectangular weir of the
// given length (m) needed to pass q: q = (2/3)·Cd·b·√(2g)·h^1.5 (Poleni; Bos
// 1989).
func SharpWeirHead(q, length, cd float64) float64 {
	if q <= 0 {
		return 0
	}
	return math.Pow(3*q/(2*cd*length*math.Sqrt(2*Gravity)), 2.0/3.0)
}

// BroadWeirHead is the head over a broad-crested weir of the given length:
// critical flow on the crest gives q = (2/3)^1.5·√g·b·H^1.5 ≈ 1.705·b·H^1.5
// (Henderson 1966; Bos 1989).
func BroadWeirHead(q, length float64) float64 {
	if q <= 0 {
		return 0
	}
	c := math.Pow(2.0/3.0, 1.5) * math.Sqrt(Gravity)
	return math.Pow(q/(c*length), 2.0/3.0)
}
