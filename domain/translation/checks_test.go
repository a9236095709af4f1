package translation

import (
	"errors"
	"strings"
	"testing"
	"time"

	"draindesign/domain/fault"
)

func TestPlaceholders(t *testing.T) {
	t.Parallel()
	got := Placeholders("Run {{ name }} is {{length}} m, {{value, number}} and {{name}} again")
	if strings.Join(got, ",") != "length,name,value" {
		t.Errorf("Placeholders = %v", got)
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	msg := func(lang, key, english, text string) Check {
		return Check{Language: lang, Kind: KindMessage, Key: key, English: english, Text: text, Known: true}
	}
	for _, tc := range []struct {
		name string
		c    Check
		want string // "" for accepted, else a part of the message
		kind fault.Kind
	}{
		{"same placeholders", msg("de", "runs.defaultName", "Run {{n}}", "Lauf {{n}}"), "", 0},
		{"placeholders reordered", msg("de", "x", "{{a}} of {{b}}", "{{b}}: {{a}}"), "", 0},
		{"placeholder missing", msg("de", "x", "Run {{n}}", "Lauf"), "{{n}} missing", fault.BadInput},
		{"placeholder renamed", msg("fr", "x", "Run {{n}}", "Tracé {{nom}}"), "{{n}} missing, {{nom}} unknown", fault.BadInput},
		{"placeholder added", msg("fr", "x", "Run", "Tracé {{n}}"), "{{n}}", fault.BadInput},
		{"empty", msg("de", "x", "Run", "  "), "empty", fault.BadInput},
		{"unknown key", Check{Language: "de", Kind: KindMessage, Key: "nope", Text: "a"}, "no text", fault.BadInput},
		{"unknown language", msg("xx", "x", "a", "b"), "Unknown language", fault.BadInput},
		{"unknown kind", Check{Language: "de", Kind: "poem", Key: "x", Text: "a", Known: true}, "kind", fault.BadInput},
		{"too long", msg("de", "x", "a", strings.Repeat("a", MaxMessageBytes+1)), "bytes", fault.TooLarge},
		{"help needs no placeholders", Check{Language: "fr", Kind: KindHelp, Key: "about", Text: "# À propos", Known: true}, "", 0},
		{"unknown help topic", Check{Language: "fr", Kind: KindHelp, Key: "nope", Text: "x"}, "no help topic", fault.BadInput},
		// Plural forms: the language's own CLDR categories only.
		{"polish few", msg("pl", "runs_few", "{{count}} runs", "{{count}} trasy"), "", 0},
		{"polish many", msg("pl", "runs_many", "{{count}} runs", "{{count}} tras"), "", 0},
		{"german has no few", msg("de", "runs_few", "{{count}} runs", "{{count}} Läufe"), "German has no plural form \"few\": its forms are one, other", fault.BadInput},
		{"slovene dual", msg("si", "runs_two", "{{count}} runs", "{{count}} trasi"), "", 0},
		{"serbian has no dual", msg("rs", "runs_two", "{{count}} runs", "{{count}} trase"), "Serbian has no plural form \"two\"", fault.BadInput},
		{"one form may drop the count", msg("de", "runs_one", "{{count}} runs", "ein Lauf"), "", 0},
		{"plural keeps other placeholders", msg("de", "runs_one", "{{count}} runs in {{name}}", "ein Lauf"), "{{name}} missing", fault.BadInput},
	} {
		err := Validate(tc.c)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.want != "" && err == nil:
			t.Errorf("%s: accepted, want a refusal with %q", tc.name, tc.want)
		case tc.want != "" && (!strings.Contains(err.Error(), tc.want) || fault.Of(err) != tc.kind):
			t.Errorf("%s: %v (%s), want %q (%s)", tc.name, err, fault.Of(err), tc.want, tc.kind)
		}
	}
}

func TestCatalogueSetAndReset(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	c := NewCatalogue("de")
	change := func(text string) Change {
		return Change{Check: Check{Language: "de", Kind: KindMessage, Key: "login.title", Text: text, English: "Log in", Known: true},
			Shipped: "Anmelden", By: "u1", ByName: "tina", At: at}
	}
	apply := func(evs []Event) {
		for _, e := range evs {
			c.Apply(e)
		}
	}
	// The shipped text again: nothing to record.
	if evs, err := c.Set(change("Anmelden")); err != nil || len(evs) != 0 {
		t.Fatalf("Set(shipped) = %v, %v; want nothing", evs, err)
	}
	evs, err := c.Set(change("Einloggen"))
	if err != nil || len(evs) != 1 {
		t.Fatalf("Set = %v, %v", evs, err)
	}
	want := TextChanged{Language: "de", Kind: KindMessage, Key: "login.title", Old: "Anmelden", New: "Einloggen", English: "Log in", By: "u1", ByName: "tina", At: at}
	if evs[0] != want {
		t.Errorf("event %+v, want %+v", evs[0], want)
	}
	apply(evs)
	if s, ok := c.Override(KindMessage, "login.title"); !ok || s != "Einloggen" {
		t.Errorf("override %q, %v", s, ok)
	}
	// The same text twice: nothing.
	if evs, _ := c.Set(change("Einloggen")); len(evs) != 0 {
		t.Errorf("repeat = %v", evs)
	}
	// Back to the shipped text by typing it: the override is dropped.
	evs, _ = c.Set(change("Anmelden"))
	if len(evs) != 1 || evs[0] != (TextReset{Language: "de", Kind: KindMessage, Key: "login.title", Old: "Einloggen", By: "u1", ByName: "tina", At: at}) {
		t.Fatalf("Set(shipped) after override = %+v", evs)
	}
	apply(evs)
	if _, ok := c.Override(KindMessage, "login.title"); ok {
		t.Error("override kept after reset")
	}
	if evs := c.Reset(KindMessage, "login.title", "u1", "tina", at); len(evs) != 0 {
		t.Errorf("Reset without override = %v", evs)
	}
	// A refused text decides nothing.
	bad := change("Einloggen")
	bad.English = "Log in as {{name}}"
	if _, err := c.Set(bad); fault.Of(err) != fault.BadInput {
		t.Errorf("Set(missing placeholder) = %v", err)
	}
	// Another language's change is refused.
	other := change("Connexion")
	other.Language = "fr"
	if _, err := c.Set(other); fault.Of(err) != fault.BadInput {
		t.Errorf("Set(fr on de) = %v", err)
	}
}

func TestCodecRoundTrip(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	for _, e := range []Event{
		TextChanged{Language: "de", Kind: KindMessage, Key: "k", Old: "a", New: "b", English: "c", By: "u", ByName: "n", At: at},
		TextReset{Language: "fr", Kind: KindHelp, Key: "about", Old: "x", By: "u", ByName: "n", At: at},
	} {
		typ, schema, data, err := Encode(e)
		if err != nil || schema != 1 || typ != e.EventType() {
			t.Fatalf("Encode(%T) = %s, %d, %v", e, typ, schema, err)
		}
		back, err := Decode(typ, schema, data)
		if err != nil || back != e {
			t.Errorf("Decode = %+v, %v; want %+v", back, err, e)
		}
	}
	if _, err := Decode("translation.unheard_of", 1, []byte(`{}`)); !errors.Is(err, ErrUnknownEventType) {
		t.Errorf("unknown type: %v", err)
	}
	if got := Stream("de"); got != "translation-de" {
		t.Errorf("Stream = %s", got)
	}
}
