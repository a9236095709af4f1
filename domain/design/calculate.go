package design

import (
	"errors"
	"math"

	"draindesign/domain/catalogue"
	"draindesign/domain/hydraulics"
)

// Calculate designs and calculates one run: it validates the request
// (design-tool.md section 5), lays the channels (standard mode chooses
// them, advanced mode takes the user's, the concrete channel is one
// section), runs the engine and assembles the results with the run's
// materials. A request refused before any calculation is a
// *ValidationError or a *LengthMismatchError, a design that could not be
// made a *CalculationError; anything else is a defect
// (hydraulics.ErrNumerical).
func Calculate(cat *catalogue.Catalogue, r *Request) (*Answer, error) {
	p, err := prepare(cat, r)
	if err != nil {
		return nil, err
	}
	res, err := p.calculate(cat)
	if err != nil {
		return nil, err
	}
	return &Answer{Results: res}, nil
}

func (p *plan) calculate(cat *catalogue.Catalogue) (*Results, error) {
	if p.kind == pointRun {
		return p.calculatePoint(cat)
	}
	if p.controlled() {
		return p.calculateControlled(cat)
	}
	d, err := p.design(cat)
	if err != nil {
		return nil, engineError(err)
	}
	res, err := p.results(cat, d)
	if err != nil {
		return nil, engineError(err)
	}
	return res, nil
}

// design lays the run's channels and calculates it.
func (p *plan) design(cat *catalogue.Catalogue) (*designed, error) {
	var els []catalogue.Element
	var err error
	switch {
	case p.kind == concreteRun:
		els, err = catalogue.ConcreteElements(p.concrete, p.lengthM)
	case p.standard():
		return p.selectStandard(cat)
	default:
		els, err = p.advancedElements(cat)
	}
	if err != nil {
		return nil, catalogueInvalid(err)
	}
	l, err := lay(els, p.gradient())
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
	config := catalogue.SingleSize
	if p.req.Stepped || len(channelsUsed(els, nil)) > 1 {
		config = catalogue.Stepped
	}
	return &designed{laid: l, run: run, res: res, config: config}, nil
}

// advancedElements lays the user's channels, cut at the head and the
// discharge as asked; they must then match the run length to the mm.
func (p *plan) advancedElements(cat *catalogue.Catalogue) ([]catalogue.Element, error) {
	els, err := cat.LayoutCut(p.parts, p.headCutMM, p.dischargeCutMM, p.loading)
	if err != nil {
		return nil, err
	}
	laidMM := els[len(els)-1].EndMM
	runMM := int(math.Round(p.lengthM * 1000))
	if laidMM != runMM {
		return nil, &LengthMismatchError{ChannelsM: float64(laidMM) / 1000, RunM: float64(runMM) / 1000}
	}
	return els, nil
}

// engineError turns the engine's refusals into the design's: its input
// errors are requests the validation let through, its "no channel" a
// failed design.
func engineError(err error) error {
	var ie *hydraulics.InputError
	var ve *ValidationError
	var ce *CalculationError
	switch {
	case errors.As(err, &ve), errors.As(err, &ce):
		return err
	case errors.Is(err, hydraulics.ErrNoChannel):
		return failed(MsgNoChannel, err)
	case errors.As(err, &ie):
		return invalid(ie.Field, "%s", sentence(ie.Message))
	}
	return err
}
