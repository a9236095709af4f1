package report

import (
	"math"
	"strconv"
	"strings"
)

// numbers formats figures in the document language: a decimal comma for
// every language but English, no thousands separator (engineering
// documents print 1250,5 rather than 1.250,5 to avoid the ambiguity).
type numbers struct{ comma bool }

// f formats v with the given decimals; -0 prints as 0.
func (n numbers) f(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "–"
	}
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if strings.Trim(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-")
	}
	if n.comma {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// u formats v with a unit.
func (n numbers) u(v float64, decimals int, unit string) string {
	return n.f(v, decimals) + " " + unit
}
