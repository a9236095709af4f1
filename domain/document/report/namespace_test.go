package report

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every text the documents print comes from the catalogue's `documents`
// namespace (product texts from `catalogue`), so the document-translation
// editor covers all of it and a change on a screen never changes a
// document by accident. Any string literal of this package's code that
// names a catalogue key must be one of those.
func TestDocumentTextsAreInTheirNamespace(t *testing.T) {
	keys := readCatalogue(t, "en")
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	literal := regexp.MustCompile(`"([a-zA-Z][a-zA-Z0-9_]*(?:\.[a-zA-Z0-9_]+)+)"`)
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range literal.FindAllStringSubmatch(string(src), -1) {
			key := m[1]
			if _, ok := keys[key]; !ok {
				continue
			}
			checked++
			if !strings.HasPrefix(key, "documents.") && !strings.HasPrefix(key, "catalogue.") {
				t.Errorf("%s prints %q, a screen text: give the document its own key under documents.", f, key)
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d catalogue keys found in the package's code; the test no longer sees them", checked)
	}
}
