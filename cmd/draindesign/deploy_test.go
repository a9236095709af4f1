package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// lines reads a file of the repository as its non-comment lines.
func lines(t *testing.T, name string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(raw), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// An image is built from the sources alone: not the machine's
// node_modules, built binaries, the data directory (the store and its
// secret key) or the deployment's signing key; and git never takes the key.
func TestBuildContextAndGitLeaveSecretsOut(t *testing.T) {
	docker := lines(t, ".dockerignore")
	for _, want := range []string{"web/node_modules", "bin", "data", "secret.key", ".git"} {
		if !slices.Contains(docker, want) {
			t.Errorf(".dockerignore misses %s", want)
		}
	}
	if !slices.Contains(lines(t, ".gitignore"), "secret.key") {
		t.Error(".gitignore misses secret.key")
	}
}
