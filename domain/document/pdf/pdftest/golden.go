package pdftest

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// GoldenDPI is the resolution of golden images: enough to see a layout
// change, small enough to commit.
const GoldenDPI = 50

// Golden renders one page (1-based) of the PDF at path and compares it with
// the committed PNG golden. The page passes when at most tolerance (a share,
// e.g. 0.002) of its pixels differ by more than a quarter of the scale in a
// colour channel, so anti-aliasing noise passes and a moved block does not.
// With UPDATE_GOLDEN=1 the golden file is written instead. A failing page is
// saved in the temporary directory for a look.
func Golden(t testing.TB, path string, page int, golden string, tolerance float64) {
	t.Helper()
	pix, w, h := Render(t, path, page, GoldenDPI)
	got := toImage(pix, w, h)
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		writePNG(t, golden, got)
		t.Logf("golden %s written", golden)
		return
	}
	want := readPNG(t, golden)
	if want.Bounds() != got.Bounds() {
		t.Fatalf("page %d is %v, golden %s is %v", page, got.Bounds(), golden, want.Bounds())
	}
	share := float64(differing(got, want)) / float64(w*h)
	if share > tolerance {
		out := filepath.Join(os.TempDir(), "pdftest-"+filepath.Base(golden))
		writePNG(t, out, got)
		t.Errorf("page %d differs from %s in %.3f%% of its pixels (at most %.3f%%); got saved as %s (UPDATE_GOLDEN=1 to accept)",
			page, golden, 100*share, 100*tolerance, out)
	}
}

func toImage(pix []byte, w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < w*h; i++ {
		copy(img.Pix[4*i:4*i+3], pix[3*i:3*i+3])
		img.Pix[4*i+3] = 255
	}
	return img
}

// differing counts pixels that differ by more than 64 in any channel.
func differing(a *image.RGBA, b image.Image) int {
	n := 0
	bounds := a.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			if far(r1, r2) || far(g1, g2) || far(b1, b2) {
				n++
			}
		}
	}
	return n
}

// far compares 16-bit colour channels by more than 64 on the 8-bit scale.
func far(a, b uint32) bool {
	const limit = 64 << 8
	return a > b+limit || b > a+limit
}

func writePNG(t testing.TB, path string, img image.Image) {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readPNG(t testing.TB, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("golden image: %v (UPDATE_GOLDEN=1 writes it)", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("golden image %s: %v", path, err)
	}
	return img
}
