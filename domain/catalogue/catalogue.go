// Package catalogue holds the product range of draindesign: drainage
// systems, channel elements, gratings, end caps, trash boxes, access units,
// connectors and gullies, with country availability. The data is embedded
// JSON (data/), parsed and validated once.
//
// The package answers the look-ups of the design tool (systems for a
// country, end caps with outlet, trash-box discharges, sub-products,
// channels), lays channel elements out along a run and lists the candidate
// channel sets of standard mode as neutral element descriptions for the
// hydraulic engine, and turns a designed run into material lines. It holds
// no hydraulics.
package catalogue

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
)

//go:embed data/*.json data/channels/*.json
var dataFS embed.FS

// Catalogue is the parsed, validated product range. It is immutable and
// safe for concurrent use.
type Catalogue struct {
	countries   []Country
	countryByIS map[string]Country

	systems      []*System
	systemBySlug map[string]*System

	channels         []*ChannelSpec
	channelBySlug    map[string]*ChannelSpec
	channelsBySystem map[string][]*ChannelSpec

	gratings      []*Grating
	gratingBySlug map[string]*Grating

	endCaps     []*EndCap
	trashBoxes  []*TrashBox
	accessUnits []*AccessUnit
	connectors  []*Connector
	gullies     map[string]*Gully
}

var loadDefault = sync.OnceValues(Load)

// Default returns the embedded catalogue, parsed once. It panics if the
// embedded data is invalid, which the package tests rule out.
func Default() *Catalogue {
	c, err := loadDefault()
	if err != nil {
		panic(err)
	}
	return c
}

// Load parses and validates the embedded catalogue data.
func Load() (*Catalogue, error) {
	return load(dataFS)
}

func load(fsys fs.FS) (*Catalogue, error) {
	c := &Catalogue{}
	var channelFiles []string
	err := fs.WalkDir(fsys, "data/channels", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && path.Ext(p) == ".json" {
			channelFiles = append(channelFiles, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("catalogue data: %w", err)
	}
	for _, f := range []struct {
		name string
		into any
	}{
		{"data/countries.json", &c.countries},
		{"data/systems.json", &c.systems},
		{"data/gratings.json", &c.gratings},
		{"data/endcaps.json", &c.endCaps},
		{"data/trashboxes.json", &c.trashBoxes},
		{"data/accessboxes.json", &c.accessUnits},
		{"data/connectors.json", &c.connectors},
	} {
		if err := decodeFile(fsys, f.name, f.into); err != nil {
			return nil, err
		}
	}
	var gullies []*Gully
	if err := decodeFile(fsys, "data/gullies.json", &gullies); err != nil {
		return nil, err
	}
	sort.Strings(channelFiles)
	for _, name := range channelFiles {
		var chs []*ChannelSpec
		if err := decodeFile(fsys, name, &chs); err != nil {
			return nil, err
		}
		c.channels = append(c.channels, chs...)
	}

	c.index(gullies)
	if err := c.validate(gullies); err != nil {
		return nil, err
	}
	return c, nil
}

func decodeFile(fsys fs.FS, name string, into any) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return fmt.Errorf("catalogue data: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		return fmt.Errorf("catalogue data %s: %w", name, err)
	}
	return nil
}

// index builds the look-up maps; duplicates are reported by validate.
func (c *Catalogue) index(gullies []*Gully) {
	c.countryByIS = make(map[string]Country, len(c.countries))
	for _, k := range c.countries {
		c.countryByIS[k.ISOCode] = k
	}
	sort.SliceStable(c.systems, func(i, j int) bool { return c.systems[i].DisplayOrder < c.systems[j].DisplayOrder })
	c.systemBySlug = make(map[string]*System, len(c.systems))
	for _, s := range c.systems {
		c.systemBySlug[s.Slug] = s
	}
	c.channelBySlug = make(map[string]*ChannelSpec, len(c.channels))
	c.channelsBySystem = make(map[string][]*ChannelSpec)
	for _, ch := range c.channels {
		c.channelBySlug[ch.Slug] = ch
		c.channelsBySystem[ch.System] = append(c.channelsBySystem[ch.System], ch)
	}
	for _, list := range c.channelsBySystem {
		sort.SliceStable(list, func(i, j int) bool { return list[i].DisplayOrder < list[j].DisplayOrder })
	}
	c.gratingBySlug = make(map[string]*Grating, len(c.gratings))
	for _, g := range c.gratings {
		c.gratingBySlug[g.Slug] = g
	}
	c.gullies = make(map[string]*Gully, len(gullies))
	for _, g := range gullies {
		c.gullies[g.System] = g
	}
}

// Countries lists the countries in data order.
func (c *Catalogue) Countries() []Country {
	return append([]Country(nil), c.countries...)
}

// Country returns a country by ISO code (case-insensitive).
func (c *Catalogue) Country(iso string) (Country, error) {
	k, ok := c.countryByIS[strings.ToUpper(strings.TrimSpace(iso))]
	if !ok {
		return Country{}, &NotFoundError{Kind: "country", Key: iso}
	}
	return k, nil
}

// Systems lists all systems in display order.
func (c *Catalogue) Systems() []*System {
	return append([]*System(nil), c.systems...)
}

// System returns a system by slug.
func (c *Catalogue) System(slug string) (*System, error) {
	s, ok := c.systemBySlug[slug]
	if !ok {
		return nil, &NotFoundError{Kind: "system", Key: slug}
	}
	return s, nil
}

// Channel returns a channel element by slug.
func (c *Catalogue) Channel(slug string) (*ChannelSpec, error) {
	ch, ok := c.channelBySlug[slug]
	if !ok {
		return nil, &NotFoundError{Kind: "channel", Key: slug}
	}
	return ch, nil
}

// SystemChannels lists a system's channel elements in display order.
func (c *Catalogue) SystemChannels(system string) ([]*ChannelSpec, error) {
	if _, err := c.System(system); err != nil {
		return nil, err
	}
	return append([]*ChannelSpec(nil), c.channelsBySystem[system]...), nil
}

// Grating returns a grating type by slug.
func (c *Catalogue) Grating(slug string) (*Grating, error) {
	g, ok := c.gratingBySlug[slug]
	if !ok {
		return nil, &NotFoundError{Kind: "grating", Key: slug}
	}
	return g, nil
}

// Gully returns the point product of a type P system.
func (c *Catalogue) Gully(system string) (*Gully, error) {
	g, ok := c.gullies[system]
	if !ok {
		return nil, &NotFoundError{Kind: "point product", Key: system}
	}
	return g, nil
}

func contains[T comparable](list []T, v T) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func inSystem(slug string) string { return fmt.Sprintf("system %q", slug) }
