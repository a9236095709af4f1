package translation

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// Plural keys follow i18next: "runs.count_one", "runs.count_few", ... A key
// ending in one of these suffixes is one plural form of its base key.
var pluralSuffixes = []string{"zero", "one", "two", "few", "many", "other"}

// PluralForm splits a key into its base and CLDR plural category when it is
// one form of a plural text ("x_few" -> "x", "few", true).
func PluralForm(key string) (base, form string, ok bool) {
	i := strings.LastIndexByte(key, '_')
	if i <= 0 {
		return key, "", false
	}
	if f := key[i+1:]; slices.Contains(pluralSuffixes, f) {
		return key[:i], f, true
	}
	return key, "", false
}

// pluralTag is the CLDR language whose plural rules a product code follows:
// the spec's rs and si are Serbian and Slovene (as tags they would read as
// an unknown language and as Sinhala).
func pluralTag(code string) language.Tag {
	switch code {
	case "rs":
		return language.MustParse("sr")
	case "si":
		return language.Slovenian
	}
	t, err := language.Parse(code)
	if err != nil {
		return language.English
	}
	return t
}

// pluralSamples are counts that between them reach every CLDR cardinal
// category of every language: small integers, the teens and the hundreds
// where Slavic rules turn, a million (French, Italian and Spanish "many")
// and decimals (the "other" of Polish and Slovene).
var pluralSamples = func() []string {
	var out []string
	for i := 0; i <= 220; i++ {
		out = append(out, strconv.Itoa(i))
	}
	out = append(out, "1000", "1000000", "2000000", "0.5", "1.5", "2.5", "3.5", "5.5", "10.1", "0.1", "1.1", "2.3")
	return out
}()

var (
	formsMu    sync.Mutex
	formsCache = map[string][]string{}
)

// PluralForms are the CLDR cardinal categories of a product language, in
// the order zero, one, two, few, many, other, as go-i18n's plural rules
// give them. They are found by asking go-i18n to pick among all six forms
// of a test message for counts that reach every category, so the list is
// exactly what go-i18n (and CLDR) will use.
func PluralForms(code string) []string {
	formsMu.Lock()
	defer formsMu.Unlock()
	if f, ok := formsCache[code]; ok {
		return f
	}
	tag := pluralTag(code)
	b := goi18n.NewBundle(tag)
	msg := &goi18n.Message{ID: "probe", Zero: "zero", One: "one", Two: "two", Few: "few", Many: "many", Other: "other"}
	if err := b.AddMessages(tag, msg); err != nil {
		return []string{"other"}
	}
	loc := goi18n.NewLocalizer(b, tag.String())
	seen := map[string]bool{}
	for _, n := range pluralSamples {
		s, err := loc.Localize(&goi18n.LocalizeConfig{MessageID: "probe", PluralCount: n})
		if err == nil {
			seen[s] = true
		}
	}
	var out []string
	for _, f := range pluralSuffixes {
		if seen[f] {
			out = append(out, f)
		}
	}
	formsCache[code] = out
	return out
}
