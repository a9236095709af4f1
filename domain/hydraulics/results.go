package hydraulics

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"sort"
)

// Slice is one point of the hydraulic profile.
type Slice struct {
	DistanceM    float64 `json:"distance_m"`     // chainage from the head
	FlowLS       float64 `json:"flow_l_s"`       // flow in the channel
	DepthMM      float64 `json:"depth_mm"`       // water depth above the invert
	InvertLevelM float64 `json:"invert_level_m"` // for drawing the profile
	TopLevelM    float64 `json:"top_level_m"`    // channel top (overflow level)
	// VelocityMS is the mean velocity Q/A and Froude the Froude number
	// √(Q²T/(gA³)) of the slice's flow at its depth (Chow 1959, ch. 3),
	// so that a reader of the profile need not know the cross-section.
	// Both are 0 where there is no water.
	VelocityMS    float64 `json:"velocity_m_s"`
	Froude        float64 `json:"froude"`
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
	Slices        Slices  `json:"slices"`
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
	return m.reuse.solve(m)
}

// Calculate computes a run with the default options.
func Calculate(run Run) (*Results, error) { return CalculateWith(run, Options{}) }

// CalculateWith computes a run. Invalid input gives an *InputError.
func CalculateWith(run Run, opts Options) (*Results, error) { return calculateWith(run, opts, nil) }

func calculateWith(run Run, opts Options, reuse *Reuse) (*Results, error) {
	m, err := compile(run, opts)
	if err != nil {
		return nil, err
	}
	m.reuse = reuse
	prof, err := solve(m)
	if err != nil {
		return nil, err
	}
	res := buildResults(run, m, prof)
	if !m.opts.SkipMaxDischarge {
		r1, err := fillRatioOf(m, prof)
		if err != nil {
			return nil, err
		}
		s, err := maxScale(m, r1)
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
	r, err := FillRatio(run, opts)
	if err != nil {
		return false, err
	}
	return r > 1, nil
}

// FillRatio is the largest depth over the available depth along the run
// (above 1 it floods), as Floods finds it: a search can read from it how
// near a candidate is to flooding.
func FillRatio(run Run, opts Options) (float64, error) {
	m, err := compile(run, opts)
	if err != nil {
		return 0, err
	}
	return fillRatio(m)
}

// SectionFill is FillRatio and, for each section of the run, the largest
// fill ratio at its integration points (without the refinement between
// them that FillRatio makes around the fullest point) and the fill ratio
// at its start: where along the run a candidate comes near flooding, for a
// search to aim its next test.
func SectionFill(run Run, opts Options) (ratio float64, largest, atStart []float64, err error) {
	return sectionFill(run, opts, nil)
}

func sectionFill(run Run, opts Options, reuse *Reuse) (ratio float64, largest, atStart []float64, err error) {
	m, err := compile(run, opts)
	if err != nil {
		return 0, nil, nil, err
	}
	m.reuse, m.search = reuse, true
	prof, err := solve(m)
	if err != nil {
		return 0, nil, nil, err
	}
	largest = make([]float64, len(m.secs))
	atStart = make([]float64, len(m.secs))
	ratio, err = fillRatioIn(m, prof, largest, atStart)
	return ratio, largest, atStart, err
}

// fillRatio is the largest depth / available depth along the run. It is
// evaluated at the integration points, section boundaries and jumps, and
// refined around the largest by a golden-section search on the dense
// profile, so that a maximum between integration points is not missed.
func fillRatio(m *model) (float64, error) {
	prof, err := solve(m)
	if err != nil {
		return 0, err
	}
	return fillRatioOf(m, prof)
}

// sample is a chainage and the profile's depth there, NaN when it is
// still to be evaluated.
type sample struct{ x, y float64 }

// keyDepther is a profile that knows its depth at its own key points
// (gvfSolution.keyDepths) without evaluating it again.
type keyDepther interface {
	keyDepths(r int, dst []sample) []sample
}

func fillRatioOf(m *model, prof profile) (float64, error) { return fillRatioIn(m, prof, nil, nil) }

// fillRatioIn is fillRatioOf, which also records, when they are not nil,
// the largest ratio at the samples of each section and the ratio at its
// start.
func fillRatioIn(m *model, prof profile, perSection, atStart []float64) (float64, error) {
	worst, wr, wk := 0.0, 0, -1
	var xs []float64
	var ss, buf []sample
	var best []float64
	kd, known := prof.(keyDepther)
	for r := range m.reaches {
		rc := &m.reaches[r]
		if known {
			ss = kd.keyDepths(r, ss[:0])
		} else {
			ss = ss[:0]
			xs = prof.keyPoints(r, xs[:0])
			for _, x := range xs {
				ss = append(ss, sample{x, math.NaN()})
			}
		}
		for _, s := range m.secs {
			if s.Start > rc.x0 && s.Start < rc.x1 {
				ss = append(ss, sample{s.Start, math.NaN()})
			}
		}
		for _, j := range prof.jumps() {
			if j >= rc.x0 && j <= rc.x1 {
				ss = append(ss, sample{j, math.NaN()})
			}
		}
		ss, buf = sortSamples(ss, buf)
		for k := 0; k < len(ss); {
			// Samples at one chainage take one depth, the profile's.
			e := k + 1
			for e < len(ss) && ss[e].x == ss[k].x {
				e++
			}
			y := ss[k].y
			if e > k+1 || math.IsNaN(y) {
				y, _ = prof.depth(r, ss[k].x)
			}
			v := y / m.availableDepth(ss[k].x)
			if perSection != nil {
				i := sectionIndex(m.secs, ss[k].x)
				perSection[i] = math.Max(perSection[i], v)
				if ss[k].x == m.secs[i].Start {
					atStart[i] = v
				}
			}
			if v > worst {
				worst, wr, wk = v, r, k
				best = append(best[:0], ss[max(k-1, 0)].x, ss[min(k+1, len(ss)-1)].x)
			}
			k = e
		}
	}
	if wk >= 0 {
		ratio := func(x float64) float64 {
			y, _ := prof.depth(wr, x)
			return y / m.availableDepth(x)
		}
		worst = math.Max(worst, goldenMax(ratio, best[0], best[1]))
	}
	if !finite(worst) {
		return 0, ErrNumerical
	}
	return worst, nil
}

// sortSamples sorts samples by chainage. They come as a few ascending runs
// (the subcritical pass, each supercritical segment, the section starts,
// the jumps), which are merged one after the other into the first: cheaper
// than sorting them. Samples at one chainage all take the profile's depth
// there, so their order among themselves does not matter. buf is scratch
// space, returned for the next call.
func sortSamples(ss, buf []sample) ([]sample, []sample) {
	runs := 1
	for i := 1; i < len(ss); i++ {
		if ss[i].x < ss[i-1].x {
			runs++
		}
	}
	if runs == 1 {
		return ss, buf
	}
	if runs > 8 {
		slices.SortFunc(ss, func(a, b sample) int { return cmp.Compare(a.x, b.x) })
		return ss, buf
	}
	end := 1 // ss[:end] is sorted
	for end < len(ss) && ss[end].x >= ss[end-1].x {
		end++
	}
	for end < len(ss) {
		next := end + 1
		for next < len(ss) && ss[next].x >= ss[next-1].x {
			next++
		}
		buf = mergeSamples(buf[:0], ss[:end], ss[end:next])
		copy(ss, buf)
		end = next
	}
	return ss, buf
}

// mergeSamples appends the merge of the ascending a and b to dst.
func mergeSamples(dst, a, b []sample) []sample {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if b[j].x < a[i].x {
			dst = append(dst, b[j])
			j++
		} else {
			dst = append(dst, a[i])
			i++
		}
	}
	dst = append(dst, a[i:]...)
	return append(dst, b[j:]...)
}

// goldenMax is the largest value of f found by a golden-section search on
// [a, b] (exact for a unimodal f, a good lower bound otherwise).
func goldenMax(f func(float64) float64, a, b float64) float64 {
	const inv = 0.6180339887498949
	c, d := b-inv*(b-a), a+inv*(b-a)
	fc, fd := f(c), f(d)
	for i := 0; i < 30 && b-a > 1e-4; i++ {
		if fc > fd {
			b, d, fd = d, c, fc
			c = b - inv*(b-a)
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + inv*(b-a)
			fd = f(d)
		}
	}
	return math.Max(fc, fd)
}

// maxScale finds the factor on every inflow at which the run just fills to
// its top (fill ratio 1). Depth grows about as Q^(2/3), so log(fill ratio)
// is nearly linear in log(scale): secant steps in log–log converge in a few
// solves. A bracket is kept throughout and the search falls back to
// bisection (in log scale) whenever a secant step leaves it or stalls, so it
// converges even where the ratio jumps (a hydraulic jump moving along the
// run).
//
// r1 is the fill ratio at the design flow, already known to the caller.
func maxScale(m *model, r1 float64) (float64, error) {
	defer func() { m.scale = 1 }()
	if m.outletFlow() <= 0 {
		return 0, nil
	}
	ratio := func(s float64) (float64, error) {
		m.scale = s
		return fillRatio(m)
	}
	// Beyond the engine's flow range the answer is "more than that".
	sMax := maxTotalFlow / m.outletFlow()
	lo, hi := 0.0, math.Inf(1) // ratio(lo) < 1 ≤ ratio(hi)
	s0, r0 := 1.0, r1
	if !(r0 > 0) {
		return 0, nil
	}
	if r0 >= 1 {
		// An outlet that holds water above the channel top even without
		// flow leaves no capacity at all.
		if d0, err := m.outlet.DownstreamDepth(0); err == nil && d0 >= m.availableDepth(m.L) {
			return 0, nil
		}
	}
	p := 2.0 / 3.0
	for i := 0; i < 60; i++ {
		if r0 < 1 {
			lo = math.Max(lo, s0)
		} else {
			hi = math.Min(hi, s0)
		}
		if math.Abs(r0-1) < 1e-4 || hi/lo-1 < 1e-5 {
			break
		}
		s1 := s0 * math.Exp(-math.Log(r0)/p)
		if !(s1 > lo && s1 < hi) || i%5 == 4 {
			switch {
			case math.IsInf(hi, 1):
				s1 = 2 * math.Max(lo, s0)
			case lo == 0:
				s1 = hi / 2
			default:
				s1 = math.Sqrt(lo * hi)
			}
		}
		if s1 < 1e-6 {
			// It floods with under a millionth of the design flow: no
			// capacity worth the name.
			return 0, nil
		}
		if s1 >= sMax {
			if s0 >= sMax {
				return sMax, nil
			}
			s1 = sMax
		}
		r1, err := ratio(s1)
		if errors.Is(err, errTooManySteps) {
			// The flows at this scale are too thin to integrate: the
			// largest scale known not to flood stands, on the safe side.
			return lo, nil
		}
		if err != nil {
			return 0, err
		}
		if !(r1 > 0) {
			return 0, ErrNumerical
		}
		if q := math.Log(r1/r0) / math.Log(s1/s0); q > 0.05 && q < 20 {
			p = q
		}
		s0, r0 = s1, r1
	}
	if r0 <= 1 || math.Abs(r0-1) < 1e-4 {
		return s0, nil
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
			q := m.Q(&m.reaches[r], x)
			sl := Slice{
				DistanceM:     x,
				FlowLS:        1000 * q,
				DepthMM:       1000 * y,
				InvertLevelM:  s.InvertAt(x),
				TopLevelM:     s.TopAt(x),
				Supercritical: sup,
			}
			if rc := &m.reaches[r]; y > 0 {
				if a := rc.area(y); a > 0 {
					// froude2 at y, without finding the area again
					sl.VelocityMS = q / a
					sl.Froude = math.Sqrt(q * q * rc.top(y) / (Gravity * a * a * a))
				}
			}
			seg.Slices = append(seg.Slices, sl)
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
	vals := [...]float64{r.FlowVelocity, r.ChannelDischarge, r.MaxPossibleDischarge, r.PercentageFull,
		r.Freeboard, r.FreeboardPercent, r.TotalSystemVolume, r.InstalledGradient, r.MaxDepthMM,
		r.MaxDepthAtM, r.OutletDepthMM, r.CriticalDepthMM, r.ChannelInternalWidth, r.MaxChannelDepthMM}
	if !allFinite(vals[:]) || !allFinite(r.CriticalSectionsM) || !allFinite(r.HydraulicJumpsM) {
		return false
	}
	for _, s := range r.Segments {
		if !allFinite([]float64{s.StartM, s.EndM, s.LengthMM, s.StepRaiseMM, s.FloorChangeMM}) {
			return false
		}
		// Each slice in place: a 3000 m run has 42,000 of these numbers.
		for _, c := range s.Slices {
			if !finite(c.DistanceM) || !finite(c.FlowLS) || !finite(c.DepthMM) || !finite(c.InvertLevelM) ||
				!finite(c.TopLevelM) || !finite(c.VelocityMS) || !finite(c.Froude) {
				return false
			}
		}
	}
	return true
}

func allFinite(vs []float64) bool {
	for _, v := range vs {
		if !finite(v) {
			return false
		}
	}
	return true
}
