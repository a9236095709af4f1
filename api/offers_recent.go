package api

import (
	"context"
	"sync"
	"time"

	"draindesign/projections/offer"
)

// recentOffers keeps what is withdrawn in each country as this instance
// read it, for authTrust: every calculation asked it (`make load`: one
// query per calculation), and it changes only when staff change a
// country's offer. A change through this instance counts at once (forget);
// through another, within authTrust, as for sessions.
type recentOffers struct {
	mu sync.Mutex
	m  map[string]recentOffer
	// changed counts forgets: a read begun before one is not kept.
	changed uint64
}

type recentOffer struct {
	w    offer.Withdrawn // shared by the callers: read only
	read time.Time
}

// withdrawn is what is withdrawn in country, read within authTrust.
func (s *Server) withdrawn(ctx context.Context, country string) (offer.Withdrawn, error) {
	ro, now := &s.offers, s.cfg.Now()
	ro.mu.Lock()
	e, ok := ro.m[country]
	changed := ro.changed
	ro.mu.Unlock()
	if ok && now.Sub(e.read) < authTrust && !now.Before(e.read) {
		return e.w, nil
	}
	w, err := s.queries.Withdrawn(ctx, country)
	if err != nil {
		return w, err
	}
	ro.mu.Lock()
	defer ro.mu.Unlock()
	if ro.changed == changed {
		if ro.m == nil {
			ro.m = map[string]recentOffer{}
		}
		ro.m[country] = recentOffer{w: w, read: now}
	}
	return w, nil
}

// forget drops every country's kept offer (a change was made here).
func (ro *recentOffers) forget() {
	ro.mu.Lock()
	ro.changed++
	clear(ro.m)
	ro.mu.Unlock()
}
