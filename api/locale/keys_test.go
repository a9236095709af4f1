package locale

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"draindesign/domain/help"
)

// Keys the code builds at run time, by the prefix written in the code, with
// every suffix the code can put after it. A new dynamic key in the code
// whose prefix is not here fails the test: list it with its suffixes. A
// prefix whose texts the code reads only after asking i18n.exists (falling
// back to a text of its own) has no suffixes to check.
var dynamicKeys = map[string][]string{
	// web/src
	"signUp.":                  {"username", "firstName", "lastName", "email", "company", "telephone", "country", "address", "city", "postcode", "password", "passwordConfirmation"},
	"details.":                 {"name", "location", "reference", "date", "company", "designer", "telephone", "email"},
	"documents.kind.":          {"introduction", "materials", "information", "all"},
	"tabs.":                    {"system", "run", "materials", "documents"},
	"surface.":                 {"concretePavement", "resinSurface", "bpCement", "asphalt", "bpSand", "gravel", "facade", "softLandscape", "custom"},                                             // web/src/design/runRules.ts SURFACES
	"calc.blocker.":            {"noSystem", "noRainfall", "noLoading", "noGrating", "noArea", "areaTooLarge", "depthTooLarge", "noLength", "lengthOverLimit", "slopeNegative", "slopeTooSteep"}, // runRules.ts Blocker
	"help.topic.":              topicFiles(),
	"grid.":                    nil, // ag-grid's own texts, read only when i18n.exists says so
	"catalogue.":               nil, // held to the product catalogue by TestEveryCatalogueTextHasItsKeys
	"documents.sheet.":         {"title.uk", "title.int", "market.uk", "market.int"},
	"documents.sheet.title.":   {"uk", "int"},
	"documents.sheet.market.":  {"uk", "int"},
	"signUp.required.":         {"username", "firstName", "lastName", "email", "company", "telephone", "country", "address", "city", "postcode", "password", "passwordConfirmation"},
	"documents.pdf.gully.":     {"grating", "outlet", "pipe"},
	"runs.state.":              {"unconfigured", "ready", "calculated", "changed", "calculating"},
	"catalogue.grating.":       nil, // the product catalogue's, as catalogue. above
	"catalogue.system.":        nil,
	"catalogue.line.modified.": nil,
	"home.features.":           {"uk.title", "uk.text", "int.title", "int.text"},
	"home.":                    {"reassurance.title", "reassurance.text", "confidentiality.title", "confidentiality.text", "experience.title", "experience.text"},
	// The staff area, history, advanced mode and the profile's items.
	"staff.outcome.":    {"calculated", "flooded", "supercritical", "failed"},
	"staff.fact.":       {"0", "1", "2", "3", "4", "5", "6", "7"},
	"staff.stats.":      {"users", "projects", "calculationsToday", "failuresToday"},
	"staff.group.":      {"standard", "advanced", "support", "translator", "marketing", "admin", "superadmin"},
	"items.type.":       {"trash-box", "access-box", "access-cover", "end-cap", "end-cap-with-outlet", "concrete-chamber", "connection-plate", "no-automatic"},
	"items.error.":      {"outOfRun", "needsFlow", "flowNegative", "needsConnection", "noBox", "needsType", "unavailable"},
	"items.connection.": {"direct-pipe", "access-box", "concrete-channel"},
	"diff.status.":      {"added", "removed", "changed", "same"},
	"advanced.count.":   {"notWhole", "negative", "once"},
	"advanced.drill.":   {"bottom", "leftWall", "rightWall"},
	"history.kind.":     {"created", "copy", "edit", "save", "calculation", "restore", "undo", "redo", "share", "document", "delete", "other"},
	"history.":          {"nothingToUndo", "nothingToRedo", "restored"}, // web/src/history/historyMachine.ts HistoryNotice
}

// notKeys are literals of the code that look like keys but name something
// else (an event type the history describes).
var notKeys = map[string]bool{"project.restored": true}

func topicFiles() []string {
	var out []string
	for _, t := range help.Topics {
		out = append(out, t.File)
	}
	return out
}

var (
	keyLiteral   = regexp.MustCompile(`['"]([a-zA-Z][a-zA-Z0-9]*(?:\.[a-zA-Z0-9_-]+)+)['"]`)
	tsDynamic    = regexp.MustCompile("`([a-zA-Z][a-zA-Z0-9]*(?:\\.[a-zA-Z0-9_-]+)*\\.)\\$\\{")
	goDynamic    = regexp.MustCompile(`"([a-zA-Z][a-zA-Z0-9]*(?:\.[a-zA-Z0-9_-]+)*\.)"\s*\+`)
	sourceSuffix = []string{".ts", ".tsx", ".go"}
)

// The places texts are used: the client, and the server's document
// generator and mails.
var keyUsers = []string{"../../web/src", "../../domain/document/report", "../../domain/document/sheet", "../mail"}

// TestEveryUsedKeyExists: every catalogue key written in the client's code,
// the document generator's or the mails' exists in all eleven catalogues,
// and so does every key the code builds from a prefix, for every suffix the
// code can build. No screen or document shows a raw key.
func TestEveryUsedKeyExists(t *testing.T) {
	t.Parallel()
	en := Shipped(Fallback)
	namespaces := map[string]bool{}
	for k := range en {
		namespaces[k[:strings.IndexByte(k+".", '.')]] = true
	}
	used := map[string]string{} // key -> first file using it
	prefixes := map[string]string{}
	for _, root := range keyUsers {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if d.IsDir() || !slices.ContainsFunc(sourceSuffix, func(s string) bool { return strings.HasSuffix(name, s) }) ||
				strings.Contains(name, ".test.") || strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, ".d.ts") {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range keyLiteral.FindAllStringSubmatch(string(src), -1) {
				key := m[1]
				if !namespaces[key[:strings.IndexByte(key, '.')]] || looksLikeCode(key) || notKeys[key] {
					continue
				}
				if _, seen := used[key]; !seen {
					used[key] = path
				}
			}
			re := tsDynamic
			if strings.HasSuffix(name, ".go") {
				re = goDynamic
			}
			for _, m := range re.FindAllStringSubmatch(string(src), -1) {
				if namespaces[m[1][:strings.IndexByte(m[1], '.')]] {
					prefixes[m[1]] = path
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(used) < 400 {
		t.Fatalf("only %d keys found in the code: the scan no longer sees them", len(used))
	}
	for prefix, path := range prefixes {
		suffixes, listed := dynamicKeys[prefix]
		if !listed {
			t.Errorf("%s builds keys from %q: list the prefix and its suffixes in dynamicKeys", path, prefix)
			continue
		}
		for _, s := range suffixes {
			used[prefix+s] = path + " (built)"
		}
	}
	for _, code := range Codes {
		texts := Shipped(code)
		for key, path := range used {
			if v, ok := texts[key]; !ok || strings.TrimSpace(v) == "" {
				t.Errorf("%s: no text for %s (used in %s)", code, key, path)
			}
		}
	}
}

// looksLikeCode tells file names and dotted code paths that share a first
// word with a namespace ("results.json") from keys.
func looksLikeCode(s string) bool {
	for _, ext := range []string{".json", ".pdf", ".rtf", ".csv", ".ts", ".tsx", ".css", ".go", ".md", ".html"} {
		if strings.HasSuffix(s, ext) {
			return true
		}
	}
	return false
}
