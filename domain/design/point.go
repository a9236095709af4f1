package design

import (
	"math"
	"regexp"
	"strconv"

	"draindesign/domain/catalogue"
	"draindesign/domain/hydraulics"
)

// Assumptions of the point product check, where the catalogue gives no
// figure: water may pond 30 mm over the grating before the gully counts as
// overwhelmed; the outlet pipe is a plastic or clay surface-water pipe with
// Colebrook–White ks = 0.6 mm (the usual design value for surface water
// sewers); the outlet leaves at the bottom of the body, so the water above
// its centre is the body depth (plus the extension hat) less half the
// diameter.
const (
	pointPondingDepthM = 0.03
	pointPipeKsM       = 0.0006
)

// PointResult is a point product's capacity check: the chosen outlet, its
// capacity and what governs it, and every outlet's capacity.
type PointResult struct {
	PipeDiameterMM int                        `json:"pipe_diameter_mm"`
	ExtensionHat   bool                       `json:"extension_hat"`
	CapacityLPS    float64                    `json:"capacity_l_s"`
	Governing      string                     `json:"governing"`
	Capacities     []hydraulics.GullyCapacity `json:"capacities"`
	// SmallestSufficientMM is the smallest outlet that takes the flow (0:
	// none does).
	SmallestSufficientMM int `json:"smallest_sufficient_mm"`
}

var gratingSize = regexp.MustCompile(`(\d+)\s*x\s*(\d+)`)

// gully describes the point product for the engine; the grating's plan
// size is read from the description ("300 x 300").
func (p *plan) gully(g *catalogue.Gully, diameterMM int) hydraulics.Gully {
	open := float64(g.InletOpenAreaCM2) / 1e4
	perimeter := 4 * math.Sqrt(open/0.35)
	if m := gratingSize.FindStringSubmatch(g.Description); m != nil {
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		perimeter = 2 * float64(a+b) / 1000
	}
	depth := float64(g.BodyDepthMM)
	if p.extension {
		depth += float64(g.ExtensionHat.HeightMM)
	}
	return hydraulics.Gully{
		GratingOpenArea:  open,
		GratingPerimeter: perimeter,
		PondingDepth:     pointPondingDepthM,
		OutletHead:       math.Max(depth-float64(diameterMM)/2, float64(diameterMM)/2) / 1000,
		PipeSlope:        p.pipeSlope / 100,
		PipeKs:           pointPipeKsM,
	}
}

func (p *plan) calculatePoint(cat *catalogue.Catalogue) (*Results, error) {
	g, err := cat.Gully(p.sys.Slug)
	if err != nil {
		return nil, catalogueInvalid(err)
	}
	options, err := cat.PipeDiameters(p.sys.Slug)
	if err != nil {
		return nil, catalogueInvalid(err)
	}
	diameters := make([]float64, len(options))
	for i, o := range options {
		diameters[i] = float64(o.DiameterMM)
	}
	flowLPS := hydraulics.RunoffLPS(p.areaM2, p.rainMMH, p.perm) + p.extraLPS
	caps, smallest, err := hydraulics.PointDesign(p.gully(g, p.pipeMM), diameters, flowLPS/1000)
	if err != nil && caps == nil {
		return nil, engineError(err)
	}
	pr := &PointResult{PipeDiameterMM: p.pipeMM, ExtensionHat: p.extension, Capacities: caps, SmallestSufficientMM: int(smallest)}
	for _, c := range caps {
		if int(c.DiameterMM) == p.pipeMM {
			pr.CapacityLPS, pr.Governing = c.CapacityLPS, c.Governing
		}
	}
	res := &Results{
		Calculated:           true,
		Advanced:             p.req.Advanced,
		CalculationMethod:    p.method.String(),
		Configuration:        "point",
		System:               p.sys.Slug,
		ChannelProductType:   p.sys.ProductType,
		ChannelDischarge:     flowLPS,
		Flow:                 flowLPS,
		MaxPossibleDischarge: pr.CapacityLPS,
		Overflowed:           flowLPS > pr.CapacityLPS,
		ChannelInternalWidth: float64(p.pipeMM),
		LargestChannel:       g.Description,
		CriticalSectionsM:    []float64{},
		HydraulicJumpsM:      []float64{},
		Segments:             []Segment{},
		ChannelsUsed:         []ChannelUse{},
		Point:                pr,
		Warnings:             append([]string{}, p.warnings...),
		Notices:              append([]Notice{}, p.notices...),
		Catchment:            []CatchmentPiece{},
	}
	if pr.CapacityLPS > 0 {
		res.PercentageFull = 100 * flowLPS / pr.CapacityLPS
	}
	d := float64(p.pipeMM) / 1000
	res.FlowVelocity = flowLPS / 1000 / (math.Pi * d * d / 4)
	m, err := cat.PointMaterials(p.sys.Slug, p.pipeMM, p.extension)
	if err != nil {
		return nil, catalogueInvalid(err)
	}
	res.setMaterials(m)
	return res, nil
}
