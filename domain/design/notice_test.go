package design

import (
	"math"
	"testing"
)

// The results describe the catchment as the calculation took it: a
// uniform catchment as two rectangles of half the area each, an irregular
// one as its trapezia (area = length × mean width), each with its runoff
// coefficient, so a plan drawing needs no arithmetic of its own.
func TestResultsDescribeTheCatchment(t *testing.T) {
	type m = map[string]any
	uni := mustCalc(t, body(t, exampleBody, nil))
	if len(uni.Catchment) != 2 {
		t.Fatalf("uniform catchment in %d pieces, want 2", len(uni.Catchment))
	}
	for i, side := range []string{SideLeft, SideRight} {
		c := uni.Catchment[i]
		// 144 m² along 20 m: 72 m² a side, 3.6 m wide.
		if c.Side != side || c.LengthM != 20 || c.StartWidthM != 3.6 || c.EndWidthM != 3.6 || c.AreaM2 != 72 || c.Permeability != 1 {
			t.Errorf("uniform piece %d = %+v", i, c)
		}
	}

	irr := mustCalc(t, body(t, exampleBody, m{"catchmentShape": "irregular",
		"leftAreas":  []m{{"length_m": 20, "start_width_m": 0, "end_width_m": 10, "permeability": "asphalt"}},
		"rightAreas": []m{{"xOrigin": 5, "length_m": 10, "start_width_m": 3, "end_width_m": 3, "permeability": 0.3}},
	}))
	want := []CatchmentPiece{
		{Side: SideLeft, XOriginM: 0, LengthM: 20, StartWidthM: 0, EndWidthM: 10, Permeability: 0.9, AreaM2: 100},
		{Side: SideRight, XOriginM: 5, LengthM: 10, StartWidthM: 3, EndWidthM: 3, Permeability: 0.3, AreaM2: 30},
	}
	if len(irr.Catchment) != len(want) {
		t.Fatalf("irregular catchment = %+v", irr.Catchment)
	}
	for i, w := range want {
		if g := irr.Catchment[i]; g != w {
			t.Errorf("irregular piece %d = %+v, want %+v", i, g, w)
		}
	}
}

// Every English warning has a notice with its code and values, so that a
// document can word it in its own language.
func TestWarningsComeWithNotices(t *testing.T) {
	type m = map[string]any
	res := mustCalc(t, body(t, exampleBody, m{"channel_length_m": 520, "drainage_area_m2": 1000}))
	if len(res.Notices) != len(res.Warnings) {
		t.Fatalf("notices %+v for warnings %q", res.Notices, res.Warnings)
	}
	var long *Notice
	for i := range res.Notices {
		if res.Notices[i].Code == NoticeLongRun {
			long = &res.Notices[i]
		}
	}
	if long == nil {
		t.Fatalf("no long-run notice in %+v", res.Notices)
	}
	if long.Values["limit"] != LengthWarningM || math.Abs(long.Values["over"].(float64)-20) > 1e-9 {
		t.Errorf("long-run notice values %v, want limit 500 and over 20", long.Values)
	}
}
