package catalogue

import "strings"

// Catalogue texts in other languages. The data holds every text in English;
// the product's message catalogue (web/locales, read by the client's
// i18next and the server's api/locale) holds each of them under a stable
// key, in every interface language:
//
//	catalogue.system.<slug>     a system's name
//	catalogue.grating.<slug>    a grating type's description
//	catalogue.article.<HAN>     an article's description (end caps, trash
//	                            and access boxes, covers, connectors, gully
//	                            bodies and extension hats)
//	catalogue.line.*            the additions a material line composes
//	                            with an item's text
//
// Channel designations ("FC 100 Standard D150") and article numbers are
// product names, the same in every language, and have no key. A material
// line carries what its description is made of (LineText), so the client
// and the documents write it in their language with Describe.

// Keys of the texts a material line adds to an item's text.
const (
	KeyConcreteChamber = "catalogue.concreteChamber"
	KeyCutTo           = "catalogue.line.cutTo"       // {{length}}
	KeyGratingSize     = "catalogue.line.gratingSize" // {{width}}, {{length}}
	// KeyModified + "." + drill position: {{diameter}}, {{distance}}. One
	// text per position, as languages inflect "in the bottom / left wall".
	KeyModified = "catalogue.line.modified"
	// KeyOrifice names the flow-control orifice plate an end cap holds: {{diameter}}.
	KeyOrifice = "catalogue.line.orifice"
)

// SystemKey is the key of a system's name.
func SystemKey(slug string) string { return "catalogue.system." + slug }

// GratingKey is the key of a grating type's description.
func GratingKey(slug string) string { return "catalogue.grating." + slug }

// ArticleKey is the key of an article's description.
func ArticleKey(han string) string { return "catalogue.article." + han }

// LineText is what a material line's description is made of: the item, by
// the key of its text or, for a channel element, by its designation, and
// the additions of the line. It holds values only, so lines stay
// comparable.
type LineText struct {
	Key         string `json:"key,omitempty"`
	Designation string `json:"designation,omitempty"`
	// A grating line: the gratings' width and length.
	GratingWidthMM  int `json:"grating_width_mm,omitempty"`
	GratingLengthMM int `json:"grating_length_mm,omitempty"`
	// CutToMM: the element is cut to this length.
	CutToMM int `json:"cut_to_mm,omitempty"`
	// The outlet hole of a modified last element.
	DrillPosition   string `json:"drill_position,omitempty"`
	DrillDiameterMM int    `json:"drill_diameter_mm,omitempty"`
	DrillDistanceMM int    `json:"drill_distance_mm,omitempty"`
	// The flow-control orifice plate of a controlled discharge (mm).
	OrificeDiameterMM float64 `json:"orifice_diameter_mm,omitempty"`
}

// Translate gives the text of a catalogue key in one language with data
// filling its {{name}} placeholders; a key it does not know comes back as
// the key itself (as api/locale.T and i18next do).
type Translate func(key string, data map[string]any) string

// Describe writes the line's description with t: the item's text, then
// its additions, separated by commas. A line without a LineText (one
// stored before lines carried it) or with a key t does not know keeps its
// English description.
func (l MaterialLine) Describe(t Translate) string {
	x := l.Text
	if x == (LineText{}) {
		return l.Description
	}
	tr := func(key string, data map[string]any) (string, bool) {
		s := t(key, data)
		return s, s != "" && s != key
	}
	var parts []string
	if x.Key != "" {
		s, ok := tr(x.Key, nil)
		if !ok {
			return l.Description
		}
		parts = append(parts, s)
	} else {
		parts = append(parts, x.Designation)
	}
	adds := []struct {
		on   bool
		key  string
		data map[string]any
	}{
		{x.GratingWidthMM > 0, KeyGratingSize, map[string]any{"width": x.GratingWidthMM, "length": x.GratingLengthMM}},
		{x.CutToMM > 0, KeyCutTo, map[string]any{"length": x.CutToMM}},
		{x.DrillPosition != "", KeyModified + "." + x.DrillPosition, map[string]any{"diameter": x.DrillDiameterMM, "distance": x.DrillDistanceMM}},
		{x.OrificeDiameterMM > 0, KeyOrifice, map[string]any{"diameter": x.OrificeDiameterMM}},
	}
	for _, a := range adds {
		if !a.on {
			continue
		}
		s, ok := tr(a.key, a.data)
		if !ok {
			return l.Description
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// Texts lists every catalogue text that has a key, by key, in English as
// the data holds it: system names, grating descriptions and article
// descriptions. The message catalogue's English must match it.
func (c *Catalogue) Texts() map[string]string {
	out := map[string]string{KeyConcreteChamber: concreteChamberText}
	// Slugs and article numbers are unique (validate), so no key is put twice.
	put := func(key, text string) { out[key] = text }
	for _, s := range c.systems {
		put(SystemKey(s.Slug), s.Name)
	}
	for _, g := range c.gratings {
		put(GratingKey(g.Slug), g.Description)
	}
	for _, e := range c.endCaps {
		put(ArticleKey(e.HAN), e.Description)
	}
	for _, t := range c.trashBoxes {
		put(ArticleKey(t.HAN), t.Description)
	}
	for _, u := range c.accessUnits {
		put(ArticleKey(u.HAN), u.Description)
	}
	for _, k := range c.connectors {
		put(ArticleKey(k.HAN), k.Description)
	}
	for _, g := range c.gullies {
		for _, o := range g.Outlets {
			put(ArticleKey(o.HAN), o.Description)
		}
		put(ArticleKey(g.ExtensionHat.HAN), g.ExtensionHat.Description)
	}
	return out
}

// DrillPositions are the positions of an outlet hole, each with its
// catalogue.line.modified.<position> text.
var DrillPositions = []string{DrillBottom, DrillLeftWall, DrillRightWall}
