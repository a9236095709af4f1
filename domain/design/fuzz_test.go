package design

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"testing"

	"draindesign/domain/catalogue"
)

// FuzzCalculateRequest feeds arbitrary bodies to the decoder and the
// calculation: they must never panic, must fail only with the typed errors
// the API maps to a 400, and every answer must encode to JSON (which NaN and
// Inf cannot) with finite numbers throughout. The same bytes go to the
// materials call.
func FuzzCalculateRequest(f *testing.F) {
	seeds := []string{
		exampleBody, standardBody,
		`{"channel_group": "poly-hicap", "loading": "B", "channel_length_m": 120, "drainage_area_m2": 4000, "rainfall": {"rainfall_mm_per_hr": 80}, "calculation_method": "HRW", "ground_slope": 1}`,
		`{"channel_group": "fibre", "loading": "E600", "grating": "fibre-std-slot", "stepped": true, "channel_length_m": 75.3, "drainage_area_m2": 2000, "rainfall": {"rainfall_mm_per_hr": 50}, "ground_slope": 2}`,
		`{"channel_group": "super", "loading": "F900", "grating": "super-slot-iron", "channel_length_m": 33, "drainage_area_m2": 900, "rainfall": {"rainfall_mm_per_hr": 50}, "dischargeSetting": "outflow-in-trashbox", "accessories": [{"type": "access-box", "distance_m": 12}]}`,
		`{"channel_group": "gully-450", "drainage_area_m2": 300, "rainfall": {"rainfall_mm_per_hr": 50}, "pipe_diameter_mm": 200, "has_body_extension": true, "water_inflow": 2}`,
		`{"advanced": true, "channel_group": "poly-100", "loading": "C250", "grating": "poly-100-slot-iron", "channel_length_m": 10, "drainage_area_m2": 100, "rainfall": {"rainfall_mm_per_hr": 50}, "channels": [{"slug": "poly-100-01", "count": 1}, {"slug": "poly-100-02", "count": 9}], "dischargeSetting": "modification-last-element", "drilling": {"position": "bottom", "hole_diameter_mm": 75, "hole_distance_mm": 200}}`,
		`{"advanced": true, "channel_group": "concrete", "concreteChannel": {"width": 200, "depth": 150}, "channel_length_m": 40, "drainage_area_m2": 600, "rainfall": {"rainfall_mm_per_hr": 120}, "catchmentShape": "irregular", "leftAreas": [{"length_m": 40, "start_width_m": 0, "end_width_m": 20, "permeability": "asphalt"}], "rightAreas": [{"xOrigin": 5, "length_m": 10, "start_width_m": 3, "end_width_m": 3, "permeability": 0.3}], "inflows": [{"distance_m": 20, "flow_lps": 4}], "slopeSetting": "elevation", "upperElevation": 10.4, "lowerElevation": 10}`,
		`{"channel_group": "poly-100", "loading": "C250", "grating": "poly-100-slot-iron", "built_in_fall": true, "channel_length_m": 30, "drainage_area_m2": 300, "rainfall": {"rainfall_mm_per_hr": 50}}`,
		`{"profile": {"segments": [{"length_mm": 20500, "slug": "poly-100-10-0"}]}, "loading": "C", "throat": "poly-100-slot-iron"}`,
		`{"channel_length_m": 1e308, "drainage_area_m2": -0, "rainfall": {"rainfall_mm_per_hr": 1e-300}}`,
		`{}`, `[]`, `null`, `{"a":`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	cat := catalogue.Default()
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := DecodeRequest(data)
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("decode error %T %v", err, err)
			}
			return
		}
		ans, err := Calculate(cat, r)
		if err != nil {
			checkError(t, err)
		} else {
			checkAnswer(t, ans)
		}
		if mr, err := DecodeMaterialsRequest(data); err == nil {
			if m, err := Materials(cat, mr); err != nil {
				checkError(t, err)
			} else {
				checkAnswer(t, m)
			}
		}
	})
}

func checkError(t *testing.T, err error) {
	t.Helper()
	var ve *ValidationError
	var lm *LengthMismatchError
	var ce *CalculationError
	if !errors.As(err, &ve) && !errors.As(err, &lm) && !errors.As(err, &ce) {
		t.Fatalf("untyped error %T: %v", err, err)
	}
	if err.Error() == "" {
		t.Fatal("an error without a message")
	}
}

func checkAnswer(t *testing.T, v any) {
	t.Helper()
	if _, err := json.Marshal(v); err != nil {
		t.Fatalf("answer does not encode: %v", err)
	}
	if path, ok := allFinite(reflect.ValueOf(v), "answer"); !ok {
		t.Fatalf("%s is not finite", path)
	}
}

// allFinite walks a value and reports the first float that is NaN or Inf.
func allFinite(v reflect.Value, path string) (string, bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return "", true
		}
		return allFinite(v.Elem(), path)
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		return path, !math.IsNaN(f) && !math.IsInf(f, 0)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			if p, ok := allFinite(v.Field(i), path+"."+v.Type().Field(i).Name); !ok {
				return p, false
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if p, ok := allFinite(v.Index(i), path); !ok {
				return p, false
			}
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			if p, ok := allFinite(v.MapIndex(k), path); !ok {
				return p, false
			}
		}
	}
	return "", true
}

// FuzzCalculateNumbers drives valid-looking runs of every system with
// arbitrary numbers, which the byte-level fuzzer reaches only rarely.
func FuzzCalculateNumbers(f *testing.F) {
	f.Add(uint8(0), 20.0, 144.0, 50.0, 0.0, 100.0, 300.0, 0.011, 10.0, 1.0, uint8(0), false, false)
	f.Add(uint8(1), 60.5, 800.0, 50.0, 0.5, 0.0, 0.0, 0.0, 30.0, 0.0, uint8(1), true, false)
	f.Add(uint8(2), 500.0, 20000.0, 30.0, 3.3, 0.0, 0.0, 0.0, 0.0, 0.0, uint8(2), true, true)
	f.Add(uint8(3), 3000.0, 99999.0, 200.0, 9.9, 5000.0, 10000.0, 0.2, 2999.0, 99999.0, uint8(3), false, false)
	f.Add(uint8(6), 0.1, 0.001, 1e-6, 0.0, 1.0, 1.0, 0.00001, 0.0, 0.0, uint8(0), false, true)
	systems := []string{"concrete", "poly-100", "poly-hicap", "fibre", "super", "big-bls", "steel", "gully-300", "gully-450"}
	gratings := map[string]string{"poly-100": "poly-100-slot-iron", "fibre": "fibre-std-mesh", "super": "super-slot-iron",
		"big-bls": "big-bls-slot", "steel": "steel-bar"}
	loadings := map[string]string{"super": "D400", "big-bls": "LCN50"}
	discharges := []string{"free-outflow", "outflow-in-trashbox", "end-cap-with-outlet", "modification-last-element"}
	cat := catalogue.Default()
	f.Fuzz(func(t *testing.T, sys uint8, length, area, rain, slope, width, depth, n, inflowAt, inflowLPS float64, discharge uint8, stepped, hrw bool) {
		s := systems[int(sys)%len(systems)]
		loading := loadings[s]
		if loading == "" {
			loading = "C250"
		}
		method := "GVF"
		if hrw {
			method = "HRW"
		}
		b := map[string]any{
			"channel_group": s, "loading": loading, "grating": gratings[s], "calculation_method": method,
			"channel_length_m": length, "drainage_area_m2": area, "rainfall": map[string]any{"rainfall_mm_per_hr": rain},
			"ground_slope": slope, "stepped": stepped, "advanced": s == "concrete",
			"concreteChannel":  map[string]any{"width": math.Round(width), "depth": math.Round(depth), "roughness": n},
			"dischargeSetting": discharges[int(discharge)%len(discharges)],
			"inflows":          []map[string]any{{"distance_m": inflowAt, "flow_lps": inflowLPS}},
		}
		raw, err := json.Marshal(b)
		if err != nil {
			return // NaN or Inf: JSON cannot carry them
		}
		r, err := DecodeRequest(raw)
		if err != nil {
			t.Fatalf("decode %s: %v", raw, err)
		}
		ans, err := Calculate(cat, r)
		if err != nil {
			checkError(t, err)
			return
		}
		checkAnswer(t, ans)
	})
}
