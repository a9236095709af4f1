package api

import (
	"net/http"
	"slices"
	"strings"

	"draindesign/domain/catalogue"
	"draindesign/domain/design"
)

// The product catalogue's calls (design-tool.md section 7). The catalogue
// is embedded and immutable, so the handlers use the one parsed copy.

func (s *Server) catalogue() *catalogue.Catalogue { return catalogue.Default() }

// query reads a query parameter, required or not.
func query(r *http.Request, name string, required bool) (string, error) {
	v := strings.TrimSpace(r.URL.Query().Get(name))
	if v == "" && required {
		return "", badRequestf("The query parameter %q is required", name)
	}
	return v, nil
}

// products is GET /drainage/product/: the systems of the user's country,
// less those withdrawn there (channel availability).
func (s *Server) products(w http.ResponseWriter, r *http.Request) {
	country := currentUser(r).Country
	list, err := design.SystemsFor(s.catalogue(), country)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	withdrawn, err := s.withdrawn(r.Context(), country)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	list = slices.DeleteFunc(list, func(x catalogue.SelectedSystem) bool { return !withdrawn.Offers(x.Slug, "") })
	writeJSON(w, http.StatusOK, list)
}

// endCapsWithOutlet is GET /drainage/endcap/with_outlet/?channel=.
func (s *Server) endCapsWithOutlet(w http.ResponseWriter, r *http.Request) {
	ch, err := query(r, "channel", true)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	list, err := s.catalogue().EndCapsWithOutlet(ch)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, list)
}

// trashBoxDischarges is GET /drainage/trashbox/discharges/?product=&product_type=&loading=;
// with channel= (and a loading) only the boxes that fit that channel.
func (s *Server) trashBoxDischarges(w http.ResponseWriter, r *http.Request) {
	product, err := query(r, "product", true)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	typ, _ := query(r, "product_type", false)
	loading, _ := query(r, "loading", false)
	var list []float64
	if channel, _ := query(r, "channel", false); channel != "" {
		list, err = s.catalogue().TrashBoxDischargesFor(product, channel, loading)
	} else {
		list, err = s.catalogue().TrashBoxDischarges(product, typ, loading)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, list)
}

// subProducts is GET /drainage/channel/subproducts/?product=&loading=.
func (s *Server) subProducts(w http.ResponseWriter, r *http.Request) {
	product, err := query(r, "product", true)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	loading, err := query(r, "loading", true)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	m, err := s.catalogue().SubProducts(product, loading)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	withdrawn, err := s.withdrawn(r.Context(), currentUser(r).Country)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	for sub := range m {
		if !withdrawn.Offers(product, sub) {
			delete(m, sub)
		}
	}
	writeJSON(w, http.StatusOK, m)
}

// channels is GET /drainage/channel/?product=&loading=&sub_product=&upstream=0;
// upstream=0 leaves out the elements with a built-in fall.
func (s *Server) channels(w http.ResponseWriter, r *http.Request) {
	q := catalogue.ChannelQuery{}
	var err error
	if q.Product, err = query(r, "product", true); err != nil {
		s.fail(w, r, err)
		return
	}
	q.Loading, _ = query(r, "loading", false)
	q.SubProduct, _ = query(r, "sub_product", false)
	switch up, _ := query(r, "upstream", false); up {
	case "0", "false":
		q.NoBuiltInFall = true
	case "", "1", "true":
	default:
		s.fail(w, r, badRequestf("The query parameter \"upstream\" must be 0 or 1"))
		return
	}
	list, err := s.catalogue().Channels(q)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	withdrawn, err := s.withdrawn(r.Context(), currentUser(r).Country)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	list = slices.DeleteFunc(list, func(c catalogue.Channel) bool { return !withdrawn.Offers(q.Product, c.SubProduct) })
	writeJSON(w, http.StatusOK, list)
}
