package raster

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"sync"
	"testing"

	"draindesign/domain/document/drawing"
)

// tenPerMM is the resolution at which a millimetre is ten pixels.
const tenPerMM = 254

func canvas(t *testing.T, w, h float64) *Canvas {
	t.Helper()
	cv, err := New(w, h, tenPerMM)
	if err != nil {
		t.Fatal(err)
	}
	return cv
}

// colourAt is the colour of pixel p.
func colourAt(img image.Image, p image.Point) drawing.Colour {
	r, g, b, _ := img.At(p.X, p.Y).RGBA()
	return drawing.Colour{R: int(r >> 8), G: int(g >> 8), B: int(b >> 8)}
}

// near: within anti-aliasing's reach of c.
func near(a, c drawing.Colour) bool {
	return abs(a.R-c.R) < 40 && abs(a.G-c.G) < 40 && abs(a.B-c.B) < 40
}

func abs(v int) int { return max(v, -v) }

var (
	white = drawing.Colour{R: 255, G: 255, B: 255}
	red   = drawing.Colour{R: 220, G: 0, B: 0}
	blue  = drawing.Colour{R: 30, G: 100, B: 200}
)

// TestLine: a line from A to B colours the pixels along it and leaves the
// rest of the canvas white.
func TestLine(t *testing.T) {
	cv := canvas(t, 20, 10)
	if b := cv.Image().Bounds(); b.Dx() != 200 || b.Dy() != 100 {
		t.Fatalf("20 × 10 mm at 254 dpi is %v, want 200 × 100 pixels", b)
	}
	cv.Path([]drawing.Point{{X: 2, Y: 1}, {X: 18, Y: 9}}, false, nil, &drawing.Pen{Colour: red, Width: 0.5})
	img := cv.Image()
	// Inside the ends: a butt end stops at B, half the last pixel short.
	for i := 0; i <= 10; i++ {
		f := 0.02 + 0.96*float64(i)/10
		p := cv.Pixel(drawing.Point{X: 2 + 16*f, Y: 1 + 8*f})
		if c := colourAt(img, p); !near(c, red) {
			t.Errorf("pixel %v on the line is %v, want red", p, c)
		}
	}
	for _, p := range []drawing.Point{{X: 18, Y: 1}, {X: 2, Y: 9}, {X: 10, Y: 8}, {X: 1, Y: 0.5}, {X: 19, Y: 9.5}} {
		if c := colourAt(img, cv.Pixel(p)); c != white {
			t.Errorf("pixel at %v mm off the line is %v, want white", p, c)
		}
	}
}

// TestDashAndClip: a dashed line leaves gaps of its pattern, and nothing
// is drawn outside the clip.
func TestDashAndClip(t *testing.T) {
	cv := canvas(t, 30, 10)
	cv.Clip(0, 0, 20, 10)
	cv.Path([]drawing.Point{{X: 0, Y: 5}, {X: 30, Y: 5}}, false, nil, &drawing.Pen{Colour: red, Width: 1, Dash: []float64{2, 2}})
	cv.Unclip()
	img := cv.Image()
	for _, tt := range []struct {
		x    float64
		want bool
	}{{1, true}, {3, false}, {5, true}, {7, false}, {17, true}, {19, false}, {21, false}, {25, false}} {
		if got := near(colourAt(img, cv.Pixel(drawing.Point{X: tt.x, Y: 5})), red); got != tt.want {
			t.Errorf("at x=%v mm red = %v, want %v", tt.x, got, tt.want)
		}
	}
}

// TestFill: a closed path is filled inside and outlined at its edge.
func TestFill(t *testing.T) {
	cv := canvas(t, 20, 20)
	cv.Path([]drawing.Point{{X: 5, Y: 5}, {X: 15, Y: 5}, {X: 15, Y: 15}, {X: 5, Y: 15}}, true, &blue, &drawing.Pen{Colour: red, Width: 0.6})
	img := cv.Image()
	for _, tt := range []struct {
		at   drawing.Point
		want drawing.Colour
	}{{drawing.Point{X: 10, Y: 10}, blue}, {drawing.Point{X: 5, Y: 10}, red}, {drawing.Point{X: 10, Y: 15}, red}, {drawing.Point{X: 2, Y: 2}, white}} {
		if c := colourAt(img, cv.Pixel(tt.at)); !near(c, tt.want) {
			t.Errorf("at %v mm: %v, want %v", tt.at, c, tt.want)
		}
	}
}

// TestText: text is inked where it is set, Cyrillic and accented Latin
// included, as wide as it measures, and aligned at its anchor.
func TestText(t *testing.T) {
	for _, tt := range []struct {
		text  string
		align drawing.Align
	}{{"Дренаж Łódź", drawing.Left}, {"Water surface", drawing.Right}, {"0,25", drawing.Center}} {
		descends := tt.text != "Water surface" // Д's feet and the comma go below the line
		t.Run(tt.text, func(t *testing.T) {
			cv := canvas(t, 60, 10)
			f := drawing.Font{Size: 10, Bold: tt.align == drawing.Right}
			w := cv.TextWidth(tt.text, f)
			if w < 5 || w > 40 {
				t.Fatalf("%q at 10 pt measures %v mm", tt.text, w)
			}
			cv.Text(30, 7, tt.text, f, tt.align)
			left := map[drawing.Align]float64{drawing.Left: 30, drawing.Right: 30 - w, drawing.Center: 30 - w/2}[tt.align]
			ink := inked(cv.Image())
			if ink.Empty() {
				t.Fatal("no pixel inked")
			}
			// The ink spans the measured advance, less the glyphs' side
			// bearings, and stands on the baseline at 7 mm (row 70).
			if x0, x1 := float64(ink.Min.X)/10, float64(ink.Max.X)/10; math.Abs(x0-left) > 0.6 || math.Abs(x1-(left+w)) > 0.6 {
				t.Errorf("ink from %v to %v mm, want about %v to %v", x0, x1, left, left+w)
			}
			bottom := 71
			if descends {
				bottom = 79 // a descender is under a quarter of the 3.5 mm size
			}
			if ink.Max.Y < 69 || ink.Max.Y > bottom || ink.Min.Y > 65 {
				t.Errorf("ink rows %d to %d, want letters standing on row 70", ink.Min.Y, ink.Max.Y)
			}
		})
	}
}

// inked is the box of the pixels that are not white.
func inked(img image.Image) image.Rectangle {
	var box image.Rectangle
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if colourAt(img, image.Pt(x, y)) != white {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return box
}

// profile is a small hydraulic profile: the water line over an invert.
func profile() drawing.Chart {
	return drawing.Chart{
		XLabel: "Distance (m)", YLabel: "Level (mm)", Height: 60,
		Series: []drawing.Series{
			{Name: "Invert", Points: []drawing.Point{{X: 0, Y: 20}, {X: 40, Y: 0}}, Colour: drawing.Colour{R: 60, G: 60, B: 60}},
			{Name: "Water surface", Points: []drawing.Point{{X: 0, Y: 120}, {X: 20, Y: 150}, {X: 40, Y: 110}}, Colour: blue},
		},
	}
}

// TestChart: the PNG is the chart's size at the resolution, and the water
// line is where the layout places its points.
func TestChart(t *testing.T) {
	c := profile()
	const width, dpi = 170.0, 200.0
	data, err := Chart(c, width, dpi)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	faces, err := newFaces(dpi)
	if err != nil {
		t.Fatal(err)
	}
	wantW, wantH := int(math.Round(width*dpi/25.4)), int(math.Round(c.TotalHeight(faces, width)*dpi/25.4))
	if b := img.Bounds(); b.Dx() != wantW || b.Dy() != wantH {
		t.Fatalf("PNG is %v, want %d × %d", b, wantW, wantH)
	}
	place, err := c.Place(0, 0, width)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []drawing.Point{{X: 5, Y: 127.5}, {X: 10, Y: 135}, {X: 30, Y: 130}} {
		at := place(p)
		px := image.Pt(int(at.X*dpi/25.4), int(at.Y*dpi/25.4))
		if c := colourAt(img, px); !near(c, blue) {
			t.Errorf("water point %v at pixel %v is %v, want the water colour %v", p, px, c, blue)
		}
	}
	if _, err := Chart(drawing.Chart{XLabel: "x", YLabel: "y"}, width, dpi); err == nil {
		t.Error("a chart without points made a picture")
	}
}

// TestConcurrent: documents are made side by side on the server, sharing
// the parsed fonts; each picture comes out as it does alone (go test -race
// checks the sharing).
func TestConcurrent(t *testing.T) {
	want, err := Chart(profile(), 170, DPI)
	if err != nil {
		t.Fatal(err)
	}
	got := make([][]byte, 4)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i], _ = Chart(profile(), 170, DPI) })
	}
	wg.Wait()
	for i, g := range got {
		if !bytes.Equal(g, want) {
			t.Errorf("picture %d made beside others differs from the one made alone", i)
		}
	}
}

// TestFigure: the figure's fill shows in the middle of its drawing.
func TestFigure(t *testing.T) {
	f := drawing.Figure{Shapes: []drawing.Shape{{Points: []drawing.Point{{X: 0, Y: 0}, {X: 100, Y: 0}, {X: 100, Y: 80}, {X: 0, Y: 80}}, Closed: true, Fill: &blue}}, Height: 50}
	data, err := Figure(f, 170, DPI)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 1339 || b.Dy() != 394 {
		t.Errorf("170 × 50 mm at 200 dpi is %v, want 1339 × 394", b)
	}
	if c := colourAt(img, image.Pt(1339/2, 394/2)); !near(c, blue) {
		t.Errorf("middle of the figure is %v, want its fill", c)
	}
	if c := colourAt(img, image.Pt(20, 197)); c != white {
		t.Errorf("left of the centred drawing is %v, want white", c)
	}
}

// BenchmarkProfilePNG draws a 500 m profile of 1000 slices, four series
// and a band, as a run's RTF hydraulics document does.
func BenchmarkProfilePNG(b *testing.B) {
	var invert, top, water, flood []drawing.Point
	for i := range 1001 {
		x := float64(i) / 2
		inv := 500 - x
		invert = append(invert, drawing.Point{X: x, Y: inv})
		top = append(top, drawing.Point{X: x, Y: inv + 400})
		water = append(water, drawing.Point{X: x, Y: inv + 100 + 250*math.Sin(x/80)})
		flood = append(flood, drawing.Point{X: x, Y: math.NaN()})
	}
	c := drawing.Chart{
		XLabel: "Distance (m)", YLabel: "Level (mm)", Height: 75,
		Series: []drawing.Series{
			{Name: "Channel top", Points: top, Colour: drawing.Colour{R: 120, G: 120, B: 120}, Dash: []float64{2, 1}},
			{Name: "Invert", Points: invert, Colour: drawing.Colour{R: 60, G: 60, B: 60}, Width: 0.5},
			{Name: "Water surface", Points: water, Colour: blue},
			{Name: "Flooding", Points: flood, Colour: red, Width: 0.8},
		},
		Bands: []drawing.Band{{Label: "Super-critical", From: 100, To: 180, Colour: drawing.Colour{R: 255, G: 236, B: 200}}},
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Chart(c, 170, DPI); err != nil {
			b.Fatal(err)
		}
	}
}
