package design

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/tidwall/gjson"

	"draindesign/domain/catalogue"
	"draindesign/domain/hydraulics"
)

// Answer is the answer of POST /drainage/calculate/.
type Answer struct {
	Results *Results `json:"results"`
}

// Results is the Results entity of design-tool.md section 3: the engine's
// hydraulic results with the run's channels, grating, accessories and
// materials. Units: mm for depths, widths and lengths named _mm, l/s for
// discharges and flows, m/s for velocity, m³ for volume, % for gradients
// and fill.
type Results struct {
	Calculated           bool                   `json:"calculated"`
	Advanced             bool                   `json:"advanced"`
	CalculationMethod    string                 `json:"calculation_method"`
	Configuration        string                 `json:"configuration"`
	System               string                 `json:"system"`
	WentSuperCritical    bool                   `json:"went_super_critical"`
	Overflowed           bool                   `json:"overflowed"`
	MissingHAN           bool                   `json:"missing_han"`
	ChannelInternalWidth float64                `json:"channel_internal_width_mm"`
	ChannelProductType   string                 `json:"channel_product_type"`
	InvertDepthMM        float64                `json:"invert_depth_mm"`
	OverallDepthMM       float64                `json:"overall_depth_mm"`
	SystemLoading        string                 `json:"system_loading"`
	FlowVelocity         float64                `json:"flow_velocity"`
	ChannelDischarge     float64                `json:"channel_discharge"`
	MaxPossibleDischarge float64                `json:"max_possible_discharge"`
	PercentageFull       float64                `json:"percentage_full"`
	Freeboard            float64                `json:"freeboard"`
	FreeboardPercent     float64                `json:"freeboard_percent"`
	TotalSystemVolume    float64                `json:"total_system_volume"`
	InstalledGradient    float64                `json:"installed_gradient"`
	Grating              *catalogue.GratingSpec `json:"grating"`
	Throat               string                 `json:"throat"`
	// Flow is the design flow arriving at the run: rain on the catchment
	// and the point inflows (l/s).
	Flow              float64 `json:"flow"`
	CatchmentLengthMM float64 `json:"catchmentLength_mm"`
	MaxChannelDepthMM float64 `json:"max_channel_depth_mm"`
	LargestChannel    string  `json:"largest_channel"`
	ChannelSubProduct string  `json:"channel_sub_product"`
	MaxDepthMM        float64 `json:"max_depth_mm"`
	MaxDepthAtM       float64 `json:"max_depth_at_m"`
	OutletDepthMM     float64 `json:"outlet_depth_mm"`
	CriticalDepthMM   float64 `json:"critical_depth_mm"`
	// Distances from the head (m).
	CriticalSectionsM []float64 `json:"critical_sections_m"`
	HydraulicJumpsM   []float64 `json:"hydraulic_jumps_m"`

	Segments             []Segment                       `json:"segments"`
	ChannelsUsed         []ChannelUse                    `json:"channels_used"`
	AvailableAccessories *catalogue.AvailableAccessories `json:"available_accessories"`

	Channel     []catalogue.MaterialLine `json:"channel"`
	Connectors  []catalogue.MaterialLine `json:"connectors"`
	Endcaps     []catalogue.MaterialLine `json:"endcaps"`
	AccessCover []catalogue.MaterialLine `json:"access_cover"`
	Box         []catalogue.MaterialLine `json:"box"`

	// Point holds a point product's capacity check (type P only).
	Point *PointResult `json:"point,omitempty"`
	// Controlled is the controlled-discharge design of a run with a
	// controlled outflow (controlled.go).
	Controlled *Controlled `json:"controlled,omitempty"`

	Warnings []string `json:"warnings"`
	// Notices are the warnings again, as codes and values to be worded in
	// the reader's language.
	Notices []Notice `json:"notices"`
	// Catchment is the catchment as calculated, side by side along the
	// run, for plan drawings. Empty for a point product.
	Catchment []CatchmentPiece `json:"catchment"`
}

// Segment is the profile along one channel of the run (the engine's
// segment), with the channel's slug and the accessories it takes.
type Segment struct {
	hydraulics.Segment
	Slug                 string                          `json:"slug"`
	AvailableAccessories *catalogue.AvailableAccessories `json:"available_accessories,omitempty"`
	// JointsM are the chainages (m from the head) where one element of the
	// segment meets the next, for drawing on the profile: the engine
	// merges the elements of one channel into one segment. Like the
	// slices, they are left out of the summary a project keeps.
	JointsM []float64 `json:"joints_m,omitempty"`
	// Shape is the cross-section the engine computed the segment with, so
	// that documents can derive the velocity and Froude number of each
	// slice from its flow and depth. Not sent: the client knows the
	// channel by its slug, and a run read back from JSON has none.
	Shape hydraulics.Shape `json:"-"`
}

// ChannelUse is one stretch of the run laid with one channel, head to
// outlet: the number of its elements, where it lies (chainage from the
// head, m), the channel's catalogue geometry (for a cross-section drawn to
// scale) and the deepest water the calculation found along it.
type ChannelUse struct {
	Slug     string  `json:"slug"`
	Name     string  `json:"name"`
	Count    int     `json:"count"`
	LengthMM int     `json:"length_mm"`
	FromM    float64 `json:"from_m"`
	ToM      float64 `json:"to_m"`

	WidthMM                 int             `json:"width_mm"`
	OuterWidthMM            int             `json:"outer_width_mm"`
	BodyHeightMM            int             `json:"body_height_mm"`
	InvertDepthUpstreamMM   float64         `json:"invert_depth_upstream_mm"`
	InvertDepthDownstreamMM float64         `json:"invert_depth_downstream_mm"`
	Shape                   catalogue.Shape `json:"shape"`
	MaxWaterDepthMM         float64         `json:"max_water_depth_mm"`
}

// results assembles the Results entity of a calculated run.
func (p *plan) results(cat *catalogue.Catalogue, d *designed) (*Results, error) {
	h := d.res
	res := &Results{
		Calculated:           true,
		Advanced:             p.req.Advanced,
		CalculationMethod:    h.Method,
		Configuration:        string(d.config),
		System:               p.sys.Slug,
		WentSuperCritical:    h.WentSuperCritical,
		Overflowed:           h.Overflowed,
		ChannelInternalWidth: h.ChannelInternalWidth,
		ChannelProductType:   p.sys.ProductType,
		SystemLoading:        p.loading,
		FlowVelocity:         h.FlowVelocity,
		ChannelDischarge:     h.ChannelDischarge,
		MaxPossibleDischarge: h.MaxPossibleDischarge,
		PercentageFull:       h.PercentageFull,
		Freeboard:            h.Freeboard,
		FreeboardPercent:     h.FreeboardPercent,
		TotalSystemVolume:    h.TotalSystemVolume,
		InstalledGradient:    h.InstalledGradient,
		Flow:                 1000 * d.run.TotalInflow(),
		CatchmentLengthMM:    math.Round(p.lengthM * 1000),
		MaxChannelDepthMM:    h.MaxChannelDepthMM,
		MaxDepthMM:           h.MaxDepthMM,
		MaxDepthAtM:          h.MaxDepthAtM,
		OutletDepthMM:        h.OutletDepthMM,
		CriticalDepthMM:      h.CriticalDepthMM,
		CriticalSectionsM:    h.CriticalSectionsM,
		HydraulicJumpsM:      h.HydraulicJumpsM,
		Segments:             make([]Segment, len(h.Segments)),
		Warnings:             append([]string{}, p.warnings...),
		Notices:              append([]Notice{}, p.notices...),
		Catchment:            append([]CatchmentPiece{}, p.plan...),
	}
	els := d.laid.elements
	largest := els[0]
	for _, e := range els[1:] {
		if e.WidthMM > largest.WidthMM || (e.WidthMM == largest.WidthMM && e.InvertDepthDownstreamMM >= largest.InvertDepthDownstreamMM) {
			largest = e
		}
	}
	last := els[len(els)-1]
	res.InvertDepthMM = last.InvertDepthDownstreamMM
	res.OverallDepthMM = float64(largest.BodyHeightMM)
	res.LargestChannel = largest.Name
	res.ChannelSubProduct = largest.SubProduct
	res.ChannelsUsed = channelsUsed(els, h.Segments)

	if p.grating != "" {
		g, err := cat.GratingSpec(p.grating, largest.WidthMM)
		if err != nil {
			return nil, catalogueInvalid(err)
		}
		res.Grating = &g
		res.Throat = g.Slug
	}
	accessoriesOf := func(slug string) *catalogue.AvailableAccessories {
		if p.kind == concreteRun {
			slug = catalogue.ConcreteSlug
		}
		a, err := cat.Accessories(slug, p.loading)
		if err != nil {
			return nil
		}
		return &a
	}
	res.AvailableAccessories = accessoriesOf(largest.Slug)
	for i, s := range h.Segments {
		slug := els[d.laid.first[i]].Slug
		res.Segments[i] = Segment{Segment: s, Slug: slug, AvailableAccessories: accessoriesOf(slug), Shape: d.run.Sections[i].Shape,
			JointsM: d.laid.joints(i)}
	}
	if d.res.WentSuperCritical {
		res.Warnings = append(res.Warnings, "The flow went super critical")
		res.Notices = append(res.Notices, Notice{Code: NoticeSuperCritical})
	}
	m, err := p.materials(cat, d)
	if err != nil {
		return nil, err
	}
	res.setMaterials(m)
	return res, nil
}

func (res *Results) setMaterials(m catalogue.Materials) {
	res.Channel, res.Connectors, res.Endcaps, res.AccessCover, res.Box = m.Channel, m.Connectors, m.Endcaps, m.AccessCover, m.Box
	for _, list := range [][]catalogue.MaterialLine{m.Channel, m.Connectors, m.Endcaps, m.AccessCover, m.Box} {
		for _, l := range list {
			res.MissingHAN = res.MissingHAN || l.HAN == ""
		}
	}
}

// channelsUsed counts the run's elements per channel, in run order.
func channelsUsed(els []catalogue.Element, segs []hydraulics.Segment) []ChannelUse {
	var out []ChannelUse
	for _, e := range els {
		if n := len(out); n > 0 && out[n-1].Slug == e.Slug {
			u := &out[n-1]
			u.Count++
			u.LengthMM += e.LengthMM
			u.ToM = float64(e.EndMM) / 1000
			u.InvertDepthDownstreamMM = e.InvertDepthDownstreamMM
			continue
		}
		out = append(out, ChannelUse{
			Slug: e.Slug, Name: e.Name, Count: 1, LengthMM: e.LengthMM,
			FromM: float64(e.StartMM) / 1000, ToM: float64(e.EndMM) / 1000,
			WidthMM: e.WidthMM, OuterWidthMM: e.OuterWidthMM, BodyHeightMM: e.BodyHeightMM,
			InvertDepthUpstreamMM: e.InvertDepthUpstreamMM, InvertDepthDownstreamMM: e.InvertDepthDownstreamMM,
			Shape: e.Shape,
		})
	}
	for i := range out {
		out[i].MaxWaterDepthMM = deepestWater(segs, out[i].FromM, out[i].ToM)
	}
	return out
}

// deepestWater is the greatest depth of the profile's slices from fromM to
// toM (chainage from the head).
func deepestWater(segs []hydraulics.Segment, fromM, toM float64) float64 {
	deepest := 0.0
	for _, s := range segs {
		for _, sl := range s.Slices {
			if sl.DistanceM >= fromM-1e-6 && sl.DistanceM <= toM+1e-6 {
				deepest = math.Max(deepest, sl.DepthMM)
			}
		}
	}
	return deepest
}

// Summary is the part of the results a project keeps in its stream: all
// but the profile's slices, which can be recalculated and would make every
// event large.
func Summary(res *Results) (map[string]json.RawMessage, error) {
	type segment struct {
		Description   string  `json:"channelDescription"`
		Slug          string  `json:"slug"`
		LengthMM      float64 `json:"length_mm"`
		StepRaiseMM   float64 `json:"stepRaise"`
		FloorChangeMM float64 `json:"floorChange"`
	}
	segs := make([]segment, len(res.Segments))
	for i, s := range res.Segments {
		segs[i] = segment{s.Description, s.Slug, s.LengthMM, s.StepRaiseMM, s.FloorChangeMM}
	}
	// The segments are replaced below: leave out their profile, most of
	// the encoding of a long run, rather than write and read it back.
	rest := *res
	rest.Segments = nil
	all, err := json.Marshal(&rest)
	if err != nil {
		return nil, fmt.Errorf("design: summary: %w", err)
	}
	out := topLevelFields(all)
	if out["segments"], err = json.Marshal(segs); err != nil {
		return nil, fmt.Errorf("design: summary: %w", err)
	}
	return out, nil
}

// topLevelFields splits an encoded object (json.Marshal's own output) into
// its fields, each value as encoded: what json.Unmarshal into a map of
// json.RawMessage gives, without its validation pass and decoding (a
// third of recording a calculation).
func topLevelFields(obj []byte) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	gjson.ParseBytes(obj).ForEach(func(k, v gjson.Result) bool {
		out[k.Str] = json.RawMessage(v.Raw)
		return true
	})
	return out
}
