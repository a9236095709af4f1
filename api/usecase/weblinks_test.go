package usecase

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"draindesign/domain/account"
)

func TestWebLinksByRegion(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "weblinks.json")
	w := NewWebLinks(path)
	as := func(country string) Actor { return Actor{User: &account.Account{ID: "u", Country: country}} }
	for _, tc := range []struct {
		country, region, first string
		partner                bool
	}{
		{"GB", "UK", "SuDS Manual (CIRIA C753)", false},
		{"BE", "EU", "EN 1433 drainage channels (CEN)", true},
		{"DE", "EU", "EN 1433 drainage channels (CEN)", false},
		{"US", "INT", "World Meteorological Organization", false},
		{"", "INT", "World Meteorological Organization", false},
	} {
		got, err := w.For(as(tc.country))
		if err != nil {
			t.Fatal(err)
		}
		if got.Region != tc.region || len(got.Links) < 2 || got.Links[0].Label != tc.first || (got.Partner != nil) != tc.partner {
			t.Errorf("%s: %+v", tc.country, got)
		}
		if last := got.Links[len(got.Links)-1]; last.URL != "https://www.iso.org/" {
			t.Errorf("%s: the international link is not last: %+v", tc.country, last)
		}
	}
	if _, err := w.For(Actor{}); err == nil {
		t.Error("anonymous got links")
	}

	// Staff's file replaces the default as soon as it is there.
	staffFile := `{"regions":{"EU":[{"label":"Belgian branch","url":"https://be.example.org/"}]},"partners":{"BE":{"name":"P","logo":"/static/partners/be.svg"}}}`
	if err := os.WriteFile(path, []byte(staffFile), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := w.For(as("BE"))
	if err != nil || len(got.Links) != 1 || got.Links[0].Label != "Belgian branch" || got.Partner == nil || got.Partner.Name != "P" {
		t.Fatalf("with staff's file: %+v, %v", got, err)
	}
	// A file with a plain-http link is refused, not half-used.
	later := time.Now().Add(time.Minute)
	if err := os.WriteFile(path, []byte(strings.Replace(staffFile, "https://be", "http://be", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	_ = os.Chtimes(path, later, later)
	if _, err := w.For(as("BE")); err == nil || !strings.Contains(err.Error(), "https") {
		t.Errorf("http link accepted: %v", err)
	}
	// Without the file: the default again.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if got, err := w.For(as("BE")); err != nil || got.Links[0].Label != "EN 1433 drainage channels (CEN)" {
		t.Errorf("after removing the file: %+v, %v", got, err)
	}
}
