package account

import (
	"slices"
	"testing"
)

func TestFlagsFor(t *testing.T) {
	t.Parallel()
	tests := []struct {
		g    Group
		want Flags
	}{
		{GroupStandard, Flags{}},
		{GroupAdvanced, Flags{HasAdvancedMode: true}},
		{GroupSupport, Flags{HasAdvancedMode: true, SharedProjects: true, CanChangeCountry: true}},
		{GroupTranslator, Flags{HasAdvancedMode: true, IsTranslator: true, CanChangeCountry: true}},
		{GroupMarketing, Flags{HasAdvancedMode: true, IsMarketing: true, CanChangeCountry: true}},
		{GroupAdmin, Flags{HasAdvancedMode: true, SharedProjects: true, IsMarketing: true, IsAdmin: true, CanChangeCountry: true}},
		{GroupSuperAdmin, Flags{HasAdvancedMode: true, SharedProjects: true, IsTranslator: true, IsMarketing: true, IsAdmin: true, CanChangeCountry: true}},
		{Group("root"), Flags{}},
		{Group(""), Flags{}},
	}
	for _, tt := range tests {
		t.Run(string(tt.g), func(t *testing.T) {
			t.Parallel()
			if got := FlagsFor(tt.g); got != tt.want {
				t.Errorf("FlagsFor(%q) = %+v, want %+v", tt.g, got, tt.want)
			}
		})
	}
}

func TestEveryGroupHasFlagsAndLabel(t *testing.T) {
	t.Parallel()
	for _, g := range Groups() {
		if _, ok := groupFlags[g]; !ok {
			t.Errorf("group %q has no flags entry", g)
		}
		if g.Label() == string(g) {
			t.Errorf("group %q has no label", g)
		}
		if p, err := ParseGroup(string(g)); err != nil || p != g {
			t.Errorf("ParseGroup(%q) = %q, %v", g, p, err)
		}
	}
	if _, err := ParseGroup("root"); err == nil {
		t.Error("ParseGroup accepted an unknown group")
	}
}

func TestStaffRights(t *testing.T) {
	t.Parallel()
	nonStaff := []Group{GroupStandard, GroupAdvanced, GroupSupport, GroupTranslator, GroupMarketing}
	staff := []Group{GroupAdmin, GroupSuperAdmin}
	for _, actor := range Groups() {
		for _, target := range Groups() {
			var want bool
			switch actor {
			case GroupSuperAdmin:
				want = true
			case GroupAdmin:
				want = slices.Contains(nonStaff, target)
			}
			if got := CanBlock(actor, target); got != want {
				t.Errorf("CanBlock(%s, %s) = %v, want %v", actor, target, got, want)
			}
			if got := CanDelete(actor, target); got != want {
				t.Errorf("CanDelete(%s, %s) = %v, want %v", actor, target, got, want)
			}
			for _, to := range Groups() {
				wantChange := want && (actor == GroupSuperAdmin || !slices.Contains(staff, to))
				if got := CanChangeGroup(actor, target, to); got != wantChange {
					t.Errorf("CanChangeGroup(%s, %s -> %s) = %v, want %v", actor, target, to, got, wantChange)
				}
			}
			if CanChangeGroup(actor, target, Group("root")) {
				t.Errorf("CanChangeGroup(%s, %s -> root) allowed an unknown group", actor, target)
			}
		}
		if got, want := CanAccessStaff(actor), slices.Contains(staff, actor); got != want {
			t.Errorf("CanAccessStaff(%s) = %v, want %v", actor, got, want)
		}
	}
}

func TestGrantableGroups(t *testing.T) {
	t.Parallel()
	tests := map[Group][]Group{
		GroupStandard:   nil,
		GroupSupport:    nil,
		GroupAdmin:      {GroupStandard, GroupAdvanced, GroupSupport, GroupTranslator, GroupMarketing},
		GroupSuperAdmin: Groups(),
	}
	for actor, want := range tests {
		if got := GrantableGroups(actor); !slices.Equal(got, want) {
			t.Errorf("GrantableGroups(%s) = %v, want %v", actor, got, want)
		}
	}
}
