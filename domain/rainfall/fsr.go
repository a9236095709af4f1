package rainfall

import (
	"fmt"
	"math"
)

// The Flood Studies Report (NERC 1975) rainfall model as used by the
// Wallingford Procedure: a 5-year, 60-minute depth M5-60 and the ratio
// r = M5-60 / M5-2day locate a point; Z1 scales M5-60 to M5-D for a
// duration D, Z2 grows M5-D to MT-D for a return period T. Every number
// below and where it comes from is set out in docs/rainfall.md.

// Accepted ranges of the inputs.
const (
	MinDuration, MaxDuration         = 1.0, 2880.0 // minutes (1 min to 48 h)
	MinReturnPeriod, MaxReturnPeriod = 1.0, 200.0  // years
	MinClimate, MaxClimate           = 0.0, 100.0  // percent uplift
	MinM5, MaxM5                     = 5.0, 40.0   // mm
	MinR, MaxR                       = 0.1, 0.5
)

// z1At040 is the FSR Z1 = M5-D / M5-60 at r = 0.40 as given in the data
// README (England and Wales), durations in minutes.
var z1At040 = []struct{ minutes, ratio float64 }{
	{5, 0.39}, {10, 0.52}, {15, 0.63}, {30, 0.80}, {60, 1.00}, {120, 1.21},
	{240, 1.45}, {360, 1.60}, {600, 1.79}, {1440, 2.24}, {2880, 2.62},
}

// r40 is the r of the reference curve; m5of2day converts it to the ratio
// of M5-48h to M5-60 the README gives (M5-48h ≈ 1.05 M5-60 / r).
const (
	r40        = 0.40
	m5of2day   = 1.05
	shortSlope = 1.5 // stand-in: how fast sub-hourly Z1 falls as r falls
)

// logZ1At040 interpolates ln Z1 at r = 0.40 linearly in ln D, and carries
// the 5-10 minute slope below 5 minutes.
func logZ1At040(d float64) float64 {
	t := z1At040
	ld := math.Log(d)
	i := 1
	for i < len(t)-1 && d > t[i].minutes {
		i++
	}
	x0, x1 := math.Log(t[i-1].minutes), math.Log(t[i].minutes)
	y0, y1 := math.Log(t[i-1].ratio), math.Log(t[i].ratio)
	return y0 + (ld-x0)*(y1-y0)/(x1-x0)
}

// Z1 returns M5-D / M5-60 for a duration in minutes and a ratio r.
//
// Above an hour the r = 0.40 curve is stretched in log space so that its
// 48-hour end lands on 1.05 / r: the curve steepens as r falls, as the
// FSR's does, and is the README's table at r = 0.40. Below an hour the
// r = 0.40 ratios are raised to the power 1 + 1.5 (0.40 - r), so that
// short storms weigh less where r is low (wet, orographic west) and more
// where it is high (convective east). Both are documented stand-ins for
// the FSR's r curves, which are not openly available. Returns NaN outside
// the accepted ranges.
func Z1(r, durationMin float64) float64 {
	if !(r >= MinR && r <= MaxR && durationMin >= MinDuration && durationMin <= MaxDuration) {
		return math.NaN()
	}
	lz := logZ1At040(durationMin)
	if durationMin <= 60 {
		return math.Exp(lz * (1 + shortSlope*(r40-r)))
	}
	return math.Exp(lz * math.Log(m5of2day/r) / math.Log(m5of2day/r40))
}

// z2Growth10 is the FSR 10-year growth M10-D / M5-D for England and Wales
// against the M5-D depth in mm, from the data README.
var z2Growth10 = []struct{ depth, growth float64 }{
	{5, 1.19}, {10, 1.22}, {15, 1.24}, {25, 1.24}, {30, 1.22}, {40, 1.19},
	{50, 1.17}, {75, 1.15}, {100, 1.14},
}

func growth10(depth float64) float64 {
	t := z2Growth10
	if depth <= t[0].depth {
		return t[0].growth
	}
	for i := 1; i < len(t); i++ {
		if depth <= t[i].depth {
			f := (depth - t[i-1].depth) / (t[i].depth - t[i-1].depth)
			return t[i-1].growth + f*(t[i].growth-t[i-1].growth)
		}
	}
	return t[len(t)-1].growth
}

// gumbelY is the EV1 reduced variate of a return period. Annual maxima
// cannot express T below 2 years; there a 1-year event is read as the
// partial-duration one (Langbein: annual-maximum T = 1.58 years, y = 0)
// and y runs linearly in ln T up to its 2-year value.
func gumbelY(t float64) float64 {
	if t >= 2 {
		return -math.Log(-math.Log(1 - 1/t))
	}
	return -math.Log(-math.Log(0.5)) * math.Log(t) / math.Ln2
}

// Z2 returns the growth MT-D / M5-D for an M5-D depth in mm and a return
// period in years. The 10-year column is the README's England and Wales
// table; other return periods follow a Gumbel (EV1) line through the
// 5-year (growth 1) and 10-year values, a documented stand-in for the full
// FSR table. Scotland and Northern Ireland use the same figures, also a
// stand-in; the answer names the region so the designer can see it.
// Returns NaN for a depth not above zero, a return period outside 1-200
// years or an unknown region.
func Z2(depthMM, returnPeriod float64, region Region) float64 {
	if !(depthMM > 0 && returnPeriod >= MinReturnPeriod && returnPeriod <= MaxReturnPeriod) || !region.Valid() {
		return math.NaN()
	}
	y5, y10 := gumbelY(5), gumbelY(10)
	return 1 + (growth10(depthMM)-1)*(gumbelY(returnPeriod)-y5)/(y10-y5)
}

// Depth returns the point rainfall depth in mm for a storm: M5-60 x Z1 x Z2,
// times (1 + climate/100). No areal reduction: drainage catchments of this
// tool are far below a square kilometre. NaN outside the accepted ranges.
func Depth(m5, r, durationMin, returnPeriod, climatePct float64, region Region) float64 {
	if !(m5 >= MinM5 && m5 <= MaxM5 && climatePct >= MinClimate && climatePct <= MaxClimate) {
		return math.NaN()
	}
	m5d := m5 * Z1(r, durationMin)
	return m5d * Z2(m5d, returnPeriod, region) * (1 + climatePct/100)
}

// Intensity returns the mean rainfall intensity in mm/h over a storm of
// the given duration (minutes) and return period (years), with the
// climate-change uplift in percent. NaN outside the accepted ranges; use
// Series or the Model for validated answers.
func Intensity(m5, r, durationMin, returnPeriod, climatePct float64, region Region) float64 {
	return Depth(m5, r, durationMin, returnPeriod, climatePct, region) / (durationMin / 60)
}

// Series returns the intensity in mm/h for each duration in minutes, for
// the storage calculator's sweep over storm durations. It checks every
// input and fails with an *InputError naming the first bad one.
func Series(m5, r float64, region Region, returnPeriod, climatePct float64, durations []float64) ([]float64, error) {
	if err := checkDesign(m5, r, returnPeriod, climatePct); err != nil {
		return nil, err
	}
	if !region.Valid() {
		return nil, &InputError{Field: "region", Reason: fmt.Sprintf("must be %q, %q or %q", EnglandWales, Scotland, NorthernIreland)}
	}
	out := make([]float64, len(durations))
	for i, d := range durations {
		if err := checkDuration(d); err != nil {
			return nil, err
		}
		out[i] = Intensity(m5, r, d, returnPeriod, climatePct, region)
	}
	return out, nil
}

func inRange(field string, v, lo, hi float64, unit string) error {
	if v >= lo && v <= hi {
		return nil
	}
	return &InputError{Field: field, Reason: fmt.Sprintf("must be between %g and %g%s (got %g)", lo, hi, unit, v)}
}

func checkDuration(d float64) error {
	return inRange("stormDuration", d, MinDuration, MaxDuration, " minutes")
}

func checkStorm(d, t, cc float64) error {
	if err := checkDuration(d); err != nil {
		return err
	}
	if err := inRange("returnPeriod", t, MinReturnPeriod, MaxReturnPeriod, " years"); err != nil {
		return err
	}
	return inRange("climateFactor", cc, MinClimate, MaxClimate, " %")
}

func checkDesign(m5, r, t, cc float64) error {
	if err := inRange("M5", m5, MinM5, MaxM5, " mm"); err != nil {
		return err
	}
	if err := inRange("r", r, MinR, MaxR, ""); err != nil {
		return err
	}
	if err := inRange("returnPeriod", t, MinReturnPeriod, MaxReturnPeriod, " years"); err != nil {
		return err
	}
	return inRange("climateFactor", cc, MinClimate, MaxClimate, " %")
}
