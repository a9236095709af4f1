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

// stepped designs a stepped run of one width: progressively deeper
// channels toward the outlet, each as shallow as it can be. It finds the
// shallowest channel that carries the whole run, then, channel by channel
// downwards, the longest head stretch (in whole elements) that the next
// shallower one can take over without flooding, by binary search: a longer
// stretch of a shallower channel never floods less. Every run tested is
// laid by the catalogue as it will be built, so the search sees the real
// inverts and the cut last element. The engine's flood test samples the
// profile a little differently from its full results, so the design is
// checked in full, stepping back to the last design that passes should the
// two disagree at the margin.
func (p *plan) stepped(cat *catalogue.Catalogue, sizes []*catalogue.ChannelSpec) (*designed, error) {
	n := p.elementsFor(sizes[0])
	for _, ch := range sizes[1:] {
		if ch.LengthMM != sizes[0].LengthMM {
			// Steps fall on joints only when the elements are alike.
			d, err := p.singleSize(cat, sizes)
			if d != nil {
				d.config = catalogue.Stepped
			}
			return d, err
		}
	}
	floods := func(parts []catalogue.RunPart) (bool, error) {
		l, err := p.layParts(cat, parts)
		if err != nil {
			return false, err
		}
		run, err := p.runOf(cat, l)
		if err != nil {
			return false, err
		}
		return hydraulics.Floods(run, sizeOptions)
	}
	single := func(i int) []catalogue.RunPart { return []catalogue.RunPart{{Slug: sizes[i].Slug, Count: n}} }
	// The shallowest single size that carries the run: the deepest first,
	// as a width that cannot carry it is passed over at the cost of one test.
	k, err := smallest(len(sizes), func(i int) (bool, error) { return floods(single(i)) })
	if err != nil {
		return nil, err
	}
	accepted := [][]catalogue.RunPart{single(k)}
	cur := accepted[0]
	for j := k - 1; j >= 0; j-- {
		head := cur[0].Count
		with := func(i int) []catalogue.RunPart {
			parts := []catalogue.RunPart{{Slug: sizes[j].Slug, Count: i}}
			if head > i {
				parts = append(parts, catalogue.RunPart{Slug: cur[0].Slug, Count: head - i})
			}
			return append(parts, cur[1:]...)
		}
		lo, hi := 0, head+1 // lo fits (0 is the current design), hi floods
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			f, err := floods(with(mid))
			if err != nil {
				return nil, err
			}
			if f {
				hi = mid
			} else {
				lo = mid
			}
		}
		if lo == 0 {
			break // not even one element of a shallower channel fits at the head
		}
		cur = with(lo)
		accepted = append(accepted, cur)
	}
	for h := len(accepted) - 1; h >= 0; h-- {
		l, err := p.layParts(cat, accepted[h])
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
		if !res.Overflowed {
			return &designed{laid: l, run: run, res: res, config: catalogue.Stepped}, nil
		}
	}
	return nil, fmt.Errorf("%w: the stepped design overflows in its full calculation", hydraulics.ErrNoChannel)
}

// smallest is the first of n candidates, ordered so that a later one never
// floods where an earlier one does not, that does not flood; the last is
// tested first. None gives hydraulics.ErrNoChannel.
func smallest(n int, floods func(i int) (bool, error)) (int, error) {
	f, err := floods(n - 1)
	if err != nil {
		return -1, err
	}
	if f {
		return -1, hydraulics.ErrNoChannel
	}
	lo, hi := -1, n-1 // lo floods (or is before the first), hi does not
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		f, err := floods(mid)
		if err != nil {
			return -1, err
		}
		if f {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi, nil
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
