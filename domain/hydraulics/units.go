package hydraulics

// Gravity is the acceleration due to gravity used throughout (m/s²), the
// value customary in drainage design.
const Gravity = 9.81

// lpsPerM2PerMMH is 1 mm/h expressed in l/s per m²: one millimetre of rain on
// one square metre is one litre, spread over 3600 s.
const lpsPerM2PerMMH = 1.0 / 3600.0

// MMHToLPSPerM2 converts a rainfall intensity from mm/h to l/s per m²
// (1 mm/h = 2.778e-4 l/s/m², the specification's unit factor 0.000278).
func MMHToLPSPerM2(mmh float64) float64 { return mmh * lpsPerM2PerMMH }

// LPSPerM2ToMMH converts a rainfall intensity from l/s per m² to mm/h.
func LPSPerM2ToMMH(lps float64) float64 { return lps / lpsPerM2PerMMH }

// MMHToLPSPerHa converts mm/h to l/(s·ha) (factor 2.778).
func MMHToLPSPerHa(mmh float64) float64 { return mmh * lpsPerM2PerMMH * 1e4 }

// LPSPerHaToMMH converts l/(s·ha) to mm/h.
func LPSPerHaToMMH(lps float64) float64 { return lps / (lpsPerM2PerMMH * 1e4) }

// MMHToMPerS converts mm/h to m/s, the unit of intensity in the flow
// equations.
func MMHToMPerS(mmh float64) float64 { return mmh / 3.6e6 }

// RunoffLPS is the rational-method discharge Q = A·i·C in l/s for an area in
// m², an intensity in mm/h and a permeability (runoff coefficient) C from 0 to
// 1.
func RunoffLPS(areaM2, intensityMMH, permeability float64) float64 {
	return areaM2 * MMHToLPSPerM2(intensityMMH) * permeability
}

// RunoffM3S is RunoffLPS in m³/s.
func RunoffM3S(areaM2, intensityMMH, permeability float64) float64 {
	return areaM2 * MMHToMPerS(intensityMMH) * permeability
}
