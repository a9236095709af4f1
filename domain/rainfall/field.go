package rainfall

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
)

// Station is one gauged NRFA catchment of the embedded data: the gauge's
// British National Grid position and the catchment's FEH rainfall
// statistics (catchment averages, 2-year medians).
type Station struct {
	ID       int
	Easting  float64 // metres, OSGB36 (Northern Ireland too)
	Northing float64
	RMED1H   float64 // mm, median annual maximum 1-hour rainfall
	RMED1D   float64 // mm, the same for 1 day
	RMED2D   float64 // mm, the same for 2 days
	SAAR     float64 // mm, average annual rainfall 1961-90
}

// The proxy from FEH medians to FSR parameters: each coefficient is the
// least-squares fit, through the origin, of the published FSR values to
// the field's interpolated RMED-1H and RMED-1H / RMED-2D at the published
// points of docs/rainfall.md section 6.3 (field_test.go refits them and
// fails if these drift from the fit). The README's first calibration had
// r = 1.45 x ratio, which read r 0.025 low on average at those points.
// It carries the lowland relation into the uplands, where it is least
// sure; hence the answer is always marked indicative.
const (
	m5PerRMED1H = 1.80 // M5-60 ≈ 1.80 x RMED-1H
	rPerRatio   = 1.53 // r ≈ 1.53 x RMED-1H / RMED-2D
)

// The field's typical error: the leave-one-out root-mean-square error of
// the proxy against the published points (each point predicted by the
// coefficients fitted to the others), rounded up. field_test.go
// recomputes it and fails if the figure shown would understate it.
const (
	typicalErrorM5    = 1.3  // mm
	typicalErrorR     = 0.06 //
	calibrationPoints = 5
)

// UK ranges of the FSR maps; the proxy is held inside them.
const (
	minFieldM5, maxFieldM5 = 12.0, 22.0
	minFieldR, maxFieldR   = 0.12, 0.45
)

// Inverse-distance weighting in grid metres. Past the cap a station says
// too little about a point to be averaged in; a point with none inside it
// (Scilly, Orkney, Shetland, Islay) falls back on its nearest few stations
// and is labelled extrapolated. The smoothing length keeps a point on top
// of a gauge from taking that one catchment's value alone, since the
// statistics are catchment averages, not point values at the gauge.
const (
	fieldCapMetres    = 40000
	fieldMaxStations  = 8
	fieldFallback     = 4
	fieldPower        = 2
	fieldSmoothMetres = 3000
)

// Estimate is the field's answer at a point.
type Estimate struct {
	M5 float64 // M5-60 in mm, rounded to 0.1 mm and clamped to 12-22 mm
	R  float64 // r, rounded to 0.01 and clamped to 0.12-0.45

	RawM5, RawR  float64 // before clamping and rounding
	Stations     int     // stations averaged
	NearestKm    float64 // distance to the nearest station
	Extrapolated bool    // no station within the cap
	Clamped      bool    // a value was held to the UK range
}

func stationM5(s Station) float64 { return m5PerRMED1H * s.RMED1H }
func stationR(s Station) float64  { return rPerRatio * s.RMED1H / s.RMED2D }

type field struct{ stations []Station }

// parseStations reads the NRFA extract (header, then station, easting,
// northing, RMED-1H, RMED-1D, RMED-2D, SAAR) and checks every value is
// usable, so that a damaged file fails at load, not at a query.
func parseStations(r io.Reader) ([]Station, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = 7
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("rainfall: station data: %w", err)
	}
	want := []string{"station", "easting_osgb", "northing_osgb", "rmed_1h_mm", "rmed_1d_mm", "rmed_2d_mm", "saar_mm"}
	for i := range want {
		if head[i] != want[i] {
			return nil, fmt.Errorf("rainfall: station data: column %d is %q, want %q", i+1, head[i], want[i])
		}
	}
	var out []Station
	seen := map[int]bool{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("rainfall: station data: %w", err)
		}
		line, _ := cr.FieldPos(0)
		id, err := strconv.Atoi(rec[0])
		if err != nil || id <= 0 {
			return nil, fmt.Errorf("rainfall: station data line %d: bad station number %q", line, rec[0])
		}
		if seen[id] {
			return nil, fmt.Errorf("rainfall: station data line %d: station %d twice", line, id)
		}
		seen[id] = true
		var v [6]float64
		for i := range v {
			v[i], err = strconv.ParseFloat(rec[i+1], 64)
			if err != nil || math.IsNaN(v[i]) || math.IsInf(v[i], 0) {
				return nil, fmt.Errorf("rainfall: station data line %d: bad %s %q", line, want[i+1], rec[i+1])
			}
		}
		s := Station{ID: id, Easting: v[0], Northing: v[1], RMED1H: v[2], RMED1D: v[3], RMED2D: v[4], SAAR: v[5]}
		switch {
		case s.Easting < 0 || s.Easting > gridSpan || s.Northing < 0 || s.Northing > 1300000:
			return nil, fmt.Errorf("rainfall: station %d lies off the British National Grid", id)
		case !(s.RMED1H > 0 && s.RMED1H < s.RMED1D && s.RMED1D < s.RMED2D):
			return nil, fmt.Errorf("rainfall: station %d: RMED must grow with duration (%.1f, %.1f, %.1f mm)", id, s.RMED1H, s.RMED1D, s.RMED2D)
		}
		out = append(out, s)
	}
	if len(out) < fieldFallback {
		return nil, fmt.Errorf("rainfall: station data holds %d stations, too few for a field", len(out))
	}
	return out, nil
}

func loadField(data []byte) (*field, error) {
	st, err := parseStations(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return &field{stations: st}, nil
}

type near struct {
	s Station
	d float64 // metres
}

// nearest lists stations by distance from a grid position.
func (f *field) nearest(e, n float64) []near {
	all := make([]near, len(f.stations))
	for i, s := range f.stations {
		all[i] = near{s, math.Hypot(s.Easting-e, s.Northing-n)}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].d < all[j].d })
	return all
}

// at interpolates M5-60 and r at a grid position.
func (f *field) at(e, n float64) Estimate {
	all := f.nearest(e, n)
	use := all[:0:0]
	for _, c := range all {
		if c.d > fieldCapMetres || len(use) == fieldMaxStations {
			break
		}
		use = append(use, c)
	}
	est := Estimate{NearestKm: all[0].d / 1000}
	if len(use) == 0 {
		use = all[:fieldFallback]
		est.Extrapolated = true
	}
	var w, m5, r float64
	for _, c := range use {
		k := 1 / math.Pow(c.d*c.d+fieldSmoothMetres*fieldSmoothMetres, fieldPower/2.0)
		w += k
		m5 += k * stationM5(c.s)
		r += k * stationR(c.s)
	}
	est.RawM5, est.RawR = m5/w, r/w
	est.Stations = len(use)
	cm5 := math.Min(math.Max(est.RawM5, minFieldM5), maxFieldM5)
	cr := math.Min(math.Max(est.RawR, minFieldR), maxFieldR)
	est.Clamped = cm5 != est.RawM5 || cr != est.RawR
	est.M5 = math.Round(cm5*10) / 10
	est.R = math.Round(cr*100) / 100
	return est
}
