package project

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The run-list naming rules of design-tool.md section 4.

var runN = regexp.MustCompile(`^Run (\d+)$`)

// NewRunName is "Run N" with the first number not already used.
func NewRunName(existing []string) string {
	used := map[int]bool{}
	for _, n := range existing {
		if m := runN.FindStringSubmatch(n); m != nil {
			if v, err := strconv.Atoi(m[1]); err == nil {
				used[v] = true
			}
		}
	}
	n := 1
	for used[n] {
		n++
	}
	return fmt.Sprintf("Run %d", n)
}

// DefaultRunNumber tells whether a name is a default "Run N", which the
// screens and documents show in their language, and its number. Any other
// name is the user's and is shown as it is.
func DefaultRunNumber(name string) (int, bool) {
	m := runN.FindStringSubmatch(name)
	if m == nil {
		return 0, false
	}
	// Only the form NewRunName writes: "Run 01" is a name of the user's.
	n, err := strconv.Atoi(m[1])
	return n, err == nil && strconv.Itoa(n) == m[1]
}

// DuplicateName names the copy of a run: a "Run N" takes the next free run
// number; any other name gets " - Copy", then " - Copy (n)".
func DuplicateName(source string, existing []string) string {
	if runN.MatchString(source) {
		return NewRunName(existing)
	}
	return firstFree(source+" - Copy", " (%d)", existing)
}

// RenameName resolves a rename that collides with another run's name by
// appending " (2)", " (3)" and so on. others excludes the run being renamed.
func RenameName(wanted string, others []string) string {
	return firstFree(wanted, " (%d)", others)
}

func firstFree(base, suffix string, existing []string) string {
	taken := map[string]bool{}
	for _, n := range existing {
		taken[n] = true
	}
	if !taken[base] {
		return base
	}
	for i := 2; ; i++ {
		if c := base + fmt.Sprintf(suffix, i); !taken[c] {
			return c
		}
	}
}

// CleanName trims a user-typed name; a blank name is refused by the caller.
func CleanName(s string) string { return strings.TrimSpace(s) }
