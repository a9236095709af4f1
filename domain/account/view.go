package account

import "time"

// CountryView is the country as the web client stores it with the user.
type CountryView struct {
	ISOCode string `json:"iso_code"`
	Name    string `json:"name"`
	Region  string `json:"region"`
}

// UserView is the {user} answer of login and the settings calls: what the
// web client stores locally.
type UserView struct {
	Username            string      `json:"username"`
	FirstName           string      `json:"first_name"`
	LastName            string      `json:"last_name"`
	Email               string      `json:"email"`
	Country             CountryView `json:"country"`
	Language            string      `json:"language"`
	RainfallUnits       string      `json:"rainfall_units"`
	DefaultAdvancedMode bool        `json:"default_advanced_mode"`
	HasAdvancedMode     bool        `json:"has_advanced_mode"`
	SharedProjects      bool        `json:"shared_projects"`
	IsTranslator        bool        `json:"is_translator"`
	IsMarketing         bool        `json:"is_marketing"`
	IsAdmin             bool        `json:"is_admin"`
	ZeroAtDischarge     bool        `json:"zero_at_discharge"`
	Company             string      `json:"company"`
	Telephone           string      `json:"telephone"`
	Address             string      `json:"address"`
	City                string      `json:"city"`
	Postcode            string      `json:"postcode"`
	CanChangeCountry    bool        `json:"can_change_country"`
	Group               Group       `json:"group"`
}

// View is the account as the user sees it. default_advanced_mode is
// reported false once the group no longer grants advanced mode, so a
// demoted user is not started in a mode they cannot use.
func (a *Account) View() UserView {
	f := a.Flags()
	c := CountryView{ISOCode: a.Country}
	if known, ok := CountryByISO(a.Country); ok {
		c.Name, c.Region = known.Name, known.Region
	}
	return UserView{
		Username: a.Username, FirstName: a.FirstName, LastName: a.LastName, Email: a.Email,
		Country: c, Language: a.Language, RainfallUnits: a.RainfallUnits,
		DefaultAdvancedMode: a.DefaultAdvancedMode && f.HasAdvancedMode,
		HasAdvancedMode:     f.HasAdvancedMode, SharedProjects: f.SharedProjects,
		IsTranslator: f.IsTranslator, IsMarketing: f.IsMarketing, IsAdmin: f.IsAdmin,
		ZeroAtDischarge: f.ZeroAtDischarge, Company: a.Company, Telephone: a.Telephone,
		Address: a.Address, City: a.City, Postcode: a.Postcode,
		CanChangeCountry: f.CanChangeCountry, Group: a.Group,
	}
}

// StaffUserView is a row of the staff user list, minus the project counts,
// which belong to the project projections.
type StaffUserView struct {
	ID           string      `json:"id"`
	Username     string      `json:"username"`
	FullName     string      `json:"full_name"`
	Email        string      `json:"email"`
	Company      string      `json:"company"`
	Country      CountryView `json:"country"`
	Group        Group       `json:"group"`
	GroupLabel   string      `json:"group_label"`
	Blocked      bool        `json:"blocked"`
	Confirmed    bool        `json:"confirmed"`
	Deleted      bool        `json:"deleted"`
	RegisteredAt time.Time   `json:"registered_at"`
}

// StaffView is the account as the staff area lists it.
func (a *Account) StaffView() StaffUserView {
	v := a.View()
	return StaffUserView{
		ID: a.ID, Username: a.Username, FullName: a.FullName(), Email: a.Email,
		Company: a.Company, Country: v.Country, Group: a.Group, GroupLabel: a.Group.Label(),
		Blocked: a.Blocked, Confirmed: a.Confirmed, Deleted: a.Deleted, RegisteredAt: a.RegisteredAt,
	}
}
