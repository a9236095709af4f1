package rainfall

import (
	"errors"
	"math"
	"testing"
)

// The README's Z1 at r = 0.40 must come back exactly at the listed
// durations: everything else in the duration model hangs off these.
func TestZ1ReproducesREADMETableAtR040(t *testing.T) {
	t.Parallel()
	cases := []struct {
		minutes, want float64
	}{
		{5, 0.39}, {10, 0.52}, {15, 0.63}, {30, 0.80}, {60, 1.00}, {120, 1.21},
		{240, 1.45}, {360, 1.60}, {600, 1.79}, {1440, 2.24}, {2880, 2.62},
	}
	for _, c := range cases {
		if got := Z1(0.40, c.minutes); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Z1(0.40, %g min) = %.6f, want %.2f", c.minutes, got, c.want)
		}
	}
}

// The README: the 48-hour factor is close to 1.05 / r for any r.
func TestZ1FortyEightHoursIsAbout105OverR(t *testing.T) {
	t.Parallel()
	for _, r := range []float64{0.10, 0.12, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50} {
		want := 1.05 / r
		if got := Z1(r, 2880); math.Abs(got/want-1) > 0.01 {
			t.Errorf("Z1(%.2f, 48 h) = %.3f, want within 1%% of 1.05/r = %.3f", r, got, want)
		}
	}
}

func TestZ1Shape(t *testing.T) {
	t.Parallel()
	rs := []float64{0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50}
	ds := []float64{1, 2, 5, 7, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 360, 480, 600, 720, 1440, 2160, 2880}
	t.Run("one hour is one by definition", func(t *testing.T) {
		t.Parallel()
		for _, r := range rs {
			if got := Z1(r, 60); math.Abs(got-1) > 1e-12 {
				t.Errorf("Z1(%.2f, 60) = %v", r, got)
			}
		}
	})
	t.Run("depth grows with duration", func(t *testing.T) {
		t.Parallel()
		for _, r := range rs {
			for i := 1; i < len(ds); i++ {
				if Z1(r, ds[i]) <= Z1(r, ds[i-1]) {
					t.Errorf("r %.2f: Z1(%g) = %.4f not above Z1(%g) = %.4f", r, ds[i], Z1(r, ds[i]), ds[i-1], Z1(r, ds[i-1]))
				}
			}
		}
	})
	t.Run("the hourly to daily curve steepens as r falls", func(t *testing.T) {
		t.Parallel()
		for _, d := range ds {
			for i := 1; i < len(rs); i++ {
				lo, hi := Z1(rs[i-1], d), Z1(rs[i], d)
				if d > 60 && lo <= hi {
					t.Errorf("D %g: Z1 at r %.2f (%.3f) not above Z1 at r %.2f (%.3f)", d, rs[i-1], lo, rs[i], hi)
				}
				if d < 60 && lo >= hi {
					t.Errorf("D %g: short-storm Z1 at r %.2f (%.3f) not below r %.2f (%.3f)", d, rs[i-1], lo, rs[i], hi)
				}
			}
		}
	})
	t.Run("NaN outside the ranges", func(t *testing.T) {
		t.Parallel()
		for _, c := range [][2]float64{{0.09, 60}, {0.51, 60}, {0.4, 0.5}, {0.4, 2881}, {math.NaN(), 60}, {0.4, math.NaN()}} {
			if got := Z1(c[0], c[1]); !math.IsNaN(got) {
				t.Errorf("Z1(%v, %v) = %v, want NaN", c[0], c[1], got)
			}
		}
	})
}

// The README's 10-year England and Wales growth against M5-D depth.
func TestZ2ReproducesREADMETenYearColumn(t *testing.T) {
	t.Parallel()
	cases := []struct{ depth, want float64 }{
		{5, 1.19}, {10, 1.22}, {15, 1.24}, {20, 1.24}, {25, 1.24}, {30, 1.22},
		{40, 1.19}, {50, 1.17}, {75, 1.15}, {100, 1.14},
	}
	for _, c := range cases {
		for _, region := range []Region{EnglandWales, Scotland, NorthernIreland} {
			if got := Z2(c.depth, 10, region); math.Abs(got-c.want) > 1e-9 {
				t.Errorf("Z2(%g mm, 10 y, %s) = %.6f, want %.2f", c.depth, region, got, c.want)
			}
		}
	}
}

func TestZ2Shape(t *testing.T) {
	t.Parallel()
	depths := []float64{1, 5, 12, 20, 33, 60, 100, 150}
	periods := []float64{1, 1.5, 2, 3, 5, 10, 20, 30, 50, 100, 200}
	for _, d := range depths {
		if got := Z2(d, 5, EnglandWales); math.Abs(got-1) > 1e-12 {
			t.Errorf("Z2(%g mm, 5 y) = %v; the 5-year growth is 1 by definition", d, got)
		}
		for i := 1; i < len(periods); i++ {
			if Z2(d, periods[i], EnglandWales) <= Z2(d, periods[i-1], EnglandWales) {
				t.Errorf("Z2(%g mm) does not rise from %g to %g years", d, periods[i-1], periods[i])
			}
		}
	}
	// Gumbel through (5 y, 1) and (10 y, G10): at 100 years and 20 mm,
	// 1 + 0.24 (y100 - y5) / (y10 - y5) with y = -ln(-ln(1 - 1/T)).
	y := func(T float64) float64 { return -math.Log(-math.Log(1 - 1/T)) }
	want := 1 + 0.24*(y(100)-y(5))/(y(10)-y(5))
	if got := Z2(20, 100, EnglandWales); math.Abs(got-want) > 1e-12 || math.Abs(got-1.99) > 0.01 {
		t.Errorf("Z2(20 mm, 100 y) = %.4f, want %.4f (about 1.99)", got, want)
	}
	for _, bad := range []struct {
		d, T float64
		r    Region
	}{{0, 10, EnglandWales}, {20, 0.5, EnglandWales}, {20, 201, EnglandWales}, {20, 10, "Wales"}} {
		if got := Z2(bad.d, bad.T, bad.r); !math.IsNaN(got) {
			t.Errorf("Z2(%v, %v, %q) = %v, want NaN", bad.d, bad.T, bad.r, got)
		}
	}
}

// The FSR's own worked example (Sheffield, M5-60 20.5 mm, r 0.40, 6 hours):
// M5-2day = 20.5 / 0.4 = 51.3 mm and Z1 = 0.64 of it give M5-6h = 32.8 mm.
// Our Z1 is relative to M5-60, so 20.5 x Z1(0.40, 6 h) must give the same.
func TestSheffieldWorkedExample(t *testing.T) {
	t.Parallel()
	m5d := 20.5 * Z1(0.40, 360)
	if math.Abs(m5d-32.8) > 0.05 {
		t.Fatalf("M5-6h = %.2f mm, the FSR example has 32.8 mm", m5d)
	}
	if fsr := 20.5 / 0.4 * 0.64; math.Abs(m5d-fsr) > 0.05 {
		t.Fatalf("M5-6h = %.2f mm, M5-2day x 0.64 = %.2f mm", m5d, fsr)
	}
	// 10-year depth: Z2 at 32.8 mm lies between the 30 and 40 mm rows.
	got := Depth(20.5, 0.40, 360, 10, 0, EnglandWales)
	want := 32.8 * (1.22 + (32.8-30)/10*(1.19-1.22))
	if math.Abs(got-want) > 0.05 {
		t.Fatalf("M10-6h = %.2f mm, want %.2f", got, want)
	}
}

// Intensities fall with duration and rise with return period and climate
// change, over the whole accepted range of M5-60 and r.
func TestIntensityMonotone(t *testing.T) {
	t.Parallel()
	ds := []float64{1, 2, 5, 10, 15, 30, 60, 120, 240, 480, 720, 1440, 2880}
	ts := []float64{1, 2, 5, 10, 30, 100, 200}
	ccs := []float64{0, 5, 10, 15, 20, 30, 40, 100}
	for _, m5 := range []float64{5, 12, 20.5, 30, 40} {
		for _, r := range []float64{0.10, 0.12, 0.25, 0.40, 0.45, 0.50} {
			for _, region := range []Region{EnglandWales, Scotland, NorthernIreland} {
				for _, T := range ts {
					for i := 1; i < len(ds); i++ {
						a, b := Intensity(m5, r, ds[i-1], T, 0, region), Intensity(m5, r, ds[i], T, 0, region)
						if !(b < a) {
							t.Fatalf("M5 %g r %g T %g: %g min %.3f mm/h, %g min %.3f mm/h; should fall", m5, r, T, ds[i-1], a, ds[i], b)
						}
					}
				}
				for _, d := range ds {
					for i := 1; i < len(ts); i++ {
						a, b := Intensity(m5, r, d, ts[i-1], 0, region), Intensity(m5, r, d, ts[i], 0, region)
						if !(b > a) {
							t.Fatalf("M5 %g r %g D %g: %g y %.3f, %g y %.3f; should rise", m5, r, d, ts[i-1], a, ts[i], b)
						}
					}
					for i := 1; i < len(ccs); i++ {
						a, b := Intensity(m5, r, d, 30, ccs[i-1], region), Intensity(m5, r, d, 30, ccs[i], region)
						if !(b > a) {
							t.Fatalf("M5 %g r %g D %g: climate %g%% %.3f, %g%% %.3f; should rise", m5, r, d, ccs[i-1], a, ccs[i], b)
						}
					}
				}
			}
		}
	}
}

func TestClimateFactorMultiplies(t *testing.T) {
	t.Parallel()
	base := Intensity(19, 0.38, 30, 30, 0, EnglandWales)
	for _, cc := range []float64{5, 10, 15, 20, 30, 40} {
		if got, want := Intensity(19, 0.38, 30, 30, cc, EnglandWales), base*(1+cc/100); math.Abs(got-want) > 1e-9 {
			t.Errorf("climate %g%%: %.6f mm/h, want %.6f", cc, got, want)
		}
	}
}

func TestIntensityIsDepthOverDuration(t *testing.T) {
	t.Parallel()
	for _, d := range []float64{5, 60, 600} {
		depth := Depth(20, 0.4, d, 30, 20, EnglandWales)
		if got := Intensity(20, 0.4, d, 30, 20, EnglandWales); math.Abs(got-depth*60/d) > 1e-9 {
			t.Errorf("D %g: intensity %.4f, depth %.4f mm", d, got, depth)
		}
	}
	if got := Intensity(4.9, 0.4, 60, 30, 0, EnglandWales); !math.IsNaN(got) {
		t.Errorf("M5 below range gives %v, want NaN", got)
	}
}

func TestSeries(t *testing.T) {
	t.Parallel()
	ds := []float64{5, 15, 60, 360}
	got, err := Series(20.5, 0.4, EnglandWales, 30, 20, ds)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range ds {
		if want := Intensity(20.5, 0.4, d, 30, 20, EnglandWales); got[i] != want {
			t.Errorf("Series[%d] = %v, Intensity = %v", i, got[i], want)
		}
	}
	bad := []struct {
		name   string
		m5, r  float64
		region Region
		T, cc  float64
		ds     []float64
		field  string
	}{
		{"M5 low", 4, 0.4, EnglandWales, 30, 0, ds, "M5"},
		{"M5 high", 41, 0.4, EnglandWales, 30, 0, ds, "M5"},
		{"r low", 20, 0.09, EnglandWales, 30, 0, ds, "r"},
		{"r high", 20, 0.51, EnglandWales, 30, 0, ds, "r"},
		{"r NaN", 20, math.NaN(), EnglandWales, 30, 0, ds, "r"},
		{"return period low", 20, 0.4, EnglandWales, 0.5, 0, ds, "returnPeriod"},
		{"return period high", 20, 0.4, EnglandWales, 201, 0, ds, "returnPeriod"},
		{"climate negative", 20, 0.4, EnglandWales, 30, -5, ds, "climateFactor"},
		{"climate high", 20, 0.4, EnglandWales, 30, 101, ds, "climateFactor"},
		{"duration short", 20, 0.4, EnglandWales, 30, 0, []float64{5, 0.5}, "stormDuration"},
		{"duration long", 20, 0.4, EnglandWales, 30, 0, []float64{2881}, "stormDuration"},
		{"region", 20, 0.4, "Wales", 30, 0, ds, "region"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := Series(c.m5, c.r, c.region, c.T, c.cc, c.ds)
			var ie *InputError
			if !errors.As(err, &ie) || ie.Field != c.field {
				t.Fatalf("err = %v, want an *InputError for %s", err, c.field)
			}
		})
	}
}
