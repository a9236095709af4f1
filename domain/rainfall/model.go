// Package rainfall answers the UK rainfall map of the design tool: FSR
// (Flood Studies Report / Wallingford Procedure) design rainfall for a
// point, storm duration, return period and climate-change uplift.
//
// M5-60 and r at a point come from an indicative field interpolated from
// NRFA catchment rainfall statistics (embedded in the binary) by a proxy
// calibrated on published FSR values; the designer may override them. The
// package is pure Go with its data embedded; it holds no HTTP. The method,
// its tables and its stand-ins are set out in docs/rainfall.md.
package rainfall

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
)

//go:embed data/nrfa-catchment-rainfall.csv
var stationCSV []byte

// Attribution the NRFA's terms ask for wherever the data are shown.
const Attribution = "Contains data from the UK National River Flow Archive (NRFA), UK Centre for Ecology & Hydrology"

// TableDurations are the durations in minutes of the answer's intensity
// table: 5, 10, 15 and 30 minutes, 1, 2, 4 and 8 hours.
var TableDurations = []float64{5, 10, 15, 30, 60, 120, 240, 480}

// landGuardKm is how far from every gauged catchment and every named place
// a point inside the land outline may be before it is taken for sea that
// the coarse outline wrongly encloses. Every part of the outline is within
// it of one or the other; the tests check this on a 5 km lattice.
const landGuardKm = 40

// Model is the embedded rainfall data, parsed once. It is immutable and
// safe for concurrent use.
type Model struct {
	field  *field
	places []town
}

var loadDefault = sync.OnceValues(func() (*Model, error) { return Load(bytes.NewReader(stationCSV)) })

// Default returns the model of the embedded NRFA data, parsed once. It
// panics if the embedded data is invalid, which the package tests rule
// out.
func Default() *Model {
	m, err := loadDefault()
	if err != nil {
		panic(err)
	}
	return m
}

// Load builds a model from station data in the embedded file's CSV layout
// (station, easting_osgb, northing_osgb, rmed_1h_mm, rmed_1d_mm,
// rmed_2d_mm, saar_mm).
func Load(r io.Reader) (*Model, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("rainfall: station data: %w", err)
	}
	f, err := loadField(b)
	if err != nil {
		return nil, err
	}
	return &Model{field: f, places: towns}, nil
}

// Stations returns a copy of the station data behind the field.
func (m *Model) Stations() []Station { return append([]Station(nil), m.field.stations...) }

// Query is the body of POST /rainfall/findRainStats/.
type Query struct {
	Latitude      float64 `json:"latitude"`
	Longitude     float64 `json:"longitude"`
	StormDuration float64 `json:"stormDuration"` // minutes
	ReturnPeriod  float64 `json:"returnPeriod"`  // years
	ClimateFactor float64 `json:"climateFactor"` // percent: 0, 5, 10, 15, 20, 30, 40
}

// UpdateQuery is the body of POST /rainfall/updateRainStats/: the
// designer's own M5-60 and r for a location found before.
type UpdateQuery struct {
	R             float64 `json:"r"`
	M5            float64 `json:"M5"` // M5-60, mm
	LocationIndex string  `json:"LocationIndex"`
	StormDuration float64 `json:"stormDuration"`
	ReturnPeriod  float64 `json:"returnPeriod"`
	ClimateFactor float64 `json:"climateFactor"`
}

// LatLng is a WGS84 position as a map takes it.
type LatLng struct {
	Lat float64 `json:"lat"`
	Lng float64 `json:"lng"`
}

// IntensityPoint is one row of the intensity table. In JSON it is the pair
// [minutes, mm/h], e.g. [60, 20.537].
type IntensityPoint struct {
	Minutes   float64
	MMPerHour float64
}

func (p IntensityPoint) MarshalJSON() ([]byte, error) {
	return json.Marshal([2]float64{p.Minutes, p.MMPerHour})
}

func (p *IntensityPoint) UnmarshalJSON(b []byte) error {
	var v [2]float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	p.Minutes, p.MMPerHour = v[0], v[1]
	return nil
}

// Label names the duration as the dialog shows it: "5 min", "1 h".
func (p IntensityPoint) Label() string {
	if p.Minutes >= 60 && math.Mod(p.Minutes, 60) == 0 {
		return fmt.Sprintf("%g h", p.Minutes/60)
	}
	return fmt.Sprintf("%g min", p.Minutes)
}

// Answer is the answer of both rainfall calls.
type Answer struct {
	Town               string           `json:"town"`               // nearest named place
	RainfallLocationID int              `json:"rainfallLocationId"` // 1 km cell: easting km x 10000 + northing km
	LocationIndex      string           `json:"LocationIndex"`      // the same cell as a grid reference, e.g. "SK3587"
	RainfallIntensity  float64          `json:"rainfallIntensity"`  // mm/h for the asked storm, 3 decimals
	M5                 float64          `json:"M5"`                 // M5-60, mm
	R                  float64          `json:"r"`
	Intensity          []IntensityPoint `json:"intensity"` // TableDurations, mm/h
	LatLng             LatLng           `json:"latlng"`
	Source             string           `json:"source"`     // where M5-60 and r come from
	Indicative         bool             `json:"indicative"` // M5-60 and r are the proxy's, not FSR map values
	Region             Region           `json:"region"`
	// The field's typical error at published points; absent when the
	// designer entered M5-60 and r.
	Uncertainty *Uncertainty `json:"uncertainty,omitempty"`
}

// Uncertainty is the field's typical error: the root-mean-square error,
// leave-one-out, of the indicative M5-60 and r against the published FSR
// values of docs/rainfall.md section 6.3.
type Uncertainty struct {
	M5     float64 `json:"M5"`     // mm
	R      float64 `json:"r"`      //
	Points int     `json:"points"` // published points compared
}

// Estimate returns the field's M5-60 and r at a point, after the same
// land check as Find.
func (m *Model) Estimate(lat, lon float64) (Estimate, error) {
	_, est, _, err := m.locate(lat, lon)
	return est, err
}

// Find answers findRainStats: the indicative M5-60 and r at a point of
// the map and the design intensities they give.
func (m *Model) Find(q Query) (Answer, error) {
	if err := checkStorm(q.StormDuration, q.ReturnPeriod, q.ClimateFactor); err != nil {
		return Answer{}, err
	}
	pl, est, ref, err := m.locate(q.Latitude, q.Longitude)
	if err != nil {
		return Answer{}, err
	}
	a := answer(est.M5, est.R, pl.region, q.StormDuration, q.ReturnPeriod, q.ClimateFactor)
	a.Indicative = true
	a.Source = fieldSource(est) + regionNote(pl.region)
	a.Uncertainty = &Uncertainty{M5: typicalErrorM5, R: typicalErrorR, Points: calibrationPoints}
	a.LatLng = LatLng{q.Latitude, q.Longitude}
	a.LocationIndex, a.RainfallLocationID = ref.name, ref.id
	t, _ := nearestIn(m.places, q.Latitude, q.Longitude)
	a.Town = t.name
	return a, nil
}

// Update answers updateRainStats: the same answer for a location found
// before, with the designer's M5-60 and r in place of the field's.
func (m *Model) Update(q UpdateQuery) (Answer, error) {
	if err := inRange("M5", q.M5, MinM5, MaxM5, " mm"); err != nil {
		return Answer{}, err
	}
	if err := inRange("r", q.R, MinR, MaxR, ""); err != nil {
		return Answer{}, err
	}
	if err := checkStorm(q.StormDuration, q.ReturnPeriod, q.ClimateFactor); err != nil {
		return Answer{}, err
	}
	e, n, err := ParseGridRef(q.LocationIndex)
	if err != nil {
		return Answer{}, &InputError{Field: "LocationIndex", Reason: fmt.Sprintf("%q is not a 1 km grid reference such as SK3587", q.LocationIndex)}
	}
	lat, lon := GridToLatLon(e+500, n+500)
	t, _ := nearestIn(m.places, lat, lon)
	pl := classify(lat, lon)
	region := pl.region
	switch pl.kind {
	case abroad:
		return Answer{}, &OutsideError{Latitude: lat, Longitude: lon}
	case atSea:
		// A coastal cell's centre may fall just offshore; the cell was
		// found on land, so it keeps the region of its nearest place.
		region = t.region
	}
	a := answer(q.M5, q.R, region, q.StormDuration, q.ReturnPeriod, q.ClimateFactor)
	a.Source = "M5-60 and r entered by the designer" + regionNote(region)
	a.LatLng = LatLng{round(lat, 5), round(lon, 5)}
	ref := cellOf(e, n)
	a.LocationIndex, a.RainfallLocationID = ref.name, ref.id
	a.Town = t.name
	return a, nil
}

type cell struct {
	name string
	id   int
}

func cellOf(e, n float64) cell {
	name, _ := GridRef(e, n) // callers pass positions on the grid
	return cell{name: name, id: int(e/1000)*10000 + int(n/1000)}
}

// locate checks that a point is on land in the United Kingdom and reads
// the field there.
func (m *Model) locate(lat, lon float64) (place, Estimate, cell, error) {
	if !(lat >= -90 && lat <= 90) {
		return place{}, Estimate{}, cell{}, &InputError{Field: "latitude", Reason: fmt.Sprintf("must be between -90 and 90 degrees (got %g)", lat)}
	}
	if !(lon >= -180 && lon <= 180) {
		return place{}, Estimate{}, cell{}, &InputError{Field: "longitude", Reason: fmt.Sprintf("must be between -180 and 180 degrees (got %g)", lon)}
	}
	pl := classify(lat, lon)
	switch pl.kind {
	case abroad:
		return pl, Estimate{}, cell{}, &OutsideError{Latitude: lat, Longitude: lon}
	case atSea:
		return pl, Estimate{}, cell{}, &OutsideError{Latitude: lat, Longitude: lon, InSea: true}
	}
	e, n := LatLonToGrid(lat, lon)
	if _, err := GridRef(e, n); err != nil {
		return pl, Estimate{}, cell{}, &OutsideError{Latitude: lat, Longitude: lon}
	}
	est := m.field.at(e, n)
	if _, townKm := nearestIn(m.places, lat, lon); est.NearestKm > landGuardKm && townKm > landGuardKm {
		return pl, Estimate{}, cell{}, &OutsideError{Latitude: lat, Longitude: lon, InSea: true}
	}
	return pl, est, cellOf(e, n), nil
}

func answer(m5, r float64, region Region, d, t, cc float64) Answer {
	a := Answer{M5: m5, R: r, Region: region}
	a.RainfallIntensity = round(Intensity(m5, r, d, t, cc, region), 3)
	a.Intensity = make([]IntensityPoint, len(TableDurations))
	for i, td := range TableDurations {
		a.Intensity[i] = IntensityPoint{Minutes: td, MMPerHour: round(Intensity(m5, r, td, t, cc, region), 3)}
	}
	return a
}

func fieldSource(est Estimate) string {
	var b strings.Builder
	b.WriteString("Indicative: interpolated from NRFA catchment rainfall (FEH RMED) by proxy")
	if est.Extrapolated {
		fmt.Fprintf(&b, "; no gauged catchment within %d km (nearest %.0f km), so extrapolated from the nearest %d and especially uncertain",
			fieldCapMetres/1000, est.NearestKm, est.Stations)
	} else {
		fmt.Fprintf(&b, " over %d gauged catchments within %d km", est.Stations, fieldCapMetres/1000)
	}
	if est.Clamped {
		b.WriteString("; held to the UK range of the FSR maps (M5-60 12-22 mm, r 0.12-0.45)")
	}
	fmt.Fprintf(&b, "; typical error against %d published FSR values ±%.1f mm on M5-60 and ±%.2f on r (lowland England; larger in the uplands)",
		calibrationPoints, typicalErrorM5, typicalErrorR)
	b.WriteString("; override with FSR values from the Wallingford Procedure maps where available. ")
	b.WriteString(Attribution)
	return b.String()
}

func regionNote(r Region) string {
	if r == EnglandWales {
		return ""
	}
	return ". Growth factors for " + string(r) + " use the England and Wales table as a stand-in"
}

func round(v float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(v*p) / p
}
