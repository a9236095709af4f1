package project

import "testing"

// The cases follow design-tool.md section 4, "Run list".
func TestNewRunName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		existing []string
		want     string
	}{
		{nil, "Run 1"},
		{[]string{"Run 1"}, "Run 2"},
		{[]string{"Run 1", "Run 3"}, "Run 2"},
		{[]string{"Run 2", "Car park"}, "Run 1"},
		{[]string{"Run 1", "Run 2", "Run 1 - Copy"}, "Run 3"},
		{[]string{"Run 01"}, "Run 2"}, // "Run 01" is Run 1 by number
	}
	for _, tc := range tests {
		if got := NewRunName(tc.existing); got != tc.want {
			t.Errorf("NewRunName(%q) = %q, want %q", tc.existing, got, tc.want)
		}
	}
}

func TestDuplicateName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		source   string
		existing []string
		want     string
	}{
		{"Run 1", []string{"Run 1"}, "Run 2"},
		{"Run 1", []string{"Run 1", "Run 2", "Run 4"}, "Run 3"},
		{"Car park", []string{"Car park"}, "Car park - Copy"},
		{"Car park", []string{"Car park", "Car park - Copy"}, "Car park - Copy (2)"},
		{"Car park", []string{"Car park", "Car park - Copy", "Car park - Copy (2)"}, "Car park - Copy (3)"},
		{"Run 1 - Copy", []string{"Run 1 - Copy"}, "Run 1 - Copy - Copy"},
	}
	for _, tc := range tests {
		if got := DuplicateName(tc.source, tc.existing); got != tc.want {
			t.Errorf("DuplicateName(%q, %q) = %q, want %q", tc.source, tc.existing, got, tc.want)
		}
	}
}

func TestRenameName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		wanted string
		others []string
		want   string
	}{
		{"Yard", []string{"Run 2"}, "Yard"},
		{"Run 2", []string{"Run 2"}, "Run 2 (2)"},
		{"Run 2", []string{"Run 2", "Run 2 (2)"}, "Run 2 (3)"},
	}
	for _, tc := range tests {
		if got := RenameName(tc.wanted, tc.others); got != tc.want {
			t.Errorf("RenameName(%q, %q) = %q, want %q", tc.wanted, tc.others, got, tc.want)
		}
	}
}

func TestDefaultRunNumber(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		n    int
		ok   bool
	}{
		{"Run 1", 1, true},
		{"Run 12", 12, true},
		{"Run 01", 0, false}, // not as NewRunName writes it: the user's
		{"Run 2 (2)", 0, false},
		{"run 3", 0, false},
		{"Gate lane", 0, false},
		{"Run 99999999999999999999", 0, false},
	}
	for _, tc := range tests {
		n, ok := DefaultRunNumber(tc.name)
		if ok != tc.ok || (ok && n != tc.n) {
			t.Errorf("DefaultRunNumber(%q) = %d, %v; want %d, %v", tc.name, n, ok, tc.n, tc.ok)
		}
	}
	// Every name NewRunName gives is a default name with its number.
	for i, existing := 1, []string{}; i <= 12; i++ {
		name := NewRunName(existing)
		if n, ok := DefaultRunNumber(name); !ok || n != i {
			t.Errorf("NewRunName gave %q, read back as %d, %v", name, n, ok)
		}
		existing = append(existing, name)
	}
}
