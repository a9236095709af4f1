package main

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Class is one kind of run a designer calculates.
type Class int

const (
	// Small: a short single-size run, 10 to 60 m.
	Small Class = iota
	// Stepped: a stepped run of 100 to 500 m.
	Stepped
	// Long: a 3000 m run in standard mode.
	Long
)

func (c Class) String() string {
	switch c {
	case Small:
		return "small"
	case Stepped:
		return "stepped"
	case Long:
		return "3000m"
	}
	return fmt.Sprintf("class(%d)", int(c))
}

// Mix is the share of each class in percent; they add up to 100.
type Mix struct{ Small, Stepped, Long float64 }

// DefaultMix is the mix: 70 % small runs, 25 % stepped 100 to
// 500 m, 5 % 3000 m.
var DefaultMix = Mix{Small: 70, Stepped: 25, Long: 5}

// Validate refuses negative shares and a total other than 100.
func (m Mix) Validate() error {
	if m.Small < 0 || m.Stepped < 0 || m.Long < 0 {
		return fmt.Errorf("mix %+v: a share is negative", m)
	}
	if total := m.Small + m.Stepped + m.Long; math.Abs(total-100) > 1e-9 {
		return fmt.Errorf("mix %+v: shares add up to %g, not 100", m, total)
	}
	return nil
}

// Pick maps u, uniform in [0, 1), to a class with the mix's shares.
func (m Mix) Pick(u float64) Class {
	switch x := u * 100; {
	case x < m.Small:
		return Small
	case x < m.Small+m.Stepped:
		return Stepped
	}
	return Long
}

// RunInputs are the inputs of a run of class c as the design screen sends
// them (the fields of POST /api/drainage/calculate/ without the project
// identity). seq makes the length differ from the previous edit's, so that
// every edit changes the run and appends an event.
func RunInputs(c Class, rng *rand.Rand, seq int) map[string]any {
	// A hundredth of a metre per edit keeps each length unique within a
	// designer's run, which the lost-write check relies on.
	nudge := float64(seq%100) / 100
	switch c {
	case Stepped:
		length := float64(100+rng.IntN(400)) + nudge
		return map[string]any{
			"channel_group": "fibre", "loading": "C250", "grating": "fibre-std-mesh", "stepped": true,
			"channel_length_m": length, "drainage_area_m2": math.Round(length * 6),
			"rainfall": map[string]any{"rainfall_mm_per_hr": 50}, "ground_slope": 0.2,
		}
	case Long:
		return map[string]any{
			"channel_group": "fibre", "loading": "C250", "grating": "fibre-std-mesh", "stepped": false,
			"channel_length_m": 3000 - nudge, "drainage_area_m2": 30000,
			"rainfall": map[string]any{"rainfall_mm_per_hr": 10}, "ground_slope": 1,
		}
	}
	length := float64(10+rng.IntN(50)) + nudge
	return map[string]any{
		"channel_group": "poly-100", "loading": "C250", "grating": "poly-100-slot-iron", "stepped": false,
		"channel_length_m": length, "drainage_area_m2": math.Round(length * 10),
		"rainfall": map[string]any{"rainfall_mm_per_hr": 50}, "ground_slope": 0.2,
	}
}
