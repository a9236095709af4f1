package report

import (
	"bytes"
	"encoding/hex"
	"image"
	"image/png"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"draindesign/domain/document/pdf"
	"draindesign/domain/document/raster"
	"draindesign/domain/document/rtf"
)

// picture is a PNG picture of an RTF file with its size on the page.
type picture struct {
	img            image.Image
	wGoal, hGoal   int // twips
	wPixel, hPixel int // as \picw and \pich declare them
}

var pictRE = regexp.MustCompile(`\{\\pict\\pngblip\\picw(\d+)\\pich(\d+)\\picwgoal(\d+)\\pichgoal(\d+)\n([0-9a-f\n]+)\}`)

// rtfPictures decodes the PNG pictures of an RTF file in their order.
func rtfPictures(t *testing.T, doc []byte) []picture {
	t.Helper()
	var out []picture
	for _, m := range pictRE.FindAllSubmatch(doc, -1) {
		data, err := hex.DecodeString(strings.ReplaceAll(string(m[5]), "\n", ""))
		if err != nil {
			t.Fatalf("picture data: %v", err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("picture is not a PNG: %v", err)
		}
		n := func(i int) int { v, _ := strconv.Atoi(string(m[i])); return v }
		out = append(out, picture{img: img, wPixel: n(1), hPixel: n(2), wGoal: n(3), hGoal: n(4)})
	}
	return out
}

// TestRTFDrawings: the RTF hydraulics document carries the profile, the
// cross-section (and the catchment plan, third) as PNG pictures at the text width, drawn where the
// layout puts them: the water surface's colour on the water line and not
// above it, the water's fill inside the channel.
func TestRTFDrawings(t *testing.T) {
	run := calculated(t, "Loading bay", concreteBody)
	p, tr := sampleProject("en", run), translator(t, "en")
	out, err := RTF(p, Kind{Name: Hydraulics, Run: 1}, tr)
	if err != nil {
		t.Fatal(err)
	}
	pics := rtfPictures(t, out)
	if len(pics) != 3 {
		t.Fatalf("%d pictures, want the profile, the cross-section and the catchment", len(pics))
	}
	// 170 mm of text width at 200 dpi is 1339 pixels. The profile is 75 mm
	// and one legend row of 5 mm (its three English names fit one row):
	// 630 pixels; the cross-section 55 mm: 433.
	for i, want := range []image.Point{{1339, 630}, {1339, 433}} {
		pic := pics[i]
		if got := pic.img.Bounds().Size(); got != want || pic.wPixel != want.X || pic.hPixel != want.Y {
			t.Errorf("picture %d is %v (declared %d × %d), want %v", i, got, pic.wPixel, pic.hPixel, want)
		}
		if wantH := rtf.TextWidth * want.Y / want.X; pic.wGoal != rtf.TextWidth || pic.hGoal != wantH {
			t.Errorf("picture %d set %d × %d twips, want the text width %d × %d", i, pic.wGoal, pic.hGoal, rtf.TextWidth, wantH)
		}
	}

	w := newWriter(p, tr)
	const pxPerMM = raster.DPI / 25.4
	pixel := func(at pdf.Point) image.Point { return image.Pt(int(at.X*pxPerMM), int(at.Y*pxPerMM)) }

	chart := w.profile(run.Results)
	place, err := chart.Place(0, 0, drawingWidthMM)
	if err != nil {
		t.Fatal(err)
	}
	var water []pdf.Point
	for _, s := range chart.Series {
		if s.Colour == waterColour {
			water = s.Points
		}
	}
	if len(water) < 10 {
		t.Fatalf("the profile has %d water points", len(water))
	}
	for _, share := range []float64{0.25, 0.5, 0.75} {
		pt := water[int(share*float64(len(water)-1))]
		at := pixel(place(pt))
		if !colourNear(pics[0].img, at, 1, waterColour) {
			t.Errorf("water surface at %.1f m, %.0f mm: pixel %v is %v, want the water colour", pt.X, pt.Y, at, pics[0].img.At(at.X, at.Y))
		}
		// 6 mm (47 pixels) above the line is open air in the chart.
		if above := at.Add(image.Pt(0, -47)); colourNear(pics[0].img, above, 1, waterColour) {
			t.Errorf("water colour at %v, 6 mm above the water line", above)
		}
	}

	fig := w.crossSection(run.Results)
	placeFig, err := fig.Place(0, 0, drawingWidthMM)
	if err != nil {
		t.Fatal(err)
	}
	var centre pdf.Point // of the water, the figure's second shape
	for _, pt := range fig.Shapes[1].Points {
		centre.X += pt.X / float64(len(fig.Shapes[1].Points))
		centre.Y += pt.Y / float64(len(fig.Shapes[1].Points))
	}
	if at := pixel(placeFig(centre)); !colourNear(pics[1].img, at, 0, waterColour) {
		t.Errorf("middle of the water in the cross-section, pixel %v, is %v", at, pics[1].img.At(at.X, at.Y))
	}
}

// colourNear: a pixel within r of at has colour c, give or take
// anti-aliasing.
func colourNear(img image.Image, at image.Point, r int, c pdf.Colour) bool {
	for dy := -r; dy <= r; dy++ {
		for dx := -r; dx <= r; dx++ {
			cr, cg, cb, _ := img.At(at.X+dx, at.Y+dy).RGBA()
			if near8(int(cr>>8), c.R) && near8(int(cg>>8), c.G) && near8(int(cb>>8), c.B) {
				return true
			}
		}
	}
	return false
}

func near8(a, b int) bool { return a-b < 30 && b-a < 30 }

// stepped500Body is the long stepped run of domain/design's benchmarks.
const stepped500Body = `{"channel_group":"fibre","loading":"C250","grating":"fibre-std-mesh","channel_length_m":500,"stepped":true,
	"drainage_area_m2":3000,"rainfall":{"rainfall_mm_per_hr":50},"ground_slope":0.2}`

// BenchmarkRTFHydraulicsStepped500m makes the RTF hydraulics document of a
// 500 m stepped run, its profile and cross-section drawn as pictures; the
// target is under 300 ms (docs/performance.md).
func BenchmarkRTFHydraulicsStepped500m(b *testing.B) {
	p := sampleProject("de", calculated(b, "Stepped", stepped500Body))
	tr := translator(b, "de")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RTF(p, Kind{Name: Hydraulics, Run: 1}, tr); err != nil {
			b.Fatal(err)
		}
	}
}
