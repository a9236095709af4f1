package catalogue

import (
	"sort"
	"strings"
)

// Channel is the channel entity of GET /drainage/channel/ (design-tool
// spec, section 3). Name and body height carry the body-height adjustment
// for the loading asked. upstream_water_depth_mm is the maximum water depth
// at the upstream end of a built-in-fall element and 0 for constant-depth
// channels (the look-up's upstream=0 selects those). kind tells L channels
// and height-range channels, which are used 0 or 1 times.
type Channel struct {
	Slug                      string       `json:"slug"`
	Name                      string       `json:"name"`
	ProductType               string       `json:"product_type"`
	SubProduct                string       `json:"sub_product"`
	ChannelLengthMM           int          `json:"channel_length_mm"`
	BodyHeightMM              int          `json:"body_height_mm"`
	WidthMM                   int          `json:"width_mm"`
	OuterWidthMM              int          `json:"outer_width_mm"`
	MaxDownstreamWaterDepthMM int          `json:"max_downstream_water_depth_mm"`
	UpstreamWaterDepthMM      int          `json:"upstream_water_depth_mm"`
	DisplayOrder              int          `json:"display_order"`
	Kind                      ChannelKind  `json:"kind"`
	HeightRange               *HeightRange `json:"height_range,omitempty"`
}

// ChannelQuery is GET /drainage/channel/?product=&loading=&sub_product=&upstream=0.
type ChannelQuery struct {
	Product string
	// Loading is a letter (or a class).
	Loading string
	// SubProduct is the channel type; "" lists all (the high-capacity
	// system has none).
	SubProduct string
	// NoBuiltInFall (upstream=0) leaves out built-in-fall elements.
	NoBuiltInFall bool
}

// Channels lists, in display order, a system's channels for a loading and
// channel type.
func (c *Catalogue) Channels(q ChannelQuery) ([]Channel, error) {
	s, err := c.System(q.Product)
	if err != nil {
		return nil, err
	}
	out := []Channel{}
	if len(c.channelsBySystem[s.Slug]) == 0 {
		return out, nil
	}
	loading, err := s.ResolveLoading(q.Loading)
	if err != nil {
		return nil, err
	}
	if q.SubProduct != "" && !c.hasSubProduct(s.Slug, q.SubProduct) {
		return nil, &NotFoundError{Kind: "sub-product", Key: q.SubProduct, In: inSystem(s.Slug)}
	}
	for _, ch := range c.channelsBySystem[s.Slug] {
		if !ch.Offers(loading) || (q.SubProduct != "" && ch.SubProduct != q.SubProduct) || (q.NoBuiltInFall && ch.HasBuiltInFall()) {
			continue
		}
		out = append(out, c.entity(s, ch, loading))
	}
	return out, nil
}

func (c *Catalogue) entity(s *System, ch *ChannelSpec, loading string) Channel {
	name, body := s.displayed(ch, loading)
	up := 0
	if ch.HasBuiltInFall() {
		up = ch.MaxUpstreamWaterDepthMM()
	}
	return Channel{
		Slug: ch.Slug, Name: name, ProductType: s.ProductType, SubProduct: ch.SubProduct,
		ChannelLengthMM: ch.LengthMM, BodyHeightMM: body, WidthMM: ch.WidthMM, OuterWidthMM: ch.OuterWidthMM,
		MaxDownstreamWaterDepthMM: ch.MaxDownstreamWaterDepthMM, UpstreamWaterDepthMM: up,
		DisplayOrder: ch.DisplayOrder, Kind: ch.Kind, HeightRange: ch.HeightRange,
	}
}

func (c *Catalogue) hasSubProduct(system, sub string) bool {
	for _, ch := range c.channelsBySystem[system] {
		if ch.SubProduct == sub {
			return true
		}
	}
	return false
}

// SubProducts answers GET /drainage/channel/subproducts/?product=&loading=:
// the channel types offered at the loading letter, each with every loading
// letter it is made for (ascending). Changing to a letter a type lacks
// switches channel type (E 600 selects the fibre range's standard family).
func (c *Catalogue) SubProducts(product, loading string) (map[string][]string, error) {
	s, err := c.System(product)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	if len(c.channelsBySystem[s.Slug]) == 0 {
		return out, nil
	}
	class, err := s.ResolveLoading(loading)
	if err != nil {
		return nil, err
	}
	classes := map[string]map[string]bool{}
	for _, ch := range c.channelsBySystem[s.Slug] {
		if ch.SubProduct == "" {
			continue
		}
		if classes[ch.SubProduct] == nil {
			classes[ch.SubProduct] = map[string]bool{}
		}
		for _, l := range ch.LoadingClasses {
			classes[ch.SubProduct][l] = true
		}
	}
	for sub, set := range classes {
		if !set[class] {
			continue
		}
		var ls []string
		for l := range set {
			ls = append(ls, l)
		}
		sort.Slice(ls, func(i, j int) bool { return loadingRank(ls[i]) < loadingRank(ls[j]) })
		letters := make([]string, 0, len(ls))
		for _, l := range ls {
			letter, _ := s.LetterFor(l)
			letters = append(letters, letter)
		}
		out[sub] = letters
	}
	return out, nil
}

// EndCapOption is an entry of GET /drainage/endcap/with_outlet/.
type EndCapOption struct {
	ID               string `json:"id"`
	Material         string `json:"material"`
	OutletDiameterMM int    `json:"outlet_diameter_mm"`
}

// EndCapsWithOutlet lists the end caps with outlet that fit a channel's
// downstream end, smallest outlet first; the id is the article number. An
// empty list means "no end-cap outlets for the channel" (too shallow, or a
// system without them).
func (c *Catalogue) EndCapsWithOutlet(channel string) ([]EndCapOption, error) {
	ch, err := c.Channel(channel)
	if err != nil {
		return nil, err
	}
	out := []EndCapOption{}
	for _, e := range c.outletCaps(ch) {
		out = append(out, EndCapOption{ID: e.HAN, Material: e.Material, OutletDiameterMM: e.OutletDiameterMM})
	}
	return out, nil
}

func (c *Catalogue) outletCaps(ch *ChannelSpec) []*EndCap {
	if s := c.systemBySlug[ch.System]; !s.EndCapWithOutlet {
		return nil
	}
	var out []*EndCap
	for _, e := range c.endCaps {
		if e.OutletDiameterMM > 0 && fitsChannel(e.System, e.Family, e.WidthMM, ch) && e.MinInvertDepthMM <= ch.InvertDepthDownstreamMM {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].OutletDiameterMM < out[j].OutletDiameterMM })
	return out
}

func (c *Catalogue) plainEndCap(ch *ChannelSpec) *EndCap {
	for _, e := range c.endCaps {
		if e.OutletDiameterMM == 0 && fitsChannel(e.System, e.Family, e.WidthMM, ch) {
			return e
		}
	}
	return nil
}

// TrashBoxDischarges answers GET /drainage/trashbox/discharges/: the
// distinct discharge capacities (l/s, ascending) of the system's trash
// boxes for a loading (letter or class; "" for any). productType, when
// given, must be the system's. Systems without trash boxes give an empty list.
func (c *Catalogue) TrashBoxDischarges(product, productType, loading string) ([]float64, error) {
	s, err := c.System(product)
	if err != nil {
		return nil, err
	}
	if productType != "" && !strings.EqualFold(productType, s.ProductType) {
		return nil, &RequestError{Reason: "product_type " + productType + " does not match system " + s.Slug + " (" + s.ProductType + ")"}
	}
	class := ""
	if loading != "" && len(s.LoadingClasses) > 0 {
		if class, err = s.ResolveLoading(loading); err != nil {
			return nil, err
		}
	}
	seen := map[float64]bool{}
	out := []float64{}
	for _, t := range c.trashBoxes {
		if t.System == s.Slug && (class == "" || contains(t.LoadingClasses, class)) && !seen[t.DischargeLPS] {
			seen[t.DischargeLPS] = true
			out = append(out, t.DischargeLPS)
		}
	}
	sort.Float64s(out)
	return out, nil
}

// TrashBoxDischargesFor narrows TrashBoxDischarges to the trash boxes that
// fit one channel of the system (width and family) at the loading: what
// the advanced screen offers at the run's last channel, so that no choice
// it offers is refused by the calculation.
func (c *Catalogue) TrashBoxDischargesFor(product, channel, loading string) ([]float64, error) {
	s, err := c.System(product)
	if err != nil {
		return nil, err
	}
	ch, err := c.Channel(channel)
	if err != nil {
		return nil, err
	}
	if ch.System != s.Slug {
		return nil, &RequestError{Reason: "channel " + ch.Slug + " is not of system " + s.Slug}
	}
	class, err := s.ResolveLoading(loading)
	if err != nil {
		return nil, err
	}
	out := []float64{}
	for _, t := range c.trashBoxesFor(ch, class) {
		if len(out) == 0 || out[len(out)-1] != t.DischargeLPS {
			out = append(out, t.DischargeLPS)
		}
	}
	return out, nil
}

// TrashBoxes lists the trash boxes fitting a channel at a loading class,
// smallest discharge first.
func (c *Catalogue) TrashBoxes(channel, loading string) ([]*TrashBox, error) {
	ch, _, class, err := c.channelAt(channel, loading)
	if err != nil {
		return nil, err
	}
	return c.trashBoxesFor(ch, class), nil
}

func (c *Catalogue) trashBoxesFor(ch *ChannelSpec, class string) []*TrashBox {
	var out []*TrashBox
	for _, t := range c.trashBoxes {
		if fitsChannel(t.System, t.Family, t.WidthMM, ch) && contains(t.LoadingClasses, class) {
			out = append(out, t)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].DischargeLPS < out[j].DischargeLPS })
	return out
}

// trashBoxFor picks the trash box of a discharge (0: the smallest).
func (c *Catalogue) trashBoxFor(ch *ChannelSpec, class string, discharge float64) (*TrashBox, error) {
	boxes := c.trashBoxesFor(ch, class)
	for _, t := range boxes {
		if discharge == 0 || t.DischargeLPS == discharge {
			return t, nil
		}
	}
	reason := "none for loading " + class + " and channel " + ch.Slug
	if discharge != 0 && len(boxes) > 0 {
		reason = "none with that discharge for loading " + class + " and channel " + ch.Slug
	}
	return nil, &UnavailableError{What: "trash box", Reason: reason}
}

// channelAt resolves a channel and a loading (class or letter) of its system.
func (c *Catalogue) channelAt(channel, loading string) (*ChannelSpec, *System, string, error) {
	ch, err := c.Channel(channel)
	if err != nil {
		return nil, nil, "", err
	}
	s := c.systemBySlug[ch.System]
	class, err := s.ResolveLoading(loading)
	if err != nil {
		return nil, nil, "", err
	}
	return ch, s, class, nil
}

// gratingFor returns a grating fitting the channel at a loading class.
func (c *Catalogue) gratingFor(ch *ChannelSpec, loading string) *Grating {
	for _, g := range c.gratings {
		if g.System == ch.System && (g.Family == "" || g.Family == ch.Family) && contains(g.LoadingClasses, loading) {
			if _, ok := g.Variant(ch.WidthMM); ok {
				return g
			}
		}
	}
	return nil
}

// GratingSpec is the grating of a result (description, slot_dimensions,
// open_area in cm²/m, length in mm) with its article number.
type GratingSpec struct {
	Slug           string `json:"slug"`
	HAN            string `json:"han"`
	Description    string `json:"description"`
	SlotDimensions string `json:"slot_dimensions"`
	OpenArea       int    `json:"open_area"`
	Length         int    `json:"length"`
}

// GratingSpec returns a grating type in a channel width.
func (c *Catalogue) GratingSpec(grating string, widthMM int) (GratingSpec, error) {
	g, err := c.Grating(grating)
	if err != nil {
		return GratingSpec{}, err
	}
	v, ok := g.Variant(widthMM)
	if !ok {
		return GratingSpec{}, &NotFoundError{Kind: "grating width", Key: itoa(widthMM), In: "grating " + g.Slug}
	}
	return GratingSpec{Slug: g.Slug, HAN: v.HAN, Description: g.Description, SlotDimensions: v.SlotDimensions,
		OpenArea: v.OpenAreaCM2PerM, Length: g.LengthMM}, nil
}
