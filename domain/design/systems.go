package design

import (
	"errors"

	"draindesign/domain/catalogue"
)

// SystemsFor answers GET /drainage/product/: the systems sold in the
// user's country, in display order. The account's country list is longer
// than the catalogue's; a country the catalogue does not name gets every
// system not excluded from it, as availability is kept as exclusions.
func SystemsFor(cat *catalogue.Catalogue, iso string) ([]catalogue.SelectedSystem, error) {
	out, err := cat.SystemsForCountry(iso)
	var nf *catalogue.NotFoundError
	if !errors.As(err, &nf) {
		return out, err
	}
	out = []catalogue.SelectedSystem{}
	for _, s := range cat.Systems() {
		if !s.AvailableIn(iso) {
			continue
		}
		v, err := cat.SelectedSystem(s.Slug)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
