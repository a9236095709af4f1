package catalogue

import (
	"fmt"
	"math"
)

// MinPieceMM is the shortest piece a channel element may be cut to.
const MinPieceMM = 100

// RunPart is Count consecutive elements of one channel, head to outlet.
type RunPart struct {
	Slug  string `json:"slug"`
	Count int    `json:"count"`
}

// Element is one laid channel element (or cut piece) of a run: the neutral
// description the hydraulic engine consumes. Chainage runs from the head
// (upstream end, 0) to the outlet, in mm. Depths are in mm from the top of
// the grating; a cut built-in-fall piece keeps its upstream end and gets the
// depths of where it was cut.
type Element struct {
	Index      int         `json:"index"`
	Slug       string      `json:"slug"`
	Name       string      `json:"name"`
	HAN        string      `json:"han"`
	System     string      `json:"system"`
	Family     string      `json:"family,omitempty"`
	SubProduct string      `json:"sub_product"`
	Kind       ChannelKind `json:"kind"`
	StartMM    int         `json:"start_mm"`
	EndMM      int         `json:"end_mm"`
	LengthMM   int         `json:"length_mm"`
	// ElementLengthMM is the full element length; LengthMM is shorter for a
	// cut piece.
	ElementLengthMM           int     `json:"element_length_mm"`
	Cut                       bool    `json:"cut"`
	WidthMM                   int     `json:"width_mm"`
	OuterWidthMM              int     `json:"outer_width_mm"`
	BodyHeightMM              int     `json:"body_height_mm"`
	InvertDepthUpstreamMM     float64 `json:"invert_depth_upstream_mm"`
	InvertDepthDownstreamMM   float64 `json:"invert_depth_downstream_mm"`
	MaxWaterDepthUpstreamMM   float64 `json:"max_water_depth_upstream_mm"`
	MaxWaterDepthDownstreamMM float64 `json:"max_water_depth_downstream_mm"`
	ManningN                  float64 `json:"manning_n"`
	Shape                     Shape   `json:"shape"`
}

// FloorDropMM is how far the invert drops at the joint from prev to e
// (positive at a step; 0 on a continuous invert).
func (e Element) FloorDropMM(prev Element) float64 {
	return e.InvertDepthUpstreamMM - prev.InvertDepthDownstreamMM
}

// piece is the part of an element kept: from fromMM to fromMM+lengthMM.
type piece struct {
	fromMM, lengthMM int
}

// Layout lays the parts out head to outlet and cuts them to the run length
// (metres, rounded to the mm; 0 keeps every element whole). The cut is made
// at the downstream end of the last element, or of the one before a final
// L channel, whose outlet must stay; a piece shorter than MinPieceMM is
// avoided by sharing the tail between the last two elements. Loading (class
// or letter, "" for none) sets the names and body heights shown and must be
// offered by every channel. Channels shorter than the run, or longer by a
// whole element, give a *LengthMismatchError.
func (c *Catalogue) Layout(parts []RunPart, runLengthM float64, loading string) ([]Element, error) {
	specs, s, class, err := c.expand(parts, loading)
	if err != nil {
		return nil, err
	}
	pieces := make([]piece, len(specs))
	total := 0
	for i, ch := range specs {
		pieces[i] = piece{0, ch.LengthMM}
		total += ch.LengthMM
	}
	run := total
	if runLengthM > 0 {
		run = int(math.Round(runLengthM * 1000))
	}
	if run < MinPieceMM {
		return nil, &RequestError{Reason: fmt.Sprintf("run length %d mm is below the %d mm minimum piece", run, MinPieceMM)}
	}
	if run > total {
		return nil, &LengthMismatchError{ChannelsMM: total, RunMM: run}
	}
	if surplus := total - run; surplus > 0 {
		k := len(specs) - 1
		if specs[k].Kind == KindL {
			k--
		}
		if k < 0 {
			return nil, &RequestError{Reason: "an L channel on its own cannot be cut"}
		}
		if surplus >= specs[k].LengthMM {
			return nil, &LengthMismatchError{ChannelsMM: total, RunMM: run}
		}
		pieces[k].lengthMM -= surplus
		if pieces[k].lengthMM < MinPieceMM {
			j := k - 1
			if j < 0 {
				return nil, &RequestError{Reason: fmt.Sprintf("run length leaves a %d mm piece, below the %d mm minimum", pieces[k].lengthMM, MinPieceMM)}
			}
			tail := specs[j].LengthMM + pieces[k].lengthMM
			a := min((tail+1)/2, specs[j].LengthMM)
			pieces[j].lengthMM, pieces[k].lengthMM = a, tail-a
		}
	}
	return c.build(s, class, specs, pieces), nil
}

// LayoutCut lays the parts out whole, then cuts headCutMM off the upstream
// end of the first element and dischargeCutMM off the downstream end of the
// last (advanced mode's head and discharge cutting).
func (c *Catalogue) LayoutCut(parts []RunPart, headCutMM, dischargeCutMM int, loading string) ([]Element, error) {
	specs, s, class, err := c.expand(parts, loading)
	if err != nil {
		return nil, err
	}
	pieces := make([]piece, len(specs))
	for i, ch := range specs {
		pieces[i] = piece{0, ch.LengthMM}
	}
	if headCutMM < 0 || dischargeCutMM < 0 {
		return nil, &RequestError{Reason: "cut distances must not be negative"}
	}
	last := len(specs) - 1
	if dischargeCutMM > 0 && specs[last].Kind == KindL {
		return nil, &RequestError{Reason: "an L channel cannot be cut at the discharge"}
	}
	pieces[0].fromMM += headCutMM
	pieces[0].lengthMM -= headCutMM
	pieces[last].lengthMM -= dischargeCutMM
	for i, p := range pieces {
		if p.lengthMM < MinPieceMM {
			return nil, &RequestError{Reason: fmt.Sprintf("element %d (%s) cut to %d mm, below the %d mm minimum", i+1, specs[i].Slug, p.lengthMM, MinPieceMM)}
		}
	}
	return c.build(s, class, specs, pieces), nil
}

// expand resolves the parts (one system, every channel offering the loading).
func (c *Catalogue) expand(parts []RunPart, loading string) ([]*ChannelSpec, *System, string, error) {
	var specs []*ChannelSpec
	var s *System
	class := ""
	for _, p := range parts {
		ch, err := c.Channel(p.Slug)
		if err != nil {
			return nil, nil, "", err
		}
		if p.Count < 0 {
			return nil, nil, "", &RequestError{Reason: fmt.Sprintf("count %d for %s is negative", p.Count, p.Slug)}
		}
		if s == nil {
			s = c.systemBySlug[ch.System]
			if loading != "" {
				if class, err = s.ResolveLoading(loading); err != nil {
					return nil, nil, "", err
				}
			}
		} else if ch.System != s.Slug {
			return nil, nil, "", &RequestError{Reason: fmt.Sprintf("channel %s is not of system %s", ch.Slug, s.Slug)}
		}
		if class != "" && !ch.Offers(class) {
			return nil, nil, "", &NotFoundError{Kind: "loading", Key: class, In: "channel " + ch.Slug}
		}
		for range p.Count {
			specs = append(specs, ch)
		}
	}
	if len(specs) == 0 {
		return nil, nil, "", &RequestError{Reason: "no channels to lay"}
	}
	for i, ch := range specs {
		if ch.Kind == KindL && i != len(specs)-1 {
			return nil, nil, "", &RequestError{Reason: "an L channel can only be the last element"}
		}
		if ch.Kind != KindStandard && countOf(specs, ch) > 1 {
			return nil, nil, "", &RequestError{Reason: fmt.Sprintf("%s can be used once at most", ch.Slug)}
		}
	}
	return specs, s, class, nil
}

func countOf(specs []*ChannelSpec, ch *ChannelSpec) int {
	n := 0
	for _, x := range specs {
		if x == ch {
			n++
		}
	}
	return n
}

func (c *Catalogue) build(s *System, class string, specs []*ChannelSpec, pieces []piece) []Element {
	out := make([]Element, len(specs))
	at := 0
	var last *ChannelSpec // a run repeats its channels: name them once
	var name string
	var body int
	for i, ch := range specs {
		p := pieces[i]
		if ch != last {
			name, body = s.displayed(ch, class)
			last = ch
		}
		lerp := func(up, down int, atMM int) float64 {
			return float64(up) + float64(down-up)*float64(atMM)/float64(ch.LengthMM)
		}
		out[i] = Element{
			Index: i, Slug: ch.Slug, Name: name, HAN: ch.HAN, System: ch.System, Family: ch.Family,
			SubProduct: ch.SubProduct, Kind: ch.Kind,
			StartMM: at, EndMM: at + p.lengthMM, LengthMM: p.lengthMM, ElementLengthMM: ch.LengthMM,
			Cut: p.lengthMM != ch.LengthMM, WidthMM: ch.WidthMM, OuterWidthMM: ch.OuterWidthMM, BodyHeightMM: body,
			InvertDepthUpstreamMM:     lerp(ch.InvertDepthUpstreamMM, ch.InvertDepthDownstreamMM, p.fromMM),
			InvertDepthDownstreamMM:   lerp(ch.InvertDepthUpstreamMM, ch.InvertDepthDownstreamMM, p.fromMM+p.lengthMM),
			MaxWaterDepthUpstreamMM:   lerp(ch.MaxUpstreamWaterDepthMM(), ch.MaxDownstreamWaterDepthMM, p.fromMM),
			MaxWaterDepthDownstreamMM: lerp(ch.MaxUpstreamWaterDepthMM(), ch.MaxDownstreamWaterDepthMM, p.fromMM+p.lengthMM),
			ManningN:                  ch.ManningN, Shape: ch.Shape,
		}
		at += p.lengthMM
	}
	return out
}
