package project

import "testing"

func TestFreeboardMargin(t *testing.T) {
	t.Parallel()
	num := func(v float64) *float64 { return &v }
	tests := []struct {
		name         string
		s            Settings
		freeboardMM  float64
		freeboardPct float64
		low          bool
	}{
		// A 150 mm deep channel 97.3 % full: 4 mm, 2.7 % (issue 10's example).
		{"defaults: nearly full", Settings{}, 4, 2.7, true},
		{"defaults: 1 mm left", Settings{}, 1, 0.3, true},
		{"defaults: ample", Settings{}, 60, 40, false},
		{"defaults: 20 mm is enough", Settings{}, 20, 13.3, false},
		{"defaults: deep channel, 25 mm is under 10 %", Settings{}, 25, 8.3, true},
		{"project's own margin", Settings{FreeboardMinMM: num(50), FreeboardMinPercent: num(0)}, 45, 30, true},
		{"percent test off", Settings{FreeboardMinPercent: num(0)}, 25, 8.3, false},
		{"both off", Settings{FreeboardMinMM: num(0), FreeboardMinPercent: num(0)}, 0.5, 0.1, false},
		{"flooded", Settings{}, -10, -5, true},
	}
	for _, tc := range tests {
		if got := tc.s.FreeboardMargin().Low(tc.freeboardMM, tc.freeboardPct); got != tc.low {
			t.Errorf("%s: Low(%v mm, %v %%) = %v, want %v", tc.name, tc.freeboardMM, tc.freeboardPct, got, tc.low)
		}
	}
}

// A project without a margin of its own keeps the documented defaults.
func TestFreeboardMarginDefaults(t *testing.T) {
	t.Parallel()
	m := Settings{}.FreeboardMargin()
	if m.MinMM != 20 || m.MinPercent != 10 {
		t.Errorf("default margin %+v, want 20 mm and 10 %%", m)
	}
}
