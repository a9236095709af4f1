package catalogue

import (
	"fmt"
	"math"
	"sort"
)

// Configuration is how standard mode builds a run.
type Configuration string

// Configurations.
const (
	// SingleSize: one constant-depth channel along the whole run.
	SingleSize Configuration = "single-size"
	// Stepped: constant-depth channels of one width getting deeper toward
	// the outlet, each step a floor drop at a joint.
	Stepped Configuration = "stepped"
	// BuiltInFall: consecutive elements of the built-in-fall series,
	// continued at constant depth past its end.
	BuiltInFall Configuration = "built-in-fall"
)

// CandidateRequest asks for standard mode's candidate channel sets.
type CandidateRequest struct {
	System string `json:"system"`
	// Loading is a class (or letter) the system offers.
	Loading string `json:"loading"`
	// Grating is required for grated systems and ignored otherwise; it
	// decides the family (fibre: standard or ks).
	Grating string `json:"grating"`
	// MinimumSizeMM leaves out narrower channels (0: none).
	MinimumSizeMM int     `json:"minimum_size_mm"`
	RunLengthM    float64 `json:"run_length_m"`
	// Configuration "" is single-size, or stepped for an always-stepped
	// system (the high-capacity one, which is single size only with
	// controlled discharge).
	Configuration Configuration `json:"configuration"`
	// ExcludeSubProducts leaves out the channel types not offered where
	// the run is designed (channel availability).
	ExcludeSubProducts []string `json:"exclude_sub_products,omitempty"`
}

// Candidate is one channel set for a run, laid out and cut to length.
// Parts is what Layout needs to lay it again, e.g. with other step
// positions; Grating is the chosen grating in the candidate's width.
type Candidate struct {
	Configuration Configuration `json:"configuration"`
	WidthMM       int           `json:"width_mm"`
	Parts         []RunPart     `json:"parts"`
	Grating       *GratingSpec  `json:"grating,omitempty"`
	Elements      []Element     `json:"elements"`
}

// Candidates lists the candidate channel sets of standard mode, in the
// order the engine should try them (the first one that carries the flow is
// the design):
//   - single-size: narrowest width first, then shallowest channel;
//   - stepped: narrowest width first; within a width by the deepest channel
//     used, then from the longest ladder (starting shallowest) to the single
//     size; the run's elements are shared evenly between the rungs of the
//     ladder, any remainder going to the deeper ones;
//   - built-in fall: the series entered at its first element, then at each
//     deeper one, continued past its end at constant depth.
//
// Only ordinary channels are used (no L or height-range channels). No
// candidate (e.g. a minimum size above the range) gives an empty list.
func (c *Catalogue) Candidates(req CandidateRequest) ([]Candidate, error) {
	s, err := c.System(req.System)
	if err != nil {
		return nil, err
	}
	if s.ProductType == ProductTypeConcrete || s.ProductType == ProductTypePoint {
		return nil, &RequestError{Reason: fmt.Sprintf("system %s (type %s) has no channel elements", s.Slug, s.ProductType)}
	}
	if req.Loading == "" {
		return nil, &RequestError{Reason: "loading is required for system " + s.Slug}
	}
	class, err := s.ResolveLoading(req.Loading)
	if err != nil {
		return nil, err
	}
	var grating *Grating
	if s.Grated {
		if req.Grating == "" {
			return nil, &RequestError{Reason: "a grating is required for system " + s.Slug}
		}
		grating, err = c.Grating(req.Grating)
		if err != nil {
			return nil, err
		}
		if grating.System != s.Slug || !contains(grating.LoadingClasses, class) {
			return nil, &NotFoundError{Kind: "grating", Key: req.Grating, In: fmt.Sprintf("system %q at loading %s", s.Slug, class)}
		}
	}
	if req.RunLengthM <= 0 || math.IsNaN(req.RunLengthM) || math.IsInf(req.RunLengthM, 0) {
		return nil, &RequestError{Reason: "run length must be above 0"}
	}
	config := req.Configuration
	if config == "" {
		config = SingleSize
		if s.AlwaysStepped {
			config = Stepped
		}
	}
	switch config {
	case SingleSize:
		// An always-stepped system is designed single size only under
		// controlled discharge, where stepping is not allowed.
	case Stepped:
		if !s.CanStep {
			return nil, &RequestError{Reason: "system " + s.Slug + " cannot be stepped"}
		}
	case BuiltInFall:
		if s.FallSeries == nil {
			return nil, &RequestError{Reason: "system " + s.Slug + " has no built-in fall"}
		}
	default:
		return nil, &RequestError{Reason: fmt.Sprintf("configuration %q unknown", config)}
	}

	fits := func(ch *ChannelSpec) bool {
		if ch.Kind != KindStandard || !ch.Offers(class) || ch.WidthMM < req.MinimumSizeMM || contains(req.ExcludeSubProducts, ch.SubProduct) {
			return false
		}
		if grating != nil {
			if grating.Family != "" && grating.Family != ch.Family {
				return false
			}
			if _, ok := grating.Variant(ch.WidthMM); !ok {
				return false
			}
		}
		return true
	}
	b := candidateBuilder{c: c, s: s, class: class, grating: grating, config: config, runLengthM: req.RunLengthM}
	var out []Candidate
	switch config {
	case BuiltInFall:
		out, err = b.builtInFall(fits)
	default:
		out, err = b.ladders(fits)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

type candidateBuilder struct {
	c          *Catalogue
	s          *System
	class      string
	grating    *Grating
	config     Configuration
	runLengthM float64
}

func (b candidateBuilder) elementsFor(lengthMM int) int {
	return int(math.Ceil(math.Round(b.runLengthM*1000) / float64(lengthMM)))
}

func (b candidateBuilder) candidate(width int, parts []RunPart) (Candidate, error) {
	els, err := b.c.Layout(parts, b.runLengthM, b.class)
	if err != nil {
		return Candidate{}, err
	}
	cand := Candidate{Configuration: b.config, WidthMM: width, Parts: parts, Elements: els}
	if b.grating != nil {
		g, err := b.c.GratingSpec(b.grating.Slug, width)
		if err != nil {
			return Candidate{}, err
		}
		cand.Grating = &g
	}
	return cand, nil
}

// ladders builds single-size and stepped candidates from the constant-depth
// channels of each width, sorted by depth.
func (b candidateBuilder) ladders(fits func(*ChannelSpec) bool) ([]Candidate, error) {
	byWidth := map[int][]*ChannelSpec{}
	var widths []int
	for _, ch := range b.c.channelsBySystem[b.s.Slug] {
		if !fits(ch) || ch.HasBuiltInFall() {
			continue
		}
		if byWidth[ch.WidthMM] == nil {
			widths = append(widths, ch.WidthMM)
		}
		byWidth[ch.WidthMM] = append(byWidth[ch.WidthMM], ch)
	}
	sort.Ints(widths)
	var out []Candidate
	for _, w := range widths {
		ladder := byWidth[w]
		sort.SliceStable(ladder, func(i, j int) bool { return ladder[i].InvertDepthDownstreamMM < ladder[j].InvertDepthDownstreamMM })
		n := b.elementsFor(ladder[0].LengthMM)
		for j := range ladder {
			first := j
			if b.config == Stepped {
				first = 0
			}
			for i := first; i <= j; i++ {
				rungs := ladder[i : j+1]
				if len(rungs) > n {
					continue
				}
				cand, err := b.candidate(w, evenParts(rungs, n))
				if err != nil {
					return nil, err
				}
				out = append(out, cand)
			}
		}
	}
	return out, nil
}

// evenParts shares n elements between the rungs, the remainder going to
// the deeper (downstream) ones.
func evenParts(rungs []*ChannelSpec, n int) []RunPart {
	r := len(rungs)
	parts := make([]RunPart, r)
	for k, ch := range rungs {
		count := n / r
		if k >= r-n%r {
			count++
		}
		parts[k] = RunPart{Slug: ch.Slug, Count: count}
	}
	return parts
}

func (b candidateBuilder) builtInFall(fits func(*ChannelSpec) bool) ([]Candidate, error) {
	fs := b.s.FallSeries
	cont := b.c.channelBySlug[fs.Continuation]
	if !fits(cont) {
		return []Candidate{}, nil
	}
	series := make([]*ChannelSpec, 0, len(fs.Slugs))
	for _, slug := range fs.Slugs {
		ch := b.c.channelBySlug[slug]
		if !fits(ch) {
			return []Candidate{}, nil
		}
		series = append(series, ch)
	}
	n := b.elementsFor(series[0].LengthMM)
	out := []Candidate{}
	for start := range series {
		var parts []RunPart
		used := 0
		for _, ch := range series[start:] {
			if used == n {
				break
			}
			parts = append(parts, RunPart{Slug: ch.Slug, Count: 1})
			used++
		}
		if used < n {
			parts = append(parts, RunPart{Slug: cont.Slug, Count: n - used})
		}
		cand, err := b.candidate(cont.WidthMM, parts)
		if err != nil {
			return nil, err
		}
		out = append(out, cand)
	}
	return out, nil
}
