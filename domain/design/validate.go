package design

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"draindesign/domain/catalogue"
	"draindesign/domain/hydraulics"
	"draindesign/domain/storage"
)

// Limits of the calculation (design-tool.md sections 5 and 9).
const (
	MaxAreaM2         = 99999.0 // the catchment area must stay below 100000 m²
	MaxCatchmentDepth = 10000.0 // m: area / length / 2 of a simple run must stay below it
	LengthWarningM    = 500.0   // a longer run gets a warning
	MinLengthM        = 0.1     // the shortest piece
	MaxRainfallMMH    = 10000.0 // beyond any storm; the engine's range
	MaxPointFlowLPS   = 100000.0
	maxFlowM3S        = 50.0 // total flow the calculation takes (the engine's range is 100)
	// minFlowM3S is the least runoff or inflow that counts (0.001 l/s, a
	// tenth of what the results show). Less is taken as none: the engine
	// integrates a nearly dry steep stretch upstream of a point inflow in
	// ever smaller steps when the flow there is of order 1e-10 m³/s, and
	// such a flow means nothing in drainage.
	minFlowM3S        = 1e-6
	maxLateralM3SPerM = 1.0
	maxConcreteMM     = 10000
	maxElements       = 20000
	maxItems          = 1000 // inflows, accessories or catchment areas of one run
	defaultPipeSlope  = 1.0  // %, the outlet pipe of a point product
)

// kind is how a run is calculated.
type kind int

const (
	channelRun  kind = iota // catalogue channels (standard or advanced)
	concreteRun             // in-situ concrete channel (type M)
	pointRun                // point product (type P)
)

// plan is a validated request, resolved against the catalogue: everything
// the calculation needs, in the engine's and the catalogue's terms.
type plan struct {
	req       *Request
	sys       *catalogue.System
	kind      kind
	method    hydraulics.Method
	lengthM   float64
	areaM2    float64
	rainMMH   float64
	perm      float64
	slopePct  float64
	loading   string // class; "" for types M and P
	grating   string
	minSizeMM int
	config    catalogue.Configuration

	discharge   string
	trashBoxLPS float64 // chosen trash box discharge, 0 for the smallest
	sharedBox   bool    // the outflow goes into another run's trash box
	endCapID    string
	drilling    *catalogue.Drilling

	parts          []catalogue.RunPart // advanced mode's channels, head to outlet
	headCutMM      int
	dischargeCutMM int
	concrete       catalogue.ConcreteSection

	lateral     hydraulics.LateralInflow
	points      []hydraulics.PointInflow
	accessories []catalogue.PlacedAccessory

	outOfRange bool // the inflow is beyond the engine's range

	storage *storage.Result // a controlled outflow's design (controlled.go)

	pipeMM    int
	extension bool
	pipeSlope float64 // %
	extraLPS  float64 // point product: water inflow besides the rain

	warnings []string
	notices  []Notice

	// reuse keeps the engine's solutions of this calculation: the search
	// tests runs that are hydraulically the same as others (the channels
	// of one width), or share their lower reaches (a stepped run's head
	// stretches), and the design it chooses is one it tested.
	reuse hydraulics.Reuse
	plan  []CatchmentPiece // the catchment as calculated, for drawings
}

// warn records a warning twice: as the English sentence of the results'
// warnings (what the API has always answered) and as a Notice a document
// or screen words in its own language. values fill the notice's text.
func (p *plan) warn(code string, values map[string]any, format string, args ...any) {
	p.warnings = append(p.warnings, fmt.Sprintf(format, args...))
	p.notices = append(p.notices, Notice{Code: code, Values: values})
}

// standard reports whether the server chooses the channels.
func (p *plan) standard() bool { return !p.req.Advanced }

// prepare applies the validation rules of design-tool.md section 5, in the
// order the design form checks them, and resolves the request.
func prepare(cat *catalogue.Catalogue, r *Request) (*plan, error) {
	p := &plan{req: r}
	sys, err := resolveSystem(cat, r)
	if err != nil {
		return nil, err
	}
	p.sys = sys
	switch sys.ProductType {
	case catalogue.ProductTypeConcrete:
		p.kind = concreteRun
	case catalogue.ProductTypePoint:
		p.kind = pointRun
	}
	if p.method, err = hydraulics.ParseMethod(r.CalculationMethod); err != nil {
		return nil, invalid("calculation_method", "Unknown calculation method %q: choose GVF or HRW", r.CalculationMethod)
	}
	if p.kind == channelRun && !sys.OffersMethod(p.method.String()) {
		p.warn(NoticeMethodNotOffered, map[string]any{"method": p.method.String(), "system": sys.Name},
			"The %s method is not offered for the %s system; the run was calculated with it as asked", p.method, sys.Name)
	}
	p.rainMMH = r.Rainfall.MMPerHr
	if !(p.rainMMH > 0) {
		return nil, invalid("rainfall", MsgNoRainfall)
	}
	if err := p.resolveLoadingAndGrating(cat); err != nil {
		return nil, err
	}
	if err := p.checkArea(); err != nil {
		return nil, err
	}
	if err := p.checkPermeability(); err != nil {
		return nil, err
	}
	if p.kind == pointRun {
		if err := p.preparePoint(cat); err != nil {
			return nil, err
		}
		return p, nil
	}
	if p.kind == concreteRun {
		if err := p.checkConcrete(); err != nil {
			return nil, err
		}
	}
	if err := p.checkLength(); err != nil {
		return nil, err
	}
	if err := p.checkSlope(); err != nil {
		return nil, err
	}
	if err := p.buildInflow(); err != nil {
		return nil, err
	}
	if err := p.checkConfiguration(cat); err != nil {
		return nil, err
	}
	if err := p.checkDischarge(cat); err != nil {
		return nil, err
	}
	if err := p.checkAccessories(); err != nil {
		return nil, err
	}
	if err := p.checkRange(); err != nil {
		return nil, err
	}
	return p, nil
}

// resolveSystem finds the run's system by channel_group (a slug, or a
// system's name) or selectedSystem.
func resolveSystem(cat *catalogue.Catalogue, r *Request) (*catalogue.System, error) {
	key := strings.TrimSpace(r.ChannelGroup)
	if key == "" && r.SelectedSystem != nil {
		key = strings.TrimSpace(r.SelectedSystem.Slug)
	}
	if key == "" {
		return nil, invalid("channel_group", MsgNoSystem)
	}
	if s, err := cat.System(key); err == nil {
		return s, nil
	}
	for _, s := range cat.Systems() {
		if strings.EqualFold(s.Slug, key) || strings.EqualFold(s.Name, key) {
			return s, nil
		}
	}
	return nil, invalid("channel_group", "Unknown drainage system %q", key)
}

func (p *plan) resolveLoadingAndGrating(cat *catalogue.Catalogue) error {
	if p.kind != channelRun {
		// Loading is ignored for types P and M.
		return nil
	}
	r, s := p.req, p.sys
	if strings.TrimSpace(r.Loading) == "" {
		return invalid("loading", MsgNoLoading)
	}
	class, err := s.ResolveLoading(r.Loading)
	if err != nil {
		return invalid("loading", "The %s system is not made for loading class %s", s.Name, strings.TrimSpace(r.Loading))
	}
	p.loading = class
	if !s.Grated {
		return nil
	}
	if r.Grating == "" {
		return invalid("grating", MsgNoGrating)
	}
	g, err := cat.Grating(string(r.Grating))
	if err != nil || g.System != s.Slug || !slices.Contains(g.LoadingClasses, class) {
		return invalid("grating", "Grating %q is not offered for the %s system at loading %s", string(r.Grating), s.Name, class)
	}
	p.grating = g.Slug
	return nil
}

func (p *plan) checkArea() error {
	r := p.req
	area := r.DrainageAreaM2
	if area == 0 {
		area = r.CatchmentAreaM2
	}
	if area == 0 && p.irregular() {
		for _, a := range slices.Concat(r.LeftAreas, r.RightAreas) {
			area += a.LengthM * (a.StartWidthM + a.EndWidthM) / 2
		}
	}
	if !(area > 0) {
		return invalid("drainage_area_m2", MsgNoArea)
	}
	if area > MaxAreaM2 {
		return invalid("drainage_area_m2", "The catchment area is too large: it is over %s m² by %s m²", num(MaxAreaM2), num(area-MaxAreaM2))
	}
	p.areaM2 = area
	return nil
}

func (p *plan) checkPermeability() error {
	p.perm = 1
	if v := p.req.Permeability; v != nil {
		p.perm = *v
	}
	if !(p.perm >= 0 && p.perm <= 1) {
		return invalid("permeability", "Permeability must be between 0 and 1")
	}
	return nil
}

func (p *plan) irregular() bool {
	return strings.EqualFold(strings.TrimSpace(p.req.CatchmentShape), "irregular") &&
		len(p.req.LeftAreas)+len(p.req.RightAreas) > 0
}

func (p *plan) checkConcrete() error {
	c := p.req.ConcreteChannel
	if c == nil || !(c.Width > 0) || !(c.Depth > 0) {
		return invalid("concreteChannel", MsgConcreteSize)
	}
	if c.Width != math.Trunc(c.Width) || c.Depth != math.Trunc(c.Depth) {
		return invalid("concreteChannel", "The concrete channel width and depth must be whole millimetres")
	}
	if c.Width > maxConcreteMM || c.Depth > maxConcreteMM {
		return invalid("concreteChannel", "The concrete channel width and depth must be at most %d mm", maxConcreteMM)
	}
	n := c.Roughness
	if n == 0 {
		n = catalogue.DefaultConcreteRoughness
	}
	if !(n >= catalogue.MinConcreteRoughness && n <= catalogue.MaxConcreteRoughness) {
		return invalid("concreteChannel", "The concrete channel roughness must be between %s and %s",
			strconv.FormatFloat(catalogue.MinConcreteRoughness, 'f', -1, 64), strconv.FormatFloat(catalogue.MaxConcreteRoughness, 'f', -1, 64))
	}
	p.concrete = catalogue.ConcreteSection{WidthMM: int(c.Width), DepthMM: int(c.Depth), Roughness: n}
	return nil
}

func (p *plan) checkLength() error {
	l := p.req.ChannelLengthM
	if !(l > 0) {
		return invalid("channel_length_m", MsgNoLength)
	}
	if max := p.method.MaxLength(); l > max {
		return invalid("channel_length_m", "The channel length is over the %s limit of %s m by %s m", p.method, num(max), num(l-max))
	}
	if l < MinLengthM {
		return invalid("channel_length_m", "The channel length must be at least %s m", num(MinLengthM))
	}
	if l > LengthWarningM {
		p.warn(NoticeLongRun, map[string]any{"limit": LengthWarningM, "over": l - LengthWarningM},
			"The channel length is over %s m by %s m", num(LengthWarningM), num(l-LengthWarningM))
	}
	p.lengthM = l
	return nil
}

// oneIn is the slope limit as the warning dialog words it ("1 in 10").
func oneIn(m hydraulics.Method) int {
	if m == hydraulics.HRW {
		return 30
	}
	return 10
}

func (p *plan) checkSlope() error {
	r := p.req
	max := p.method.MaxGradient()
	switch strings.TrimSpace(r.SlopeSetting) {
	case "elevation":
		if r.UpperElevation == nil || r.LowerElevation == nil {
			return invalid("upperElevation", "Please give the upper and lower elevations")
		}
		up, low := *r.UpperElevation, *r.LowerElevation
		if math.Abs(up) > 1e5 || math.Abs(low) > 1e5 {
			return invalid("upperElevation", "Elevations must be within ±100000 m")
		}
		if up < low {
			return invalid("upperElevation", MsgUphill)
		}
		p.slopePct = round((up-low)/p.lengthM*100, 2)
		if p.slopePct > max {
			return invalid("upperElevation", "The elevations give a slope of %s %%, steeper than the %s maximum of %s %% (1 in %d)",
				num(p.slopePct), p.method, num(max), oneIn(p.method))
		}
	case "", "slope":
		p.slopePct = r.GroundSlope
		if p.slopePct < 0 {
			return invalid("ground_slope", "The longitudinal slope must not be negative")
		}
		if p.slopePct > max {
			return invalid("ground_slope", "The longitudinal slope of %s %% is too steep: the %s maximum is %s %% (1 in %d)",
				num(p.slopePct), p.method, num(max), oneIn(p.method))
		}
	default:
		return invalid("slopeSetting", "Unknown slope setting %q: choose slope or elevation", r.SlopeSetting)
	}
	return nil
}

// buildInflow turns the catchment and the confirmed inflows into the
// engine's inflow, refusing flows beyond what the calculation handles.
func (p *plan) buildInflow() error {
	r := p.req
	switch strings.TrimSpace(r.CatchmentShape) {
	case "", "uniform", "irregular":
	default:
		return invalid("catchmentShape", "Unknown catchment shape %q: choose uniform or irregular", r.CatchmentShape)
	}
	if p.irregular() {
		if err := p.irregularInflow(); err != nil {
			return err
		}
	} else {
		if p.areaM2/p.lengthM/2 >= MaxCatchmentDepth {
			return invalid("drainage_area_m2", MsgAreaTooLarge)
		}
		half := p.areaM2 / 2
		for _, side := range []string{SideLeft, SideRight} {
			w := half / p.lengthM
			p.plan = append(p.plan, CatchmentPiece{Side: side, LengthM: p.lengthM, StartWidthM: w, EndWidthM: w, Permeability: p.perm, AreaM2: half})
		}
		if p.rainMMH <= MaxRainfallMMH {
			lat, err := hydraulics.UniformInflow(p.lengthM, p.areaM2, p.rainMMH, p.perm)
			if err != nil {
				return invalid("rainfall", "%s", err.Error())
			}
			p.lateral = lat
		}
	}
	if len(r.Inflows) > maxItems {
		return invalid("inflows", "A run takes at most %d inflows", maxItems)
	}
	total := 0.0
	for i, in := range r.Inflows {
		if in.ToBeConfirmed {
			continue
		}
		if !(in.DistanceM >= 0) || in.DistanceM > p.lengthM+0.001 {
			return invalid("inflows", "The inflow at %s m lies beyond the channel length of %s m", num(in.DistanceM), num(p.lengthM))
		}
		if !(in.FlowLPS >= 0) || in.FlowLPS > MaxPointFlowLPS {
			return invalid("inflows", "Inflow %d: the flow rate must be between 0 and %s l/s", i+1, num(MaxPointFlowLPS))
		}
		if in.FlowLPS == 0 && in.Source == "" {
			return invalid("inflows", "Inflow %d needs a source or a flow rate", i+1)
		}
		if in.FlowLPS/1000 < minFlowM3S {
			continue
		}
		x := math.Min(in.DistanceM, p.lengthM)
		p.points = append(p.points, hydraulics.PointInflow{X: x, Flow: in.FlowLPS / 1000})
		total += in.FlowLPS / 1000
	}
	if p.lateral.Total() < minFlowM3S {
		p.lateral = nil
	}
	maxQ := 0.0
	for _, piece := range p.lateral {
		maxQ = math.Max(maxQ, math.Max(piece.QStart, piece.QEnd))
	}
	total += p.lateral.Total()
	p.outOfRange = p.rainMMH > MaxRainfallMMH || total > maxFlowM3S || maxQ > maxLateralM3SPerM
	return nil
}

// checkRange refuses inflows beyond what the engine takes, once every rule
// has been checked: no channel carries them, so in standard mode that is
// the design's answer.
func (p *plan) checkRange() error {
	if !p.outOfRange {
		return nil
	}
	if p.standard() && p.kind == channelRun {
		return failed(MsgNoChannel, hydraulics.ErrNoChannel)
	}
	return invalid("rainfall", "The inflow is beyond the range of the calculation (at most %s l/s in all, %s mm/h of rain)",
		num(maxFlowM3S*1000), num(MaxRainfallMMH))
}

func (p *plan) irregularInflow() error {
	if len(p.req.LeftAreas)+len(p.req.RightAreas) > maxItems {
		return invalid("leftAreas", "A catchment takes at most %d areas", maxItems)
	}
	var sides [2][]hydraulics.CatchmentArea
	for side, areas := range [][]AreaInput{p.req.LeftAreas, p.req.RightAreas} {
		field := [2]string{"leftAreas", "rightAreas"}[side]
		x := 0.0
		for i, a := range areas {
			if a.XOrigin != nil {
				x = *a.XOrigin
			}
			if !(a.LengthM > 0) || !(x >= 0) {
				return invalid(field, "Catchment area %d needs a length above 0 and a start of 0 or more", i+1)
			}
			if !(a.StartWidthM >= 0) || !(a.EndWidthM >= 0) || a.StartWidthM > 1e5 || a.EndWidthM > 1e5 {
				return invalid(field, "Catchment area %d: widths must be 0 or more", i+1)
			}
			if x+a.LengthM > p.lengthM+0.001 {
				return invalid(field, "Catchment area %d reaches %s m, beyond the channel length of %s m", i+1, num(x+a.LengthM), num(p.lengthM))
			}
			c, err := a.permeability(p.perm)
			if err != nil {
				return invalid(field, "Catchment area %d: %s", i+1, err.Error())
			}
			area := hydraulics.CatchmentArea{
				XOrigin: x, Length: math.Min(a.LengthM, p.lengthM-x), StartWidth: a.StartWidthM, EndWidth: a.EndWidthM, Permeability: c,
			}
			sides[side] = append(sides[side], area)
			p.plan = append(p.plan, CatchmentPiece{
				Side: []string{SideLeft, SideRight}[side], XOriginM: area.XOrigin, LengthM: area.Length,
				StartWidthM: area.StartWidth, EndWidthM: area.EndWidth, Permeability: c, AreaM2: area.Area(),
			})
			x += a.LengthM
		}
	}
	if p.rainMMH > MaxRainfallMMH {
		return nil
	}
	lat, err := hydraulics.IrregularInflow(sides[0], sides[1], p.rainMMH)
	if err != nil {
		return invalid("catchmentShape", "%s", err.Error())
	}
	p.lateral = lat
	return nil
}

// permeability resolves an area's permeability: a number, a named surface,
// or the value kept beside it; none given takes the run's.
func (a AreaInput) permeability(run float64) (float64, error) {
	var c float64
	switch {
	case a.Permeability.Value != nil:
		c = *a.Permeability.Value
	case a.PermeabilityValue != nil:
		c = *a.PermeabilityValue
	case a.Permeability.Name != "":
		v, ok := Surfaces[strings.ToLower(a.Permeability.Name)]
		if !ok {
			return 0, fmt.Errorf("unknown surface %q", a.Permeability.Name)
		}
		c = v
	default:
		c = run
	}
	if !(c >= 0 && c <= 1) {
		return 0, fmt.Errorf("permeability must be between 0 and 1")
	}
	return c, nil
}

// checkConfiguration settles single size, stepped or built-in fall, and in
// advanced mode reads the channels.
func (p *plan) checkConfiguration(cat *catalogue.Catalogue) error {
	r, s := p.req, p.sys
	if !(r.ControlledOutflow >= 0) || r.ControlledOutflow > MaxPointFlowLPS {
		return invalid("controlled_outflow", "The controlled discharge must be 0 or more")
	}
	controlled := r.ControlledOutflow > 0
	if controlled && !s.ControlledDischarge {
		return invalid("controlled_outflow", "Controlled discharge is not available for the %s system", s.Name)
	}
	if !(r.MinimumSize >= 0) || r.MinimumSize > 1e5 {
		return invalid("minimumSize", "The minimum channel size must be 0 or more")
	}
	p.minSizeMM = int(math.Round(r.MinimumSize))
	builtInFall := r.BuiltInFall
	if r.Advanced && p.kind == channelRun {
		if err := p.readChannels(cat); err != nil {
			return err
		}
		for _, part := range p.parts {
			if ch, _ := cat.Channel(part.Slug); ch != nil && ch.HasBuiltInFall() {
				builtInFall = true
			}
		}
	}
	if r.Stepped {
		switch {
		case !s.CanStep && (p.kind == concreteRun || strings.Contains(strings.ToLower(s.Material), "steel")):
			return invalid("stepped", MsgSteppedMaterial)
		case !s.CanStep:
			return invalid("stepped", "Stepped channels are not allowed for the %s system", s.Name)
		case controlled:
			return invalid("stepped", MsgSteppedControlled)
		case builtInFall:
			return invalid("stepped", MsgSteppedBuiltInFall)
		}
	}
	switch {
	case p.kind != channelRun:
	case builtInFall && !r.Advanced:
		if s.FallSeries == nil {
			return invalid("built_in_fall", "The %s system has no channels with a built-in fall", s.Name)
		}
		p.config = catalogue.BuiltInFall
	case r.Stepped || (s.AlwaysStepped && !controlled):
		p.config = catalogue.Stepped
		if s.TheoreticalStepping() {
			p.warn(NoticeTheoreticalStepping, map[string]any{"system": s.Name},
				"The stepping of the %s system is theoretical: steps between channels of constant depth need step adaptors", s.Name)
		}
	default:
		p.config = catalogue.SingleSize
	}
	return nil
}

func (p *plan) readChannels(cat *catalogue.Catalogue) error {
	r := p.req
	counts := r.Channels
	head, discharge := r.HeadCutting, r.DischargeCutting
	if d := r.AdvancedDesign; d != nil {
		if len(d.Channels) > 0 {
			counts = d.Channels
		}
		for _, c := range []*CuttingInput{d.HeadCuttingCamel, d.HeadCutting} {
			if c != nil {
				head = c
			}
		}
		for _, c := range []*CuttingInput{d.DischargeCuttingCamel, d.DischargeCutting} {
			if c != nil {
				discharge = c
			}
		}
	}
	total := 0
	for _, c := range counts {
		if !(c.Count >= 0) || c.Count != math.Trunc(c.Count) || c.Count > maxElements {
			return invalid("channels", "Channel counts must be whole numbers, 0 or more")
		}
		if c.Count == 0 {
			continue
		}
		ch, err := cat.Channel(c.Slug)
		if err != nil {
			return invalid("channels", "Unknown channel %q", c.Slug)
		}
		if ch.System != p.sys.Slug {
			return invalid("channels", "Channel %q is not of the %s system", c.Slug, p.sys.Name)
		}
		if !ch.Offers(p.loading) {
			return invalid("channels", "Channel %s is not made for loading class %s", ch.Name, p.loading)
		}
		total += int(c.Count)
		p.parts = append(p.parts, catalogue.RunPart{Slug: c.Slug, Count: int(c.Count)})
	}
	if len(p.parts) == 0 {
		return invalid("channels", MsgSelectChannel)
	}
	if total > maxElements {
		return invalid("channels", "At most %d channel elements can be laid in one run", maxElements)
	}
	var err error
	if p.headCutMM, err = p.cutting("headCutting", head); err != nil {
		return err
	}
	if p.dischargeCutMM, err = p.cutting("dischargeCutting", discharge); err != nil {
		return err
	}
	return nil
}

func (p *plan) cutting(field string, c *CuttingInput) (int, error) {
	if c == nil {
		return 0, nil
	}
	if !(c.DistanceMM >= 0) || c.DistanceMM > p.lengthM*1000 {
		return 0, invalid(field, "The cutting distance must be between 0 and the channel length (%s mm)", num(p.lengthM*1000))
	}
	if c.AngleDeg != 0 && !(c.AngleDeg >= 1 && c.AngleDeg <= 90) {
		return 0, invalid(field, "The cutting angle must be between 1 and 90 degrees")
	}
	return int(math.Round(c.DistanceMM)), nil
}

func (p *plan) checkDischarge(cat *catalogue.Catalogue) error {
	r, s := p.req, p.sys
	p.discharge = strings.TrimSpace(r.DischargeSetting)
	if p.discharge == "" {
		p.discharge = catalogue.FreeOutflow
	}
	switch p.discharge {
	case catalogue.FreeOutflow:
	case catalogue.OutflowInTrashBox:
		if p.kind == concreteRun {
			return invalid("dischargeSetting", "Trash boxes are not available for concrete channels")
		}
		switch v, isNumber := r.OutflowTrashbox.Number(); {
		case r.OutflowTrashbox == "":
			if r.Advanced {
				return invalid("outflowTrashbox", MsgChooseTrashBox)
			}
		case isNumber:
			if !(v > 0) || v > MaxPointFlowLPS {
				return invalid("outflowTrashbox", "The trash box discharge must be above 0")
			}
			p.trashBoxLPS = v
		default:
			p.sharedBox = true
		}
	case catalogue.EndCapWithOutletSetting:
		if p.kind == concreteRun || !s.EndCapWithOutlet {
			return invalid("dischargeSetting", MsgNoEndCapOutlets)
		}
		p.endCapID = string(r.OutflowEndcap)
		if p.endCapID == "" && r.Advanced {
			return invalid("outflowEndcap", MsgChooseEndCap)
		}
	case catalogue.ModificationLastElement:
		if p.kind == concreteRun || !s.ModificationLastElement {
			return invalid("dischargeSetting", "Modification of the last element is not available for the %s system", s.Name)
		}
		d := r.Drilling
		if r.AdvancedDesign != nil && r.AdvancedDesign.Drilling != nil {
			d = r.AdvancedDesign.Drilling
		}
		if d != nil {
			dr := catalogue.Drilling{Position: d.Position, HoleDiameterMM: int(math.Round(d.HoleDiameterMM)), HoleDistanceMM: int(math.Round(d.HoleDistanceMM))}
			if dr.Position == "" {
				dr.Position = catalogue.DrillBottom
			}
			if dr.Position != catalogue.DrillBottom && dr.Position != catalogue.DrillLeftWall && dr.Position != catalogue.DrillRightWall {
				return invalid("drilling", "Unknown drilling position %q: choose bottom, leftWall or rightWall", d.Position)
			}
			if !(d.HoleDiameterMM >= 0) || !(d.HoleDistanceMM >= 0) || d.HoleDiameterMM > 1e4 || d.HoleDistanceMM > 1e6 {
				return invalid("drilling", "The drilling diameter and distance must be 0 or more")
			}
			if dr.HoleDiameterMM == 0 {
				dr.HoleDiameterMM = catalogue.DefaultDrillDiameterMM
			}
			if dr.HoleDistanceMM == 0 {
				dr.HoleDistanceMM = catalogue.DefaultDrillDistanceMM
			}
			if err := p.checkDrilling(cat, dr); err != nil {
				return err
			}
			p.drilling = &dr
		}
	default:
		return invalid("dischargeSetting", "Unknown discharge setting %q", r.DischargeSetting)
	}
	return nil
}

// checkDrilling holds an advanced run's drilling to the rules of
// design-tool.md section 5: a diameter of the list the last element allows
// at the position, its centre at least diameter/2 + 100 mm from either end
// of that element (cut, when the run is cut at the discharge). An L
// channel's outlet is made in the factory: its preset is not drilled, so
// not checked. Standard mode's last element is not known before the
// design. The screen applies the same rules (advancedRules.ts, one table
// of cases: testdata/advanced.json).
func (p *plan) checkDrilling(cat *catalogue.Catalogue, d catalogue.Drilling) error {
	if p.standard() || p.kind != channelRun || len(p.parts) == 0 {
		return nil
	}
	last := p.parts[len(p.parts)-1]
	ch, err := cat.Channel(last.Slug)
	if err != nil || ch.Kind == catalogue.KindL {
		return nil
	}
	allowed := catalogue.DrillDiametersForSize(ch.WidthMM, ch.MaxDownstreamWaterDepthMM, d.Position)
	if !slices.Contains(allowed, d.HoleDiameterMM) {
		sizes := make([]string, len(allowed))
		for i, v := range allowed {
			sizes[i] = strconv.Itoa(v)
		}
		return invalid("drilling", "The hole diameter must be one of %s mm for %s", strings.Join(sizes, ", "), ch.Name)
	}
	elementMM := ch.LengthMM - p.dischargeCutMM
	if len(p.parts) == 1 && last.Count == 1 {
		elementMM -= p.headCutMM
	}
	lo, hi := catalogue.DrillDistanceRange(elementMM, d.HoleDiameterMM)
	if d.HoleDistanceMM < lo || d.HoleDistanceMM > hi {
		if lo > hi {
			return invalid("drilling", "A %d mm hole does not fit the %d mm last element with its %d mm margins", d.HoleDiameterMM, elementMM, catalogue.DrillMarginMM)
		}
		return invalid("drilling", "The hole centre must lie %d to %d mm from the end of the last element", lo, hi)
	}
	return nil
}

var accessoryTypes = []string{
	catalogue.AccessoryTrashBox, catalogue.AccessoryAccessBox, catalogue.AccessoryAccessCover, catalogue.AccessoryEndCap,
	catalogue.AccessoryEndCapWithOutlet, catalogue.AccessoryConcreteChamber, catalogue.AccessoryConnectionPlate, catalogue.AccessoryNoAutomatic,
}

func (p *plan) checkAccessories() error {
	if len(p.req.Accessories) > maxItems {
		return invalid("accessories", "A run takes at most %d accessories", maxItems)
	}
	for _, a := range p.req.Accessories {
		if a.ToBeConfirmed {
			continue
		}
		if !slices.Contains(accessoryTypes, a.Type) {
			return invalid("accessories", "Unknown accessory type %q", a.Type)
		}
		if !(a.DistanceM >= 0) || a.DistanceM > p.lengthM+0.001 {
			return invalid("accessories", MsgDistanceTooBig)
		}
		pa := catalogue.PlacedAccessory{Type: a.Type, DistanceM: math.Min(a.DistanceM, p.lengthM)}
		switch a.Type {
		case catalogue.AccessoryTrashBox:
			if v, ok := a.Product.Number(); ok && v > 0 && v <= MaxPointFlowLPS {
				pa.DischargeLPS = v
			}
		case catalogue.AccessoryEndCapWithOutlet:
			pa.EndCapID = string(a.Product)
		}
		p.accessories = append(p.accessories, pa)
	}
	return nil
}

func (p *plan) preparePoint(cat *catalogue.Catalogue) error {
	r := p.req
	options, err := cat.PipeDiameters(p.sys.Slug)
	if err != nil || len(options) == 0 {
		return invalid("channel_group", "The %s system has no pipe diameters", p.sys.Name)
	}
	var chosen *catalogue.PipeOption
	if r.PipeDiameterMM == 0 {
		chosen = &options[0]
	}
	names := make([]string, len(options))
	for i := range options {
		names[i] = strconv.Itoa(options[i].DiameterMM)
		if float64(options[i].DiameterMM) == r.PipeDiameterMM {
			chosen = &options[i]
		}
	}
	if chosen == nil {
		return invalid("pipe_diameter_mm", "The pipe diameter must be one of %s mm", strings.Join(names, ", "))
	}
	p.pipeMM = chosen.DiameterMM
	p.extension = r.HasBodyExtension
	if p.extension && !chosen.ExtensionHat {
		p.extension = false
		p.warn(NoticeNoExtensionHat, map[string]any{"diameter": chosen.DiameterMM},
			"The extension hat does not fit the DN %d outlet and was left out", chosen.DiameterMM)
	}
	p.pipeSlope = defaultPipeSlope
	if r.PipeSlope != nil && *r.PipeSlope != 0 {
		p.pipeSlope = *r.PipeSlope
	}
	if !(p.pipeSlope > 0 && p.pipeSlope <= 100) {
		return invalid("pipe_slope", "The pipe slope must be above 0 and at most 100 %%")
	}
	if !(r.WaterInflow >= 0) || r.WaterInflow > MaxPointFlowLPS {
		return invalid("water_inflow", "The water inflow must be between 0 and %s l/s", num(MaxPointFlowLPS))
	}
	if !(p.rainMMH <= MaxRainfallMMH) {
		return invalid("rainfall", "The rainfall intensity must be at most %s mm/h", num(MaxRainfallMMH))
	}
	p.extraLPS = r.WaterInflow
	return nil
}
