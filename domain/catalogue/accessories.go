package catalogue

import "sort"

// BoxOption is a trash or access box that fits a channel at a loading.
type BoxOption struct {
	Type             string  `json:"type"` // trash-box or access-box
	HAN              string  `json:"han"`
	Description      string  `json:"description"`
	LengthMM         int     `json:"length_mm"`
	DischargeLPS     float64 `json:"discharge_lps,omitempty"`
	OutletDiameterMM int     `json:"outlet_diameter_mm,omitempty"`
}

// AvailableAccessories is the available_accessories of a result: what can
// be placed along a segment of a channel at the run's loading.
type AvailableAccessories struct {
	AvailableBoxes     []BoxOption `json:"available_boxes"`
	UseAccessCover     bool        `json:"use_access_cover"`
	UseAccessBox       bool        `json:"use_access_box"`
	UseTrashBox        bool        `json:"use_trash_box"`
	UseConcreteChamber bool        `json:"use_concrete_chamber"`
}

// Accessories tells which accessories fit a channel (slug) at a loading
// (class or letter). The concrete channel is asked by its system slug
// ("concrete") and only takes concrete chambers. Nothing available means
// the "no accessories available, contact the provider" notice.
func (c *Catalogue) Accessories(slug, loading string) (AvailableAccessories, error) {
	out := AvailableAccessories{AvailableBoxes: []BoxOption{}}
	if s, ok := c.systemBySlug[slug]; ok {
		if s.ProductType != ProductTypeConcrete {
			return out, &RequestError{Reason: "accessories are asked per channel; " + slug + " is a system"}
		}
		out.UseConcreteChamber = true
		return out, nil
	}
	ch, s, class, err := c.channelAt(slug, loading)
	if err != nil {
		return out, err
	}
	for _, t := range c.trashBoxesFor(ch, class) {
		out.UseTrashBox = true
		out.AvailableBoxes = append(out.AvailableBoxes, BoxOption{
			Type: AccessoryTrashBox, HAN: t.HAN, Description: t.Description, LengthMM: t.LengthMM,
			DischargeLPS: t.DischargeLPS, OutletDiameterMM: t.OutletDiameterMM,
		})
	}
	for _, u := range c.accessUnits {
		if !fitsChannel(u.System, u.Family, u.WidthMM, ch) || !contains(u.LoadingClasses, class) {
			continue
		}
		switch u.Kind {
		case AccessBox:
			out.UseAccessBox = true
			out.AvailableBoxes = append(out.AvailableBoxes, BoxOption{Type: AccessoryAccessBox, HAN: u.HAN, Description: u.Description, LengthMM: u.LengthMM})
		case AccessCover:
			out.UseAccessCover = true
		}
	}
	sort.SliceStable(out.AvailableBoxes, func(i, j int) bool { return out.AvailableBoxes[i].Type > out.AvailableBoxes[j].Type })
	out.UseConcreteChamber = s.ConcreteChamber(ch.WidthMM)
	return out, nil
}

// DischargeTrashBoxLengthMM is the length of the trash box at the discharge
// of a run ending with the channel: 0.5 m, 1 m for the super system's 400
// and 500 channels.
func (c *Catalogue) DischargeTrashBoxLengthMM(channel string) (int, error) {
	ch, err := c.Channel(channel)
	if err != nil {
		return 0, err
	}
	return c.systemBySlug[ch.System].TrashBoxLengthMM(ch.WidthMM), nil
}
