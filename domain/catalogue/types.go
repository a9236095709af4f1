package catalogue

// The record types below are decoded from the embedded JSON files in data/.
// Values handed out by the Catalogue are shared: treat them as read-only.

// Product types (design-tool spec, section 3).
const (
	ProductTypeStandard = "S" // ordinary channel systems
	ProductTypeCapacity = "C" // the high-capacity slot system, which has its own handling
	ProductTypeConcrete = "M" // in-situ concrete channel, defined by width, depth and roughness
	ProductTypePoint    = "P" // point drainage (gullies)
)

// Calculation methods.
const (
	MethodGVF = "GVF"
	MethodHRW = "HRW"
)

// Country is an entry of the country list with its web-link region
// ("UK" for GB, "EU", "INT").
type Country struct {
	ISOCode string `json:"iso_code"`
	Name    string `json:"name"`
	Region  string `json:"region"`
}

// Family is a sub-product family of a system (the fibre range's "standard"
// and "ks" families). Channels, gratings, end caps and boxes of one family
// do not mix with those of another.
type Family struct {
	Code             string   `json:"code"`
	Name             string   `json:"name"`
	SubProductPrefix string   `json:"sub_product_prefix"`
	LoadingClasses   []string `json:"loading_classes"`
}

// FallSeries is a built-in-fall series: elements laid head to outlet, each
// falling FallPerElementMM over its length, continued by a constant-depth
// channel as deep as the last element's downstream end.
type FallSeries struct {
	FallPerElementMM int      `json:"fall_per_element_mm"`
	Slugs            []string `json:"slugs"`
	Continuation     string   `json:"continuation"`
}

// BodyHeightRule is the section 9 body-height adjustment: channels of
// SubProduct are shown with ExtensionMM added to body height and name, or
// HeavyExtensionMM with one of HeavyLoadingClasses.
type BodyHeightRule struct {
	SubProduct          string   `json:"sub_product"`
	ExtensionMM         int      `json:"extension_mm"`
	HeavyExtensionMM    int      `json:"heavy_extension_mm"`
	HeavyLoadingClasses []string `json:"heavy_loading_classes"`
}

// System is a drainage system (product group) with the rules the design
// tool applies to it.
type System struct {
	Slug             string `json:"slug"`
	Name             string `json:"name"`
	ProductType      string `json:"product_type"`
	Material         string `json:"material"`
	Range            string `json:"range"`
	ProductImageName string `json:"product_image_name"`
	DisplayOrder     int    `json:"display_order"`
	// LoadingClasses in ascending order; empty for types M and P, whose
	// loading is ignored.
	LoadingClasses []string `json:"loading_classes"`
	// LoadingLetters overrides the first-letter rule (big-bls: L, M, N, O).
	LoadingLetters map[string]string `json:"loading_letters,omitempty"`
	// ChannelCodes gives the channel code per loading class (big-bls).
	ChannelCodes map[string]string `json:"channel_codes,omitempty"`
	CanStep      bool              `json:"can_step"`
	// AlwaysStepped: the system is only designed stepped (high-capacity).
	AlwaysStepped bool     `json:"always_stepped,omitempty"`
	Methods       []string `json:"methods"`
	// ControlledDischarge: the controlled-discharge calculator is offered.
	ControlledDischarge bool `json:"controlled_discharge,omitempty"`
	// ChannelTypeChoice: advanced mode shows the channel type (sub-product)
	// dropdown.
	ChannelTypeChoice bool `json:"channel_type_choice"`
	// ModificationLastElement: the discharge option "modification of the
	// last element" is offered.
	ModificationLastElement bool `json:"modification_last_element"`
	// EndCapWithOutlet: the discharge option "end cap with outlet" is offered.
	EndCapWithOutlet  bool             `json:"end_cap_with_outlet"`
	Grated            bool             `json:"grated"`
	MinimumSizesMM    []int            `json:"minimum_sizes_mm"`
	ExcludedCountries []string         `json:"excluded_countries,omitempty"`
	Families          []Family         `json:"families,omitempty"`
	FallSeries        *FallSeries      `json:"fall_series,omitempty"`
	BodyHeightRules   []BodyHeightRule `json:"body_height_rules,omitempty"`
	// DischargeTrashBoxLengthMM is the trash box length at the discharge,
	// TrashBoxLengthByWidthMM the exceptions by channel width ("400": 1000).
	DischargeTrashBoxLengthMM int            `json:"discharge_trash_box_length_mm,omitempty"`
	TrashBoxLengthByWidthMM   map[string]int `json:"trash_box_length_by_width_mm,omitempty"`
	// ConcreteChamberWidthsMM lists the channel widths at which an in-situ
	// concrete chamber is offered.
	ConcreteChamberWidthsMM []int `json:"concrete_chamber_widths_mm,omitempty"`
}

// ShapeKind names a channel cross-section.
type ShapeKind string

// Cross-section kinds.
const (
	// ShapeRectangular: vertical walls, flat invert.
	ShapeRectangular ShapeKind = "rectangular"
	// ShapeU: vertical walls, invert rounded with RadiusMM at both corners
	// (RadiusMM = WidthMM/2 is a semicircular invert).
	ShapeU ShapeKind = "u"
	// ShapeSlot: a U body of WidthMM and RadiusMM whose top is closed but for
	// a slot SlotWidthMM wide and SlotHeightMM high up to the surface.
	ShapeSlot ShapeKind = "slot"
)

// Shape is a channel cross-section.
type Shape struct {
	Kind         ShapeKind `json:"kind"`
	WidthMM      int       `json:"width_mm"`
	RadiusMM     int       `json:"radius_mm,omitempty"`
	SlotWidthMM  int       `json:"slot_width_mm,omitempty"`
	SlotHeightMM int       `json:"slot_height_mm,omitempty"`
}

// ChannelKind tells ordinary channels from the special ones.
type ChannelKind string

// Channel kinds.
const (
	KindStandard ChannelKind = "standard"
	// KindL is an L channel: a last element with a factory outlet, used 0
	// or 1 times, at the discharge end; its name ends with "L".
	KindL ChannelKind = "l"
	// KindHeightRange is a channel made to order within a height range,
	// used 0 or 1 times.
	KindHeightRange ChannelKind = "height-range"
)

// HeightRange is the invert depth range of a KindHeightRange channel.
type HeightRange struct {
	MinMM int `json:"min_mm"`
	MaxMM int `json:"max_mm"`
}

// ChannelSpec is a channel element of the catalogue. Invert depths are
// measured from the top of the grating to the invert; they differ at the two
// ends only for built-in-fall elements.
type ChannelSpec struct {
	Slug                      string       `json:"slug"`
	Name                      string       `json:"name"`
	HAN                       string       `json:"han"`
	System                    string       `json:"system"`
	Family                    string       `json:"family,omitempty"`
	SubProduct                string       `json:"sub_product"`
	Kind                      ChannelKind  `json:"kind"`
	Code                      string       `json:"code,omitempty"`
	DisplayOrder              int          `json:"display_order"`
	LengthMM                  int          `json:"length_mm"`
	BodyHeightMM              int          `json:"body_height_mm"`
	WidthMM                   int          `json:"width_mm"`
	OuterWidthMM              int          `json:"outer_width_mm"`
	InvertDepthUpstreamMM     int          `json:"invert_depth_upstream_mm"`
	InvertDepthDownstreamMM   int          `json:"invert_depth_downstream_mm"`
	MaxDownstreamWaterDepthMM int          `json:"max_downstream_water_depth_mm"`
	Shape                     Shape        `json:"shape"`
	ManningN                  float64      `json:"manning_n"`
	LoadingClasses            []string     `json:"loading_classes"`
	HeightRange               *HeightRange `json:"height_range,omitempty"`
}

// FallMM is the fall of the invert over the element (0 without built-in fall).
func (c *ChannelSpec) FallMM() int { return c.InvertDepthDownstreamMM - c.InvertDepthUpstreamMM }

// HasBuiltInFall reports whether the element has a built-in fall.
func (c *ChannelSpec) HasBuiltInFall() bool { return c.FallMM() != 0 }

// MaxUpstreamWaterDepthMM is the maximum water depth at the upstream end.
func (c *ChannelSpec) MaxUpstreamWaterDepthMM() int { return c.MaxDownstreamWaterDepthMM - c.FallMM() }

// Offers reports whether the channel is made for the loading class.
func (c *ChannelSpec) Offers(loading string) bool { return contains(c.LoadingClasses, loading) }

// GratingVariant is a grating type in one channel width.
type GratingVariant struct {
	WidthMM         int    `json:"width_mm"`
	HAN             string `json:"han"`
	SlotDimensions  string `json:"slot_dimensions"`
	OpenAreaCM2PerM int    `json:"open_area_cm2_per_m"`
}

// Grating is a grating type of a system, made in one or more widths.
type Grating struct {
	Slug           string           `json:"slug"`
	System         string           `json:"system"`
	Family         string           `json:"family,omitempty"`
	Description    string           `json:"description"`
	Material       string           `json:"material"`
	LoadingClasses []string         `json:"loading_classes"`
	LengthMM       int              `json:"length_mm"`
	Variants       []GratingVariant `json:"variants"`
}

// Variant returns the grating in the given width.
func (g *Grating) Variant(widthMM int) (GratingVariant, bool) {
	for _, v := range g.Variants {
		if v.WidthMM == widthMM {
			return v, true
		}
	}
	return GratingVariant{}, false
}

// EndCap is a plain end cap (OutletDiameterMM 0) or one with an outlet,
// which fits channels at least MinInvertDepthMM deep at that end.
type EndCap struct {
	HAN              string `json:"han"`
	System           string `json:"system"`
	Family           string `json:"family,omitempty"`
	WidthMM          int    `json:"width_mm"`
	Description      string `json:"description"`
	Material         string `json:"material"`
	OutletDiameterMM int    `json:"outlet_diameter_mm,omitempty"`
	MinInvertDepthMM int    `json:"min_invert_depth_mm,omitempty"`
}

// TrashBox is a trash (silt) box with its outlet and discharge capacity.
type TrashBox struct {
	HAN              string   `json:"han"`
	System           string   `json:"system"`
	Family           string   `json:"family,omitempty"`
	WidthMM          int      `json:"width_mm"`
	Description      string   `json:"description"`
	LoadingClasses   []string `json:"loading_classes"`
	OutletDiameterMM int      `json:"outlet_diameter_mm"`
	DischargeLPS     float64  `json:"discharge_lps"`
	LengthMM         int      `json:"length_mm"`
}

// Access accessory kinds.
const (
	AccessBox   = "access-box"
	AccessCover = "access-cover"
)

// AccessUnit is an access (inspection) box or an access cover.
type AccessUnit struct {
	HAN            string   `json:"han"`
	System         string   `json:"system"`
	Family         string   `json:"family,omitempty"`
	WidthMM        int      `json:"width_mm"`
	Kind           string   `json:"kind"`
	Description    string   `json:"description"`
	LoadingClasses []string `json:"loading_classes"`
	LengthMM       int      `json:"length_mm"`
}

// Connector kinds.
const (
	ConnectorJoint = "joint" // per joint between elements, JointsPerUnit joints per article
	ConnectorStep  = "step"  // per step (floor change) in a stepped run
	ConnectorPlate = "plate" // connection plate, placed as an accessory
)

// Connector is a jointing article.
type Connector struct {
	HAN           string `json:"han"`
	System        string `json:"system"`
	WidthMM       int    `json:"width_mm"`
	Kind          string `json:"kind"`
	Description   string `json:"description"`
	JointsPerUnit int    `json:"joints_per_unit"`
}

// GullyOutlet is a gully body with one outlet diameter.
type GullyOutlet struct {
	DiameterMM   int    `json:"diameter_mm"`
	HAN          string `json:"han"`
	Description  string `json:"description"`
	ExtensionHat bool   `json:"extension_hat"`
}

// ExtensionHat is a gully body extension.
type ExtensionHat struct {
	HAN         string `json:"han"`
	Description string `json:"description"`
	HeightMM    int    `json:"height_mm"`
}

// Gully is a point drainage product (type P).
type Gully struct {
	System              string        `json:"system"`
	Description         string        `json:"description"`
	GratingLoadingClass string        `json:"grating_loading_class"`
	InletOpenAreaCM2    int           `json:"inlet_open_area_cm2"`
	BodyDepthMM         int           `json:"body_depth_mm"`
	Outlets             []GullyOutlet `json:"outlets"`
	ExtensionHat        ExtensionHat  `json:"extension_hat"`
}
