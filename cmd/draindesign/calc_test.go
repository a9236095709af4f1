package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"draindesign/domain/catalogue"
	"draindesign/domain/design"
)

const exampleCalc = `{"advanced": true, "calculation_method": "GVF", "channel_group": "concrete",
	"concreteChannel": {"width": 100, "depth": 300, "roughness": 0.011}, "channel_length_m": 20,
	"drainage_area_m2": 144, "catchmentShape": "uniform", "permeability": 1,
	"rainfall": {"rainfall_mm_per_hr": 50}, "slopeSetting": "slope", "ground_slope": 0,
	"dischargeSetting": "free-outflow"}`

// `calc` prints, indented, the answer POST /api/drainage/calculate/ gives
// for the same body: from a file or from standard input.
func TestCalcCommand(t *testing.T) {
	file := filepath.Join(t.TempDir(), "run.json")
	if err := os.WriteFile(file, []byte(exampleCalc), 0o600); err != nil {
		t.Fatal(err)
	}
	req, err := design.DecodeRequest([]byte(exampleCalc))
	if err != nil {
		t.Fatal(err)
	}
	ans, err := design.Calculate(catalogue.Default(), req)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.MarshalIndent(ans, "", "  ")

	for _, args := range [][]string{{"calc", file}, {"calc", "-"}, {"calc"}} {
		stdin = strings.NewReader(exampleCalc)
		var out bytes.Buffer
		if err := run(context.Background(), args, &out); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if got := bytes.TrimSpace(out.Bytes()); !bytes.Equal(got, want) {
			t.Errorf("%v printed\n%.300s\nwant\n%.300s", args, got, want)
		}
		var a struct {
			Results struct {
				Calculated, Overflowed, WentSuperCritical bool
				ChannelDischarge                          float64 `json:"channel_discharge"`
				Segments                                  []struct {
					Slices []struct {
						DistanceM float64 `json:"distance_m"`
						FlowLS    float64 `json:"flow_l_s"`
						DepthMM   float64 `json:"depth_mm"`
					} `json:"slices"`
				} `json:"segments"`
			} `json:"results"`
		}
		if err := json.Unmarshal(out.Bytes(), &a); err != nil {
			t.Fatal(err)
		}
		if !a.Results.Calculated || a.Results.Overflowed || math.Abs(a.Results.ChannelDischarge-2) > 1e-9 || len(a.Results.Segments[0].Slices) != 41 {
			t.Errorf("%v: %+v", args, a.Results)
		}
	}
	stdin = os.Stdin

	bad := []struct {
		args  []string
		input string
		want  string
	}{
		{[]string{"calc", filepath.Join(t.TempDir(), "missing.json")}, "", "no such file"},
		{[]string{"calc", "-"}, `{"advanced": true}`, "Please select a drainage system"},
		{[]string{"calc", "-"}, `{"channel_length_m": "x"}`, `Field "channel_length_m" must be a number`},
		{[]string{"calc", "a", "b"}, "", "usage"},
	}
	for _, tc := range bad {
		stdin = strings.NewReader(tc.input)
		err := run(context.Background(), tc.args, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.want)
		}
	}
	stdin = os.Stdin
}
