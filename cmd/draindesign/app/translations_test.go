package app

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"draindesign/domain/account"
	"draindesign/domain/document/pdf/pdftest"
)

// get fetches a path as u and gives the status and body.
func (u *user) get(path string) (int, string) {
	u.t.Helper()
	resp, err := u.http.Get(u.base + path)
	if err != nil {
		u.t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// A translator's change of a German text reaches the catalogue every
// client loads, signed in or not; refused edits say why and change
// nothing; the change outlives a restart of the product, on both stores.
func TestTranslationOverrides(t *testing.T) {
	t.Parallel()
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			p := start(t, b.opts(t))
			tina := p.staff(t, "tina", account.GroupTranslator)
			ann := p.staff(t, "ann", account.GroupStandard)
			anon := p.newUser(t)

			var shipped map[string]string
			anon.must(http.StatusOK, "GET", "/api/locales/de.json", nil, &shipped)
			if shipped["runs.defaultName"] == "" || len(shipped) < 500 {
				t.Fatalf("de catalogue has %d keys, runs.defaultName %q", len(shipped), shipped["runs.defaultName"])
			}
			var revs struct{ Revisions map[string]int64 }
			anon.must(http.StatusOK, "GET", "/api/locales/", nil, &revs)
			if len(revs.Revisions) != 11 || revs.Revisions["de"] != 0 {
				t.Fatalf("revisions before any change %v", revs.Revisions)
			}

			// Refused: not a translator; a lost placeholder; an unknown key;
			// a plural form German has not.
			ann.must(http.StatusForbidden, "POST", "/api/translations/message/de/", map[string]string{"key": "runs.defaultName", "text": "Strecke {{n}}"}, nil)
			var refusal struct{ Error string }
			tina.must(http.StatusBadRequest, "POST", "/api/translations/message/de/", map[string]string{"key": "runs.defaultName", "text": "Strecke"}, &refusal)
			if !strings.Contains(refusal.Error, "{{n}} missing") {
				t.Errorf("refusal %q does not name the placeholder", refusal.Error)
			}
			tina.must(http.StatusBadRequest, "POST", "/api/translations/message/de/", map[string]string{"key": "no.such.key", "text": "x"}, nil)
			// The import of a file with one bad text changes nothing.
			tina.must(http.StatusBadRequest, "POST", "/api/translations/message/de/import/",
				map[string]string{"nav.home": "Startseite!", "runs.defaultName": "Lauf ohne Nummer"}, &refusal)
			anon.must(http.StatusOK, "GET", "/api/locales/de.json", nil, &shipped)
			if shipped["nav.home"] == "Startseite!" {
				t.Error("a refused import changed nav.home")
			}

			tina.must(http.StatusOK, "POST", "/api/translations/message/de/", map[string]string{"key": "runs.defaultName", "text": "Strecke {{n}}"}, nil)
			var merged map[string]string
			anon.must(http.StatusOK, "GET", "/api/locales/de.json", nil, &merged)
			if merged["runs.defaultName"] != "Strecke {{n}}" {
				t.Errorf("de runs.defaultName = %q after the change", merged["runs.defaultName"])
			}
			anon.must(http.StatusOK, "GET", "/api/locales/", nil, &revs)
			if revs.Revisions["de"] != 1 || revs.Revisions["fr"] != 0 {
				t.Errorf("revisions after one change %v", revs.Revisions)
			}
			// The editor's grid shows who changed what.
			var grid struct {
				PluralForms []string `json:"plural_forms"`
				Rows        []struct {
					Key, English, Text, Shipped string
					Overridden                  bool
					ByName                      string `json:"by_name"`
				}
			}
			tina.must(http.StatusOK, "GET", "/api/translations/message/de/", nil, &grid)
			found := false
			for _, r := range grid.Rows {
				if r.Key == "runs.defaultName" {
					found = true
					if !r.Overridden || r.Text != "Strecke {{n}}" || r.Shipped != shipped["runs.defaultName"] || r.ByName != "tina" || r.English != "Run {{n}}" {
						t.Errorf("grid row %+v", r)
					}
				}
			}
			if !found || strings.Join(grid.PluralForms, ",") != "one,other" {
				t.Errorf("grid: row found %v, plural forms %v", found, grid.PluralForms)
			}
			ann.must(http.StatusForbidden, "GET", "/api/translations/message/de/", nil, nil)

			// A change of the English text marks the translations written
			// against the old one: the override and the shipped French text.
			stale := func(lang, key string) bool {
				var g struct {
					Rows []struct {
						Key   string
						Stale bool
					}
				}
				tina.must(http.StatusOK, "GET", "/api/translations/message/"+lang+"/", nil, &g)
				for _, r := range g.Rows {
					if r.Key == key {
						return r.Stale
					}
				}
				t.Fatalf("no %s row %s", lang, key)
				return false
			}
			if stale("de", "runs.defaultName") || stale("fr", "runs.defaultName") {
				t.Error("stale before the English changed")
			}
			tina.must(http.StatusOK, "POST", "/api/translations/message/en/", map[string]string{"key": "runs.defaultName", "text": "Channel run {{n}}"}, nil)
			if !stale("de", "runs.defaultName") || !stale("fr", "runs.defaultName") || stale("de", "nav.home") {
				t.Error("after the English change: runs.defaultName should be stale in de and fr, nav.home not")
			}
			tina.must(http.StatusOK, "POST", "/api/translations/message/en/reset/", map[string]string{"key": "runs.defaultName"}, nil)
			if stale("de", "runs.defaultName") || stale("fr", "runs.defaultName") {
				t.Error("stale after the English went back to the text they translate")
			}

			// Help: French has its own "about", not "allow-flooding".
			if code, body := anon.get("/static/help/fr/about.html"); code != http.StatusOK || !strings.Contains(body, "<h1>À propos du logiciel</h1>") {
				t.Errorf("fr about: %d %.80q", code, body)
			}
			if code, _ := anon.get("/static/help/fr/allow-flooding.html"); code != http.StatusNotFound {
				t.Errorf("fr allow-flooding without a French text: %d, want 404", code)
			}
			if code, body := anon.get("/static/help/en/allow-flooding.html"); code != http.StatusOK || !strings.Contains(body, "<h1>Allow flooding</h1>") {
				t.Errorf("en allow-flooding: %d %.80q", code, body)
			}
			tina.must(http.StatusOK, "POST", "/api/translations/help/fr/", map[string]string{"key": "allow-flooding", "text": "# Autoriser le débordement\n\n<script>x</script>"}, nil)
			if code, body := anon.get("/static/help/fr/allow-flooding.html"); code != http.StatusOK || !strings.Contains(body, "Autoriser le débordement") || strings.Contains(body, "<script") {
				t.Errorf("fr allow-flooding after the change: %d %q", code, body)
			}
			var topics []struct {
				File      string   `json:"topic_file"`
				Languages []string `json:"languages"`
			}
			anon.must(http.StatusOK, "GET", "/api/drainage/help-topics", nil, &topics)
			if len(topics) != 19 {
				t.Fatalf("%d help topics, want the spec's 19", len(topics))
			}
			for _, tp := range topics {
				if tp.File == "allow-flooding" && strings.Join(tp.Languages, ",") != "en,fr" {
					t.Errorf("allow-flooding languages %v", tp.Languages)
				}
			}

			// A restart reads everything back from the store.
			p.stop()
			p = start(t, p.opts)
			anon = p.newUser(t)
			anon.must(http.StatusOK, "GET", "/api/locales/de.json", nil, &merged)
			if merged["runs.defaultName"] != "Strecke {{n}}" {
				t.Errorf("after a restart de runs.defaultName = %q", merged["runs.defaultName"])
			}
			if code, body := anon.get("/static/help/fr/allow-flooding.html"); code != http.StatusOK || !strings.Contains(body, "Autoriser") {
				t.Errorf("after a restart fr allow-flooding: %d", code)
			}
			// Back to the shipped text.
			tina = p.newUser(t)
			tina.must(http.StatusOK, "POST", "/api/auth/login/", map[string]string{"username": "tina", "password": "a long password"}, nil)
			tina.must(http.StatusOK, "POST", "/api/translations/message/de/reset/", map[string]string{"key": "runs.defaultName"}, nil)
			anon.must(http.StatusOK, "GET", "/api/locales/de.json", nil, &merged)
			if merged["runs.defaultName"] != shipped["runs.defaultName"] {
				t.Errorf("after a reset de runs.defaultName = %q, want the shipped %q", merged["runs.defaultName"], shipped["runs.defaultName"])
			}
		})
	}
}

// The logged-out page's feature sheets are PDFs in the asked language, for
// anyone.
func TestFeatureSheets(t *testing.T) {
	t.Parallel()
	pdftest.Require(t)
	p := start(t, Options{DataDir: t.TempDir()})
	anon := p.newUser(t)
	for _, tc := range []struct{ version, lang, title, market string }{
		{"uk", "de", "Produktblatt: UK-Version", "Vereinigtes Königreich"},
		{"int", "fr", "Fiche produit : version européenne et internationale", "Europe et international"},
		{"uk", "en", "Feature sheet: UK version", "United Kingdom"},
	} {
		code, body := anon.get("/api/drainage/feature-sheet/" + tc.version + "/" + tc.lang + "/")
		if code != http.StatusOK || !strings.HasPrefix(body, "%PDF-") {
			t.Fatalf("%s/%s: %d %.20q", tc.version, tc.lang, code, body)
		}
		text := pdftest.PageText(t, pdftest.Write(t, []byte(body)), 1)
		if !strings.Contains(text, tc.title) || !strings.Contains(text, tc.market) {
			t.Errorf("%s/%s sheet lacks %q or %q:\n%s", tc.version, tc.lang, tc.title, tc.market, text)
		}
	}
	if code, _ := anon.get("/api/drainage/feature-sheet/mars/en/"); code != http.StatusNotFound {
		t.Errorf("unknown version: %d", code)
	}
}
