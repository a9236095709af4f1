package design

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"reflect"
	"strconv"
	"strings"

	"draindesign/domain/jsonobject"
)

// Request is the body of POST /drainage/calculate/: the run as the client
// holds it (design-tool.md section 3, Run, and its derived server fields).
// Only the fields below are read; the run object carries many more that
// only the screens use, and those are ignored.
type Request struct {
	// ProjectID and RunID name the project run the calculation belongs to;
	// both empty for a calculation outside a project.
	ProjectID string `json:"project_id"`
	RunID     string `json:"run_id"`
	// ID and SaveID are the client's run identities; a shared calculation
	// tells its two runs apart by them.
	ID     ID `json:"id"`
	SaveID ID `json:"saveID"`
	// WithdrawnChannels are the system's channel types (sub-products) not
	// offered in the user's country (channel availability): standard mode
	// does not choose them. Set by the server, never read from the body.
	WithdrawnChannels []string `json:"-"`

	Advanced          bool             `json:"advanced"`
	CalculationMethod string           `json:"calculation_method"`
	ChannelGroup      string           `json:"channel_group"`
	SelectedSystem    *SystemRef       `json:"selectedSystem"`
	Loading           string           `json:"loading"`
	Grating           ID               `json:"grating"`
	ConcreteChannel   *ConcreteInput   `json:"concreteChannel"`
	ChannelLengthM    float64          `json:"channel_length_m"`
	DrainageAreaM2    float64          `json:"drainage_area_m2"`
	CatchmentAreaM2   float64          `json:"catchment_area_m2"`
	CatchmentShape    string           `json:"catchmentShape"`
	LeftAreas         []AreaInput      `json:"leftAreas"`
	RightAreas        []AreaInput      `json:"rightAreas"`
	Permeability      *float64         `json:"permeability"`
	Rainfall          RainfallInput    `json:"rainfall"`
	SlopeSetting      string           `json:"slopeSetting"`
	GroundSlope       float64          `json:"ground_slope"`
	UpperElevation    *float64         `json:"upperElevation"`
	LowerElevation    *float64         `json:"lowerElevation"`
	Stepped           bool             `json:"stepped"`
	BuiltInFall       bool             `json:"built_in_fall"`
	MinimumSize       float64          `json:"minimumSize"`
	DischargeSetting  string           `json:"dischargeSetting"`
	OutflowTrashbox   ID               `json:"outflowTrashbox"`
	OutflowEndcap     ID               `json:"outflowEndcap"`
	Drilling          *DrillingInput   `json:"drilling"`
	HeadCutting       *CuttingInput    `json:"headCutting"`
	DischargeCutting  *CuttingInput    `json:"dischargeCutting"`
	Channels          ChannelCounts    `json:"channels"`
	AdvancedDesign    *AdvancedDesign  `json:"advanced_design"`
	Inflows           []InflowInput    `json:"inflows"`
	Accessories       []AccessoryInput `json:"accessories"`
	ControlledOutflow float64          `json:"controlled_outflow"`
	// ControlledDetails is the design the controlled discharge dialog
	// confirmed; its channel is the run's channel (see controlled.go).
	ControlledDetails *ControlledDetails `json:"controlled_discharge_details"`

	// Point products (type P).
	PipeDiameterMM   float64  `json:"pipe_diameter_mm"`
	HasBodyExtension bool     `json:"has_body_extension"`
	WaterInflow      float64  `json:"water_inflow"`
	PipeSlope        *float64 `json:"pipe_slope"`
}

// SystemRef is the part of selectedSystem the server reads.
type SystemRef struct {
	Slug string `json:"slug"`
}

// ConcreteInput is concreteChannel: width and depth in whole mm, roughness
// as Manning's n (0 takes the default 0.025).
type ConcreteInput struct {
	Width     float64 `json:"width"`
	Depth     float64 `json:"depth"`
	Roughness float64 `json:"roughness"`
}

// RainfallInput is the run's rainfall. The calculation reads only the
// intensity; the rest says where it came from when the UK rainfall map gave
// it (FSR M5-60 and r at a place, for a return period, storm duration and
// climate allowance), which the documents print beside it.
type RainfallInput struct {
	MMPerHr      float64  `json:"rainfall_mm_per_hr"`
	Town         string   `json:"town"`
	M5           *float64 `json:"M5"`
	R            *float64 `json:"r"`
	ReturnPeriod float64  `json:"return_period"`
	// ClimateFactor is the climate change uplift in per cent (20: +20 %).
	ClimateFactor float64 `json:"climate_change_factor"`
	StormDuration float64 `json:"storm_duration"`
	// Override: M5-60 and r were entered by the designer.
	Override bool `json:"override"`
	// The 5, 15 and 60 minute intensities (mm/h) and the FSR region of
	// the map's answer: a controlled-discharge run sweeps its storms with
	// them, as the dialog did (docs/rainfall.md, section 11.3).
	FiveMinuteRate    float64 `json:"fiveMinuteRate"`
	FifteenMinuteRate float64 `json:"fifteenMinuteRate"`
	SixtyMinuteRate   float64 `json:"sixtyMinuteRate"`
	Region            string  `json:"region"`
}

// AreaInput is an area of an irregular catchment. XOrigin, when absent,
// places the areas of a side one after the other from the head.
type AreaInput struct {
	XOrigin      *float64     `json:"xOrigin"`
	LengthM      float64      `json:"length_m"`
	StartWidthM  float64      `json:"start_width_m"`
	EndWidthM    float64      `json:"end_width_m"`
	Permeability Permeability `json:"permeability"`
	// PermeabilityValue is the numeric value kept beside a named surface.
	PermeabilityValue *float64 `json:"permeability_value"`
}

// InflowInput is a point inflow. DistanceM is measured from the head of the
// run, the same axis as the results' slices.
type InflowInput struct {
	ID            ID      `json:"id"`
	DistanceM     float64 `json:"distance_m"`
	Source        ID      `json:"source"`
	FlowLPS       float64 `json:"flow_lps"`
	Connection    string  `json:"connection"`
	ToBeConfirmed bool    `json:"toBeConfirmed"`
}

// AccessoryInput is a placed accessory. DistanceM is measured from the
// discharge end (0 is the discharge), as the catalogue places them.
type AccessoryInput struct {
	ID            ID      `json:"id"`
	DistanceM     float64 `json:"distance_m"`
	Type          string  `json:"type"`
	ToBeConfirmed bool    `json:"toBeConfirmed"`
	DiameterMM    float64 `json:"diameter_mm"`
	// Product chooses the article: a trash box by its discharge (l/s), an
	// end cap with outlet by its id.
	Product ID `json:"product"`
}

// DrillingInput is the drilling of the last element.
type DrillingInput struct {
	Position       string  `json:"position"`
	HoleDistanceMM float64 `json:"hole_distance_mm"`
	HoleDiameterMM float64 `json:"hole_diameter_mm"`
}

// CuttingInput is a head or discharge cutting of advanced mode.
type CuttingInput struct {
	DistanceMM  float64 `json:"distance_in_mm"`
	AngleDeg    float64 `json:"angle_deg"`
	CutFromLeft bool    `json:"cut_from_left"`
}

// AdvancedDesign is the derived advanced_design of the run. The cuttings
// are read under the run's own names (headCutting) as well.
type AdvancedDesign struct {
	Channels              ChannelCounts  `json:"channels"`
	HeadCutting           *CuttingInput  `json:"head_cutting"`
	DischargeCutting      *CuttingInput  `json:"discharge_cutting"`
	HeadCuttingCamel      *CuttingInput  `json:"headCutting"`
	DischargeCuttingCamel *CuttingInput  `json:"dischargeCutting"`
	Drilling              *DrillingInput `json:"drilling"`
}

// ChannelCount is one channel used in an advanced run, head to outlet.
type ChannelCount struct {
	Slug  string
	Count float64
}

// ChannelCounts is the channels of an advanced run. It reads a list of
// {slug, count} (count may also be called number or used, as in the
// channel entity) or an object of slug to count.
type ChannelCounts []ChannelCount

func (c *ChannelCounts) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*c = nil
		return nil
	case len(b) > 0 && b[0] == '{':
		// An object keeps its keys' order only in the text: read it in order.
		dec := json.NewDecoder(bytes.NewReader(b))
		if _, err := dec.Token(); err != nil {
			return err
		}
		var out ChannelCounts
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			slug, _ := tok.(string)
			var n float64
			if err := dec.Decode(&n); err != nil {
				return typeError("a number", err)
			}
			out = append(out, ChannelCount{Slug: slug, Count: n})
		}
		*c = out
		return nil
	case len(b) > 0 && b[0] == '[':
		var items []struct {
			Slug   string   `json:"slug"`
			Count  *float64 `json:"count"`
			Number *float64 `json:"number"`
			Used   *float64 `json:"used"`
		}
		if err := json.Unmarshal(b, &items); err != nil {
			return err
		}
		out := make(ChannelCounts, 0, len(items))
		for _, it := range items {
			n := 0.0
			for _, v := range []*float64{it.Count, it.Number, it.Used} {
				if v != nil {
					n = *v
					break
				}
			}
			out = append(out, ChannelCount{Slug: it.Slug, Count: n})
		}
		*c = out
		return nil
	}
	return &json.UnmarshalTypeError{Value: jsonKind(b), Type: reflect.TypeFor[[]ChannelCount]()}
}

// ID is an identifier the client may send as a string or as a number (run
// ids, trash box discharges, end cap and grating ids).
type ID string

func (id *ID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*id = ""
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*id = ID(strings.TrimSpace(s))
		return nil
	case len(b) > 0 && (b[0] == '-' || (b[0] >= '0' && b[0] <= '9')):
		*id = ID(b)
		return nil
	}
	return &json.UnmarshalTypeError{Value: jsonKind(b), Type: reflect.TypeFor[string]()}
}

// Number reads the id as a number, for a trash box chosen by discharge.
func (id ID) Number() (float64, bool) {
	v, err := strconv.ParseFloat(string(id), 64)
	return v, err == nil
}

// Permeability is a runoff coefficient sent as a number, or as the name of
// a surface category of the permeability list.
type Permeability struct {
	Value *float64
	Name  string
}

// Surfaces are the permeability options (design-tool.md section 3), by
// name and by category.
var Surfaces = map[string]float64{
	"concrete pavement": 1, "concretepavement": 1,
	"resin surface": 1, "resinsurface": 1,
	"block pavers - cement joints": 1, "bpcement": 1,
	"asphalt":                    0.9,
	"block pavers - sand filled": 0.6, "bpsand": 0.6,
	"gravel": 0.6,
	"façade": 0.5, "facade": 0.5,
	"soft landscape": 0.3, "softlandscape": 0.3,
}

func (p *Permeability) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*p = Permeability{}
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*p = Permeability{Name: strings.TrimSpace(s)}
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return &json.UnmarshalTypeError{Value: jsonKind(b), Type: reflect.TypeFor[float64]()}
	}
	*p = Permeability{Value: &v}
	return nil
}

func typeError(want string, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return te
	}
	return fmt.Errorf("must be %s: %w", want, err)
}

func jsonKind(b []byte) string {
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

// DecodeError is a request body that is not the JSON expected: malformed,
// or a field read by the calculation holding the wrong type.
type DecodeError struct {
	Message string
}

func (e *DecodeError) Error() string { return e.Message }

// DecodeRequest reads a calculation request. Unknown fields are ignored
// (the client sends its whole run object); malformed JSON, trailing data
// and wrong types of the fields read are a *DecodeError.
func DecodeRequest(body []byte) (*Request, error) {
	var r Request
	if err := decodeInto(body, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// decodeInto reads exactly one JSON object into v, ignoring fields the
// calculation does not read.
func decodeInto(body []byte, v any) error {
	err := jsonobject.DecodeBytes(body, v, jsonobject.Lenient)
	var bad *jsonobject.Error
	if errors.As(err, &bad) {
		return &DecodeError{bad.Message}
	}
	return err
}
