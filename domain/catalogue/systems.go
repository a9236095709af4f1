package catalogue

import (
	"sort"
	"strconv"
	"strings"
)

// SelectedSystem is the system as the design tool holds it in a run
// (selectedSystem) and as GET /drainage/product/ lists it.
type SelectedSystem struct {
	Slug               string                `json:"slug"`
	Name               string                `json:"name"`
	ProductType        string                `json:"product_type"`
	LoadingClasses     []string              `json:"loading_classes"`
	Gratings           []GratingOption       `json:"gratings"`
	Range              string                `json:"range"`
	ProductImageName   string                `json:"product_image_name"`
	CanStep            bool                  `json:"canStep"`
	MinimumSizeOptions []int                 `json:"minimumSizeOptions"`
	PipeDiameters      map[string]PipeOption `json:"pipeDiameters"`
	Grated             bool                  `json:"grated"`
}

// GratingOption is a grating type as offered in the grating dropdown; the
// form shows those whose loading_classes hold the run's loading.
type GratingOption struct {
	Slug           string   `json:"slug"`
	Description    string   `json:"description"`
	Material       string   `json:"material"`
	Family         string   `json:"family,omitempty"`
	LoadingClasses []string `json:"loading_classes"`
	LengthMM       int      `json:"length_mm"`
}

// PipeOption is an outlet pipe diameter of a point product, keyed in
// pipeDiameters by the diameter in mm; extension_hat tells whether the body
// extension can be fitted with it.
type PipeOption struct {
	DiameterMM   int  `json:"diameter_mm"`
	ExtensionHat bool `json:"extension_hat"`
}

// AvailableIn reports whether a system is sold in a country.
func (s *System) AvailableIn(iso string) bool {
	return !contains(s.ExcludedCountries, strings.ToUpper(strings.TrimSpace(iso)))
}

// SystemsForCountry lists, in display order, the systems sold in a country
// (ISO code, case-insensitive; GB is the UK region).
func (c *Catalogue) SystemsForCountry(iso string) ([]SelectedSystem, error) {
	k, err := c.Country(iso)
	if err != nil {
		return nil, err
	}
	out := []SelectedSystem{}
	for _, s := range c.systems {
		if s.AvailableIn(k.ISOCode) {
			out = append(out, c.selected(s))
		}
	}
	return out, nil
}

// SelectedSystem returns one system in the selectedSystem shape.
func (c *Catalogue) SelectedSystem(slug string) (SelectedSystem, error) {
	s, err := c.System(slug)
	if err != nil {
		return SelectedSystem{}, err
	}
	return c.selected(s), nil
}

func (c *Catalogue) selected(s *System) SelectedSystem {
	v := SelectedSystem{
		Slug:               s.Slug,
		Name:               s.Name,
		ProductType:        s.ProductType,
		LoadingClasses:     append([]string{}, s.LoadingClasses...),
		Gratings:           []GratingOption{},
		Range:              s.Range,
		ProductImageName:   s.ProductImageName,
		CanStep:            s.CanStep,
		MinimumSizeOptions: append([]int{}, s.MinimumSizesMM...),
		PipeDiameters:      map[string]PipeOption{},
		Grated:             s.Grated,
	}
	if s.Grated {
		for _, g := range c.gratings {
			if g.System == s.Slug {
				v.Gratings = append(v.Gratings, GratingOption{
					Slug: g.Slug, Description: g.Description, Material: g.Material, Family: g.Family,
					LoadingClasses: append([]string{}, g.LoadingClasses...), LengthMM: g.LengthMM,
				})
			}
		}
	}
	if g, ok := c.gullies[s.Slug]; ok {
		for _, o := range g.Outlets {
			v.PipeDiameters[strconv.Itoa(o.DiameterMM)] = PipeOption{DiameterMM: o.DiameterMM, ExtensionHat: o.ExtensionHat}
		}
	}
	return v
}

// GratingsFor lists a system's grating types offered for a loading class.
func (c *Catalogue) GratingsFor(system, loading string) ([]*Grating, error) {
	s, err := c.System(system)
	if err != nil {
		return nil, err
	}
	class, err := s.ResolveLoading(loading)
	if err != nil {
		return nil, err
	}
	var out []*Grating
	for _, g := range c.gratings {
		if g.System == s.Slug && contains(g.LoadingClasses, class) {
			out = append(out, g)
		}
	}
	return out, nil
}

// PipeDiameters lists a point product's outlet diameters, smallest first
// (the form falls back to the first).
func (c *Catalogue) PipeDiameters(system string) ([]PipeOption, error) {
	g, err := c.Gully(system)
	if err != nil {
		return nil, err
	}
	out := make([]PipeOption, 0, len(g.Outlets))
	for _, o := range g.Outlets {
		out = append(out, PipeOption{DiameterMM: o.DiameterMM, ExtensionHat: o.ExtensionHat})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].DiameterMM < out[j].DiameterMM })
	return out, nil
}

// SteppingAllowed reports whether a run of the system may be stepped; never
// for concrete, steel or point products.
func (s *System) SteppingAllowed() bool { return s.CanStep }

// TheoreticalSteppingPrefix identifies the system family whose stepped runs
// get the "theoretical stepping" warning (steps between constant-depth
// polymer channels need step adaptor plates), the high-capacity system
// excepted.
const TheoreticalSteppingPrefix = "poly-"

// TheoreticalStepping reports whether a stepped run of the system gets the
// theoretical-stepping warning.
func (s *System) TheoreticalStepping() bool {
	return s.CanStep && !s.AlwaysStepped && strings.HasPrefix(s.Slug, TheoreticalSteppingPrefix)
}

// OffersMethod reports whether a calculation method (GVF, HRW) is offered;
// choosing another system forces GVF.
func (s *System) OffersMethod(method string) bool {
	return contains(s.Methods, strings.ToUpper(method))
}

// TrashBoxLengthMM is the trash box length at the discharge for a channel
// width: 500 mm, 1000 mm for the super system's 400 and 500 channels.
func (s *System) TrashBoxLengthMM(widthMM int) int {
	if l, ok := s.TrashBoxLengthByWidthMM[strconv.Itoa(widthMM)]; ok {
		return l
	}
	return s.DischargeTrashBoxLengthMM
}

// ConcreteChamber reports whether an in-situ concrete chamber is offered at
// a channel width (always for the concrete channel).
func (s *System) ConcreteChamber(widthMM int) bool {
	return s.ProductType == ProductTypeConcrete || contains(s.ConcreteChamberWidthsMM, widthMM)
}
