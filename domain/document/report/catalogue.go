package report

import "draindesign/domain/catalogue"

// Catalogue texts (system names, grating and material descriptions) in the
// document language, from the same message catalogue as the screens.

// catalogueText is the text of a catalogue key, or the catalogue's
// English where the language has none.
func (w *writer) catalogueText(key, english string) string {
	if s := w.t(key, nil); s != "" && s != key {
		return s
	}
	return english
}

// description is a material line's description in the document language.
func (w *writer) description(l catalogue.MaterialLine) string {
	return l.Describe(catalogue.Translate(w.t))
}
