package translation

import (
	"slices"
	"testing"
)

// The CLDR cardinal categories (Unicode CLDR, "Language Plural Rules",
// cldr.unicode.org/index/cldr-spec/plural-rules and the charts of
// unicode.org/cldr/charts/latest/supplemental/language_plural_rules.html)
// of every product language. rs and si are Serbian and Slovene; as tags
// they would be no language and Sinhala, which has one and other only, so
// the Slovene row (with "two") and the Serbian row (with "few") are the
// ones that fail if the mapping is lost.
func TestPluralFormsOfEveryLanguage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		code string
		want []string
	}{
		{"en", []string{"one", "other"}},
		{"de", []string{"one", "other"}},
		{"nl", []string{"one", "other"}},
		{"bg", []string{"one", "other"}},
		{"hu", []string{"one", "other"}},
		{"fr", []string{"one", "many", "other"}},
		{"it", []string{"one", "many", "other"}},
		{"hr", []string{"one", "few", "other"}},
		{"rs", []string{"one", "few", "other"}},
		{"pl", []string{"one", "few", "many", "other"}},
		{"si", []string{"one", "two", "few", "other"}},
	} {
		if got := PluralForms(tc.code); !slices.Equal(got, tc.want) {
			t.Errorf("PluralForms(%s) = %v, want %v", tc.code, got, tc.want)
		}
	}
}

func TestPluralForm(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		key, base, form string
		ok              bool
	}{
		{"load.runs_few", "load.runs", "few", true},
		{"load.runs_other", "load.runs", "other", true},
		{"design.top_width", "design.top_width", "", false},
		{"_one", "_one", "", false},
		{"plain", "plain", "", false},
	} {
		base, form, ok := PluralForm(tc.key)
		if base != tc.base || form != tc.form || ok != tc.ok {
			t.Errorf("PluralForm(%q) = %q, %q, %v; want %q, %q, %v", tc.key, base, form, ok, tc.base, tc.form, tc.ok)
		}
	}
}
