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

var (
	once    sync.Once
	bundle  *goi18n.Bundle
	loadErr error
)

// Bundle is the catalogue, loaded once from the embedded files.
func Bundle() (*goi18n.Bundle, error) {
	once.Do(func() { bundle, loadErr = load() })
	return bundle, loadErr
}

func load() (*goi18n.Bundle, error) {
	b := goi18n.NewBundle(language.English)
	for _, code := range Codes {
		raw, err := web.Locales.ReadFile("locales/" + code + ".json")
		if err != nil {
			return nil, fmt.Errorf("read catalogue %s: %w", code, err)
		}
		var texts map[string]string
		if err := json.Unmarshal(raw, &texts); err != nil {
			return nil, fmt.Errorf("parse catalogue %s: %w", code, err)
		}
		msgs := make([]*goi18n.Message, 0, len(texts))
		for id, text := range texts {
			msgs = append(msgs, &goi18n.Message{ID: id, Other: goTemplate(text)})
		}
		if err := b.AddMessages(Tag(code), msgs...); err != nil {
			return nil, fmt.Errorf("load catalogue %s: %w", code, err)
		}
	}
	return b, nil
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
