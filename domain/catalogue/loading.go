package catalogue

import (
	"fmt"
	"strings"
)

// LoadingClasses are the loading classes of EN 1433 and the LCN classes, in
// ascending order.
var LoadingClasses = []string{"A15", "B125", "C250", "D400", "E600", "F900", "LCN20", "LCN50", "LCN70", "LCN110"}

func loadingRank(class string) int {
	for i, l := range LoadingClasses {
		if l == class {
			return i
		}
	}
	return len(LoadingClasses)
}

// IsLoadingClass reports whether s is one of LoadingClasses.
func IsLoadingClass(s string) bool { return loadingRank(s) < len(LoadingClasses) }

// Offers reports whether the system is made for the loading class.
func (s *System) Offers(loading string) bool { return contains(s.LoadingClasses, loading) }

// HighestLoading is the system's highest class ("" for types M and P); the
// design form falls back to it when the current loading is not offered.
func (s *System) HighestLoading() string {
	if len(s.LoadingClasses) == 0 {
		return ""
	}
	return s.LoadingClasses[len(s.LoadingClasses)-1]
}

// LoadingForLetter maps a loading letter of the look-up calls to the
// system's class: for big-bls L, M, N, O give LCN20, LCN50, LCN70, LCN110;
// elsewhere the class whose first letter it is (A gives A15, ... F gives F900).
func (s *System) LoadingForLetter(letter string) (string, error) {
	l := strings.ToUpper(strings.TrimSpace(letter))
	if len(s.LoadingLetters) > 0 {
		if class, ok := s.LoadingLetters[l]; ok {
			return class, nil
		}
		return "", &NotFoundError{Kind: "loading letter", Key: letter, In: inSystem(s.Slug)}
	}
	if len(l) == 1 {
		for _, class := range s.LoadingClasses {
			if class[:1] == l {
				return class, nil
			}
		}
	}
	return "", &NotFoundError{Kind: "loading letter", Key: letter, In: inSystem(s.Slug)}
}

// LetterFor is the inverse of LoadingForLetter.
func (s *System) LetterFor(loading string) (string, error) {
	if !s.Offers(loading) {
		return "", &NotFoundError{Kind: "loading", Key: loading, In: inSystem(s.Slug)}
	}
	for letter, class := range s.LoadingLetters {
		if class == loading {
			return letter, nil
		}
	}
	return loading[:1], nil
}

// ResolveLoading accepts a loading class ("C250", "LCN70") or a letter
// ("C", "N") and returns the system's class.
func (s *System) ResolveLoading(v string) (string, error) {
	v = strings.ToUpper(strings.TrimSpace(v))
	if s.Offers(v) {
		return v, nil
	}
	if len(v) == 1 {
		return s.LoadingForLetter(v)
	}
	return "", &NotFoundError{Kind: "loading", Key: v, In: inSystem(s.Slug)}
}

// ChannelCode is the channel code of a loading class (big-bls: LCN20 "03",
// LCN50 "04", LCN70 "06", LCN110 "07"); "" for systems without codes.
func (s *System) ChannelCode(loading string) string { return s.ChannelCodes[loading] }

// Family returns a sub-product family by code.
func (s *System) Family(code string) (Family, bool) {
	for _, f := range s.Families {
		if f.Code == code {
			return f, true
		}
	}
	return Family{}, false
}

// FamilyFor returns the family to use for a loading class: current when it
// offers the loading, otherwise the first family (in data order, standard
// first) that does. E 600 therefore always selects the fibre range's
// standard family, the only one made for it. Systems without families give "".
func (s *System) FamilyFor(loading, current string) (string, error) {
	if len(s.Families) == 0 {
		return "", nil
	}
	if f, ok := s.Family(current); ok && contains(f.LoadingClasses, loading) {
		return current, nil
	}
	for _, f := range s.Families {
		if contains(f.LoadingClasses, loading) {
			return f.Code, nil
		}
	}
	return "", &NotFoundError{Kind: "loading", Key: loading, In: inSystem(s.Slug)}
}

// BodyHeightExtensionMM is the section 9 adjustment for a sub-product at a
// loading class: 0 for sub-products without a rule; for 10200 300 mm with
// E 600 or F 900, for 8200 300 mm with F 900, otherwise 200 mm.
func (s *System) BodyHeightExtensionMM(subProduct, loading string) int {
	for _, r := range s.BodyHeightRules {
		if r.SubProduct == subProduct {
			if contains(r.HeavyLoadingClasses, loading) {
				return r.HeavyExtensionMM
			}
			return r.ExtensionMM
		}
	}
	return 0
}

// displayed returns the channel's name and body height as shown for a
// loading class (loading "" applies the rule's default extension).
func (s *System) displayed(ch *ChannelSpec, loading string) (string, int) {
	ext := s.BodyHeightExtensionMM(ch.SubProduct, loading)
	if ext == 0 {
		return ch.Name, ch.BodyHeightMM
	}
	// The extension goes before an L channel's final "L", which marks it.
	if base, ok := strings.CutSuffix(ch.Name, " L"); ok && ch.Kind == KindL {
		return fmt.Sprintf("%s +%d L", base, ext), ch.BodyHeightMM + ext
	}
	return fmt.Sprintf("%s +%d", ch.Name, ext), ch.BodyHeightMM + ext
}
