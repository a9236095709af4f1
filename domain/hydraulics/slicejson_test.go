package hydraulics

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
)

// plainSlice is a Slice without its MarshalJSON: what encoding/json
// wrote for the profile before it was written by hand.
type plainSlice Slice

// tolerance is how far a number written to the given decimals may read
// back from the original: half the last decimal, and the rounding of
// |v|·10^decimals itself.
func tolerance(v float64, decimals int) float64 {
	return 0.5*math.Pow10(-decimals) + 4*math.Abs(v)*0x1p-52
}

func TestAppendFixed(t *testing.T) {
	cases := []struct {
		v        float64
		decimals int
		want     string // "" where only the tolerance is checked
	}{
		{0, 4, "0"},
		{math.Copysign(0, -1), 4, "0"},
		{1, 4, "1"},
		{-1, 7, "-1"},
		{12, 4, "12"},
		{120, 4, "120"},
		{0.5, 4, "0.5"},
		{0.05, 4, "0.05"},
		{0.005, 4, "0.005"},
		{0.0005, 7, "0.0005"},
		{2994.5, 4, "2994.5"},
		{123.456789, 4, "123.4568"},
		{-123.456789, 4, "-123.4568"},
		{-15.7725, 7, "-15.7725"},
		{-0.8025, 7, "-0.8025"},
		{9.99996, 4, "10"},
		{-9.99996, 4, "-10"},
		{0.99999999, 7, "1"},
		{1.00000004, 7, "1"},
		{1264.065839570802, 4, "1264.0658"},
		{-3.14159265358979, 7, "-3.1415927"},
		{0.00004, 4, "0"},  // tiny: rounds to zero
		{-0.00004, 4, "0"}, // not -0
		{-0.00006, 4, "-0.0001"},
		{4e-8, 7, "0"},
		{6e-8, 7, "0.0000001"},
		{1e-300, 4, "0"},
		{-5e-324, 7, "0"},
		{123456789.12345, 4, "123456789.1235"},
		{9e11, 4, "900000000000"},
		{-900719925474.0991, 4, ""}, // just below 2^53 scaled
		{900719925474.0993, 4, ""},  // just above: shortest form
		{1e15 + 0.25, 4, "1000000000000000.2"},
		{-2.5e20, 7, "-250000000000000000000"},
		{1e21, 4, "1e+21"},
		{-1.5e300, 4, "-1.5e+300"},
		{math.MaxFloat64, 7, ""},
		{-math.MaxFloat64, 4, ""},
	}
	for _, tc := range cases {
		got := string(appendFixed([]byte("x"), tc.v, tc.decimals))
		if !strings.HasPrefix(got, "x") {
			t.Fatalf("%v: %q does not append", tc.v, got)
		}
		got = got[1:]
		if tc.want != "" && got != tc.want {
			t.Errorf("appendFixed(%v, %d) = %q, want %q", tc.v, tc.decimals, got, tc.want)
		}
		checkFixed(t, tc.v, tc.decimals, got)
	}
}

// checkFixed checks that s is v written to the decimals: a JSON number
// (not -0), without a trailing zero after the point, that reads back
// within the rounding.
func checkFixed(t *testing.T, v float64, decimals int, s string) {
	t.Helper()
	if !json.Valid([]byte(s)) {
		t.Fatalf("%v: %q is not JSON", v, s)
	}
	fraction := strings.Contains(s, ".") && !strings.Contains(s, "e")
	if s == "-0" || (fraction && strings.HasSuffix(s, "0")) || strings.HasSuffix(s, ".") {
		t.Errorf("%v: %q has a needless zero or point", v, s)
	}
	got, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%v: %q: %v", v, s, err)
	}
	if d := math.Abs(got - v); d > tolerance(v, decimals) {
		t.Errorf("%v to %d decimals reads back as %v (off by %g)", v, decimals, got, d)
	}
}

// sliceCases are profiles as the engine makes them and at the edges.
var sliceCases = []struct {
	name   string
	slices Slices
}{
	{"ordinary", Slices{
		{DistanceM: 0, FlowLS: 0, DepthMM: 6.040512345, InvertLevelM: -0.8, TopLevelM: 0},
		{DistanceM: 0.5, FlowLS: 0.20833333333333334, DepthMM: 8.173712, InvertLevelM: -0.8025, TopLevelM: -0.0025,
			VelocityMS: 0.05098, Froude: 0.180012},
		{DistanceM: 2999.5, FlowLS: 1249.7916666666667, DepthMM: 907.2771234, InvertLevelM: -15.797500000000001,
			TopLevelM: -14.997499999999999, VelocityMS: 2.7550123, Froude: 0.92351},
	}},
	{"supercritical", Slices{
		{DistanceM: 12.345678, FlowLS: 33.3333, DepthMM: 21.0987654, InvertLevelM: 101.23456789, TopLevelM: 101.63456789,
			VelocityMS: 3.14159265, Froude: 1.61803398, Supercritical: true},
		{DistanceM: 12.845678, FlowLS: 33.4, DepthMM: 48.1, InvertLevelM: 101.23, TopLevelM: 101.63, VelocityMS: 1.2, Froude: 0.9},
	}},
	{"negative", Slices{{DistanceM: -0.25, FlowLS: -1.5e-3, DepthMM: -0.123456, InvertLevelM: -1234.5678901, TopLevelM: -0.0000001,
		VelocityMS: -2.22222, Froude: -1e-9}}},
	{"zero", Slices{{}}},
	{"tiny", Slices{{DistanceM: 1e-5, FlowLS: 4.9e-5, DepthMM: 5e-5, InvertLevelM: 4e-8, TopLevelM: -4e-8, VelocityMS: 5e-324,
		Froude: 1e-300}}},
	{"huge", Slices{{DistanceM: 1e9, FlowLS: 1e15, DepthMM: 2.5e20, InvertLevelM: -1e18, TopLevelM: 1e300,
		VelocityMS: math.MaxFloat64, Froude: 9.007199254740993e15}}},
	{"empty", Slices{}},
	{"none", nil},
}

// decimalsOf gives each field's decimals by its JSON name.
var decimalsOf = map[string]int{
	"distance_m": distanceDecimals, "flow_l_s": flowDecimals, "depth_mm": depthDecimals,
	"invert_level_m": levelDecimals, "top_level_m": levelDecimals, "velocity_m_s": velocityDecimals, "froude": froudeDecimals,
}

// The profile's JSON has the shape encoding/json gave it (the same keys
// in the same order, supercritical only when true, null for no slices)
// and numbers within their rounding of the engine's.
func TestSlicesJSON(t *testing.T) {
	for _, tc := range sliceCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.slices.AppendJSON(nil)
			if err != nil {
				t.Fatal(err)
			}
			checkSlicesJSON(t, tc.slices, got)
			viaMarshal, err := json.Marshal(struct{ S Slices }{tc.slices})
			if err != nil || !bytes.Equal(viaMarshal, []byte(`{"S":`+string(got)+`}`)) {
				t.Errorf("json.Marshal gives %s (%v), AppendJSON %s", viaMarshal, err, got)
			}
		})
	}
}

// checkSlicesJSON checks the encoding of s against encoding/json's of the
// same values at full precision.
func checkSlicesJSON(t *testing.T, s Slices, got []byte) {
	t.Helper()
	if !json.Valid(got) {
		t.Fatalf("not JSON: %s", got)
	}
	var plain []plainSlice
	if s != nil {
		plain = make([]plainSlice, len(s))
		for i := range s {
			plain[i] = plainSlice(s[i])
		}
	}
	want, err := json.Marshal(plain)
	if err != nil {
		t.Fatal(err)
	}
	if keys(t, got) != keys(t, want) {
		t.Errorf("shape\n%s\nwant\n%s", keys(t, got), keys(t, want))
	}
	var back Slices
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if (back == nil) != (s == nil) || len(back) != len(s) {
		t.Fatalf("%d slices read back (nil %v), want %d (nil %v)", len(back), back == nil, len(s), s == nil)
	}
	for i := range s {
		a, b := s[i], back[i]
		for name, pair := range map[string][2]float64{
			"distance_m": {a.DistanceM, b.DistanceM}, "flow_l_s": {a.FlowLS, b.FlowLS}, "depth_mm": {a.DepthMM, b.DepthMM},
			"invert_level_m": {a.InvertLevelM, b.InvertLevelM}, "top_level_m": {a.TopLevelM, b.TopLevelM},
			"velocity_m_s": {a.VelocityMS, b.VelocityMS}, "froude": {a.Froude, b.Froude},
		} {
			if d := math.Abs(pair[1] - pair[0]); d > tolerance(pair[0], decimalsOf[name]) {
				t.Errorf("slice %d %s: %v reads back as %v", i, name, pair[0], pair[1])
			}
		}
		if a.Supercritical != b.Supercritical {
			t.Errorf("slice %d supercritical %v reads back as %v", i, a.Supercritical, b.Supercritical)
		}
	}
}

// keys lists the object keys of a JSON text in order, nested by level.
func keys(t *testing.T, data []byte) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	var sb strings.Builder
	depth, inObject, expectKey := 0, []bool{false}, []bool{false}
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				depth++
				inObject = append(inObject, v == '{')
				expectKey = append(expectKey, v == '{')
				sb.WriteString(string(v))
				continue
			default:
				depth--
				inObject, expectKey = inObject[:len(inObject)-1], expectKey[:len(expectKey)-1]
				sb.WriteString(string(v))
			}
		case string:
			if inObject[depth] && expectKey[depth] {
				sb.WriteString(v + ":")
				expectKey[depth] = false
				continue
			}
		}
		if inObject[depth] {
			expectKey[depth] = true
		}
	}
	return sb.String()
}

// A number without a JSON form fails the encoding as encoding/json fails
// it, rather than writing invalid JSON.
func TestSlicesJSONNotFinite(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for field := range 7 {
			var s Slice
			p := [...]*float64{&s.DistanceM, &s.FlowLS, &s.DepthMM, &s.InvertLevelM, &s.TopLevelM, &s.VelocityMS, &s.Froude}
			*p[field] = v
			_, err := Slices{{DistanceM: 1}, s}.AppendJSON([]byte("x"))
			_, plainErr := json.Marshal(plainSlice(s))
			var ue, plainUE *json.UnsupportedValueError
			if !errors.As(err, &ue) || !errors.As(plainErr, &plainUE) || ue.Str != plainUE.Str {
				t.Errorf("%v in field %d: %v, encoding/json: %v", v, field, err, plainErr)
			}
			if _, err := json.Marshal(Slices{s}); !errors.As(err, &ue) {
				t.Errorf("json.Marshal: %v in field %d: %v", v, field, err)
			}
		}
	}
	// Finite numbers whose sum overflows are still written.
	big := Slices{{DistanceM: math.MaxFloat64, FlowLS: math.MaxFloat64}}
	if got, err := big.AppendJSON(nil); err != nil || !json.Valid(got) {
		t.Errorf("huge finite numbers: %s, %v", got, err)
	}
}

// Any slice encodes as valid JSON that reads back within the rounding, or
// fails as encoding/json does when a number is NaN or infinite.
func FuzzSlicesJSON(f *testing.F) {
	f.Add(0.5, 0.20833333333333334, 8.173712, -0.8025, -0.0025, 0.05098, 0.180012, false)
	f.Add(2999.5, 1249.7916666666667, 907.2771234, -15.797500000000001, -14.997499999999999, 2.7550123, 0.92351, true)
	f.Add(-1e-5, 4.9e-5, -5e-5, 4e-8, -6e-8, 5e-324, -1e-300, false)
	f.Add(1e21, -1e15, 2.5e20, -1e18, 1e300, math.MaxFloat64, 9.007199254740993e15, true)
	f.Add(math.NaN(), 1.0, 2.0, 3.0, math.Inf(1), 0.0, 0.0, false)
	f.Fuzz(func(t *testing.T, distance, flow, depth, invert, top, velocity, froude float64, super bool) {
		s := Slices{{DistanceM: distance, FlowLS: flow, DepthMM: depth, InvertLevelM: invert, TopLevelM: top,
			VelocityMS: velocity, Froude: froude, Supercritical: super}}
		got, err := s.AppendJSON(nil)
		_, plainErr := json.Marshal(plainSlice(s[0]))
		if (err != nil) != (plainErr != nil) {
			t.Fatalf("error %v, encoding/json's %v", err, plainErr)
		}
		if err == nil {
			checkSlicesJSON(t, s, got)
		}
	})
}
