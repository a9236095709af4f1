package usecase

import (
	"io/fs"
	"strings"
	"testing"

	"draindesign/domain/help"
	"draindesign/domain/translation"
	"draindesign/web"
)

// Every topic of the spec's list has its English text, headed by its
// title, and every shipped help file is a topic of the list in one of the
// eleven languages.
func TestHelpTopicsHaveTheirTexts(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, tp := range help.Topics {
		if seen[tp.File] {
			t.Errorf("topic %s listed twice", tp.File)
		}
		seen[tp.File] = true
		b, err := fs.ReadFile(web.Help, "help/en/"+tp.File+".md")
		if err != nil {
			t.Errorf("%s: no English text: %v", tp.File, err)
			continue
		}
		if first, _, _ := strings.Cut(string(b), "\n"); first != "# "+tp.Title {
			t.Errorf("%s starts %q, want the title %q", tp.File, first, "# "+tp.Title)
		}
		if len(b) < 300 {
			t.Errorf("%s: only %d bytes", tp.File, len(b))
		}
	}
	if len(help.Topics) != 19 {
		t.Errorf("%d topics, the spec lists 19", len(help.Topics))
	}
	err := fs.WalkDir(web.Help, "help", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		parts := strings.Split(path, "/")
		lang, file := parts[1], strings.TrimSuffix(parts[2], ".md")
		if _, ok := help.Find(file); !ok || !strings.HasSuffix(path, ".md") {
			t.Errorf("%s is no topic of the list", path)
		}
		if !translation.ValidLanguage(lang) {
			t.Errorf("%s is in no product language", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
