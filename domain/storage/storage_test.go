package storage

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image/png"
	"math"
	"slices"
	"testing"

	"draindesign/domain/catalogue"
	"draindesign/domain/rainfall"
)

// An outflow at the free discharge (area × intensity / 3600 × permeability)
// holds back no storm: with tc the design storm's duration, no storm of the
// sweep brings more than the free discharge, so the storage is about nil:
// under 1 % of the design storm's runoff (the spec's rounding of the free
// discharge to 0.1 l/s can leave it a little below the peak inflow).
func TestFreeDischargeNeedsNoStorage(t *testing.T) {
	for _, c := range []struct {
		area, length, perm float64
	}{{1500, 50, 1}, {300, 50, 1}, {5000, 120, 0.6}, {800, 20, 0.9}} {
		req := typical(t)
		req.CatchmentAreaM2, req.ChannelLengthM, req.Permeability = c.area, c.length, c.perm
		req.ControlledOutflowLS = 1e6 // held to the free discharge
		d := mustCalc(t, req)
		free := round(c.area*req.Rainfall.MMPerHour/3600*c.perm, 1)
		if d.res.FreeDischargeLS != free || d.res.ControlledOutflowLS != free {
			t.Errorf("%+v: free %g, controlled %g l/s, want both %g", c, d.res.FreeDischargeLS, d.res.ControlledOutflowLS, free)
		}
		runoff := c.area * c.perm * req.Rainfall.MMPerHour / 1000 * req.Rainfall.StormMin / 60
		if d.res.StorageNeededM3 > 0.01*runoff || d.res.Flooded || d.res.Restricted {
			t.Errorf("%+v: at the free discharge the run stores %.3f m³ of %.1f m³ runoff, flooded %v, restricted %v",
				c, d.res.StorageNeededM3, runoff, d.res.Flooded, d.res.Restricted)
		}
	}
}

// A nearly shut outlet floods any run of the range.
func TestNearZeroOutflowFloods(t *testing.T) {
	for _, area := range []float64{300, 1500, 20000} {
		req := typical(t)
		req.CatchmentAreaM2, req.ControlledOutflowLS = area, 0.1
		d := mustCalc(t, req)
		if !d.res.Flooded || d.res.FloodVolumeM3 <= 0 || d.res.MinimumFreeBoardM != 0 {
			t.Errorf("%g m² at 0.1 l/s: flooded %v, flood %.3f m³, free board %g m", area, d.res.Flooded, d.res.FloodVolumeM3, d.res.MinimumFreeBoardM)
		}
		if d.res.Channel != "poly-hicap-250-750" {
			t.Errorf("%g m² at 0.1 l/s: flooded in %s, want the largest store", area, d.res.Channel)
		}
		if d.res.StorageNeededM3 <= d.res.ChannelCapacityM3 {
			t.Errorf("%g m²: needs %.3f m³ but flooded a channel holding %.3f", area, d.res.StorageNeededM3, d.res.ChannelCapacityM3)
		}
	}
}

// For typical runs the storm that needs the most storage is neither the
// shortest nor the longest of the sweep: short storms bring too little
// water, long ones too slowly for the outflow to fall behind.
func TestCriticalDurationIsInterior(t *testing.T) {
	for _, c := range []struct {
		length, area, q float64
		channel         string
	}{
		{50, 1500, 5, ""},
		{50, 1500, 5, "poly-hicap-150-300"},
		{50, 300, 2, ""},
		{100, 800, 3, ""},
		{30, 500, 1, "poly-hicap-250-750"},
		{200, 4000, 20, ""},
	} {
		req := typical(t)
		req.ChannelLengthM, req.CatchmentAreaM2, req.ControlledOutflowLS, req.Channel = c.length, c.area, c.q, c.channel
		d := mustCalc(t, req)
		crit := d.res.CriticalDurationMin
		if crit == Durations[0] || crit == Durations[len(Durations)-1] {
			t.Errorf("%+v: critical duration %g min is an end of the sweep", c, crit)
		}
		for _, s := range d.res.Storms {
			if s.StorageNeededM3 > d.res.StorageNeededM3 {
				t.Errorf("%+v: the %g min storm needs %.3f m³, more than the critical %g min (%.3f)", c, s.DurationMin, s.StorageNeededM3, crit, d.res.StorageNeededM3)
			}
		}
	}
}

// A tighter limit never needs less storage, in the same channel.
func TestTighterOutflowNeedsMoreStorage(t *testing.T) {
	for _, ch := range []string{"poly-hicap-150-600", "poly-hicap-250-750"} {
		prev := math.Inf(1)
		for _, q := range []float64{0.1, 0.5, 1, 2, 3, 5, 8, 12, 20} {
			req := typical(t)
			req.CatchmentAreaM2, req.ControlledOutflowLS, req.Channel = 600, q, ch
			d := mustCalc(t, req)
			need := d.sweep.storms[d.sweep.critical].needed
			if need > prev*(1+1e-9) {
				t.Errorf("%s: %g l/s needs %.4f m³, more than a tighter limit's %.4f", ch, q, need, prev)
			}
			prev = need
		}
	}
}

// The orifice passes the controlled outflow at the highest water of the
// critical storm, by the orifice law (drowned: Cd·πd²/4·√(2g(h − d/2))),
// and no storm lets more out.
func TestOrificePassesLimitAtCriticalHead(t *testing.T) {
	for _, c := range []struct{ area, q float64 }{{300, 1}, {300, 2}, {600, 3}, {1500, 5}, {1500, 12}} {
		req := typical(t)
		req.CatchmentAreaM2, req.ControlledOutflowLS = c.area, c.q
		d := mustCalc(t, req)
		r := d.res
		if !r.Restricted {
			t.Fatalf("%+v: not restricted (%s)", c, r.Note)
		}
		h, dm := r.MaxWaterDepthM, r.OrificeDiameterMM/1000
		if h < dm {
			t.Fatalf("%+v: orifice %g mm not drowned at %g m", c, r.OrificeDiameterMM, h)
		}
		law := 1000 * Cd * math.Pi * dm * dm / 4 * math.Sqrt(2*9.81*(h-dm/2))
		if !near(law, c.q, 0.005) {
			t.Errorf("%+v: a %.1f mm orifice at %.4f m passes %.4f l/s, want %g", c, r.OrificeDiameterMM, h, law, c.q)
		}
		if r.PeakOutflowLS > c.q*(1+1e-4) {
			t.Errorf("%+v: peak outflow %.4f l/s above the limit", c, r.PeakOutflowLS)
		}
		if want := r.ChannelCapacityM3; r.Flooded != (r.StorageNeededM3 > want) {
			t.Errorf("%+v: flooded %v with %.3f m³ needed of %.3f", c, r.Flooded, r.StorageNeededM3, want)
		}
	}
}

// Without a channel picked by hand the first channel, in standard mode's
// single-size order, that holds the critical storm is chosen: every
// channel before it floods.
func TestChannelChoice(t *testing.T) {
	cat := catalogue.Default()
	order, err := cat.Candidates(catalogue.CandidateRequest{System: "poly-hicap", Loading: "D400", RunLengthM: 50, Configuration: catalogue.SingleSize})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		area, q float64
		want    string
	}{
		{300, 2, "poly-hicap-150-600"},
		{300, 1, "poly-hicap-250-650"},
		{100, 1, ""},
	} {
		req := typical(t)
		req.CatchmentAreaM2, req.ControlledOutflowLS = c.area, c.q
		d := mustCalc(t, req)
		if c.want != "" && d.res.Channel != c.want {
			t.Errorf("%+v: chose %s, want %s", c, d.res.Channel, c.want)
		}
		if d.res.Flooded {
			t.Fatalf("%+v: flooded", c)
		}
		for _, cand := range order {
			slug := cand.Parts[0].Slug
			if slug == d.res.Channel {
				break
			}
			req.Channel = slug
			if e := mustCalc(t, req); !e.res.Flooded {
				t.Errorf("%+v: %s comes first and does not flood, yet %s was chosen", c, slug, d.res.Channel)
			}
		}
	}
}

// The FSR curve of the sweep is the rainfall model's; without M5-60 and r
// the curve passes through the three rates exactly.
func TestRainfallCurve(t *testing.T) {
	rf := leeds(t)
	cv, err := rf.curve()
	if err != nil {
		t.Fatal(err)
	}
	want, err := rainfall.Series(rf.M5, rf.R, rf.Region, 30, 0, Durations)
	if err != nil || !cv.fsr || !slices.Equal(cv.intensity, want) {
		t.Fatalf("FSR curve %v (fsr %v), want rainfall.Series %v (%v)", cv.intensity, cv.fsr, want, err)
	}
	rf.M5, rf.R = 0, 0
	cv, err = rf.curve()
	if err != nil || cv.fsr {
		t.Fatalf("rates curve: %v, fsr %v", err, cv.fsr)
	}
	for _, p := range []struct{ d, want float64 }{{5, rf.R5}, {15, rf.R15}, {60, rf.R60}} {
		i := slices.Index(Durations, p.d)
		if !near(cv.intensity[i], p.want, 1e-12) {
			t.Errorf("rates curve at %g min: %g mm/h, want %g", p.d, cv.intensity[i], p.want)
		}
	}
	for i := 1; i < len(Durations); i++ {
		if cv.intensity[i] >= cv.intensity[i-1] || cv.intensity[i]*Durations[i] < cv.intensity[i-1]*Durations[i-1] {
			t.Errorf("rates curve at %g min: %g mm/h after %g: intensity must fall, depth not", Durations[i], cv.intensity[i], cv.intensity[i-1])
		}
	}
	// Past the hour the rates curve is above the FSR one: conservative.
	if i := len(Durations) - 1; !(cv.intensity[i] > want[i]) {
		t.Errorf("48 h: rates curve %g mm/h, FSR %g: extrapolation not conservative", cv.intensity[i], want[i])
	}
	req := typical(t)
	req.Rainfall = rf
	if d := mustCalc(t, req); d.res.RainfallCurve != "rates" {
		t.Errorf("answer says %q", d.res.RainfallCurve)
	}
}

// Every refusal names its field (spec section 5: length, area, intensity,
// storm duration, r5, r15, r60 all above 0; controlled discharge only for
// the high-capacity system).
func TestValidation(t *testing.T) {
	for _, c := range []struct {
		field string
		edit  func(*Request)
	}{
		{"channel_length_m", func(r *Request) { r.ChannelLengthM = 0 }},
		{"channel_length_m", func(r *Request) { r.ChannelLengthM = 3001 }},
		{"catchment_area_m2", func(r *Request) { r.CatchmentAreaM2 = -1 }},
		{"catchment_area_m2", func(r *Request) { r.CatchmentAreaM2 = 100000 }},
		{"catchment_area_m2", func(r *Request) { r.CatchmentAreaM2 = math.NaN() }},
		{"rainfall.rainfall_mm_per_hr", func(r *Request) { r.Rainfall.MMPerHour = 0 }},
		{"rainfall.storm_duration", func(r *Request) { r.Rainfall.StormMin = 0 }},
		{"rainfall.storm_duration", func(r *Request) { r.Rainfall.StormMin = 3000 }},
		{"rainfall.fiveMinuteRate", func(r *Request) { r.Rainfall.R5 = 0 }},
		{"rainfall.fifteenMinuteRate", func(r *Request) { r.Rainfall.R15 = 0 }},
		{"rainfall.sixtyMinuteRate", func(r *Request) { r.Rainfall.R60 = math.Inf(1) }},
		{"permeability", func(r *Request) { r.Permeability = 0 }},
		{"permeability", func(r *Request) { r.Permeability = 1.1 }},
		{"controlled_outflow", func(r *Request) { r.ControlledOutflowLS = 0 }},
		{"controlled_outflow", func(r *Request) { r.ControlledOutflowLS = 0.04 }},
		{"ground_slope", func(r *Request) { r.GroundSlopePct = -0.5 }},
		{"rainfall.r", func(r *Request) { r.Rainfall.R = 0 }},
		{"rainfall.M5", func(r *Request) { r.Rainfall.M5 = 50 }},
		{"rainfall.return_period", func(r *Request) { r.Rainfall.ReturnPeriod = 0 }},
		{"rainfall.climate_change_factor", func(r *Request) { r.Rainfall.ClimatePct = 200 }},
		{"rainfall", func(r *Request) { r.Rainfall.M5, r.Rainfall.R, r.Rainfall.R15 = 0, 0, r.Rainfall.R5*2 }},
		{"rainfall", func(r *Request) { r.Rainfall.M5, r.Rainfall.R, r.Rainfall.R60 = 0, 0, r.Rainfall.R15/5 }},
		{"channel_group", func(r *Request) { r.System = "poly-100" }},
		{"channel_group", func(r *Request) { r.System = "no-such" }},
		{"channel_group", func(r *Request) { r.Country = "AU" }},
		{"channel", func(r *Request) { r.Channel = "poly-100-0" }},
		{"loading", func(r *Request) { r.Loading = "F900" }},
		{"minimum_size_mm", func(r *Request) { r.MinimumSizeMM = 300 }},
	} {
		req := typical(t)
		c.edit(&req)
		_, err := Calculate(catalogue.Default(), req)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != c.field {
			t.Errorf("%s: got %v, want an *InputError on %s", c.field, err, c.field)
		}
	}
	req := typical(t)
	req.System, req.Country, req.Loading, req.MinimumSizeMM = "poly-hicap", "GB", "B", 250
	if d := mustCalc(t, req); d.channel.WidthMM != 250 {
		t.Errorf("minimum size 250: chose %s", d.channel.Slug)
	}
}

// A sloped run ponds only at its low end, so it holds less and needs a
// larger channel or floods sooner.
func TestSlopeReducesCapacity(t *testing.T) {
	req := typical(t)
	req.CatchmentAreaM2, req.ControlledOutflowLS, req.Channel = 300, 2, "poly-hicap-150-600"
	level := mustCalc(t, req)
	req.GroundSlopePct = 0.5
	sloped := mustCalc(t, req)
	if !(sloped.res.ChannelCapacityM3 < level.res.ChannelCapacityM3) {
		t.Errorf("capacity at 0.5 %%: %.3f m³, level %.3f", sloped.res.ChannelCapacityM3, level.res.ChannelCapacityM3)
	}
	if !(sloped.res.MaxWaterDepthM > level.res.MaxWaterDepthM) {
		t.Errorf("highest water at 0.5 %%: %.4f m, level %.4f", sloped.res.MaxWaterDepthM, level.res.MaxWaterDepthM)
	}
}

// Both images are PNGs of the documented size, and every label they carry
// is in the font.
func TestImages(t *testing.T) {
	for _, q := range []float64{0.1, 2, 1e6} {
		req := typical(t)
		req.CatchmentAreaM2, req.ControlledOutflowLS = 300, q
		d := mustCalc(t, req)
		for _, img := range []struct {
			name string
			b64  string
			w, h int
		}{{"storage_graph", d.res.StorageGraph, graphW, graphH}, {"x_section_image", d.res.XSectionImage, sectionW, sectionH}} {
			raw, err := base64.StdEncoding.DecodeString(img.b64)
			if err != nil {
				t.Fatalf("%s: %v", img.name, err)
			}
			cfg, err := png.DecodeConfig(bytes.NewReader(raw))
			if err != nil || cfg.Width != img.w || cfg.Height != img.h {
				t.Errorf("%s at %g l/s: %dx%d (%v), want %dx%d", img.name, q, cfg.Width, cfg.Height, err, img.w, img.h)
			}
		}
	}
	for _, s := range []string{"Critical storm: 45 min at 37.8 mm/h", "Channel capacity 3.63 m³", "Stored volume (m³)", "Stored + flooded (m³)",
		"Time (min)", "Generic cross-section", "generic: not a product drawing", "Full 0.500 m", "Max water 0.465 m", "Flooded", "150 mm"} {
		if m := missingGlyphs(s); m != "" {
			t.Errorf("%q: no glyph for %q", s, m)
		}
	}
	for _, ch := range catalogue.Default().Systems() {
		if !ch.ControlledDischarge {
			continue
		}
		specs, _ := catalogue.Default().SystemChannels(ch.Slug)
		for _, s := range specs {
			if m := missingGlyphs(s.Name); m != "" {
				t.Errorf("channel name %q: no glyph for %q", s.Name, m)
			}
		}
	}
}

// BenchmarkCalculate times the call: the typical run (it floods, so one
// sweep per channel), and a run that fits (sweeps until the orifice
// converges), with both images.
func BenchmarkCalculate(b *testing.B) {
	for _, c := range []struct {
		name    string
		area, q float64
	}{{"1500m2-5ls-flooded", 1500, 5}, {"300m2-2ls-holds", 300, 2}} {
		b.Run(c.name, func(b *testing.B) {
			req := typical(b)
			req.CatchmentAreaM2, req.ControlledOutflowLS = c.area, c.q
			for b.Loop() {
				if _, err := Calculate(catalogue.Default(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
