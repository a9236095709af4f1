package catalogue

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

var (
	hanPattern  = regexp.MustCompile(`^[0-9]{5}$`)
	slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	isoPattern  = regexp.MustCompile(`^[A-Z]{2}$`)
)

// Manning's n accepted for catalogue channels.
const (
	minManningN = 0.008
	maxManningN = 0.05
)

type problems []error

func (p *problems) addf(format string, args ...any) {
	*p = append(*p, fmt.Errorf(format, args...))
}

// validate checks the data as a whole; every problem is reported.
func (c *Catalogue) validate(gullies []*Gully) error {
	var p problems
	hans := map[string]string{}
	han := func(h, owner string) {
		if !hanPattern.MatchString(h) {
			p.addf("%s: article number %q is not 5 digits", owner, h)
		}
		if prev, dup := hans[h]; dup {
			p.addf("%s: article number %s already used by %s", owner, h, prev)
		}
		hans[h] = owner
	}

	c.validateCountries(&p)
	c.validateSystems(&p, gullies)
	c.validateChannels(&p, han)
	c.validateGratings(&p, han)
	c.validateAccessories(&p, han)
	for _, g := range gullies {
		owner := "gully " + g.System
		s, ok := c.systemBySlug[g.System]
		if !ok || s.ProductType != ProductTypePoint {
			p.addf("%s: not a point-product system", owner)
		}
		if len(g.Outlets) == 0 {
			p.addf("%s: no outlets", owner)
		}
		seen := map[int]bool{}
		for _, o := range g.Outlets {
			if o.DiameterMM <= 0 || seen[o.DiameterMM] {
				p.addf("%s: outlet diameter %d invalid or repeated", owner, o.DiameterMM)
			}
			seen[o.DiameterMM] = true
			han(o.HAN, owner)
		}
		han(g.ExtensionHat.HAN, owner+" extension hat")
		if g.ExtensionHat.HeightMM <= 0 || g.BodyDepthMM <= 0 || g.InletOpenAreaCM2 <= 0 {
			p.addf("%s: dimensions must be positive", owner)
		}
	}
	if len(p) > 0 {
		return fmt.Errorf("catalogue data invalid: %w", errors.Join(p...))
	}
	return nil
}

func (c *Catalogue) validateCountries(p *problems) {
	seen := map[string]bool{}
	for _, k := range c.countries {
		if !isoPattern.MatchString(k.ISOCode) || seen[k.ISOCode] {
			p.addf("country %q: ISO code invalid or repeated", k.ISOCode)
		}
		seen[k.ISOCode] = true
		if k.Name == "" || k.Region == "" {
			p.addf("country %q: name and region required", k.ISOCode)
		}
	}
	if k, ok := c.countryByIS["GB"]; !ok || k.Region != "UK" {
		p.addf("country GB must exist in region UK")
	}
}

func (c *Catalogue) validateSystems(p *problems, gullies []*Gully) {
	seen := map[string]bool{}
	for _, s := range c.systems {
		owner := "system " + s.Slug
		if !slugPattern.MatchString(s.Slug) || seen[s.Slug] {
			p.addf("%s: slug invalid or repeated", owner)
		}
		seen[s.Slug] = true
		if s.Name == "" || s.Range == "" || s.ProductImageName == "" {
			p.addf("%s: name, range and image required", owner)
		}
		switch s.ProductType {
		case ProductTypeStandard, ProductTypeCapacity:
			if len(s.LoadingClasses) == 0 {
				p.addf("%s: channel systems need loading classes", owner)
			}
			if len(c.channelsBySystem[s.Slug]) == 0 {
				p.addf("%s: no channels", owner)
			}
			if s.DischargeTrashBoxLengthMM <= 0 {
				p.addf("%s: discharge trash box length required", owner)
			}
		case ProductTypeConcrete, ProductTypePoint:
			if len(s.LoadingClasses) != 0 || s.Grated || s.CanStep || len(c.channelsBySystem[s.Slug]) != 0 {
				p.addf("%s: types M and P have no loading, grating, stepping or channels", owner)
			}
			if s.ProductType == ProductTypePoint && c.gullies[s.Slug] == nil {
				p.addf("%s: point product without gully data", owner)
			}
		default:
			p.addf("%s: product type %q unknown", owner, s.ProductType)
		}
		last := -1
		for _, l := range s.LoadingClasses {
			if r := loadingRank(l); r <= last || r == len(LoadingClasses) {
				p.addf("%s: loading classes must be known, distinct and ascending (%s)", owner, l)
			} else {
				last = r
			}
		}
		for letter, class := range s.LoadingLetters {
			if len(letter) != 1 || !s.Offers(class) {
				p.addf("%s: loading letter %q -> %q invalid", owner, letter, class)
			}
		}
		if len(s.LoadingLetters) > 0 && len(s.LoadingLetters) != len(s.LoadingClasses) {
			p.addf("%s: every loading class needs a letter", owner)
		}
		for class, code := range s.ChannelCodes {
			if !s.Offers(class) || code == "" {
				p.addf("%s: channel code %q for %q invalid", owner, code, class)
			}
		}
		if len(s.Methods) == 0 || !contains(s.Methods, MethodGVF) {
			p.addf("%s: GVF must be offered", owner)
		}
		for _, m := range s.Methods {
			if m != MethodGVF && m != MethodHRW {
				p.addf("%s: method %q unknown", owner, m)
			}
		}
		if s.ControlledDischarge && !s.AlwaysStepped {
			p.addf("%s: controlled discharge is only for the always-stepped high-capacity system", owner)
		}
		if s.AlwaysStepped && !s.CanStep {
			p.addf("%s: always stepped but cannot step", owner)
		}
		for _, iso := range s.ExcludedCountries {
			if _, ok := c.countryByIS[iso]; !ok {
				p.addf("%s: excluded country %q unknown", owner, iso)
			}
		}
		for _, w := range s.MinimumSizesMM {
			if !c.systemHasWidth(s.Slug, w) {
				p.addf("%s: minimum size %d has no channel", owner, w)
			}
		}
		for _, w := range s.ConcreteChamberWidthsMM {
			if !c.systemHasWidth(s.Slug, w) {
				p.addf("%s: concrete chamber width %d has no channel", owner, w)
			}
		}
		for w := range s.TrashBoxLengthByWidthMM {
			if n, err := strconv.Atoi(w); err != nil || !c.systemHasWidth(s.Slug, n) {
				p.addf("%s: trash box length width %q has no channel", owner, w)
			}
		}
		c.validateFamilies(p, s)
		c.validateFallSeries(p, s)
	}
	if len(gullies) != len(c.gullies) {
		p.addf("gullies: one entry per system")
	}
}

func (c *Catalogue) systemHasWidth(system string, w int) bool {
	for _, ch := range c.channelsBySystem[system] {
		if ch.WidthMM == w {
			return true
		}
	}
	return false
}

func (c *Catalogue) validateFamilies(p *problems, s *System) {
	owner := "system " + s.Slug
	covered := map[string]bool{}
	codes := map[string]bool{}
	for _, f := range s.Families {
		if f.Code == "" || codes[f.Code] || f.SubProductPrefix == "" {
			p.addf("%s: family %q code or prefix invalid", owner, f.Code)
		}
		codes[f.Code] = true
		for _, l := range f.LoadingClasses {
			if !s.Offers(l) {
				p.addf("%s: family %s loading %s not offered by the system", owner, f.Code, l)
			}
			covered[l] = true
		}
	}
	if len(s.Families) > 0 && len(covered) != len(s.LoadingClasses) {
		p.addf("%s: families must cover every loading class", owner)
	}
	for _, r := range s.BodyHeightRules {
		found := false
		for _, ch := range c.channelsBySystem[s.Slug] {
			found = found || ch.SubProduct == r.SubProduct
		}
		if !found || r.ExtensionMM <= 0 || r.HeavyExtensionMM <= r.ExtensionMM {
			p.addf("%s: body height rule for %q invalid", owner, r.SubProduct)
		}
		for _, l := range r.HeavyLoadingClasses {
			if !s.Offers(l) {
				p.addf("%s: body height rule %s: loading %s not offered", owner, r.SubProduct, l)
			}
		}
	}
}

// validateFallSeries checks the built-in-fall series: every element falls
// by the series' fall, each starts as deep as the previous one ends (a
// monotone invert), and the continuation carries on at the last depth.
func (c *Catalogue) validateFallSeries(p *problems, s *System) {
	fs := s.FallSeries
	if fs == nil {
		return
	}
	owner := "system " + s.Slug + " fall series"
	if fs.FallPerElementMM <= 0 || len(fs.Slugs) < 2 {
		p.addf("%s: needs a positive fall and at least two elements", owner)
		return
	}
	prevDown := -1
	for i, slug := range fs.Slugs {
		ch, ok := c.channelBySlug[slug]
		if !ok || ch.System != s.Slug {
			p.addf("%s: element %q unknown or of another system", owner, slug)
			return
		}
		if ch.FallMM() != fs.FallPerElementMM {
			p.addf("%s: element %s falls %d mm, not %d", owner, slug, ch.FallMM(), fs.FallPerElementMM)
		}
		if i > 0 && ch.InvertDepthUpstreamMM != prevDown {
			p.addf("%s: element %s starts at %d mm, previous ends at %d mm", owner, slug, ch.InvertDepthUpstreamMM, prevDown)
		}
		prevDown = ch.InvertDepthDownstreamMM
	}
	cont, ok := c.channelBySlug[fs.Continuation]
	if !ok || cont.System != s.Slug || cont.HasBuiltInFall() || cont.InvertDepthUpstreamMM != prevDown {
		p.addf("%s: continuation %q must be a constant-depth channel %d mm deep", owner, fs.Continuation, prevDown)
	}
	for _, ch := range c.channelsBySystem[s.Slug] {
		if ch.HasBuiltInFall() && !contains(fs.Slugs, ch.Slug) {
			p.addf("%s: built-in-fall channel %s is not in the series", owner, ch.Slug)
		}
	}
}

func (c *Catalogue) validateChannels(p *problems, han func(string, string)) {
	seen := map[string]bool{}
	orders := map[string]bool{}
	elementLength := map[string]int{}
	for _, ch := range c.channels {
		owner := "channel " + ch.Slug
		if !slugPattern.MatchString(ch.Slug) || seen[ch.Slug] {
			p.addf("%s: slug invalid or repeated", owner)
		}
		seen[ch.Slug] = true
		han(ch.HAN, owner)
		s, ok := c.systemBySlug[ch.System]
		if !ok {
			p.addf("%s: system %q unknown", owner, ch.System)
			continue
		}
		if !strings.HasPrefix(ch.Slug, s.Slug+"-") || ch.Name == "" {
			p.addf("%s: slug must start with its system's, name required", owner)
		}
		key := fmt.Sprintf("%s/%d", ch.System, ch.DisplayOrder)
		if ch.DisplayOrder <= 0 || orders[key] {
			p.addf("%s: display order %d invalid or repeated", owner, ch.DisplayOrder)
		}
		orders[key] = true
		if len(s.Families) > 0 {
			f, ok := s.Family(ch.Family)
			if !ok || !strings.HasPrefix(ch.SubProduct, f.SubProductPrefix) || ch.SubProduct != f.SubProductPrefix+strconv.Itoa(ch.WidthMM) {
				p.addf("%s: family %q / sub-product %q mismatch", owner, ch.Family, ch.SubProduct)
			} else {
				for _, l := range ch.LoadingClasses {
					if !contains(f.LoadingClasses, l) {
						p.addf("%s: loading %s not offered by family %s", owner, l, f.Code)
					}
				}
			}
		} else if ch.Family != "" {
			p.addf("%s: system has no families", owner)
		}
		if (ch.SubProduct == "") == s.ChannelTypeChoice {
			p.addf("%s: sub-product required exactly when the system offers a channel type choice", owner)
		}
		if len(ch.LoadingClasses) == 0 {
			p.addf("%s: no loading classes", owner)
		}
		for _, l := range ch.LoadingClasses {
			if !s.Offers(l) {
				p.addf("%s: loading %s not offered by the system", owner, l)
			}
			if code := s.ChannelCode(l); code != ch.Code {
				p.addf("%s: code %q, loading %s needs %q", owner, ch.Code, l, code)
			}
		}
		if ch.LengthMM <= 0 || ch.WidthMM <= 0 || ch.OuterWidthMM <= ch.WidthMM || ch.BodyHeightMM < ch.InvertDepthDownstreamMM {
			p.addf("%s: length, widths and body height must be positive and consistent", owner)
		}
		if ch.InvertDepthUpstreamMM <= 0 || ch.InvertDepthDownstreamMM < ch.InvertDepthUpstreamMM {
			p.addf("%s: invert depths must be positive and not rise downstream", owner)
		}
		if ch.MaxDownstreamWaterDepthMM <= 0 || ch.MaxDownstreamWaterDepthMM >= ch.InvertDepthDownstreamMM || ch.MaxUpstreamWaterDepthMM() <= 0 {
			p.addf("%s: max water depth must be positive and below the invert depth", owner)
		}
		if ch.ManningN < minManningN || ch.ManningN > maxManningN || math.IsNaN(ch.ManningN) {
			p.addf("%s: Manning's n %v outside %v..%v", owner, ch.ManningN, minManningN, maxManningN)
		}
		validateShape(p, owner, ch)
		switch ch.Kind {
		case KindStandard:
			if ch.HeightRange != nil {
				p.addf("%s: height range on a standard channel", owner)
			}
			k := fmt.Sprintf("%s/%s/%d", ch.System, ch.Family, ch.WidthMM)
			if l, ok := elementLength[k]; ok && l != ch.LengthMM {
				p.addf("%s: element length differs within its width", owner)
			}
			elementLength[k] = ch.LengthMM
		case KindL:
			if !strings.HasSuffix(ch.Name, " L") || ch.HasBuiltInFall() || ch.HeightRange != nil {
				p.addf("%s: L channels are constant depth and named ... L", owner)
			}
			if _, ok := LChannelDrilling(ch.WidthMM); !ok {
				p.addf("%s: no L-channel drilling preset for width %d", owner, ch.WidthMM)
			}
		case KindHeightRange:
			hr := ch.HeightRange
			if hr == nil || hr.MinMM != ch.InvertDepthDownstreamMM || hr.MaxMM <= hr.MinMM || ch.HasBuiltInFall() {
				p.addf("%s: height range must start at the invert depth and rise", owner)
			}
		default:
			p.addf("%s: kind %q unknown", owner, ch.Kind)
		}
		if !c.hasPlainEndCap(ch) {
			p.addf("%s: no plain end cap fits", owner)
		}
		if s.Grated {
			for _, l := range ch.LoadingClasses {
				if c.gratingFor(ch, l) == nil {
					p.addf("%s: no grating for loading %s", owner, l)
				}
			}
		}
	}
}

func validateShape(p *problems, owner string, ch *ChannelSpec) {
	sh := ch.Shape
	if sh.WidthMM != ch.WidthMM {
		p.addf("%s: shape width %d differs from width %d", owner, sh.WidthMM, ch.WidthMM)
	}
	switch sh.Kind {
	case ShapeRectangular:
		if sh.RadiusMM != 0 || sh.SlotWidthMM != 0 {
			p.addf("%s: rectangular shape takes no radius or slot", owner)
		}
	case ShapeU:
		if sh.RadiusMM <= 0 || 2*sh.RadiusMM > sh.WidthMM || sh.SlotWidthMM != 0 {
			p.addf("%s: U shape radius must be in (0, width/2]", owner)
		}
	case ShapeSlot:
		if sh.RadiusMM <= 0 || 2*sh.RadiusMM > sh.WidthMM || sh.SlotWidthMM <= 0 || sh.SlotWidthMM >= sh.WidthMM ||
			sh.SlotHeightMM <= 0 || ch.MaxDownstreamWaterDepthMM+sh.SlotHeightMM > ch.InvertDepthDownstreamMM {
			p.addf("%s: slot shape needs a radius, a narrower slot and a slot above the water", owner)
		}
	default:
		p.addf("%s: shape %q unknown", owner, sh.Kind)
	}
}

func (c *Catalogue) hasPlainEndCap(ch *ChannelSpec) bool {
	for _, e := range c.endCaps {
		if e.OutletDiameterMM == 0 && fitsChannel(e.System, e.Family, e.WidthMM, ch) {
			return true
		}
	}
	return false
}

// fitsChannel tells whether an accessory of a system, family ("" for all)
// and width fits a channel.
func fitsChannel(system, family string, width int, ch *ChannelSpec) bool {
	return system == ch.System && width == ch.WidthMM && (family == "" || family == ch.Family)
}

func (c *Catalogue) validateGratings(p *problems, han func(string, string)) {
	seen := map[string]bool{}
	for _, g := range c.gratings {
		owner := "grating " + g.Slug
		if !slugPattern.MatchString(g.Slug) || seen[g.Slug] {
			p.addf("%s: slug invalid or repeated", owner)
		}
		seen[g.Slug] = true
		s, ok := c.systemBySlug[g.System]
		if !ok || !s.Grated {
			p.addf("%s: system %q unknown or not grated", owner, g.System)
			continue
		}
		allowed := s.LoadingClasses
		if len(s.Families) > 0 {
			f, ok := s.Family(g.Family)
			if !ok {
				p.addf("%s: family %q unknown", owner, g.Family)
			}
			allowed = f.LoadingClasses
		}
		if len(g.LoadingClasses) == 0 {
			p.addf("%s: no loading classes", owner)
		}
		for _, l := range g.LoadingClasses {
			if !contains(allowed, l) {
				p.addf("%s: loading %s not offered", owner, l)
			}
		}
		if g.Description == "" || g.Material == "" || g.LengthMM <= 0 || len(g.Variants) == 0 {
			p.addf("%s: description, material, length and variants required", owner)
		}
		widths := map[int]bool{}
		for _, v := range g.Variants {
			han(v.HAN, fmt.Sprintf("%s/%d", owner, v.WidthMM))
			if widths[v.WidthMM] || !c.systemHasWidth(g.System, v.WidthMM) || v.OpenAreaCM2PerM <= 0 || v.SlotDimensions == "" {
				p.addf("%s: variant %d invalid", owner, v.WidthMM)
			}
			widths[v.WidthMM] = true
		}
	}
}

func (c *Catalogue) validateAccessories(p *problems, han func(string, string)) {
	fits := func(owner, system, family string, width int) *System {
		s, ok := c.systemBySlug[system]
		if !ok {
			p.addf("%s: system %q unknown", owner, system)
			return nil
		}
		if family != "" {
			if _, ok := s.Family(family); !ok {
				p.addf("%s: family %q unknown", owner, family)
			}
		}
		if !c.systemHasWidth(system, width) {
			p.addf("%s: no channel %d wide", owner, width)
		}
		return s
	}
	loadings := func(owner string, s *System, family string, ls []string) {
		if len(ls) == 0 {
			p.addf("%s: no loading classes", owner)
		}
		allowed := s.LoadingClasses
		if f, ok := s.Family(family); ok {
			allowed = f.LoadingClasses
		}
		for _, l := range ls {
			if !contains(allowed, l) {
				p.addf("%s: loading %s not offered", owner, l)
			}
		}
	}
	for _, e := range c.endCaps {
		owner := "end cap " + e.HAN
		han(e.HAN, owner)
		s := fits(owner, e.System, e.Family, e.WidthMM)
		if e.Material == "" || e.Description == "" {
			p.addf("%s: material and description required", owner)
		}
		if e.OutletDiameterMM != 0 {
			if s != nil && !s.EndCapWithOutlet {
				p.addf("%s: system offers no end cap with outlet", owner)
			}
			if e.OutletDiameterMM < 0 || e.MinInvertDepthMM <= e.OutletDiameterMM {
				p.addf("%s: outlet needs a minimum invert depth above its diameter", owner)
			}
		}
	}
	for _, t := range c.trashBoxes {
		owner := "trash box " + t.HAN
		han(t.HAN, owner)
		s := fits(owner, t.System, t.Family, t.WidthMM)
		if s == nil {
			continue
		}
		loadings(owner, s, t.Family, t.LoadingClasses)
		if t.DischargeLPS <= 0 || t.OutletDiameterMM <= 0 || t.Description == "" {
			p.addf("%s: discharge, outlet and description required", owner)
		}
		if want := s.TrashBoxLengthMM(t.WidthMM); t.LengthMM != want {
			p.addf("%s: length %d mm, the system needs %d mm at width %d", owner, t.LengthMM, want, t.WidthMM)
		}
	}
	for _, a := range c.accessUnits {
		owner := a.Kind + " " + a.HAN
		han(a.HAN, owner)
		s := fits(owner, a.System, a.Family, a.WidthMM)
		if s == nil {
			continue
		}
		loadings(owner, s, a.Family, a.LoadingClasses)
		if (a.Kind != AccessBox && a.Kind != AccessCover) || a.LengthMM <= 0 || a.Description == "" {
			p.addf("%s: kind, length and description invalid", owner)
		}
	}
	for _, k := range c.connectors {
		owner := "connector " + k.HAN
		han(k.HAN, owner)
		s := fits(owner, k.System, "", k.WidthMM)
		if k.Kind != ConnectorJoint && k.Kind != ConnectorStep && k.Kind != ConnectorPlate {
			p.addf("%s: kind %q unknown", owner, k.Kind)
		}
		if k.JointsPerUnit < 1 || k.Description == "" {
			p.addf("%s: joints per unit and description required", owner)
		}
		if s != nil && k.Kind == ConnectorStep && !s.CanStep {
			p.addf("%s: step connector for a system that cannot step", owner)
		}
	}
}
