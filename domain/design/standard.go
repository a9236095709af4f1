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

// selectStandard designs the run: widths in order, each single size,
// stepped or with a built-in fall as configured.
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
		RunLengthM: 1, Configuration: catalogue.SingleSize, ExcludeSubProducts: p.req.WithdrawnChannels,
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

// The searches test candidates at the engine's full accuracy, laid as one
// section per channel rather than by the catalogue's element list (which
// costs as much as a short calculation). Looser numerics, as the engine's
// own searches use, were no faster on U sections and on long supercritical
// runs were twice as slow, and moved the fill of a supercritical run with a
// jump by 3e-4; they are not used. The design is laid by the catalogue and
// calculated in full, and should that calculation disagree with the search
// at the margin (the two sample the profile a little differently), the
// search steps back.
var searchOptions = hydraulics.Options{SkipMaxDischarge: true}

// rung is count elements of the size-th channel of a width.
type rung struct{ size, count int }

// quickRun lays rungs head to outlet, one section each, with the inverts
// and water depths the catalogue gives the channels; the last ends at the
// run length. It differs from the catalogue's layout only where a short
// tail is shared between two elements.
func (p *plan) quickRun(cat *catalogue.Catalogue, sizes []*catalogue.ChannelSpec, rungs []rung) (hydraulics.Run, error) {
	run := p.baseRun()
	g := p.gradient()
	x := 0.0
	run.Sections = make([]hydraulics.Section, 0, len(rungs))
	for k, r := range rungs {
		ch := sizes[r.size]
		x1 := x + float64(r.count*ch.LengthMM)/1000
		if k == len(rungs)-1 {
			x1 = p.lengthM
		}
		if x1-x < 1e-9 {
			continue
		}
		inv, d := float64(ch.InvertDepthDownstreamMM)/1000, float64(ch.MaxDownstreamWaterDepthMM)/1000
		run.Sections = append(run.Sections, hydraulics.Section{
			Name: ch.Slug, Start: x, End: x1, Shape: shapeOf(ch.Shape), N: ch.ManningN,
			InvertStart: -g*x - inv, InvertEnd: -g*x1 - inv, DepthStart: d, DepthEnd: d,
		})
		x = x1
	}
	last := sizes[rungs[len(rungs)-1].size]
	out, err := p.outlet(cat, catalogue.Element{Slug: last.Slug, Name: last.Name, Kind: last.Kind, WidthMM: last.WidthMM, LengthMM: last.LengthMM})
	run.Outlet = out
	return run, err
}

func (p *plan) rungsFlood(cat *catalogue.Catalogue, sizes []*catalogue.ChannelSpec, rungs []rung) (bool, error) {
	run, err := p.quickRun(cat, sizes, rungs)
	if err != nil {
		return false, err
	}
	return p.reuse.Floods(run, searchOptions)
}

// calculateParts lays parts by the catalogue and calculates them in full.
func (p *plan) calculateParts(cat *catalogue.Catalogue, parts []catalogue.RunPart, config catalogue.Configuration) (*designed, error) {
	l, err := p.layParts(cat, parts)
	if err != nil {
		return nil, err
	}
	run, err := p.runOf(cat, l)
	if err != nil {
		return nil, err
	}
	res, err := p.reuse.CalculateWith(run, hydraulics.Options{})
	if err != nil {
		return nil, err
	}
	return &designed{laid: l, run: run, res: res, config: config}, nil
}

func partsOf(sizes []*catalogue.ChannelSpec, rungs []rung) []catalogue.RunPart {
	parts := make([]catalogue.RunPart, 0, len(rungs))
	for _, r := range rungs {
		if r.count > 0 {
			parts = append(parts, catalogue.RunPart{Slug: sizes[r.size].Slug, Count: r.count})
		}
	}
	return parts
}

// singleSize finds the shallowest channel of one width that does not
// flood; should the full calculation disagree with the search at the
// margin, the next deeper channel is taken.
func (p *plan) singleSize(cat *catalogue.Catalogue, sizes []*catalogue.ChannelSpec) (*designed, error) {
	single := func(i int) []rung { return []rung{{i, p.elementsFor(sizes[i])}} }
	i, err := smallest(len(sizes), func(i int) (bool, error) { return p.rungsFlood(cat, sizes, single(i)) })
	if err != nil {
		return nil, err
	}
	for ; i < len(sizes); i++ {
		d, err := p.calculateParts(cat, partsOf(sizes, single(i)), catalogue.SingleSize)
		if err != nil {
			return nil, err
		}
		if !d.res.Overflowed {
			return d, nil
		}
	}
	return nil, fmt.Errorf("%w: the design overflows in its full calculation", hydraulics.ErrNoChannel)
}

// stepped designs a stepped run of one width: progressively deeper
// channels toward the outlet, each as shallow as it can be. It finds the
// shallowest channel that carries the whole run, then, channel by channel
// downwards, the longest head stretch (in whole elements) that the next
// shallower one can take over without flooding, by binary search: a longer
// stretch of a shallower channel never floods less.
func (p *plan) stepped(cat *catalogue.Catalogue, sizes []*catalogue.ChannelSpec) (*designed, error) {
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
	n := p.elementsFor(sizes[0])
	floods := func(rungs []rung) (bool, error) { return p.rungsFlood(cat, sizes, rungs) }
	k, err := smallest(len(sizes), func(i int) (bool, error) { return floods([]rung{{i, n}}) })
	if err != nil {
		return nil, err
	}
	cur := []rung{{k, n}}
	accepted := [][]rung{cur}
	for j := k - 1; j >= 0; j-- {
		head := cur[0].count
		with := func(i int) []rung {
			rs := []rung{{j, i}}
			if head > i {
				rs = append(rs, rung{cur[0].size, head - i})
			}
			return append(rs, cur[1:]...)
		}
		// 0 is the current design, which fits.
		lo, err := largestFitting(head, func(i int) (bool, float64, error) {
			run, err := p.quickRun(cat, sizes, with(i))
			if err != nil {
				return false, 0, err
			}
			r, largest, atStart, err := p.reuse.SectionFill(run, searchOptions)
			if err != nil {
				return false, 0, err
			}
			// The shallower channel's stretch and the step down into the
			// next channel: the places whose fill grows with i.
			grow := largest[0]
			if len(atStart) > 1 {
				grow = math.Max(grow, atStart[1])
			}
			return r > 1, grow, nil
		})
		if err != nil {
			return nil, err
		}
		if lo == 0 {
			break // not even one element of a shallower channel fits at the head
		}
		cur = with(lo)
		accepted = append(accepted, cur)
	}
	for h := len(accepted) - 1; h >= 0; h-- {
		d, err := p.calculateParts(cat, partsOf(sizes, accepted[h]), catalogue.Stepped)
		if err != nil {
			return nil, err
		}
		if !d.res.Overflowed {
			return d, nil
		}
	}
	return nil, fmt.Errorf("%w: the stepped design overflows in its full calculation", hydraulics.ErrNoChannel)
}

// largestFitting is the largest i in [0, n] for which test(i) does not
// flood, given that 0 does not and that flooding, once it starts, persists
// as i grows: hydraulics.LargestFitting's answer. Each test also gives the
// fill ratio of the stretch that grows with i (the shallower channel at
// the head of a stepped run), which rises smoothly with i and floods where
// it passes 1; the next test is where the secant through the last two
// ratios reaches 1, inside the bracket [lo fits, hi floods] that a
// bisection keeps. The secant mostly lands on the answer or its
// neighbour: four or five tests instead of log2(n). Every third test
// bisects, so that the search ends within about three times log2(n) tests
// whatever the ratios do.
func largestFitting(n int, test func(i int) (floods bool, ratio float64, err error)) (int, error) {
	lo, hi := 0, n+1
	xa, ra, xb, rb := -1, 0.0, -1, 0.0 // the last two tests
	for t := 0; hi-lo > 1; t++ {
		i := (lo + hi) / 2
		if t%3 != 2 && xa >= 0 && ra != rb {
			g := float64(xb) + (1-rb)*float64(xb-xa)/(rb-ra)
			if g > float64(lo) && g < float64(hi) {
				i = max(lo+1, min(int(math.Floor(g)), hi-1))
			}
		}
		f, r, err := test(i)
		if err != nil {
			return 0, err
		}
		if f {
			hi = i
		} else {
			lo = i
		}
		xa, ra, xb, rb = xb, rb, i, r
	}
	return lo, nil
}

// smallest is the first of n candidates, ordered so that a later one never
// floods where an earlier one does not, that does not flood; the last is
// tested first. None gives hydraulics.ErrNoChannel.
func smallest(n int, floods func(i int) (bool, error)) (int, error) {
	if n == 0 {
		return -1, hydraulics.ErrNoChannel
	}
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
// a binary search applies.
func (p *plan) selectBuiltInFall(cat *catalogue.Catalogue) (*designed, error) {
	cands, err := cat.Candidates(catalogue.CandidateRequest{
		System: p.sys.Slug, Loading: p.loading, Grating: p.grating, MinimumSizeMM: p.minSizeMM,
		RunLengthM: p.lengthM, Configuration: catalogue.BuiltInFall, ExcludeSubProducts: p.req.WithdrawnChannels,
	})
	if err != nil {
		return nil, catalogueInvalid(err)
	}
	runOf := func(i int) (*laid, hydraulics.Run, error) {
		l, err := lay(cands[i].Elements, p.gradient())
		if err != nil {
			return nil, hydraulics.Run{}, err
		}
		run, err := p.runOf(cat, l)
		return l, run, err
	}
	i, err := smallest(len(cands), func(i int) (bool, error) {
		_, run, err := runOf(i)
		if err != nil {
			return false, err
		}
		return p.reuse.Floods(run, searchOptions)
	})
	if err != nil {
		return nil, err
	}
	for ; i < len(cands); i++ {
		l, run, err := runOf(i)
		if err != nil {
			return nil, err
		}
		res, err := p.reuse.CalculateWith(run, hydraulics.Options{})
		if err != nil {
			return nil, err
		}
		if !res.Overflowed {
			return &designed{laid: l, run: run, res: res, config: catalogue.BuiltInFall}, nil
		}
	}
	return nil, hydraulics.ErrNoChannel
}
