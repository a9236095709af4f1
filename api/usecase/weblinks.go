package usecase

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"draindesign/domain/account"
)

// WebLink is one entry of the top bar's web-links menu.
type WebLink struct {
	Label string `json:"label"`
	URL   string `json:"url"`
}

// Partner is the partner whose logo users of a country see.
type Partner struct {
	Name string `json:"name"`
	Logo string `json:"logo"`
	URL  string `json:"url,omitempty"`
}

// WebLinksFile is the data file's shape.
type WebLinksFile struct {
	Regions       map[string][]WebLink `json:"regions"`
	International WebLink              `json:"international"`
	Partners      map[string]Partner   `json:"partners"`
}

// UserWebLinks is what one user's top bar shows.
type UserWebLinks struct {
	Region  string    `json:"region"`
	Links   []WebLink `json:"links"`
	Partner *Partner  `json:"partner"`
}

//go:embed weblinks.default.json
var defaultWebLinks []byte

// WebLinks reads the links from staff's data file when there is one (read
// again when it changes), else the release's default.
type WebLinks struct {
	path string

	mu      sync.Mutex
	modTime time.Time
	size    int64
	links   *WebLinksFile
}

// NewWebLinks reads the file at path ("" for the default only).
func NewWebLinks(path string) *WebLinks { return &WebLinks{path: path} }

func parseWebLinks(data []byte) (*WebLinksFile, error) {
	var f WebLinksFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	check := func(l WebLink) error {
		u, err := url.Parse(l.URL)
		if err != nil || u.Scheme != "https" || u.Host == "" || strings.TrimSpace(l.Label) == "" {
			return fmt.Errorf("link %q (%s): a label and an https address are needed", l.Label, l.URL)
		}
		return nil
	}
	for _, links := range f.Regions {
		for _, l := range links {
			if err := check(l); err != nil {
				return nil, err
			}
		}
	}
	if f.International.URL != "" {
		if err := check(f.International); err != nil {
			return nil, err
		}
	}
	for iso, p := range f.Partners {
		if !strings.HasPrefix(p.Logo, "/static/") && !strings.HasPrefix(p.Logo, "https://") {
			return nil, fmt.Errorf("partner of %s: the logo must be under /static/ or https", iso)
		}
	}
	return &f, nil
}

func (w *WebLinks) file() (*WebLinksFile, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.path != "" {
		st, err := os.Stat(w.path)
		switch {
		case err == nil:
			if w.links != nil && st.ModTime().Equal(w.modTime) && st.Size() == w.size {
				return w.links, nil
			}
			data, err := os.ReadFile(w.path)
			if err != nil {
				return nil, fmt.Errorf("read web links: %w", err)
			}
			f, err := parseWebLinks(data)
			if err != nil {
				return nil, fmt.Errorf("web links file %s: %w", w.path, err)
			}
			w.links, w.modTime, w.size = f, st.ModTime(), st.Size()
			return f, nil
		case !os.IsNotExist(err):
			return nil, fmt.Errorf("web links: %w", err)
		}
	}
	if w.links == nil || !w.modTime.IsZero() {
		f, err := parseWebLinks(defaultWebLinks)
		if err != nil {
			return nil, fmt.Errorf("default web links: %w", err)
		}
		w.links, w.modTime, w.size = f, time.Time{}, 0
	}
	return w.links, nil
}

// For is the signed-in user's menu: the links of the region of the user's
// country, then the international one; and the partner of the country.
func (w *WebLinks) For(a Actor) (UserWebLinks, error) {
	if err := signedIn(a); err != nil {
		return UserWebLinks{}, err
	}
	f, err := w.file()
	if err != nil {
		return UserWebLinks{}, err
	}
	region := account.RegionInternational
	if c, ok := account.CountryByISO(a.User.Country); ok {
		region = c.Region
	}
	out := UserWebLinks{Region: region, Links: append([]WebLink{}, f.Regions[region]...)}
	if f.International.URL != "" {
		out.Links = append(out.Links, f.International)
	}
	if p, ok := f.Partners[a.User.Country]; ok {
		out.Partner = &p
	}
	return out, nil
}
