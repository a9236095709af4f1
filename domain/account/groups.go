package account

import (
	"fmt"
	"slices"
)

// Group is a permission group. Its string is the stable code written in
// events; docs/permissions.md explains the choices behind FlagsFor and the
// staff rights below.
type Group string

const (
	GroupStandard   Group = "standard"
	GroupAdvanced   Group = "advanced"
	GroupSupport    Group = "support"
	GroupTranslator Group = "translator"
	GroupMarketing  Group = "marketing"
	GroupAdmin      Group = "admin"
	GroupSuperAdmin Group = "superadmin"
)

// Groups lists every group from least to most privileged, the order staff
// screens show them in.
func Groups() []Group {
	return []Group{GroupStandard, GroupAdvanced, GroupSupport, GroupTranslator, GroupMarketing, GroupAdmin, GroupSuperAdmin}
}

var groupLabels = map[Group]string{
	GroupStandard:   "Standard user",
	GroupAdvanced:   "Advanced user",
	GroupSupport:    "Provider support",
	GroupTranslator: "Translator",
	GroupMarketing:  "Marketing user",
	GroupAdmin:      "Administrator",
	GroupSuperAdmin: "Super administrator",
}

// Label is the English name shown in the staff area.
func (g Group) Label() string {
	if l, ok := groupLabels[g]; ok {
		return l
	}
	return string(g)
}

// Valid reports whether g is one of the known groups.
func (g Group) Valid() bool { _, ok := groupLabels[g]; return ok }

// ParseGroup accepts a group code as sent by the staff area.
func ParseGroup(s string) (Group, error) {
	g := Group(s)
	if !g.Valid() {
		return "", fmt.Errorf("account: unknown group %q", s)
	}
	return g, nil
}

// Flags are the rights and display conventions a user's group grants. The
// JSON names are those the web client reads.
type Flags struct {
	HasAdvancedMode  bool `json:"has_advanced_mode"`
	SharedProjects   bool `json:"shared_projects"`
	IsTranslator     bool `json:"is_translator"`
	IsMarketing      bool `json:"is_marketing"`
	IsAdmin          bool `json:"is_admin"`
	ZeroAtDischarge  bool `json:"zero_at_discharge"`
	CanChangeCountry bool `json:"can_change_country"`
}

var groupFlags = map[Group]Flags{
	GroupStandard: {},
	GroupAdvanced: {HasAdvancedMode: true},
	// Support opens the projects customers chose to share, which may be
	// advanced designs for any market, but never the confidential rest.
	GroupSupport: {HasAdvancedMode: true, SharedProjects: true, CanChangeCountry: true},
	// Translators need every screen and every market's product texts in
	// front of them to translate in context.
	GroupTranslator: {HasAdvancedMode: true, IsTranslator: true, CanChangeCountry: true},
	// Marketing demonstrates both versions of the product and keeps the
	// channel-availability page; customer projects are none of its business.
	GroupMarketing: {HasAdvancedMode: true, IsMarketing: true, CanChangeCountry: true},
	GroupAdmin: {HasAdvancedMode: true, SharedProjects: true, IsMarketing: true,
		IsAdmin: true, CanChangeCountry: true},
	GroupSuperAdmin: {HasAdvancedMode: true, SharedProjects: true, IsTranslator: true,
		IsMarketing: true, IsAdmin: true, CanChangeCountry: true},
}

// FlagsFor is the fixed mapping from group to flags. An unknown group gets
// no rights at all, so a group code from a newer release fails closed.
func FlagsFor(g Group) Flags { return groupFlags[g] }

// staffRank orders groups for staff actions: an actor may only manage
// accounts ranked below its own, except super administrators, who manage
// everyone (but never themselves; see the commands).
func staffRank(g Group) int {
	switch g {
	case GroupSuperAdmin:
		return 2
	case GroupAdmin:
		return 1
	default:
		return 0
	}
}

// CanAccessStaff reports whether the group reaches the staff area and its
// calls (user list, per-user projects, block, group and delete actions).
func CanAccessStaff(actor Group) bool { return FlagsFor(actor).IsAdmin }

// CanManage reports whether actor may block, unblock or delete an account
// in group target. Administrators manage every non-staff group;
// super administrators manage everyone.
func CanManage(actor, target Group) bool {
	if !CanAccessStaff(actor) {
		return false
	}
	if actor == GroupSuperAdmin {
		return true
	}
	return staffRank(target) < staffRank(actor)
}

// CanBlock reports whether actor may block or unblock an account in target.
func CanBlock(actor, target Group) bool { return CanManage(actor, target) }

// CanDelete reports whether actor may delete an account in target.
func CanDelete(actor, target Group) bool { return CanManage(actor, target) }

// CanChangeGroup reports whether actor may move an account from group
// target to group to. Only a super administrator grants or revokes the
// administrator and super administrator groups.
func CanChangeGroup(actor, target, to Group) bool {
	if !to.Valid() || !CanManage(actor, target) {
		return false
	}
	return slices.Contains(GrantableGroups(actor), to)
}

// GrantableGroups lists the groups actor may move an account into, for the
// staff area's group selector.
func GrantableGroups(actor Group) []Group {
	if !CanAccessStaff(actor) {
		return nil
	}
	var out []Group
	for _, g := range Groups() {
		if actor == GroupSuperAdmin || staffRank(g) < staffRank(actor) {
			out = append(out, g)
		}
	}
	return out
}
