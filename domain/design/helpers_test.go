package design

import (
	"encoding/json"
	"testing"

	"draindesign/domain/catalogue"
)

// exampleBody is the example: a 20 m in-situ concrete channel,
// 100 mm wide and 300 mm deep, n 0.011, level, 144 m² at 50 mm/h (2 l/s),
// free outflow.
const exampleBody = `{"advanced": true, "calculation_method": "GVF", "channel_group": "concrete",
	"concreteChannel": {"width": 100, "depth": 300, "roughness": 0.011}, "channel_length_m": 20,
	"drainage_area_m2": 144, "catchmentShape": "uniform", "permeability": 1,
	"rainfall": {"rainfall_mm_per_hr": 50}, "slopeSetting": "slope", "ground_slope": 0,
	"dischargeSetting": "free-outflow"}`

// standardBody is a standard-mode run of the polymer system.
const standardBody = `{"advanced": false, "channel_group": "poly-100", "loading": "C250",
	"grating": "poly-100-slot-iron", "channel_length_m": 20, "drainage_area_m2": 200,
	"catchmentShape": "uniform", "permeability": 1, "rainfall": {"rainfall_mm_per_hr": 50},
	"slopeSetting": "slope", "ground_slope": 0, "dischargeSetting": "free-outflow"}`

// body parses a JSON body and applies a patch: a nil value deletes the field.
func body(t testing.TB, base string, patch map[string]any) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(base), &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range patch {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	return m
}

// calc decodes and calculates a body.
func calc(t testing.TB, b map[string]any) (*Results, error) {
	t.Helper()
	raw, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	r, err := DecodeRequest(raw)
	if err != nil {
		return nil, err
	}
	a, err := Calculate(catalogue.Default(), r)
	if err != nil {
		return nil, err
	}
	return a.Results, nil
}

func mustCalc(t testing.TB, b map[string]any) *Results {
	t.Helper()
	res, err := calc(t, b)
	if err != nil {
		t.Fatalf("calculation of %v: %v", b, err)
	}
	return res
}
