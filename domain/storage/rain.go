package storage

import (
	"errors"
	"math"

	"draindesign/domain/rainfall"
)

// Durations are the storms of the sweep, minutes: 5 minutes to 48 hours,
// the FSR range the rainfall model covers, closer together where storage
// usually peaks (half an hour to a few hours).
var Durations = []float64{5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 360, 480, 600, 720, 960, 1440, 2160, 2880}

// Rainfall is the run's rainfall as the controlled-discharge call takes it.
type Rainfall struct {
	// MMPerHour is the run's design intensity, mm/h: the free discharge
	// is computed with it.
	MMPerHour float64
	// StormMin is the run's design storm duration, minutes. The rational
	// method takes the design storm equal to the time of concentration, so
	// it is the tc of the inflow hydrographs.
	StormMin float64
	// M5 (M5-60, mm) and R define the FSR curve of the sweep when both are
	// given; ReturnPeriod (years) and ClimatePct (percent uplift) go with
	// them, Region labels the growth factors.
	M5, R        float64
	ReturnPeriod float64
	ClimatePct   float64
	Region       rainfall.Region
	// R5, R15, R60 are the 5, 15 and 60 minute intensities, mm/h, of the
	// design return period (rows 0, 2 and 4 of the map's table). Without
	// M5 and r the sweep's curve is drawn through them.
	R5, R15, R60 float64
}

// curve is the design intensity, mm/h, for each duration of the sweep.
type curve struct {
	fsr       bool
	intensity []float64 // per Durations
}

func (r Rainfall) validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{
		{"rainfall.rainfall_mm_per_hr", r.MMPerHour},
		{"rainfall.storm_duration", r.StormMin},
		{"rainfall.fiveMinuteRate", r.R5},
		{"rainfall.fifteenMinuteRate", r.R15},
		{"rainfall.sixtyMinuteRate", r.R60},
	} {
		if !(f.v > 0) || math.IsInf(f.v, 0) {
			return inputf(f.name, "must be above 0 (got %g)", f.v)
		}
	}
	if r.StormMin > rainfall.MaxDuration {
		return inputf("rainfall.storm_duration", "must be at most %g minutes (got %g)", rainfall.MaxDuration, r.StormMin)
	}
	return nil
}

// curve gives the sweep's intensities: the FSR model with the run's
// M5-60 and r when it has them, the same model the map answered with; or
// else a curve through the three rates.
func (r Rainfall) curve() (curve, error) {
	if r.M5 > 0 || r.R > 0 {
		region := r.Region
		if region == "" {
			region = rainfall.EnglandWales
		}
		in, err := rainfall.Series(r.M5, r.R, region, r.ReturnPeriod, r.ClimatePct, Durations)
		if err != nil {
			var ie *rainfall.InputError
			if errors.As(err, &ie) {
				return curve{}, &InputError{Field: "rainfall." + rainfallField(ie.Field), Reason: ie.Reason}
			}
			return curve{}, err
		}
		return curve{fsr: true, intensity: in}, nil
	}
	if err := r.checkRates(); err != nil {
		return curve{}, err
	}
	out := make([]float64, len(Durations))
	for i, d := range Durations {
		out[i] = r.rateAt(d)
	}
	return curve{intensity: out}, nil
}

// rainfallField names a rainfall.InputError's field as the run names it.
func rainfallField(f string) string {
	switch f {
	case "returnPeriod":
		return "return_period"
	case "climateFactor":
		return "climate_change_factor"
	}
	return f
}

// checkRates holds the three rates to a real intensity-duration curve:
// intensity falls with duration and depth does not.
func (r Rainfall) checkRates() error {
	if !(r.R5 >= r.R15 && r.R15 >= r.R60) {
		return inputf("rainfall", "rates must fall with duration: fiveMinuteRate %g ≥ fifteenMinuteRate %g ≥ sixtyMinuteRate %g mm/h", r.R5, r.R15, r.R60)
	}
	if !(15*r.R15 >= 5*r.R5 && 60*r.R60 >= 15*r.R15) {
		return inputf("rainfall", "rates give less rain in a longer storm: 5 min %.2f mm, 15 min %.2f mm, 60 min %.2f mm",
			r.R5*5/60, r.R15*15/60, r.R60)
	}
	return nil
}

// rateAt interpolates the three rates log-log, carrying the end slopes
// beyond 5 and 60 minutes. Beyond the hour this is conservative: the
// 15-60 minute slope keeps long-storm depths growing faster than the FSR
// curves do (at Leeds 13 % more rain in 4 hours, 60 % more in 48), which
// only over-states storage.
func (r Rainfall) rateAt(d float64) float64 {
	pts := [3][2]float64{{5, r.R5}, {15, r.R15}, {60, r.R60}}
	seg := 0
	if d > 15 {
		seg = 1
	}
	a, b := pts[seg], pts[seg+1]
	slope := math.Log(b[1]/a[1]) / math.Log(b[0]/a[0])
	return a[1] * math.Pow(d/a[0], slope)
}
