package account

import (
	"slices"
	"strings"
)

// Rainfall units as stored. The spec writes square metres as "m²"; the
// stored code is ASCII so it survives every transport, and ParseRainfallUnits
// accepts both spellings.
const (
	UnitsMMPerHour       = "mm/h"
	UnitsLPerSPerM2      = "l/s/m2"
	UnitsLPerSPerHectare = "l/(s*ha)"

	DefaultRainfallUnits = UnitsMMPerHour
)

// RainfallUnits lists the accepted units in the order the settings dialog
// offers them.
func RainfallUnits() []string {
	return []string{UnitsMMPerHour, UnitsLPerSPerM2, UnitsLPerSPerHectare}
}

// ParseRainfallUnits returns the stored code for s, or false.
func ParseRainfallUnits(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "l/s/m²" {
		return UnitsLPerSPerM2, true
	}
	if slices.Contains(RainfallUnits(), s) {
		return s, true
	}
	return "", false
}

// DefaultLanguage is applied at registration and is the fallback for
// missing translations.
const DefaultLanguage = "en"

// Languages are the interface languages. "rs" and "si" are the codes the
// product uses for Serbian and Slovenian (country codes, not ISO 639).
func Languages() []string {
	return []string{"bg", "en", "de", "fr", "hu", "it", "hr", "nl", "pl", "rs", "si"}
}

// ValidLanguage reports whether code is an interface language.
func ValidLanguage(code string) bool { return slices.Contains(Languages(), code) }

// SettingsInput is the PATCH /drainage/user_settings/ payload: any subset of
// the fields; nil means "leave as is".
type SettingsInput struct {
	DefaultAdvancedMode *bool   `json:"default_advanced_mode"`
	RainfallUnits       *string `json:"rainfall_units"`
	Language            *string `json:"language"`
	Company             *string `json:"company"`
	Telephone           *string `json:"telephone"`
	Address             *string `json:"address"`
	City                *string `json:"city"`
	Postcode            *string `json:"postcode"`
}

// Messages for settings fields.
const (
	MsgInvalidRainfallUnits = "Please select a valid rainfall unit"
	MsgInvalidLanguage      = "Please select a valid language"
	MsgNoAdvancedMode       = "Advanced mode is not available for this account"
)
