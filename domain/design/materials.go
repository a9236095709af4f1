package design

import (
	"errors"
	"math"
	"strings"

	"draindesign/domain/catalogue"
)

// materials lists the materials of a designed run.
func (p *plan) materials(cat *catalogue.Catalogue, d *designed) (catalogue.Materials, error) {
	req := catalogue.MaterialRequest{
		System: p.sys.Slug, Loading: p.loading, Grating: p.grating, Elements: d.laid.elements,
		Discharge: p.discharge, TrashBoxDischargeLPS: p.trashBoxLPS, Drilling: p.drilling, Accessories: p.accessories,
	}
	last := d.laid.elements[len(d.laid.elements)-1]
	switch {
	case p.sharedBox:
		// The box belongs to the run this one discharges into.
		req.Discharge = catalogue.FreeOutflow
	case p.discharge == catalogue.EndCapWithOutletSetting:
		e, err := p.endCap(cat, last)
		if err != nil {
			return catalogue.Materials{}, err
		}
		req.EndCapID = e.ID
	case p.discharge == catalogue.OutflowInTrashBox:
		box, err := p.trashBox(cat, last.Slug)
		if err != nil {
			return catalogue.Materials{}, err
		}
		req.TrashBoxDischargeLPS = box.DischargeLPS
	}
	if err := p.controlledOutlet(cat, last, &req); err != nil {
		return catalogue.Materials{}, err
	}
	m, err := cat.Materials(req)
	if err != nil {
		return m, catalogueInvalid(err)
	}
	return m, nil
}

// MaterialsRequest is the body of POST /drainage/materials/: a calculated
// run's profile (its segments, each one channel) with the accessories
// placed along it. The channel of a segment is its slug, or else the
// description the results gave it. Discharge fields are read as in a
// calculation; descriptions are in English whatever the language asked.
type MaterialsRequest struct {
	PreferredLanguage string           `json:"preferred_language"`
	ChannelLengthM    float64          `json:"channel_length_m"`
	Profile           Profile          `json:"profile"`
	Accessories       []AccessoryInput `json:"accessories"`
	Throat            ID               `json:"throat"`
	Grating           ID               `json:"grating"`
	Loading           string           `json:"loading"`
	ChannelGroup      string           `json:"channel_group"`
	DischargeSetting  string           `json:"dischargeSetting"`
	OutflowTrashbox   ID               `json:"outflowTrashbox"`
	OutflowEndcap     ID               `json:"outflowEndcap"`
	Drilling          *DrillingInput   `json:"drilling"`
}

// Profile is the profile part of a materials request.
type Profile struct {
	CatchmentLengthMM float64          `json:"catchmentLength_mm"`
	Segments          []ProfileSegment `json:"segments"`
}

// ProfileSegment is one segment of a result's profile.
type ProfileSegment struct {
	LengthMM           float64 `json:"length_mm"`
	ChannelDescription string  `json:"channelDescription"`
	Slug               string  `json:"slug"`
}

// DecodeMaterialsRequest reads a materials request, leniently as a
// calculation request.
func DecodeMaterialsRequest(body []byte) (*MaterialsRequest, error) {
	var r MaterialsRequest
	if err := decodeInto(body, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Materials answers POST /drainage/materials/: the material lists of the
// profile's channels, laid head to outlet, and of its accessories.
func Materials(cat *catalogue.Catalogue, r *MaterialsRequest) (catalogue.Materials, error) {
	if len(r.Profile.Segments) == 0 {
		return catalogue.Materials{}, invalid("profile", "The profile has no segments: calculate the run first")
	}
	var parts []catalogue.RunPart
	var sys *catalogue.System
	totalMM := 0.0
	for i, seg := range r.Profile.Segments {
		if !(seg.LengthMM >= catalogue.MinPieceMM) || seg.LengthMM > 3.1e6 {
			return catalogue.Materials{}, invalid("profile", "Segment %d: the length must be at least %d mm", i+1, catalogue.MinPieceMM)
		}
		if seg.Slug == catalogue.ConcreteSlug {
			s, _ := cat.System(catalogue.ConcreteSlug)
			return concreteMaterials(cat, s, r)
		}
		ch, err := findChannel(cat, seg, r.Loading)
		if err != nil {
			return catalogue.Materials{}, err
		}
		if sys == nil {
			sys, _ = cat.System(ch.System)
		}
		n := int(math.Ceil(seg.LengthMM/float64(ch.LengthMM) - 1e-9))
		if k := len(parts); k > 0 && parts[k-1].Slug == ch.Slug {
			parts[k-1].Count += n
		} else {
			parts = append(parts, catalogue.RunPart{Slug: ch.Slug, Count: n})
		}
		totalMM += seg.LengthMM
	}
	if len(sys.LoadingClasses) > 0 && strings.TrimSpace(r.Loading) == "" {
		return catalogue.Materials{}, invalid("loading", MsgNoLoading)
	}
	els, err := cat.Layout(parts, totalMM/1000, r.Loading)
	if err != nil {
		return catalogue.Materials{}, catalogueInvalid(err)
	}
	grating := string(r.Throat)
	if grating == "" {
		grating = string(r.Grating)
	}
	if sys.Grated && grating == "" {
		return catalogue.Materials{}, invalid("throat", MsgNoGrating)
	}
	p := &plan{req: &Request{OutflowTrashbox: r.OutflowTrashbox, OutflowEndcap: r.OutflowEndcap, DischargeSetting: r.DischargeSetting, Drilling: r.Drilling},
		sys: sys, lengthM: totalMM / 1000, grating: grating}
	if p.loading, err = sys.ResolveLoading(r.Loading); err != nil && len(sys.LoadingClasses) > 0 {
		return catalogue.Materials{}, invalid("loading", "The %s system is not made for loading class %s", sys.Name, r.Loading)
	}
	p.req.Accessories = r.Accessories
	if err := p.checkDischarge(cat); err != nil {
		return catalogue.Materials{}, err
	}
	if err := p.checkAccessories(); err != nil {
		return catalogue.Materials{}, err
	}
	return p.materials(cat, &designed{laid: &laid{elements: els}})
}

func concreteMaterials(cat *catalogue.Catalogue, s *catalogue.System, r *MaterialsRequest) (catalogue.Materials, error) {
	p := &plan{req: &Request{Accessories: r.Accessories}, sys: s, kind: concreteRun, lengthM: r.ChannelLengthM}
	if p.lengthM <= 0 {
		p.lengthM = r.Profile.CatchmentLengthMM / 1000
	}
	if err := p.checkAccessories(); err != nil {
		return catalogue.Materials{}, err
	}
	m, err := cat.Materials(catalogue.MaterialRequest{System: s.Slug, Accessories: p.accessories})
	if err != nil {
		return m, catalogueInvalid(err)
	}
	return m, nil
}

// findChannel resolves a profile segment's channel by slug, or by the name
// shown for it at the loading.
func findChannel(cat *catalogue.Catalogue, seg ProfileSegment, loading string) (*catalogue.ChannelSpec, error) {
	if seg.Slug != "" {
		ch, err := cat.Channel(seg.Slug)
		if err != nil {
			return nil, invalid("profile", "Unknown channel %q", seg.Slug)
		}
		return ch, nil
	}
	name := strings.TrimSpace(seg.ChannelDescription)
	for _, s := range cat.Systems() {
		chs, err := cat.Channels(catalogue.ChannelQuery{Product: s.Slug, Loading: loading})
		if err != nil {
			continue
		}
		for _, c := range chs {
			if c.Name == name {
				return cat.Channel(c.Slug)
			}
		}
	}
	return nil, invalid("profile", "Unknown channel %q", name)
}

// catalogueInvalid turns a catalogue error about a request into the
// design's: a length mismatch, a refused request, a missing article.
func catalogueInvalid(err error) error {
	var lm *catalogue.LengthMismatchError
	var re *catalogue.RequestError
	var nf *catalogue.NotFoundError
	var un *catalogue.UnavailableError
	switch {
	case errors.As(err, &lm):
		return &LengthMismatchError{ChannelsM: float64(lm.ChannelsMM) / 1000, RunM: float64(lm.RunMM) / 1000}
	case errors.As(err, &un):
		switch un.What {
		case "trash box":
			return failed(MsgNoTrashBoxes, err)
		case "end-cap outlet":
			return failed(MsgNoEndCapOutlets, err)
		}
		return failed(MsgNoAccessories, err)
	case errors.As(err, &re):
		return invalid("", "%s", sentence(re.Reason))
	case errors.As(err, &nf):
		return invalid("", "%s", sentence(strings.TrimPrefix(nf.Error(), "catalogue: ")))
	}
	return err
}

func sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
