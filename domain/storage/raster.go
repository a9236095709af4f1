package storage

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"math"
)

// Colours of the images.
var (
	white     = color.RGBA{255, 255, 255, 255}
	black     = color.RGBA{0, 0, 0, 255}
	grey      = color.RGBA{150, 150, 150, 255}
	lightGrey = color.RGBA{225, 225, 225, 255}
	blue      = color.RGBA{25, 90, 200, 255}
	water     = color.RGBA{120, 175, 235, 255}
	red       = color.RGBA{200, 30, 30, 255}
	body      = color.RGBA{185, 185, 180, 255}
)

func newCanvas(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fillRect(img, 0, 0, w, h, white)
	return img
}

func fillRect(img *image.RGBA, x, y, w, h int, c color.RGBA) {
	r := image.Rect(x, y, x+w, y+h).Intersect(img.Bounds())
	for py := r.Min.Y; py < r.Max.Y; py++ {
		for px := r.Min.X; px < r.Max.X; px++ {
			img.SetRGBA(px, py, c)
		}
	}
}

// line draws a line of the given width between two points; dash > 0 draws
// it dashed with dashes and gaps dash pixels long.
func line(img *image.RGBA, x0, y0, x1, y1 float64, width float64, dash int, c color.RGBA) {
	dx, dy := x1-x0, y1-y0
	n := int(math.Ceil(math.Max(math.Abs(dx), math.Abs(dy)))) + 1
	half := width / 2
	for i := 0; i <= n; i++ {
		if dash > 0 && (i/dash)%2 == 1 {
			continue
		}
		t := float64(i) / float64(n)
		x, y := x0+t*dx, y0+t*dy
		fillRect(img, int(math.Round(x-half)), int(math.Round(y-half)), max(1, int(math.Round(width))), max(1, int(math.Round(width))), c)
	}
}

func encodePNG(img image.Image) (string, error) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}
