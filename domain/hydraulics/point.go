package hydraulics

import (
	"fmt"
	"math"
)

// Gully describes a point drainage product (gully, point drain) for its
// capacity check. Lengths in m.
type Gully struct {
	GratingOpenArea  float64 // clear area of the grating's openings, m²
	GratingPerimeter float64 // length of the grating edge over which water can fall, m
	PondingDepth     float64 // water depth allowed over the grating, m
	OutletHead       float64 // depth of water available over the outlet's centre inside the body, m
	OutletCd         float64 // outlet entry discharge coefficient; 0 means DefaultOrificeCd
	PipeSlope        float64 // outlet pipe gradient, m/m
	PipeKs           float64 // Colebrook–White roughness of the pipe, m (used when > 0)
	PipeN            float64 // Manning's n of the pipe (used when PipeKs is 0)
}

// GullyCapacity is the capacity of a gully with one outlet diameter: the
// least of what the grating lets in, what the outlet admits and what the
// outlet pipe carries running full.
type GullyCapacity struct {
	DiameterMM  float64 `json:"diameter_mm"`
	GratingLPS  float64 `json:"grating_l_s"`
	OutletLPS   float64 `json:"outlet_l_s"`
	PipeLPS     float64 `json:"pipe_l_s"`
	CapacityLPS float64 `json:"capacity_l_s"`
	Governing   string  `json:"governing"` // grating, outlet or pipe
}

// Weir and orifice coefficients of a grating in a sag (FHWA HEC-22, "Urban
// Drainage Design Manual", 3rd ed. 2009, inlets in sag locations, SI units): Cw = 1.66 with
// Q = Cw·P·d^1.5, Co = 0.67 with Q = Co·A·√(2gd).
const (
	GratingWeirCoefficient    = 1.66
	GratingOrificeCoefficient = 0.67
)

// WaterKinematicViscosity at 15 °C (m²/s), the usual design value for
// Colebrook–White in drainage (HR Wallingford & Barr, "Tables for the
// hydraulic design of pipes, sewers and channels").
const WaterKinematicViscosity = 1.141e-6

// GratingInflow is the flow (m³/s) a grating admits at water depth d over
// it: weir flow over its perimeter at small depths, orifice flow through its
// open area at larger ones; the lesser of the two governs (HEC-22, sag inlets).
func GratingInflow(openArea, perimeter, depth float64) float64 {
	if depth <= 0 || openArea <= 0 || perimeter <= 0 {
		return 0
	}
	weir := GratingWeirCoefficient * perimeter * math.Pow(depth, 1.5)
	orifice := GratingOrificeCoefficient * openArea * math.Sqrt(2*Gravity*depth)
	return math.Min(weir, orifice)
}

// PipeFullBoreManning is the full-bore capacity (m³/s) of a circular pipe of
// diameter d (m) at gradient s by Manning: Q = (1/n)·A·R^(2/3)·√s with
// A = πd²/4, R = d/4.
func PipeFullBoreManning(d, s, n float64) float64 {
	if d <= 0 || s <= 0 || n <= 0 {
		return 0
	}
	a := math.Pi * d * d / 4
	return a / n * math.Pow(d/4, 2.0/3.0) * math.Sqrt(s)
}

// PipeFullBoreColebrook is the full-bore capacity (m³/s) of a circular pipe
// of diameter d (m) at hydraulic gradient s with roughness ks (m), from the
// Colebrook–White equation solved explicitly for velocity:
// V = −2·√(2gdS)·log10(ks/(3.7d) + 2.51ν/(d·√(2gdS))) (BS EN 752:2017,
// Annex; Barr 1998).
func PipeFullBoreColebrook(d, s, ks float64) float64 {
	if d <= 0 || s <= 0 || ks < 0 {
		return 0
	}
	r := math.Sqrt(2 * Gravity * d * s)
	v := -2 * r * math.Log10(ks/(3.7*d)+2.51*WaterKinematicViscosity/(d*r))
	return math.Max(0, v) * math.Pi * d * d / 4
}

// GullyCapacities gives the capacity of the gully for each outlet diameter
// (mm), in l/s, with the part that governs it.
func GullyCapacities(g Gully, diametersMM []float64) ([]GullyCapacity, error) {
	if err := g.validate(); err != nil {
		return nil, err
	}
	cd := g.OutletCd
	if cd <= 0 {
		cd = DefaultOrificeCd
	}
	grating := GratingInflow(g.GratingOpenArea, g.GratingPerimeter, g.PondingDepth)
	out := make([]GullyCapacity, 0, len(diametersMM))
	for _, dmm := range diametersMM {
		if !(dmm >= 20 && dmm <= 2000) {
			return nil, inputErr("pipe diameter", "must be between 20 and 2000 mm, got %g", dmm)
		}
		d := dmm / 1000
		outlet := OrificeFlow(g.OutletHead, d, cd)
		pipe := PipeFullBoreManning(d, g.PipeSlope, g.PipeN)
		if g.PipeKs > 0 {
			pipe = PipeFullBoreColebrook(d, g.PipeSlope, g.PipeKs)
		}
		c := GullyCapacity{DiameterMM: dmm, GratingLPS: 1000 * grating, OutletLPS: 1000 * outlet, PipeLPS: 1000 * pipe}
		c.CapacityLPS, c.Governing = c.GratingLPS, "grating"
		if c.OutletLPS < c.CapacityLPS {
			c.CapacityLPS, c.Governing = c.OutletLPS, "outlet"
		}
		if c.PipeLPS < c.CapacityLPS {
			c.CapacityLPS, c.Governing = c.PipeLPS, "pipe"
		}
		out = append(out, c)
	}
	return out, nil
}

func (g Gully) validate() error {
	checks := []struct {
		name   string
		v, max float64
	}{
		{"grating open area", g.GratingOpenArea, 100},
		{"grating perimeter", g.GratingPerimeter, 1000},
		{"ponding depth", g.PondingDepth, 10},
		{"outlet head", g.OutletHead, 100},
		{"pipe slope", g.PipeSlope, 1},
	}
	for _, c := range checks {
		if !(c.v > 0 && c.v <= c.max) {
			return inputErr(c.name, "must be positive and at most %g, got %g", c.max, c.v)
		}
	}
	if !(g.OutletCd >= 0 && g.OutletCd <= 1) {
		return inputErr("outlet coefficient", "must be between 0 and 1, got %g", g.OutletCd)
	}
	if g.PipeKs > 0.1 || g.PipeKs < 0 || !finite(g.PipeKs) {
		return inputErr("pipe roughness", "ks must be between 0 and 0.1 m, got %g", g.PipeKs)
	}
	if g.PipeKs == 0 && !(g.PipeN > 0 && g.PipeN <= 0.1) {
		return inputErr("pipe roughness", "give ks or a Manning n between 0 and 0.1, got n = %g", g.PipeN)
	}
	return nil
}

// PointDesign checks a point product against the flow it must take (m³/s):
// the capacities per diameter and the smallest diameter that suffices.
func PointDesign(g Gully, diametersMM []float64, flow float64) ([]GullyCapacity, float64, error) {
	caps, err := GullyCapacities(g, diametersMM)
	if err != nil {
		return nil, 0, err
	}
	if !(flow >= 0) || !finite(flow) {
		return nil, 0, inputErr("flow", "must be 0 or more, got %g", flow)
	}
	best := math.Inf(1)
	for _, c := range caps {
		if c.CapacityLPS >= 1000*flow && c.DiameterMM < best {
			best = c.DiameterMM
		}
	}
	if math.IsInf(best, 1) {
		return caps, 0, fmt.Errorf("%w: %.2f l/s exceeds every diameter's capacity", ErrNoChannel, 1000*flow)
	}
	return caps, best, nil
}
