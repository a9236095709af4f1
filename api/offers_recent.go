package api

import (
	"context"

	"draindesign/projections/offer"
)

// withdrawn is what is withdrawn in country, as this instance read it
// within authTrust: every calculation asked it (`make load`: one query per
// calculation), and it changes only when staff change a country's offer.
// A change through this instance counts at once (staffChangeOffer drops
// s.offers); through another, within authTrust, as for sessions. The value
// is shared by the callers: read only.
func (s *Server) withdrawn(ctx context.Context, country string) (offer.Withdrawn, error) {
	now := s.cfg.Now()
	w, ok, ticket := s.offers.get(country, now)
	if ok {
		return w, nil
	}
	w, err := s.queries.Withdrawn(ctx, country)
	if err != nil {
		return w, err
	}
	s.offers.keep(country, w, now, ticket)
	return w, nil
}
