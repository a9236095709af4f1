package hydraulics

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Method is the calculation method of a run.
type Method int

const (
	// GVF integrates the spatially varied flow equation (also called the
	// Manning method in the product).
	GVF Method = iota
	// HRW is the HR Wallingford closed-form approximation.
	HRW
)

func (m Method) String() string {
	if m == HRW {
		return "HRW"
	}
	return "GVF"
}

// ParseMethod reads the product's calculation_method value.
func ParseMethod(s string) (Method, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "", "GVF", "MANNING":
		return GVF, nil
	case "HRW":
		return HRW, nil
	}
	return GVF, inputErr("calculation method", "unknown method %q (GVF or HRW)", s)
}

// Limits of the methods (specification §5 and §9).
const (
	MaxLengthGVF      = 3000.0 // m
	MaxLengthHRW      = 500.0  // m
	MaxGradientGVF    = 9.9    // % installed gradient
	MaxGradientHRW    = 3.3    // %
	maxTotalFlow      = 100.0  // m³/s: far beyond any channel, keeps arithmetic finite
	maxLateral        = 1.0    // m³/s per m
	minSectionLength  = 1e-3   // m
	gradientTolerance = 1e-6   // % rounding slack on the limits
)

// MaxLength is the longest run the method accepts (m).
func (m Method) MaxLength() float64 {
	if m == HRW {
		return MaxLengthHRW
	}
	return MaxLengthGVF
}

// MaxGradient is the steepest installed gradient the method accepts (%).
func (m Method) MaxGradient() float64 {
	if m == HRW {
		return MaxGradientHRW
	}
	return MaxGradientGVF
}

// Run is everything the engine needs about one channel run: its sections from
// head (x = 0) to outlet, lateral and point inflows, the outlet condition and
// the method. Flows are m³/s.
type Run struct {
	Sections []Section
	Lateral  LateralInflow
	Points   []PointInflow
	Outlet   Outlet // nil means FreeOutfall
	Method   Method
}

// Length is the run's length (m).
func (r Run) Length() float64 {
	if len(r.Sections) == 0 {
		return 0
	}
	return r.Sections[len(r.Sections)-1].End
}

// TotalInflow is the flow arriving at the outlet (m³/s).
func (r Run) TotalInflow() float64 {
	t := r.Lateral.Total()
	for _, p := range r.Points {
		t += p.Flow
	}
	return t
}

// InstalledGradient is the fall of the channel top from head to outlet over
// the length, in %: the gradient at which the channels are laid.
func (r Run) InstalledGradient() float64 {
	if len(r.Sections) == 0 {
		return 0
	}
	a, b := r.Sections[0], r.Sections[len(r.Sections)-1]
	return (a.TopAt(a.Start) - b.TopAt(b.End)) / r.Length() * 100
}

// Options tune the numerics. The zero value gives the defaults, which meet
// the accuracy criterion of docs/hydraulics.md (halving the step changes the
// maximum depth by less than 0.1 %).
type Options struct {
	MaxStep      float64 // longest integration step, m (default 5)
	Tol          float64 // relative local error tolerance on the momentum function (default 1e-7)
	SliceSpacing float64 // spacing of the result slices, m (default and maximum 0.5)
	// SkipMaxDischarge leaves MaxPossibleDischarge at 0; the selection search
	// uses it, as it only needs to know whether a candidate floods.
	SkipMaxDischarge bool
}

func (o Options) withDefaults() Options {
	if !(o.MaxStep > 0) || !finite(o.MaxStep) {
		o.MaxStep = 5
	}
	o.MaxStep = math.Min(math.Max(o.MaxStep, 1e-3), 100)
	if !(o.Tol > 0) || !finite(o.Tol) {
		o.Tol = 1e-7
	}
	o.Tol = math.Min(math.Max(o.Tol, 1e-13), 1e-2)
	if !(o.SliceSpacing > 0) || o.SliceSpacing > 0.5 {
		o.SliceSpacing = 0.5
	}
	o.SliceSpacing = math.Max(o.SliceSpacing, 0.01)
	return o
}

// Validate checks a run against the engine's domain and the method's limits.
func (r Run) Validate() error {
	if r.Method != GVF && r.Method != HRW {
		return inputErr("calculation method", "unknown method %d", int(r.Method))
	}
	if len(r.Sections) == 0 {
		return inputErr("sections", "a run needs at least one channel section")
	}
	if len(r.Sections) > 100000 {
		return inputErr("sections", "too many sections (%d)", len(r.Sections))
	}
	for i, s := range r.Sections {
		if err := validateSection(i, s); err != nil {
			return err
		}
		if i == 0 && math.Abs(s.Start) > 1e-9 {
			return inputErr("sections", "the first section must start at chainage 0, got %g", s.Start)
		}
		if i > 0 && math.Abs(s.Start-r.Sections[i-1].End) > 1e-6 {
			return inputErr("sections", "section %d starts at %g m but section %d ends at %g m", i, s.Start, i-1, r.Sections[i-1].End)
		}
	}
	L := r.Length()
	if L > r.Method.MaxLength()+1e-9 {
		return inputErr("channel length", "%.1f m is over the %s limit of %.0f m by %.1f m", L, r.Method, r.Method.MaxLength(), L-r.Method.MaxLength())
	}
	grad := r.InstalledGradient()
	if grad > r.Method.MaxGradient()+gradientTolerance {
		return inputErr("slope", "installed gradient %.2f %% is steeper than the %s limit of %.1f %%", grad, r.Method, r.Method.MaxGradient())
	}
	if grad < -gradientTolerance {
		return inputErr("slope", "the channel top rises towards the outlet (%.2f %%): swap the elevations", grad)
	}
	for i, p := range r.Lateral {
		if !finite(p.Start) || !finite(p.End) || p.Start < -1e-9 || p.End > L+1e-6 || !(p.End >= p.Start) {
			return inputErr("lateral inflow", "piece %d [%g, %g] m lies outside the run of %g m", i, p.Start, p.End, L)
		}
		if !(p.QStart >= 0 && p.QStart <= maxLateral) || !(p.QEnd >= 0 && p.QEnd <= maxLateral) {
			return inputErr("lateral inflow", "piece %d: inflow must be between 0 and %g m³/s per m", i, maxLateral)
		}
	}
	for i, p := range r.Points {
		if !finite(p.X) || p.X < -1e-9 || p.X > L+1e-6 {
			return inputErr("inflows", "inflow %d at %g m lies outside the run of %g m", i, p.X, L)
		}
		if !(p.Flow >= 0 && p.Flow <= maxTotalFlow) {
			return inputErr("inflows", "inflow %d: flow must be between 0 and %g m³/s, got %g", i, maxTotalFlow, p.Flow)
		}
	}
	if t := r.TotalInflow(); !(t <= maxTotalFlow) {
		return inputErr("inflows", "total inflow %g m³/s is beyond the engine's range", t)
	}
	if v, ok := r.Outlet.(validater); ok {
		if err := v.Validate(); err != nil {
			return err
		}
	}
	return nil
}

func validateSection(i int, s Section) error {
	field := fmt.Sprintf("sections[%d]", i)
	for _, v := range []float64{s.Start, s.End, s.InvertStart, s.InvertEnd, s.DepthStart, s.DepthEnd, s.N} {
		if !finite(v) {
			return inputErr(field, "values must be finite")
		}
	}
	if !(s.Length() >= minSectionLength) {
		return inputErr(field, "length must be at least %g m, got %g", minSectionLength, s.Length())
	}
	if s.Shape == nil {
		return inputErr(field, "a cross-section shape is needed")
	}
	if v, ok := s.Shape.(validater); ok {
		if err := v.Validate(); err != nil {
			return inputErr(field, "%v", err)
		}
	}
	if !(s.DepthStart > 0 && s.DepthStart <= 100) || !(s.DepthEnd > 0 && s.DepthEnd <= 100) {
		return inputErr(field, "available depth must be between 0 and 100 m")
	}
	if !(s.N >= 0 && s.N <= 1) {
		return inputErr(field, "Manning's n must be between 0 and 1, got %g", s.N)
	}
	if math.Abs(s.InvertStart) > 1e5 || math.Abs(s.InvertEnd) > 1e5 {
		return inputErr(field, "invert levels must be within ±100 km")
	}
	if math.Abs(s.BedSlope()) > 0.5 {
		return inputErr(field, "bed slope %g is outside the engine's range (±50 %%)", s.BedSlope())
	}
	return nil
}

// reach is a stretch over which the flow equation applies unchanged: one
// cross-section, one roughness and bed slope, no point inflow inside. Reaches
// meet at nodes: changes of section (junctions) and point inflows.
type reach struct {
	x0, x1   float64
	sh       Shape
	rb       float64 // width when the section is a Rectangular, else 0
	ru       float64 // radius when the section is a U (UShape), else 0
	fm       firstMomenter
	cd       criticalDepther
	n2       float64
	s0       float64
	z0, z1   float64 // invert levels at the ends
	qBase    float64 // point inflows entering at or upstream of x0
	pointIn  float64 // of which entering at x0
	junction bool    // the section changes at x0 (energy rule applies)
	// The last critical depth found by yc, for the shapes whose critical
	// depth is not closed form: the solvers often ask for it again at the
	// same flow (the last stage of a step and the step's end, an
	// equilibrium and the point made from it).
	ycQ, ycY float64
}

// model is a validated run compiled for the solvers.
type model struct {
	L        float64
	secs     []Section
	reaches  []reach
	lat      inflowTable
	pointAtL float64
	outlet   Outlet
	method   Method
	opts     Options
	scale    float64 // multiplies every inflow (max possible discharge search)
	devDepth float64 // depth the outlet device demands (set by outletState)
	reuse    *Reuse  // solutions to reuse (nil: none)
	// search: only the fill is wanted (a flood test), and a solution whose
	// bed slopes differ from this model's in the last bits will do (Reuse).
	search bool
}

func compile(run Run, opts Options) (*model, error) {
	if err := run.Validate(); err != nil {
		return nil, err
	}
	m := &model{
		L:      run.Length(),
		secs:   run.Sections,
		lat:    compileInflow(run.Lateral),
		outlet: run.Outlet,
		method: run.Method,
		opts:   opts.withDefaults(),
		scale:  1,
	}
	if m.outlet == nil {
		m.outlet = FreeOutfall{}
	}
	pts := append([]PointInflow(nil), run.Points...)
	sort.Slice(pts, func(i, j int) bool { return pts[i].X < pts[j].X })
	const eps = 1e-9
	// Nodes: hydraulic changes of section and point inflow positions.
	type node struct {
		x        float64
		junction bool
		point    float64
	}
	var nodes []node
	for i := 1; i < len(run.Sections); i++ {
		a, b := run.Sections[i-1], run.Sections[i]
		j := !sameHydraulics(a, b)
		if j || math.Abs(a.BedSlope()-b.BedSlope()) > 1e-12 {
			nodes = append(nodes, node{x: b.Start, junction: j})
		}
	}
	headFlow := 0.0
	for _, p := range pts {
		switch {
		case p.X <= eps:
			headFlow += p.Flow
		case p.X >= m.L-1e-6:
			m.pointAtL += p.Flow
		default:
			nodes = append(nodes, node{x: p.X, point: p.Flow})
		}
	}
	sort.SliceStable(nodes, func(i, j int) bool { return nodes[i].x < nodes[j].x })
	var merged []node
	for _, n := range nodes {
		if k := len(merged); k > 0 && n.x-merged[k-1].x < 1e-6 {
			merged[k-1].junction = merged[k-1].junction || n.junction
			merged[k-1].point += n.point
			continue
		}
		merged = append(merged, n)
	}
	x0, qBase, pointIn, junction := 0.0, headFlow, headFlow, false
	addReach := func(x1 float64) {
		if x1-x0 < 1e-9 {
			return
		}
		s := run.Sections[sectionIndex(run.Sections, (x0+x1)/2)]
		r := reach{
			x0: x0, x1: x1, sh: s.Shape, n2: s.N * s.N, s0: s.BedSlope(),
			z0: s.InvertAt(x0), z1: s.InvertAt(x1),
			qBase: qBase, pointIn: pointIn, junction: junction,
		}
		r.fm, _ = s.Shape.(firstMomenter)
		r.cd, _ = s.Shape.(criticalDepther)
		if rect, ok := s.Shape.(Rectangular); ok {
			r.rb = rect.Width
		}
		if u, ok := s.Shape.(uRadiuser); ok {
			r.ru = u.uRadius()
		}
		m.reaches = append(m.reaches, r)
	}
	for _, n := range merged {
		addReach(n.x)
		x0 = n.x
		qBase += n.point
		pointIn = n.point
		junction = n.junction
	}
	addReach(m.L)
	return m, nil
}

// sameHydraulics: the flow does not notice the boundary between the sections
// (same shape and roughness, invert continuous).
func sameHydraulics(a, b Section) bool {
	return a.N == b.N && sameShape(a.Shape, b.Shape) && math.Abs(a.InvertEnd-b.InvertStart) < 1e-9
}

// sectionIndex returns the section containing chainage x (the downstream one
// at a boundary).
func sectionIndex(secs []Section, x float64) int {
	i := sort.Search(len(secs), func(i int) bool { return secs[i].End > x })
	return min(i, len(secs)-1)
}

// reachIndex returns the reach containing x; at a node, the upstream reach
// when upstream is true, else the downstream one.
func (m *model) reachIndex(x float64, upstream bool) int {
	rs := m.reaches
	var i int
	if upstream {
		i = sort.Search(len(rs), func(i int) bool { return rs[i].x1 >= x })
	} else {
		i = sort.Search(len(rs), func(i int) bool { return rs[i].x1 > x })
	}
	return min(i, len(rs)-1)
}

// Q is the flow at chainage x within reach r (m³/s).
func (m *model) Q(r *reach, x float64) float64 {
	return m.scale * (r.qBase + m.lat.cumulative(x))
}

// q is the lateral inflow at x (m³/s per m).
func (m *model) q(x float64) float64 { return m.scale * m.lat.at(x) }

// outletFlow is the flow leaving the run.
func (m *model) outletFlow() float64 {
	last := &m.reaches[len(m.reaches)-1]
	return m.Q(last, m.L) + m.scale*m.pointAtL
}

// availableDepth is the smallest available depth at x (at a section boundary
// the lower of the two).
func (m *model) availableDepth(x float64) float64 {
	i := sectionIndex(m.secs, x)
	d := m.secs[i].DepthAt(x)
	if i > 0 && math.Abs(m.secs[i-1].End-x) < 1e-9 {
		d = math.Min(d, m.secs[i-1].DepthEnd)
	}
	return d
}
