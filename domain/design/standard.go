package design

import (
	"errors"
	"fmt"
	"math"

	"draindesign/domain/catalogue"
	"draindesign/domain/hydraulics"
)

// Standard mode chooses the channels. The catalogue orders its channels
// narrowest width first, then shallowest; the design is the first in that
// order that carries the flow without flooding. Within one width a deeper
// channel never floods where a shallower one does not (the engine's
// monotone property, hydraulics/property_test.go), so each width costs one
// test of its deepest channel and, if that one carries the flow, a binary
// search; widths are not monotone against each other (a narrow deep channel
// may carry more than a wide shallow one), so they are tried in order.

// designed is a calculated run: how it was laid and the engine's answer.
type designed struct {
	laid   *laid
	run    hydraulics.Run
	res    *hydraulics.Results
	config catalogue.Configuration
}

// sizeOptions are the engine options of the search: the maximum possible
// discharge is only worked out for the design itself.
var sizeOptions = hydraulics.Options{SkipMaxDischarge: true}

func (p *plan) selectStandard(cat *catalogue.Catalogue) (*designed, error) {
	if p.config == catalogue.BuiltInFall {
		return p.selectBuiltInFall(cat)
	}
	widths, err := p.channelsByWidth(cat)
	if err != nil {
		return nil, err
	}
	// A width whose discharge article (trash box, end cap with outlet) the
	// catalogue lacks is passed over; if no width is left, that is the
	// answer rather than "no channel".
	var missing error
	for _, sizes := range widths {
		var d *designed
		if p.config == catalogue.Stepped {
			d, err = p.stepped(cat, sizes)
		} else {
			d, err = p.singleSize(cat, sizes)
		}
		var ce *CalculationError
		switch {
		case errors.Is(err, hydraulics.ErrNoChannel):
			continue
		case errors.As(err, &ce):
			if missing == nil {
				missing = ce
			}
			continue
		case err != nil:
			return nil, err
		}
		return d, nil
	}
	if missing != nil {
		return nil, missing
	}
	return nil, failed(MsgNoChannel, hydraulics.ErrNoChannel)
}

// channelsByWidth lists the constant-depth channels standard mode may use,
// grouped by width (narrowest first), shallowest first within a width. The
// catalogue's single-size candidates are exactly those channels in that
// order; they are asked for a one-element run, as only their channel is
// wanted here.
func (p *plan) channelsByWidth(cat *catalogue.Catalogue) ([][]*catalogue.ChannelSpec, error) {
	cands, err := cat.Candidates(catalogue.CandidateRequest{
		System: p.sys.Slug, Loading: p.loading, Grating: p.grating, MinimumSizeMM: p.minSizeMM,
		RunLengthM: 1, Configuration: catalogue.SingleSize,
	})
	if err != nil {
		return nil, catalogueInvalid(err)
	}
	var out [][]*catalogue.ChannelSpec
	for _, c := range cands {
		ch, err := cat.Channel(c.Parts[0].Slug)
		if err != nil {
			return nil, err
		}
		if n := len(out); n > 0 && out[n-1][0].WidthMM == ch.WidthMM {
			out[n-1] = append(out[n-1], ch)
		} else {
			out = append(out, []*catalogue.ChannelSpec{ch})
		}
	}
	if len(out) == 0 {
		return nil, failed(MsgNoChannel, hydraulics.ErrNoChannel)
	}
	return out, nil
}

// elementsFor is the number of elements a single-size run of ch needs.
func (p *plan) elementsFor(ch *catalogue.ChannelSpec) int {
	return int(math.Ceil(math.Round(p.lengthM*1000)/float64(ch.LengthMM) - 1e-9))
}

// layParts lays channel parts over the run length.
func (p *plan) layParts(cat *catalogue.Catalogue, parts []catalogue.RunPart) (*laid, error) {
	els, err := cat.Layout(parts, p.lengthM, p.loading)
	if err != nil {
		return nil, catalogueInvalid(err)
	}
	return lay(els, p.gradient())
}

// singleSize finds the shallowest channel of one width that does not flood.
func (p *plan) singleSize(cat *catalogue.Catalogue, sizes []*catalogue.ChannelSpec) (*designed, error) {
	runs := make([]*laid, len(sizes))
	build := func(i int) (hydraulics.Run, error) {
		l, err := p.layParts(cat, []catalogue.RunPart{{Slug: sizes[i].Slug, Count: p.elementsFor(sizes[i])}})
		if err != nil {
			return hydraulics.Run{}, err
		}
		runs[i] = l
		return p.runOf(cat, l)
	}
	i, res, err := hydraulics.SelectSmallest(len(sizes), build, hydraulics.Options{})
	if err != nil {
		return nil, unwrapCandidate(err)
	}
	run, err := p.runOf(cat, runs[i])
	if err != nil {
		return nil, err
	}
	return &designed{laid: runs[i], run: run, res: res, config: catalogue.SingleSize}, nil
}

// stepped designs a stepped run of one width with the engine's step
// search, which places each step at the element joint that lets the
// shallower channel reach furthest downstream. The engine lays its sizes
// by one depth (available depth below a top line); within one width of
// the catalogue the grating and its seat take the same height above the
// maximum water level for every depth (a test holds the data to it), so a
// top line that far below the grating gives the catalogue's inverts
// exactly. The design is then laid by the catalogue (cutting the last
// element) and calculated in full.
func (p *plan) stepped(cat *catalogue.Catalogue, sizes []*catalogue.ChannelSpec) (*designed, error) {
	deepest := sizes[len(sizes)-1]
	probe, err := p.layParts(cat, []catalogue.RunPart{{Slug: deepest.Slug, Count: p.elementsFor(deepest)}})
	if err != nil {
		return nil, err
	}
	out, err := p.outlet(cat, probe.elements[len(probe.elements)-1])
	if err != nil {
		return nil, err
	}
	engineSizes := make([]hydraulics.ChannelSize, len(sizes))
	for i, ch := range sizes {
		engineSizes[i] = hydraulics.ChannelSize{
			Name: ch.Slug, Shape: shapeOf(ch.Shape), N: ch.ManningN, Depth: float64(ch.MaxDownstreamWaterDepthMM) / 1000,
		}
	}
	seat := float64(sizes[0].InvertDepthDownstreamMM-sizes[0].MaxDownstreamWaterDepthMM) / 1000
	unit := float64(sizes[0].LengthMM) / 1000
	layout := hydraulics.Layout{
		Length: p.lengthM, Gradient: p.gradient(), TopAtHead: -seat, Unit: unit,
		Lateral: p.lateral, Points: p.points, Outlet: out, Method: p.method,
	}
	sel, err := hydraulics.SelectStepped(layout, engineSizes, sizeOptions)
	if err != nil {
		return nil, err
	}
	parts := make([]catalogue.RunPart, len(sel.Sections))
	for k, s := range sel.Sections {
		n := int(math.Round(s.Length() / unit))
		if k == len(sel.Sections)-1 {
			n = int(math.Ceil((p.lengthM-s.Start)/unit - 1e-9))
		}
		parts[k] = catalogue.RunPart{Slug: sizes[sel.Sizes[k]].Slug, Count: max(n, 1)}
	}
	l, err := p.layParts(cat, parts)
	if err != nil {
		return nil, err
	}
	run, err := p.runOf(cat, l)
	if err != nil {
		return nil, err
	}
	res, err := hydraulics.Calculate(run)
	if err != nil {
		return nil, err
	}
	if res.Overflowed {
		// Only a tail shared between two elements of different depths can
		// make the laid run differ from the one the search tested.
		return nil, fmt.Errorf("%w: the laid stepped run overflows", hydraulics.ErrNoChannel)
	}
	return &designed{laid: l, run: run, res: res, config: catalogue.Stepped}, nil
}

// selectBuiltInFall enters the built-in-fall series at its first element,
// then at each deeper one: deeper everywhere, so the order is monotone and
// the engine's binary search applies.
func (p *plan) selectBuiltInFall(cat *catalogue.Catalogue) (*designed, error) {
	cands, err := cat.Candidates(catalogue.CandidateRequest{
		System: p.sys.Slug, Loading: p.loading, Grating: p.grating, MinimumSizeMM: p.minSizeMM,
		RunLengthM: p.lengthM, Configuration: catalogue.BuiltInFall,
	})
	if err != nil {
		return nil, catalogueInvalid(err)
	}
	if len(cands) == 0 {
		return nil, failed(MsgNoChannel, hydraulics.ErrNoChannel)
	}
	runs := make([]*laid, len(cands))
	build := func(i int) (hydraulics.Run, error) {
		l, err := lay(cands[i].Elements, p.gradient())
		if err != nil {
			return hydraulics.Run{}, err
		}
		runs[i] = l
		return p.runOf(cat, l)
	}
	i, res, err := hydraulics.SelectSmallest(len(cands), build, hydraulics.Options{})
	if errors.Is(err, hydraulics.ErrNoChannel) {
		return nil, failed(MsgNoChannel, err)
	}
	if err != nil {
		return nil, unwrapCandidate(err)
	}
	run, err := p.runOf(cat, runs[i])
	if err != nil {
		return nil, err
	}
	return &designed{laid: runs[i], run: run, res: res, config: catalogue.BuiltInFall}, nil
}

// unwrapCandidate returns the design error a candidate's build gave, which
// the engine wraps with the candidate's index.
func unwrapCandidate(err error) error {
	var ve *ValidationError
	var ce *CalculationError
	switch {
	case errors.As(err, &ve):
		return ve
	case errors.As(err, &ce):
		return ce
	}
	return err
}
