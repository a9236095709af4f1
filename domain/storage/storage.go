// Package storage is the controlled-discharge calculator of the design
// tool: a channel run of the high-capacity system drained through an
// orifice that limits its outflow, used as storage for the storms of the
// FSR rainfall. For each storm duration it routes the run's inflow through
// the channel and the orifice, finds the storm that needs the most storage
// (the critical duration), sizes the orifice that passes the controlled
// outflow at that storm's highest water, and says whether the channel
// holds it or floods. It draws the storage graph and the cross-section.
//
// The package is pure Go (the standard library, the catalogue and the
// rainfall model); it holds no HTTP. Method, choices and validation are in
// docs/rainfall.md, section 11.
package storage

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"draindesign/domain/catalogue"
)

// Request is a controlled-discharge calculation of one run.
type Request struct {
	Rainfall        Rainfall
	ChannelLengthM  float64
	CatchmentAreaM2 float64
	// Permeability is the runoff coefficient of the catchment, 0 to 1.
	Permeability float64
	// ControlledOutflowLS is the outflow limit, l/s; it is rounded to 0.1
	// and held to the free discharge.
	ControlledOutflowLS float64
	// GroundSlopePct is the run's longitudinal slope, percent; the pond
	// behind the orifice is level, so a sloped run holds less.
	GroundSlopePct float64
	// System is the run's channel group (""; the system offering
	// controlled discharge). Channel is a channel picked by hand; without
	// it the channel is chosen as standard mode would (see Calculate).
	System, Channel string
	// Loading (class or letter) and MinimumSizeMM narrow the choice.
	Loading       string
	MinimumSizeMM int
	// Country, when known, must be one where the system is sold.
	Country string
	// NoImages leaves the storage graph and the cross-section out: a run's
	// calculation carries the design, not the dialog's pictures.
	NoImages bool
}

// Result is the answer of the controlled-discharge call. The first nine
// fields are the spec's; the rest show the workings in the dialog and the
// tests.
type Result struct {
	Flooded             bool    `json:"flooded"`
	ChannelName         string  `json:"channel_name"`
	CriticalDurationMin float64 `json:"critical_duration_min"`
	// OrificeDiameterMM is 0 when no orifice is needed (Restricted false).
	OrificeDiameterMM   float64 `json:"orifice_diameter_mm"`
	CriticalRainfallMMH float64 `json:"critical_rainfall_mm_h"`
	ChannelCapacityM3   float64 `json:"channel_capacity_m3"`
	MinimumFreeBoardM   float64 `json:"minimum_free_board_m"`
	StorageGraph        string  `json:"storage_graph"`   // base64 PNG
	XSectionImage       string  `json:"x_section_image"` // base64 PNG

	Channel             string  `json:"channel"` // slug
	FreeDischargeLS     float64 `json:"free_discharge_l_s"`
	ControlledOutflowLS float64 `json:"controlled_outflow_l_s"`
	Restricted          bool    `json:"restricted"`
	// MaxWaterDepthM is the highest water at the outlet, above the invert,
	// in the critical storm: the head the orifice is sized for.
	MaxWaterDepthM float64 `json:"max_water_depth_m"`
	// MaxDepthMM is the same in mm, for the run's
	// controlled_discharge_details (channel_name, max_depth_mm,
	// orifice_diameter_mm).
	MaxDepthMM      float64 `json:"max_depth_mm"`
	MaxStoredM3     float64 `json:"max_stored_m3"`
	StorageNeededM3 float64 `json:"storage_needed_m3"` // stored plus spilled
	FloodVolumeM3   float64 `json:"flood_volume_m3"`
	PeakOutflowLS   float64 `json:"peak_outflow_l_s"`
	// RainfallCurve says where the storms' intensities came from: "FSR"
	// (the run's M5-60 and r) or "rates" (its 5, 15 and 60 minute rates).
	RainfallCurve string  `json:"rainfall_curve"`
	Storms        []Storm `json:"storms"`
	// CriticalStorm is the critical storm routed through the store until
	// it has nearly emptied: the numbers of the storage graph, for the
	// client to draw.
	CriticalStorm []TracePoint `json:"critical_storm"`
	Note          string       `json:"note,omitempty"`
}

// TracePoint is one moment of the critical storm.
type TracePoint struct {
	TimeMin   float64 `json:"t_min"`
	InflowLS  float64 `json:"inflow_l_s"`
	OutflowLS float64 `json:"outflow_l_s"`
	StoredM3  float64 `json:"stored_m3"`
	SpilledM3 float64 `json:"spilled_m3"` // over the top so far
	DepthM    float64 `json:"depth_m"`    // at the outlet, above the invert
}

// Storm is one duration of the sweep.
type Storm struct {
	DurationMin     float64 `json:"duration_min"`
	RainfallMMH     float64 `json:"rainfall_mm_h"`
	PeakInflowLS    float64 `json:"peak_inflow_l_s"`
	StorageNeededM3 float64 `json:"storage_needed_m3"`
	MaxWaterDepthM  float64 `json:"max_water_depth_m"`
}

// Limits of the run, from the spec's validation (section 5 and 9).
const (
	MaxLengthM     = 3000.0  // the longer (GVF) limit
	MaxAreaM2      = 99999.0 // below 100000 m²
	MaxSlopePct    = 9.9
	controlledStep = 0.1 // l/s
)

// designed is a finished calculation with its workings, for the tests.
type designed struct {
	res     Result
	channel *catalogue.ChannelSpec
	prob    *problem
	sweep   sweep
	trace   routed // the critical storm, routed to empty
}

// Calculate answers the controlled-discharge call.
//
// The channel: a channel picked by hand is used as it is. Otherwise the
// system's constant-depth channels are tried in standard mode's
// single-size order (narrowest, then shallowest first; controlled
// discharge is never stepped) and the first that holds the critical storm
// is the design; when none does, the largest store is answered, flooded.
func Calculate(cat *catalogue.Catalogue, req Request) (Result, error) {
	d, err := calculate(cat, req)
	if err != nil {
		return Result{}, err
	}
	return d.res, nil
}

func calculate(cat *catalogue.Catalogue, req Request) (*designed, error) {
	if err := req.validate(); err != nil {
		return nil, err
	}
	cv, err := req.Rainfall.curve()
	if err != nil {
		return nil, err
	}
	free := round(req.CatchmentAreaM2*req.Rainfall.MMPerHour/3600*req.Permeability, 1)
	qLim := math.Min(round(req.ControlledOutflowLS, 1), free)
	if !(qLim > 0) {
		return nil, inputf("controlled_outflow", "must be at least %g l/s (the free discharge is %g l/s)", controlledStep, free)
	}
	channels, err := req.channels(cat)
	if err != nil {
		return nil, err
	}
	slope := req.GroundSlopePct / 100
	storms := make([]hydrograph, len(Durations))
	for i, dur := range Durations {
		storms[i] = newHydrograph(req.CatchmentAreaM2, req.Permeability, cv.intensity[i], dur, req.Rainfall.StormMin)
	}
	var (
		best     *problem
		bestSpec *catalogue.ChannelSpec
	)
	for _, ch := range channels {
		sec, err := sectionOf(ch)
		if err != nil {
			return nil, err
		}
		p := &problem{res: newReservoir(sec, req.ChannelLengthM, slope), storms: storms, qLim: qLim / 1000}
		if len(channels) == 1 || !p.sweep(OrificeDiameter(p.qLim, sec.FullDepthM)).flooded {
			best, bestSpec = p, ch
			break
		}
		if best == nil || p.res.capacity() >= best.res.capacity() {
			best, bestSpec = p, ch
		}
	}
	sw, finite := best.design()
	// An orifice wider or taller than the channel's body cannot be fitted
	// in its end and would restrict no more than the open end does.
	restricted := finite && sw.d <= math.Min(best.res.sec.WidthM, best.res.fullDepth())
	crit := sw.storms[sw.critical]
	dc := &designed{channel: bestSpec, prob: best, sweep: sw}
	dc.trace = route(best.res, storms[sw.critical], sw.d, true)

	full := best.res.fullDepth()
	r := Result{
		Flooded:             sw.flooded,
		ChannelName:         bestSpec.Name,
		Channel:             bestSpec.Slug,
		CriticalDurationMin: Durations[sw.critical],
		CriticalRainfallMMH: round(cv.intensity[sw.critical], 3),
		ChannelCapacityM3:   round(best.res.capacity(), 3),
		MinimumFreeBoardM:   round(math.Max(0, full-crit.maxDepth), 3),
		FreeDischargeLS:     free,
		ControlledOutflowLS: qLim,
		Restricted:          restricted,
		MaxWaterDepthM:      round(crit.maxDepth, 4),
		MaxDepthMM:          round(1000*crit.maxDepth, 1),
		MaxStoredM3:         round(crit.maxStored, 3),
		StorageNeededM3:     round(crit.needed, 3),
		FloodVolumeM3:       round(crit.spilled, 3),
		PeakOutflowLS:       round(1000*sw.qPeak, 3),
		RainfallCurve:       "rates",
	}
	if cv.fsr {
		r.RainfallCurve = "FSR"
	}
	if restricted {
		r.OrificeDiameterMM = round(1000*sw.d, 1)
	}
	for i, s := range sw.storms {
		r.Storms = append(r.Storms, Storm{
			DurationMin: Durations[i], RainfallMMH: round(cv.intensity[i], 3), PeakInflowLS: round(1000*storms[i].qp, 3),
			StorageNeededM3: round(s.needed, 3), MaxWaterDepthM: round(s.maxDepth, 4),
		})
	}
	r.Note = note(r, best.res.sec, sw.d)
	r.CriticalStorm = tracePoints(dc.trace.steps, traceLength)
	if req.NoImages {
		dc.res = r
		return dc, nil
	}
	if r.StorageGraph, err = storageGraph(dc.trace, best.res.capacity(), Durations[sw.critical], cv.intensity[sw.critical], sw.flooded); err != nil {
		return nil, err
	}
	if r.XSectionImage, err = sectionImage(bestSpec, best.res.sec, crit.maxDepth, sw.flooded); err != nil {
		return nil, err
	}
	dc.res = r
	return dc, nil
}

func note(r Result, sec Section, d float64) string {
	switch {
	case r.Flooded:
		return fmt.Sprintf("The channel floods: the %g min storm needs %.2f m³ of storage and the channel holds %.2f m³. Raise the controlled outflow, shorten the catchment or lengthen the run.",
			r.CriticalDurationMin, r.StorageNeededM3, r.ChannelCapacityM3)
	case r.Restricted:
		return ""
	case math.IsInf(d, 1):
		return "The controlled outflow is not below the peak inflow of any storm: no flow control is needed."
	}
	return fmt.Sprintf("No orifice is needed: one passing %g l/s would be wider than the channel's body (%.0f × %.0f mm); the open end restricts the flow about as much.",
		r.ControlledOutflowLS, sec.WidthM*1000, sec.FullDepthM*1000)
}

func (req Request) validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{
		{"channel_length_m", req.ChannelLengthM},
		{"catchment_area_m2", req.CatchmentAreaM2},
	} {
		if !(f.v > 0) || math.IsInf(f.v, 0) {
			return inputf(f.name, "must be above 0 (got %g)", f.v)
		}
	}
	if err := req.Rainfall.validate(); err != nil {
		return err
	}
	if req.ChannelLengthM > MaxLengthM {
		return inputf("channel_length_m", "must be at most %g m (got %g)", MaxLengthM, req.ChannelLengthM)
	}
	if req.CatchmentAreaM2 > MaxAreaM2 {
		return inputf("catchment_area_m2", "must be below 100000 m² (got %g)", req.CatchmentAreaM2)
	}
	if !(req.Permeability > 0 && req.Permeability <= 1) {
		return inputf("permeability", "must be above 0 and at most 1 (got %g)", req.Permeability)
	}
	if !(req.ControlledOutflowLS > 0) || math.IsInf(req.ControlledOutflowLS, 0) {
		return inputf("controlled_outflow", "must be above 0 l/s (got %g)", req.ControlledOutflowLS)
	}
	if !(req.GroundSlopePct >= 0 && req.GroundSlopePct <= MaxSlopePct) {
		return inputf("ground_slope", "must be between 0 and %g %% (got %g)", MaxSlopePct, req.GroundSlopePct)
	}
	return nil
}

// channels are the channels to try, in order.
func (req Request) channels(cat *catalogue.Catalogue) ([]*catalogue.ChannelSpec, error) {
	sys, err := req.system(cat)
	if err != nil {
		return nil, err
	}
	if req.Country != "" && !sys.AvailableIn(req.Country) {
		return nil, inputf("channel_group", "%s is not sold in %s", sys.Name, strings.ToUpper(req.Country))
	}
	if req.Channel != "" {
		ch, err := cat.Channel(req.Channel)
		if err != nil || ch.System != sys.Slug {
			return nil, inputf("channel", "%q is not a channel of %s", req.Channel, sys.Name)
		}
		if ch.HasBuiltInFall() || ch.Kind != catalogue.KindStandard {
			return nil, inputf("channel", "%s cannot be used for storage: it is not a constant-depth channel", ch.Name)
		}
		if req.Loading != "" {
			class, err := sys.ResolveLoading(req.Loading)
			if err != nil || !ch.Offers(class) {
				return nil, inputf("loading", "%s is not made for loading %q", ch.Name, req.Loading)
			}
		}
		return []*catalogue.ChannelSpec{ch}, nil
	}
	loading := req.Loading
	if loading == "" {
		loading = sys.HighestLoading()
	}
	cands, err := cat.Candidates(catalogue.CandidateRequest{
		System: sys.Slug, Loading: loading, MinimumSizeMM: req.MinimumSizeMM,
		RunLengthM: req.ChannelLengthM, Configuration: catalogue.SingleSize,
	})
	if err != nil {
		var nf *catalogue.NotFoundError
		var rq *catalogue.RequestError
		switch {
		case errors.As(err, &nf):
			return nil, inputf("loading", "%q is not a loading class of %s", req.Loading, sys.Name)
		case errors.As(err, &rq):
			return nil, inputf("channel_group", "%s", rq.Reason)
		}
		return nil, err
	}
	var out []*catalogue.ChannelSpec
	for _, c := range cands {
		ch, err := cat.Channel(c.Parts[0].Slug)
		if err != nil {
			return nil, err
		}
		out = append(out, ch)
	}
	if len(out) == 0 {
		return nil, inputf("minimum_size_mm", "leaves no channel of %s (got %d mm)", sys.Name, req.MinimumSizeMM)
	}
	return out, nil
}

// system is the run's channel group, which must offer controlled
// discharge; without one, the system that does.
func (req Request) system(cat *catalogue.Catalogue) (*catalogue.System, error) {
	if req.System != "" {
		sys, err := cat.System(req.System)
		if err != nil {
			return nil, inputf("channel_group", "%q is not a drainage system", req.System)
		}
		if !sys.ControlledDischarge {
			return nil, inputf("channel_group", "controlled discharge is only offered for %s, not %s", controlledNames(cat), sys.Name)
		}
		return sys, nil
	}
	for _, sys := range cat.Systems() {
		if sys.ControlledDischarge {
			return sys, nil
		}
	}
	return nil, errors.New("storage: no system of the catalogue offers controlled discharge")
}

func controlledNames(cat *catalogue.Catalogue) string {
	var names []string
	for _, sys := range cat.Systems() {
		if sys.ControlledDischarge {
			names = append(names, "the "+sys.Name+" system")
		}
	}
	return strings.Join(names, " and ")
}

func round(v float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(v*p) / p
}

// traceLength is about how many points of the critical storm the answer
// carries: the graph is at most some hundreds of pixels wide, and the
// routing takes up to 8 × routeSteps steps when the store empties slowly.
const traceLength = 300

// tracePoints thins the routed steps to about n, evenly in time, keeping
// the first and last step and the steps of the highest store and the
// most water held back, so that the graph's peaks are the answer's.
func tracePoints(steps []Step, n int) []TracePoint {
	if len(steps) == 0 {
		return nil
	}
	stride := max(1, (len(steps)+n-1)/n)
	peak, held := 0, 0
	for i, s := range steps {
		if s.Stored > steps[peak].Stored {
			peak = i
		}
		if s.Stored+s.Spilled > steps[held].Stored+steps[held].Spilled {
			held = i
		}
	}
	var out []TracePoint
	for i, s := range steps {
		if i%stride != 0 && i != len(steps)-1 && i != peak && i != held {
			continue
		}
		out = append(out, TracePoint{
			TimeMin: round(s.T/60, 3), InflowLS: round(1000*s.Inflow, 3), OutflowLS: round(1000*s.Outflow, 3),
			StoredM3: round(s.Stored, 4), SpilledM3: round(s.Spilled, 4), DepthM: round(s.Depth, 4),
		})
	}
	return out
}
