package locale

import (
	"testing"
)

func TestTag(t *testing.T) {
	t.Parallel()
	for code, want := range map[string]string{"rs": "sr-Latn", "si": "sl", "de": "de", "hu": "hu", "": "en", "??": "en"} {
		if got := Tag(code).String(); got != want {
			t.Errorf("Tag(%q) = %s, want %s", code, got, want)
		}
	}
}

func TestT(t *testing.T) {
	t.Parallel()
	data := map[string]any{"username": "ana", "product": "P"}
	tests := []struct{ lang, key, want string }{
		{"en", "mail.greeting", "Hello ana,"},
		{"de", "mail.greeting", "Hallo ana,"},
		{"rs", "mail.greeting", "Zdravo ana,"},
		{"si", "mail.greeting", "Pozdravljeni, ana,"},
		{"xx", "mail.greeting", "Hello ana,"}, // unknown language: English
		{"de", "no.such.key", "no.such.key"},  // a gap shows
		{"fr", "mail.reset.subject", "Réinitialisez votre mot de passe P"},
	}
	for _, tc := range tests {
		if got := T(tc.lang, tc.key, data); got != tc.want {
			t.Errorf("T(%s, %s) = %q, want %q", tc.lang, tc.key, got, tc.want)
		}
	}
}

// Every catalogue file loads: a broken file would silently send English.
func TestBundleLoadsEveryLanguage(t *testing.T) {
	t.Parallel()
	b, err := Bundle()
	if err != nil {
		t.Fatal(err)
	}
	if got := len(b.LanguageTags()); got != len(Codes) {
		t.Fatalf("%d languages loaded, want %d", got, len(Codes))
	}
}

func TestMatch(t *testing.T) {
	t.Parallel()
	for header, want := range map[string]string{
		"de-DE,de;q=0.9,en;q=0.8": "de", "sr-Latn": "rs", "sl": "si", "ja": "en", "": "en", "fr-CH, fr;q=0.9": "fr", "pl": "pl",
	} {
		if got := Match(header); got != want {
			t.Errorf("Match(%q) = %s, want %s", header, got, want)
		}
	}
}

// Overrides lay over the shipped texts for T and Merged, ignore keys the
// code never asks for, and go away when replaced. Not parallel: it changes
// the process-wide catalogue, and the parallel tests run after it.
func TestSetOverrides(t *testing.T) {
	t.Cleanup(func() { _ = SetOverrides(nil) })
	shippedDE := T("de", "nav.home", nil)
	if err := SetOverrides(Overrides{"de": {"nav.home": "Startseite {{x}}", "no.such.key": "x"}}); err != nil {
		t.Fatal(err)
	}
	if got := T("de", "nav.home", map[string]any{"x": 1}); got != "Startseite 1" {
		t.Errorf("T(de, nav.home) = %q with the override", got)
	}
	if got := T("fr", "nav.home", nil); got != Shipped("fr")["nav.home"] {
		t.Errorf("T(fr) = %q, another language changed", got)
	}
	m := Merged("de")
	if m["nav.home"] != "Startseite {{x}}" || len(m) != len(Shipped("de")) {
		t.Errorf("Merged(de): nav.home %q, %d keys (shipped %d)", m["nav.home"], len(m), len(Shipped("de")))
	}
	if Shipped("de")["nav.home"] == "Startseite {{x}}" {
		t.Error("the shipped catalogue was changed")
	}
	if err := SetOverrides(nil); err != nil {
		t.Fatal(err)
	}
	if got := T("de", "nav.home", nil); got != shippedDE {
		t.Errorf("T(de) after dropping the overrides = %q, want %q", got, shippedDE)
	}
}
