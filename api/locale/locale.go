// Package locale is the server's side of the one message catalogue: the
// JSON files in web/locales that the client's i18next reads are loaded into a
// go-i18n bundle, so server texts (e-mails, documents) and screens share
// their translations.
package locale

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sync"
	"sync/atomic"

	"draindesign/domain/translation"
	"draindesign/web"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// Codes are the product's language codes, as the catalogue files are named.
var Codes = []string{"bg", "en", "de", "fr", "hu", "it", "hr", "nl", "pl", "rs", "si"}

// Fallback is the language of any text missing in another.
const Fallback = "en"

// Tag maps a product code to a BCP 47 tag. The spec's "rs" and "si" mean
// Serbian (Latin script) and Slovene; as tags they would read as unknown and
// as Sinhala, and pick the wrong plural rules.
func Tag(code string) language.Tag {
	switch code {
	case "rs":
		return language.MustParse("sr-Latn")
	case "si":
		return language.Slovenian
	}
	t, err := language.Parse(code)
	if err != nil {
		return language.English
	}
	return t
}

// i18next writes placeholders {{name}}; go-i18n's templates want {{.name}}.
var placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`)

func goTemplate(s string) string { return placeholder.ReplaceAllString(s, "{{.$1}}") }

// state is the catalogue as readers see it: the shipped files with the
// translators' overrides laid over them, and the bundle made of both. It is
// replaced whole, so a reader never sees half an update.
type state struct {
	bundle    *goi18n.Bundle
	overrides Overrides
	err       error
}

// Overrides are the translators' texts per language code and key.
type Overrides map[string]map[string]string

var (
	shippedOnce sync.Once
	shipped     map[string]map[string]string
	shippedErr  error

	current atomic.Pointer[state]
	setMu   sync.Mutex
)

// Shipped is the catalogue of a language as the release ships it (nil for
// an unknown code). Callers must not change it.
func Shipped(code string) map[string]string {
	shippedOnce.Do(func() { shipped, shippedErr = readShipped() })
	return shipped[code]
}

func readShipped() (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	for _, code := range Codes {
		raw, err := web.Locales.ReadFile("locales/" + code + ".json")
		if err != nil {
			return nil, fmt.Errorf("read catalogue %s: %w", code, err)
		}
		var texts map[string]string
		if err := json.Unmarshal(raw, &texts); err != nil {
			return nil, fmt.Errorf("parse catalogue %s: %w", code, err)
		}
		out[code] = texts
	}
	return out, nil
}

// Bundle is the catalogue with the current overrides.
func Bundle() (*goi18n.Bundle, error) {
	st := current.Load()
	if st == nil {
		setMu.Lock()
		if st = current.Load(); st == nil {
			st = build(nil)
			current.Store(st)
		}
		setMu.Unlock()
	}
	return st.bundle, st.err
}

// SetOverrides lays o over the shipped catalogue for every later T, Merged
// and Bundle. Keys the shipped English catalogue does not have are
// ignored: a text can only replace one the code asks for.
func SetOverrides(o Overrides) error {
	st := build(o)
	if st.err != nil {
		return st.err
	}
	setMu.Lock()
	current.Store(st)
	setMu.Unlock()
	return nil
}

// Merged is the catalogue of a language as readers see it now: the shipped
// texts with the overrides over them. The map is new; callers may keep it.
func Merged(code string) map[string]string {
	var over map[string]string
	if st := current.Load(); st != nil {
		over = st.overrides[code]
	}
	return MergedWith(code, over)
}

// MergedWith is the shipped catalogue of a language with over laid on it
// (keys the code never asks for left out). The map is new.
func MergedWith(code string, over map[string]string) map[string]string {
	base := Shipped(code)
	if base == nil {
		return nil
	}
	out := make(map[string]string, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		if Known(k) {
			out[k] = v
		}
	}
	return out
}

// Known reports whether key is a text the code asks for: a key of the
// shipped English catalogue, or a plural form of one ("x_few" when English
// has "x_other"), since languages have forms English has not.
func Known(key string) bool {
	english := Shipped(Fallback)
	if _, ok := english[key]; ok {
		return true
	}
	if base, _, ok := translation.PluralForm(key); ok {
		_, other := english[base+"_other"]
		return other
	}
	return false
}

func build(o Overrides) *state {
	Shipped(Fallback)
	if shippedErr != nil {
		return &state{err: shippedErr}
	}
	b := goi18n.NewBundle(language.English)
	for _, code := range Codes {
		texts := shipped[code]
		msgs := make([]*goi18n.Message, 0, len(texts))
		for id, text := range texts {
			if over, ok := o[code][id]; ok {
				text = over
			}
			msgs = append(msgs, &goi18n.Message{ID: id, Other: goTemplate(text)})
		}
		// A key only an override has (a plural form the shipped file of
		// this language lacks) still reads, if English knows its base.
		for id, text := range o[code] {
			if _, done := texts[id]; !done && Known(id) {
				msgs = append(msgs, &goi18n.Message{ID: id, Other: goTemplate(text)})
			}
		}
		if err := b.AddMessages(Tag(code), msgs...); err != nil {
			return &state{err: fmt.Errorf("load catalogue %s: %w", code, err)}
		}
	}
	return &state{bundle: b, overrides: o}
}

// T is the text of key in the language with code lang (falling back to
// English), with data filling its placeholders. A key missing everywhere
// comes back as the key itself, so a gap shows rather than hides.
func T(lang, key string, data map[string]any) string {
	b, err := Bundle()
	if err != nil {
		return key
	}
	loc := goi18n.NewLocalizer(b, Tag(lang).String(), Fallback)
	s, err := loc.Localize(&goi18n.LocalizeConfig{MessageID: key, TemplateData: data})
	if err != nil || s == "" {
		return key
	}
	return s
}

var matcher = func() language.Matcher {
	tags := make([]language.Tag, len(Codes))
	for i, c := range Codes {
		tags[i] = Tag(c)
	}
	return language.NewMatcher(tags)
}()

// Match picks the product language best fitting an Accept-Language header,
// English when nothing fits.
func Match(acceptLanguage string) string {
	tags, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(tags) == 0 {
		return Fallback
	}
	_, i, conf := matcher.Match(tags...)
	if conf == language.No {
		return Fallback
	}
	return Codes[i]
}
