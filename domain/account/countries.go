package account

import (
	"slices"
	"strings"
)

// Regions decide which version of the product applies: the UK version has
// the rainfall map, the others the European/international range.
const (
	RegionUK            = "UK"
	RegionEurope        = "EU"
	RegionInternational = "INT"
)

// Country is an entry of the registration dropdown.
type Country struct {
	Name    string `json:"name"`
	ISOCode string `json:"iso_code"`
	Region  string `json:"region"`
}

// countries is sorted by name at init. The list is a market decision, not a
// geography lesson: it holds the countries the provider sells in.
var countries = []Country{
	{"United Kingdom", "GB", RegionUK},

	{"Albania", "AL", RegionEurope},
	{"Andorra", "AD", RegionEurope},
	{"Austria", "AT", RegionEurope},
	{"Belgium", "BE", RegionEurope},
	{"Bosnia and Herzegovina", "BA", RegionEurope},
	{"Bulgaria", "BG", RegionEurope},
	{"Croatia", "HR", RegionEurope},
	{"Cyprus", "CY", RegionEurope},
	{"Czechia", "CZ", RegionEurope},
	{"Denmark", "DK", RegionEurope},
	{"Estonia", "EE", RegionEurope},
	{"Finland", "FI", RegionEurope},
	{"France", "FR", RegionEurope},
	{"Germany", "DE", RegionEurope},
	{"Greece", "GR", RegionEurope},
	{"Hungary", "HU", RegionEurope},
	{"Iceland", "IS", RegionEurope},
	{"Ireland", "IE", RegionEurope},
	{"Italy", "IT", RegionEurope},
	{"Latvia", "LV", RegionEurope},
	{"Liechtenstein", "LI", RegionEurope},
	{"Lithuania", "LT", RegionEurope},
	{"Luxembourg", "LU", RegionEurope},
	{"Malta", "MT", RegionEurope},
	{"Moldova", "MD", RegionEurope},
	{"Monaco", "MC", RegionEurope},
	{"Montenegro", "ME", RegionEurope},
	{"Netherlands", "NL", RegionEurope},
	{"North Macedonia", "MK", RegionEurope},
	{"Norway", "NO", RegionEurope},
	{"Poland", "PL", RegionEurope},
	{"Portugal", "PT", RegionEurope},
	{"Romania", "RO", RegionEurope},
	{"San Marino", "SM", RegionEurope},
	{"Serbia", "RS", RegionEurope},
	{"Slovakia", "SK", RegionEurope},
	{"Slovenia", "SI", RegionEurope},
	{"Spain", "ES", RegionEurope},
	{"Sweden", "SE", RegionEurope},
	{"Switzerland", "CH", RegionEurope},
	{"Türkiye", "TR", RegionEurope},
	{"Ukraine", "UA", RegionEurope},

	{"Australia", "AU", RegionInternational},
	{"Canada", "CA", RegionInternational},
	{"China", "CN", RegionInternational},
	{"India", "IN", RegionInternational},
	{"Israel", "IL", RegionInternational},
	{"New Zealand", "NZ", RegionInternational},
	{"Qatar", "QA", RegionInternational},
	{"Saudi Arabia", "SA", RegionInternational},
	{"Singapore", "SG", RegionInternational},
	{"South Africa", "ZA", RegionInternational},
	{"United Arab Emirates", "AE", RegionInternational},
	{"United States", "US", RegionInternational},
}

var countryIndex = map[string]int{}

func init() {
	slices.SortFunc(countries, func(a, b Country) int { return strings.Compare(a.Name, b.Name) })
	for i, c := range countries {
		countryIndex[c.ISOCode] = i
	}
}

// Countries returns the dropdown list sorted by name. The slice is a copy.
func Countries() []Country { return slices.Clone(countries) }

// CountryByISO finds a country by its ISO 3166-1 alpha-2 code. The code
// must be upper case, as stored; callers normalise input with NormalizeISO.
func CountryByISO(iso string) (Country, bool) {
	i, ok := countryIndex[iso]
	if !ok {
		return Country{}, false
	}
	return countries[i], true
}

// NormalizeISO trims and upper-cases a country code from a payload.
func NormalizeISO(iso string) string { return strings.ToUpper(strings.TrimSpace(iso)) }
