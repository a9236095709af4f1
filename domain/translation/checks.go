package translation

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"draindesign/domain/fault"
)

// i18next placeholders: {{name}}, also {{value, number}} with a format.
var placeholderRe = regexp.MustCompile(`\{\{\s*([^{}\s,]+)[^{}]*\}\}`)

// Placeholders are the distinct placeholder names in s, sorted.
func Placeholders(s string) []string {
	var out []string
	for _, m := range placeholderRe.FindAllStringSubmatch(s, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	slices.Sort(out)
	return out
}

// Bounds on one text: a message is a line or a paragraph of a screen; a
// help topic a page of Markdown.
const (
	MaxMessageBytes = 8 << 10
	MaxHelpBytes    = 64 << 10
)

// Languages the product speaks, as the catalogue files are named.
var Languages = []string{"bg", "en", "de", "fr", "hu", "it", "hr", "nl", "pl", "rs", "si"}

// ValidLanguage reports whether code is one of the eleven.
func ValidLanguage(code string) bool { return slices.Contains(Languages, code) }

// Check is a proposed text with what it is checked against.
type Check struct {
	Language string
	Kind     string
	Key      string
	Text     string
	// English is the English text of the key (for a plural form, of the
	// same form or, failing that, of "other"); Known says the key exists.
	English string
	Known   bool
}

// Validate refuses a text readers could not use: unknown key, empty text,
// placeholders that differ from the English ones (the code fills in the
// English names only), a plural form the language does not have. The
// error is a bad-input fault whose message says what to fix.
func Validate(c Check) error {
	bad := func(format string, a ...any) error { return fault.New(fault.BadInput, format, a...) }
	if !ValidLanguage(c.Language) {
		return bad("Unknown language %q", c.Language)
	}
	switch c.Kind {
	case KindMessage, KindHelp:
	default:
		return bad("Unknown kind of text %q", c.Kind)
	}
	if !c.Known {
		if c.Kind == KindHelp {
			return bad("There is no help topic %q", c.Key)
		}
		return bad("There is no text %q in the English catalogue", c.Key)
	}
	if strings.TrimSpace(c.Text) == "" {
		return bad("The text of %s is empty; reset it to go back to the shipped text", c.Key)
	}
	if !utf8.ValidString(c.Text) {
		return bad("The text of %s is not valid UTF-8", c.Key)
	}
	limit := MaxMessageBytes
	if c.Kind == KindHelp {
		limit = MaxHelpBytes
	}
	if len(c.Text) > limit {
		return fault.New(fault.TooLarge, "The text of %s is %d bytes; at most %d", c.Key, len(c.Text), limit)
	}
	if c.Kind == KindHelp {
		return nil
	}
	_, form, plural := PluralForm(c.Key)
	if plural {
		forms := PluralForms(c.Language)
		if !slices.Contains(forms, form) {
			return bad("%s has no plural form %q: its forms are %s", LanguageName(c.Language), form, strings.Join(forms, ", "))
		}
	}
	want, got := Placeholders(c.English), Placeholders(c.Text)
	var missing, unknown []string
	for _, p := range want {
		// A plural form may leave the count unsaid ("one run", "a run").
		if !slices.Contains(got, p) && (!plural || p != "count") {
			missing = append(missing, "{{"+p+"}}")
		}
	}
	for _, p := range got {
		if !slices.Contains(want, p) && (!plural || p != "count") {
			unknown = append(unknown, "{{"+p+"}}")
		}
	}
	switch {
	case len(missing) > 0 && len(unknown) > 0:
		return bad("The text must keep the placeholders of the English text: %s missing, %s unknown", strings.Join(missing, ", "), strings.Join(unknown, ", "))
	case len(missing) > 0:
		return bad("The text must keep the placeholders of the English text: %s missing", strings.Join(missing, ", "))
	case len(unknown) > 0:
		return bad("The text has placeholders the English text has not: %s", strings.Join(unknown, ", "))
	}
	return nil
}

var languageNames = map[string]string{
	"bg": "Bulgarian", "en": "English", "de": "German", "fr": "French", "hu": "Hungarian", "it": "Italian",
	"hr": "Croatian", "nl": "Dutch", "pl": "Polish", "rs": "Serbian", "si": "Slovene",
}

// LanguageName is the English name of a product language, for messages.
func LanguageName(code string) string {
	if n, ok := languageNames[code]; ok {
		return n
	}
	return fmt.Sprintf("%q", code)
}
