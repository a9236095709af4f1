package rainfall

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestEmbeddedStations(t *testing.T) {
	t.Parallel()
	st := Default().Stations()
	if len(st) != 897 {
		t.Fatalf("%d stations embedded, the NRFA extract has 897", len(st))
	}
	ni := 0
	for _, s := range st {
		if s.ID >= 200000 {
			ni++
		}
	}
	if ni < 20 {
		t.Fatalf("only %d Northern Ireland stations", ni)
	}
	// Stations() hands out a copy; the model must not change under it.
	st[0].RMED1H = 99
	if Default().Stations()[0].RMED1H == 99 {
		t.Fatal("Stations exposes the model's own slice")
	}
}

func TestParseStationsRefusesBadData(t *testing.T) {
	t.Parallel()
	head := "station,easting_osgb,northing_osgb,rmed_1h_mm,rmed_1d_mm,rmed_2d_mm,saar_mm\n"
	good := "1,400000,400000,10,35,45,800\n2,410000,400000,10,35,45,800\n3,420000,400000,10,35,45,800\n4,430000,400000,10,35,45,800\n"
	if _, err := parseStations(strings.NewReader(head + good)); err != nil {
		t.Fatalf("good data refused: %v", err)
	}
	cases := []struct {
		name, data, want string
	}{
		{"empty", "", "station data"},
		{"wrong column", strings.Replace(head, "saar_mm", "saar", 1) + good, "column 7"},
		{"short row", head + good + "5,1,2,3\n", "station data"},
		{"bad number", head + good + "x,400000,400000,10,35,45,800\n", "bad station number"},
		{"twice", head + good + "4,430000,400000,10,35,45,800\n", "twice"},
		{"NaN", head + good + "5,400000,400000,NaN,35,45,800\n", "bad rmed_1h_mm"},
		{"text", head + good + "5,400000,400000,10,abc,45,800\n", "bad rmed_1d_mm"},
		{"off the grid", head + good + "5,-10,400000,10,35,45,800\n", "off the British National Grid"},
		{"RMED falls with duration", head + good + "5,400000,400000,10,50,45,800\n", "grow with duration"},
		{"too few", head + "1,400000,400000,10,35,45,800\n", "too few"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := parseStations(strings.NewReader(c.data))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one mentioning %q", err, c.want)
			}
			if _, err := Load(strings.NewReader(c.data)); err == nil {
				t.Fatal("Load accepted what parseStations refuses")
			}
		})
	}
}

// publishedPoints are every published FSR M5-60 / r pair for a named UK
// place that we found (docs/rainfall.md section 6.3 cites each source),
// with the field's answer there as the docs report it. The field must
// stay within 10 % of M5-60 and the stated tolerance on r and on the
// 5-minute to 6-hour intensities. Sheffield is further off, for the reason
// the docs give (its gauged catchments drain the Pennine moors), and has
// wider tolerances.
var publishedPoints = []struct {
	name            string
	lat, lon        float64
	m5, r           float64 // published FSR
	source          string  // where it was published
	fieldM5, fieldR float64 // the field's answer, as documented
	rTol            float64 // on r
	iTol            float64 // relative, on 5 min to 6 h intensities
	clamped         bool    // the field's r is held to the FSR maps' 0.45
}{
	{"Sheffield", 53.38, -1.47, 20.5, 0.40, "FSR worked example (Wikipedia, Flood Studies Report)", 18.9, 0.33, 0.08, 0.20, false},
	{"Derby, Morley Road", 52.94, -1.43, 19.0, 0.40, "CEC Consulting Engineers, Morley Road Derby storage calculations, 2009", 19.4, 0.40, 0.06, 0.10, false},
	{"Meldreth, Cambridgeshire", 52.10, 0.01, 20.0, 0.40, "Gyoury Self Partnership, Maycroft soakaway calculations, 2017", 19.2, 0.45, 0.06, 0.10, true},
	{"Altrincham (WA14 2NW)", 53.39, -2.36, 18.4, 0.400, "Brennan Consult, St Johns Road drainage condition report, 2022", 19.2, 0.38, 0.06, 0.10, false},
	{"Bowdon, Dunham Road", 53.38, -2.37, 18.0, 0.377, "Bell Munro Consulting, Turpins Hollow hydraulic calculations, 2022", 19.1, 0.39, 0.06, 0.10, false},
}

func TestFieldNearPublishedPoints(t *testing.T) {
	t.Parallel()
	if len(publishedPoints) != calibrationPoints {
		t.Fatalf("%d published points, the answer says %d", len(publishedPoints), calibrationPoints)
	}
	for _, p := range publishedPoints {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			est, err := Default().Estimate(p.lat, p.lon)
			if err != nil {
				t.Fatal(err)
			}
			if est.M5 != p.fieldM5 || est.R != p.fieldR {
				t.Errorf("field M5-60 %.1f r %.2f; docs/rainfall.md says %.1f, %.2f (update the comparison table)", est.M5, est.R, p.fieldM5, p.fieldR)
			}
			if d := math.Abs(est.M5/p.m5 - 1); d > 0.10 {
				t.Errorf("M5-60 %.1f mm is %.0f%% from the published %.1f mm", est.M5, d*100, p.m5)
			}
			if d := math.Abs(est.R - p.r); d > p.rTol+1e-9 {
				t.Errorf("r %.2f is %.3f from the published %.3f", est.R, d, p.r)
			}
			if est.Extrapolated || est.Clamped != p.clamped {
				t.Errorf("lowland point extrapolated %v, clamped %v (want %v)", est.Extrapolated, est.Clamped, p.clamped)
			}
		})
	}
}

// What the designer sees is the intensity: with the field's M5-60 and r
// it must be within 10 % of what the published values give for the design
// storms of drainage (5 minutes to 6 hours, 30 years), Sheffield within
// the documented 20 %.
func TestFieldIntensitiesNearPublished(t *testing.T) {
	t.Parallel()
	for _, p := range publishedPoints {
		a, err := Default().Find(Query{Latitude: p.lat, Longitude: p.lon, StormDuration: 30, ReturnPeriod: 30})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []float64{5, 10, 15, 30, 60, 120, 240, 360} {
			pub := Intensity(p.m5, p.r, d, 30, 0, EnglandWales)
			got := Intensity(a.M5, a.R, d, 30, 0, a.Region)
			if rel := math.Abs(got/pub - 1); rel > p.iTol {
				t.Errorf("%s, %g min: %.1f mm/h from the field, %.1f from the published values (%.0f%%)", p.name, d, got, pub, rel*100)
			}
		}
	}
}

// unscaled is the field's inverse-distance mean of RMED-1H and of
// RMED-1H / RMED-2D at a published point: the proxy's coefficients
// multiply these.
func unscaled(t *testing.T, lat, lon float64) (rmed1h, ratio float64) {
	t.Helper()
	est, err := Default().Estimate(lat, lon)
	if err != nil {
		t.Fatal(err)
	}
	return est.RawM5 / m5PerRMED1H, est.RawR / rPerRatio
}

// throughOrigin is the least-squares slope of y on x through the origin,
// leaving out point skip (-1 for none).
func throughOrigin(x, y []float64, skip int) float64 {
	var sxy, sxx float64
	for i := range x {
		if i != skip {
			sxy += x[i] * y[i]
			sxx += x[i] * x[i]
		}
	}
	return sxy / sxx
}

// The proxy's coefficients are the least-squares fit to the published
// points, and the field shows no bias there: if the data, the
// interpolation or a coefficient changes so that the field reads high or
// low at the published points again, this fails.
func TestFieldCalibratedOnPublishedPoints(t *testing.T) {
	t.Parallel()
	n := len(publishedPoints)
	x1, x2, m5, r := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i, p := range publishedPoints {
		x1[i], x2[i] = unscaled(t, p.lat, p.lon)
		m5[i], r[i] = p.m5, p.r
	}
	if k := throughOrigin(x1, m5, -1); math.Abs(k-m5PerRMED1H) > 0.005 {
		t.Errorf("M5-60 coefficient %.2f, the least-squares fit is %.4f", m5PerRMED1H, k)
	}
	if k := throughOrigin(x2, r, -1); math.Abs(k-rPerRatio) > 0.005 {
		t.Errorf("r coefficient %.2f, the least-squares fit is %.4f", rPerRatio, k)
	}
	var biasM5, biasR, sqM5, sqR, looM5, looR float64
	for i, p := range publishedPoints {
		est, _ := Default().Estimate(p.lat, p.lon)
		biasM5 += (est.M5 - p.m5) / float64(n)
		biasR += (est.R - p.r) / float64(n)
		sqM5 += (est.M5 - p.m5) * (est.M5 - p.m5) / float64(n)
		sqR += (est.R - p.r) * (est.R - p.r) / float64(n)
		// Leave one out: the point predicted by coefficients fitted to the others.
		dm := throughOrigin(x1, m5, i)*x1[i] - p.m5
		dr := throughOrigin(x2, r, i)*x2[i] - p.r
		looM5 += dm * dm / float64(n)
		looR += dr * dr / float64(n)
	}
	if math.Abs(biasM5) > 0.3 || math.Abs(biasR) > 0.01 {
		t.Errorf("mean bias %+.2f mm on M5-60, %+.3f on r; want within 0.3 mm and 0.01", biasM5, biasR)
	}
	t.Logf("bias %+.2f mm, %+.3f; RMS %.2f mm, %.3f; leave-one-out RMS %.2f mm, %.3f", biasM5, biasR, math.Sqrt(sqM5), math.Sqrt(sqR), math.Sqrt(looM5), math.Sqrt(looR))
	// The typical error the answer shows is the leave-one-out RMS rounded up.
	if lo := math.Sqrt(looM5); typicalErrorM5 < lo || typicalErrorM5 > lo+0.1 {
		t.Errorf("typical error ±%.1f mm shown; the leave-one-out RMS is %.2f mm", typicalErrorM5, lo)
	}
	if lo := math.Sqrt(looR); typicalErrorR < lo || typicalErrorR > lo+0.01 {
		t.Errorf("typical error ±%.2f on r shown; the leave-one-out RMS is %.3f", typicalErrorR, lo)
	}
}

// An indicative answer carries the typical error, in its source text too;
// the designer's own values carry none.
func TestAnswerUncertainty(t *testing.T) {
	t.Parallel()
	a, err := Default().Find(Query{Latitude: 52.94, Longitude: -1.43, StormDuration: 30, ReturnPeriod: 30})
	if err != nil {
		t.Fatal(err)
	}
	want := Uncertainty{M5: typicalErrorM5, R: typicalErrorR, Points: calibrationPoints}
	if a.Uncertainty == nil || *a.Uncertainty != want {
		t.Fatalf("uncertainty %+v, want %+v", a.Uncertainty, want)
	}
	if !strings.Contains(a.Source, fmt.Sprintf("±%.1f mm on M5-60 and ±%.2f on r", typicalErrorM5, typicalErrorR)) {
		t.Errorf("source %q does not state the typical error", a.Source)
	}
	u, err := Default().Update(UpdateQuery{M5: 20, R: 0.4, LocationIndex: a.LocationIndex, StormDuration: 30, ReturnPeriod: 30})
	if err != nil {
		t.Fatal(err)
	}
	if u.Uncertainty != nil || strings.Contains(u.Source, "typical error") {
		t.Errorf("the designer's values carry an uncertainty: %+v", u)
	}
}

// Inverse-distance weighting is a weighted mean, so the raw estimate must
// lie within the values of the stations it averages.
func TestFieldIsAWeightedMean(t *testing.T) {
	t.Parallel()
	f := Default().field
	for _, p := range [][2]float64{{51.5, -0.1}, {53.4, -1.5}, {56.8, -5.1}, {54.6, -5.9}, {52.0, -3.5}, {57.2, -2.1}} {
		e, n := LatLonToGrid(p[0], p[1])
		est := f.at(e, n)
		used := f.nearest(e, n)[:est.Stations]
		lo, hi := math.Inf(1), math.Inf(-1)
		rlo, rhi := math.Inf(1), math.Inf(-1)
		for _, c := range used {
			lo, hi = math.Min(lo, stationM5(c.s)), math.Max(hi, stationM5(c.s))
			rlo, rhi = math.Min(rlo, stationR(c.s)), math.Max(rhi, stationR(c.s))
			if !est.Extrapolated && c.d > fieldCapMetres {
				t.Errorf("%v: station %d at %.0f m used past the cap", p, c.s.ID, c.d)
			}
		}
		if est.RawM5 < lo-1e-9 || est.RawM5 > hi+1e-9 || est.RawR < rlo-1e-9 || est.RawR > rhi+1e-9 {
			t.Errorf("%v: raw M5 %.2f r %.3f outside the stations' %.2f-%.2f, %.3f-%.3f", p, est.RawM5, est.RawR, lo, hi, rlo, rhi)
		}
		if est.Stations < 1 || est.Stations > fieldMaxStations {
			t.Errorf("%v: %d stations used", p, est.Stations)
		}
	}
}

func TestFieldClampsAndExtrapolates(t *testing.T) {
	t.Parallel()
	m := Default()
	cases := []struct {
		name                  string
		lat, lon              float64
		clamped, extrapolated bool
	}{
		// Catchments above Fort William run to RMED-1H 16 mm; the proxy
		// overshoots the FSR range there and is held to 22 mm.
		{"Fort William", 56.82, -5.11, true, false},
		{"Lerwick", 60.15, -1.15, false, true},
		{"Hugh Town, Scilly", 49.91, -6.31, false, true},
		{"Kirkwall", 58.98, -2.96, false, true},
		{"London", 51.51, -0.13, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			est, err := m.Estimate(c.lat, c.lon)
			if err != nil {
				t.Fatal(err)
			}
			if est.Clamped != c.clamped || est.Extrapolated != c.extrapolated {
				t.Fatalf("clamped %v extrapolated %v; want %v, %v (%+v)", est.Clamped, est.Extrapolated, c.clamped, c.extrapolated, est)
			}
			if est.M5 < minFieldM5 || est.M5 > maxFieldM5 || est.R < minFieldR || est.R > maxFieldR {
				t.Fatalf("M5-60 %.1f r %.2f outside the UK range", est.M5, est.R)
			}
			if c.extrapolated && (est.Stations != fieldFallback || est.NearestKm <= fieldCapMetres/1000) {
				t.Fatalf("extrapolated from %d stations, nearest %.0f km", est.Stations, est.NearestKm)
			}
		})
	}
}

// The field over the whole of the UK stays in range and gives every
// region sensible values: lower r in the wet west than in the east.
func TestFieldGeography(t *testing.T) {
	t.Parallel()
	m := Default()
	get := func(lat, lon float64) Estimate {
		est, err := m.Estimate(lat, lon)
		if err != nil {
			t.Fatalf("%.2f, %.2f: %v", lat, lon, err)
		}
		return est
	}
	if west, east := get(54.60, -3.13), get(52.63, 1.30); west.R >= east.R {
		t.Errorf("Keswick r %.2f not below Norwich r %.2f", west.R, east.R)
	}
	if west, east := get(56.82, -5.11), get(57.15, -2.10); west.R >= east.R {
		t.Errorf("Fort William r %.2f not below Aberdeen r %.2f", west.R, east.R)
	}
}
