package account

import (
	"slices"
	"strings"
	"testing"
)

func TestCountries(t *testing.T) {
	t.Parallel()
	list := Countries()
	if !slices.IsSortedFunc(list, func(a, b Country) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("countries not sorted by name")
	}
	seen := map[string]bool{}
	for _, c := range list {
		if seen[c.ISOCode] || len(c.ISOCode) != 2 || strings.ToUpper(c.ISOCode) != c.ISOCode {
			t.Errorf("bad or duplicate code %q", c.ISOCode)
		}
		seen[c.ISOCode] = true
		if c.Region != RegionUK && c.Region != RegionEurope && c.Region != RegionInternational {
			t.Errorf("%s: region %q", c.ISOCode, c.Region)
		}
		if (c.Region == RegionUK) != (c.ISOCode == "GB") {
			t.Errorf("%s: only GB is in region UK", c.ISOCode)
		}
	}
	for iso, region := range map[string]string{"BE": RegionEurope, "GB": RegionUK, "DE": RegionEurope, "US": RegionInternational} {
		if c, ok := CountryByISO(iso); !ok || c.Region != region {
			t.Errorf("CountryByISO(%s) = %+v, %v", iso, c, ok)
		}
	}
	if _, ok := CountryByISO("be"); ok {
		t.Error("CountryByISO is documented as taking upper case codes")
	}
	list[0].Name = "changed"
	if Countries()[0].Name == "changed" {
		t.Error("Countries returned the package's own slice")
	}
}
