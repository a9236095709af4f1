package hydraulics

import (
	"math"
	"sort"
)

// Slice is one point of the hydraulic profile.
type Slice struct {
	DistanceM     float64 `json:"distance_m"`     // chainage from the head
	FlowLS        float64 `json:"flow_l_s"`       // flow in the channel
	DepthMM       float64 `json:"depth_mm"`       // water depth above the invert
	InvertLevelM  float64 `json:"invert_level_m"` // for drawing the profile
	TopLevelM     float64 `json:"top_level_m"`    // channel top (overflow level)
	Supercritical bool    `json:"supercritical,omitempty"`
}

// Segment is the profile along one channel section, with slices at both ends
// and at most SliceSpacing (0.5 m) apart.
type Segment struct {
	Description string  `json:"channelDescription"`
	StartM      float64 `json:"start_m"`
	EndM        float64 `json:"end_m"`
	LengthMM    float64 `json:"length_mm"`
	// StepRaiseMM is the rise of the channel top at the start of this
	// segment relative to the end of the previous one; FloorChangeMM the drop
	// of the invert there (positive: the floor steps down towards the outlet).
	StepRaiseMM   float64 `json:"stepRaise"`
	FloorChangeMM float64 `json:"floorChange"`
	Slices        []Slice `json:"slices"`
}

// Results mirrors the Results entity of the specification (§3) for the
// hydraulic part. Units are in the comments; JSON names follow the
// specification where it names the field.
type Results struct {
	Method               string    `json:"calculation_method"`
	FlowVelocity         float64   `json:"flow_velocity"`          // m/s, at the outlet
	ChannelDischarge     float64   `json:"channel_discharge"`      // l/s, leaving the run
	MaxPossibleDischarge float64   `json:"max_possible_discharge"` // l/s at which the freeboard reaches zero
	PercentageFull       float64   `json:"percentage_full"`        // %, largest depth / available depth
	Freeboard            float64   `json:"freeboard"`              // mm, least freeboard (negative when flooded)
	FreeboardPercent     float64   `json:"freeboard_percent"`      // % of the available depth where the freeboard is least
	TotalSystemVolume    float64   `json:"total_system_volume"`    // m³, internal volume of the channels
	InstalledGradient    float64   `json:"installed_gradient"`     // %, fall of the channel top over the length
	MaxDepthMM           float64   `json:"max_depth_mm"`           // largest water depth
	MaxDepthAtM          float64   `json:"max_depth_at_m"`         // its chainage
	OutletDepthMM        float64   `json:"outlet_depth_mm"`        // water depth at the outlet end
	CriticalDepthMM      float64   `json:"critical_depth_mm"`      // critical depth of the outlet flow
	ChannelInternalWidth float64   `json:"channel_internal_width_mm"`
	MaxChannelDepthMM    float64   `json:"max_channel_depth_mm"` // largest available depth along the run
	Overflowed           bool      `json:"overflowed"`
	WentSuperCritical    bool      `json:"went_super_critical"`
	CriticalSectionsM    []float64 `json:"critical_sections_m"` // internal control sections (Froude 1)
	HydraulicJumpsM      []float64 `json:"hydraulic_jumps_m"`
	Segments             []Segment `json:"segments"`
}

// profile is what a method's solver offers to the result builder.
type profile interface {
	depth(r int, x float64) (y float64, super bool)
	keyPoints(r int, dst []float64) []float64
	superCritical() bool
	jumps() []float64
	controls() []float64
}

func solve(m *model) (profile, error) {
	if m.method == HRW {
		return solveHRW(m)
	}
	return solveGVF(m)
}

// Calculate computes a run with the default options.
func Calculate(run Run) (*Results, error) { return CalculateWith(run, Options{}) }

// CalculateWith computes a run. Invalid input gives an *InputError.
func CalculateWith(run Run, opts Options) (*Results, error) {
	m, err := compile(run, opts)
	if err != nil {
		return nil, err
	}
	prof, err := solve(m)
	if err != nil {
		return nil, err
	}
	res := buildResults(run, m, prof)
	if !m.opts.SkipMaxDischarge {
		s, err := maxScale(m)
		if err != nil {
			return nil, err
		}
		res.MaxPossibleDischarge = s * m.outletFlow() * 1000
	}
	if !res.finite() {
		return nil, ErrNumerical
	}
	return res, nil
}

// Floods reports whether the run overflows anywhere, without building the
// profile or searching for the maximum discharge: the test the selection
// search repeats.
func Floods(run Run, opts Options) (bool, error) {
	m, err := compile(run, opts)
	if err != nil {
		return false, err
	}
	r, err := fillRatio(m)
	if err != nil {
		return false, err
	}
	return r > 1, nil
}

// fillRatio is the largest depth / available depth over the run's evaluation
// points: integration points, section boundaries and jumps.
func fillRatio(m *model) (float64, error) {
	prof, err := solve(m)
	if err != nil {
		return 0, err
	}
	worst := 0.0
	var xs []float64
	for r := range m.reaches {
		rc := &m.reaches[r]
		xs = prof.keyPoints(r, xs[:0])
		for _, s := range m.secs {
			if s.Start > rc.x0 && s.Start < rc.x1 {
				xs = append(xs, s.Start)
			}
		}
		for _, j := range prof.jumps() {
			if j >= rc.x0 && j <= rc.x1 {
				xs = append(xs, j)
			}
		}
		for _, x := range xs {
			y, _ := prof.depth(r, x)
			worst = math.Max(worst, y/m.availableDepth(x))
		}
	}
	if !finite(worst) {
		return 0, ErrNumerical
	}
	return worst, nil
}

// maxScale finds the factor on every inflow at which the run just fills to
// its top (fill ratio 1): bisection on the scale factor, accelerated by
// Illinois steps once bracketed. The depth rises with the flow, about as
// Q^(2/3) near critical control, which gives the first guess.
func maxScale(m *model) (float64, error) {
	defer func() { m.scale = 1 }()
	if m.outletFlow() <= 0 {
		return 0, nil
	}
	f := func(s float64) (float64, error) {
		m.scale = s
		r, err := fillRatio(m)
		return r - 1, err
	}
	f1, err := f(1)
	if err != nil {
		return 0, err
	}
	if f1 == 0 {
		return 1, nil
	}
	guess := math.Pow(f1+1, -1.5)
	lo, hi := 1.0, 1.0
	flo, fhi := f1, f1
	if f1 < 0 {
		hi = math.Min(guess*1.1, 1e6)
		for i := 0; i < 60; i++ {
			if fhi, err = f(hi); err != nil {
				return 0, err
			}
			if fhi >= 0 {
				break
			}
			lo, flo = hi, fhi
			hi *= 2
		}
	} else {
		lo = guess * 0.9
		for i := 0; i < 60; i++ {
			if flo, err = f(lo); err != nil {
				return 0, err
			}
			if flo < 0 {
				break
			}
			hi, fhi = lo, flo
			lo /= 2
		}
	}
	if !(flo < 0 && fhi >= 0) {
		return lo, nil
	}
	side := 0
	for i := 0; i < 60 && hi-lo > 1e-4*hi; i++ {
		x := (lo*fhi - hi*flo) / (fhi - flo)
		if !(x > lo && x < hi) || i%4 == 3 {
			x = (lo + hi) / 2 // plain bisection now and then guarantees convergence
		}
		fx, err := f(x)
		if err != nil {
			return 0, err
		}
		if fx < 0 {
			lo, flo = x, fx
			if side == -1 {
				fhi /= 2
			}
			side = -1
		} else {
			hi, fhi = x, fx
			if side == 1 {
				flo /= 2
			}
			side = 1
		}
	}
	return lo, nil
}

func buildResults(run Run, m *model, prof profile) *Results {
	res := &Results{
		Method:            m.method.String(),
		InstalledGradient: run.InstalledGradient(),
		WentSuperCritical: prof.superCritical(),
		CriticalSectionsM: append([]float64{}, prof.controls()...),
		HydraulicJumpsM:   append([]float64{}, prof.jumps()...),
		Segments:          make([]Segment, 0, len(m.secs)),
	}
	sort.Float64s(res.HydraulicJumpsM)
	sort.Float64s(res.CriticalSectionsM)
	for _, s := range m.secs {
		res.TotalSystemVolume += s.Volume()
		res.MaxChannelDepthMM = math.Max(res.MaxChannelDepthMM, 1000*math.Max(s.DepthStart, s.DepthEnd))
	}
	last := m.secs[len(m.secs)-1]
	res.ChannelInternalWidth = 1000 * last.InternalWidth()

	worstRatio, least, leastDepth, maxY := -1.0, math.Inf(1), 1.0, -1.0
	consider := func(x, y, d float64) {
		if y > maxY {
			maxY = y
			res.MaxDepthMM, res.MaxDepthAtM = 1000*y, x
		}
		worstRatio = math.Max(worstRatio, y/d)
		if d-y < least {
			least, leastDepth = d-y, d
		}
	}
	spacing := m.opts.SliceSpacing
	for i, s := range m.secs {
		seg := Segment{Description: s.Name, StartM: s.Start, EndM: s.End, LengthMM: 1000 * s.Length()}
		if i > 0 {
			p := m.secs[i-1]
			seg.StepRaiseMM = 1000 * (s.TopAt(s.Start) - p.TopAt(p.End))
			seg.FloorChangeMM = 1000 * (p.InvertEnd - s.InvertStart)
		}
		n := int(math.Ceil(s.Length()/spacing - 1e-9))
		n = max(n, 1)
		seg.Slices = make([]Slice, 0, n+1)
		for j := 0; j <= n; j++ {
			x := s.Start + s.Length()*float64(j)/float64(n)
			if j == n {
				x = s.End
			}
			r := m.reachIndex(x, j == n)
			y, sup := prof.depth(r, x)
			d := s.DepthAt(x)
			consider(x, y, d)
			seg.Slices = append(seg.Slices, Slice{
				DistanceM:     x,
				FlowLS:        1000 * m.Q(&m.reaches[r], x),
				DepthMM:       1000 * y,
				InvertLevelM:  s.InvertAt(x),
				TopLevelM:     s.TopAt(x),
				Supercritical: sup,
			})
		}
		res.Segments = append(res.Segments, seg)
	}
	// Integration points and jumps can fall between slices.
	var xs []float64
	for r := range m.reaches {
		xs = prof.keyPoints(r, xs[:0])
		for _, j := range prof.jumps() {
			if j >= m.reaches[r].x0 && j <= m.reaches[r].x1 {
				xs = append(xs, j)
			}
		}
		for _, x := range xs {
			y, _ := prof.depth(r, x)
			consider(x, y, m.availableDepth(x))
		}
	}
	res.PercentageFull = 100 * worstRatio
	res.Freeboard = 1000 * least
	res.FreeboardPercent = 100 * least / leastDepth
	res.Overflowed = worstRatio > 1

	lastReach := &m.reaches[len(m.reaches)-1]
	yOut, _ := prof.depth(len(m.reaches)-1, m.L)
	qOut := m.outletFlow()
	res.ChannelDischarge = 1000 * qOut
	res.OutletDepthMM = 1000 * yOut
	res.CriticalDepthMM = 1000 * lastReach.yc(qOut)
	if a := lastReach.area(yOut); a > 0 {
		res.FlowVelocity = m.Q(lastReach, m.L) / a
	}
	return res
}

// finite reports whether every number in the results is finite.
func (r *Results) finite() bool {
	vals := []float64{r.FlowVelocity, r.ChannelDischarge, r.MaxPossibleDischarge, r.PercentageFull,
		r.Freeboard, r.FreeboardPercent, r.TotalSystemVolume, r.InstalledGradient, r.MaxDepthMM,
		r.MaxDepthAtM, r.OutletDepthMM, r.CriticalDepthMM, r.ChannelInternalWidth, r.MaxChannelDepthMM}
	vals = append(vals, r.CriticalSectionsM...)
	vals = append(vals, r.HydraulicJumpsM...)
	for _, s := range r.Segments {
		vals = append(vals, s.StartM, s.EndM, s.LengthMM, s.StepRaiseMM, s.FloorChangeMM)
		for _, c := range s.Slices {
			vals = append(vals, c.DistanceM, c.FlowLS, c.DepthMM, c.InvertLevelM, c.TopLevelM)
		}
	}
	for _, v := range vals {
		if !finite(v) {
			return false
		}
	}
	return true
}
