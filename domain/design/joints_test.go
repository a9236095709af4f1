package design

import (
	"encoding/json"
	"slices"
	"testing"
)

// series is n values from `from` in steps of 1 (m): the joints of 1 m
// elements.
func series(from float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = from + float64(i)
	}
	return out
}

// Each segment lists where its elements meet. The poly-100 elements are
// 1 m long (catalogue), so a 20 m single-size run has joints at 1 … 19 m;
// the stepped 60.5 m run of TestStandardStepped lays 20 Type 0.0 (0–20 m),
// 8 Type 10.0 (20–28 m) and 33 Type 20.0 (28–60.5 m, the last cut to
// 0.5 m), whose size steps at 20 and 28 m are segment boundaries, not
// joints inside a segment.
func TestSegmentJoints(t *testing.T) {
	t.Parallel()
	stepped := `{"channel_group": "poly-100", "loading": "C250", "grating": "poly-100-slot-iron", "channel_length_m": 60.5,
		"drainage_area_m2": 800, "rainfall": {"rainfall_mm_per_hr": 50}, "stepped": true, "ground_slope": 0.5}`
	cases := []struct {
		name string
		body map[string]any
		want [][]float64
	}{
		{"single size", body(t, standardBody, nil), [][]float64{series(1, 19)}},
		{"stepped", body(t, stepped, nil), [][]float64{series(1, 19), series(21, 7), series(29, 32)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res := mustCalc(t, c.body)
			if len(res.Segments) != len(c.want) {
				t.Fatalf("%d segments, want %d", len(res.Segments), len(c.want))
			}
			for i, s := range res.Segments {
				if !slices.Equal(s.JointsM, c.want[i]) {
					t.Errorf("segment %d (%s): joints %v, want %v", i, s.Description, s.JointsM, c.want[i])
				}
			}
			sum, err := Summary(res)
			if err != nil {
				t.Fatal(err)
			}
			var kept []map[string]any
			if err := json.Unmarshal(sum["segments"], &kept); err != nil {
				t.Fatal(err)
			}
			for i, s := range kept {
				if _, ok := s["joints_m"]; ok {
					t.Errorf("summary segment %d keeps its joints: the project stream gets only the summary", i)
				}
			}
		})
	}
}
