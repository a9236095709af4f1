// Package raster draws the documents' drawings (package drawing) as PNG
// images, for the RTF documents: word processors all read a PNG picture,
// while vector formats in RTF (Windows metafiles) are read unevenly. The
// layout is package drawing's, the one the PDF uses, so the picture shows
// what the PDF shows.
//
// A Canvas is an image of a given size in millimetres at a resolution in
// dots per inch (200 dpi gives sharp print without large files), white to
// start with. Lines and fills are drawn anti-aliased with
// github.com/fogleman/gg; texts are set in the documents' embedded DejaVu
// fonts (package fonts), so labels in Cyrillic or accented Latin print as
// in the PDF.
package raster

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"sync"

	"github.com/fogleman/gg"
	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"

	"draindesign/domain/document/drawing"
	"draindesign/domain/document/fonts"
)

// DPI is the resolution the documents' pictures are drawn at.
const DPI = 200

// Chart draws c widthMM wide, its legend included, and returns the PNG.
// It fails as drawing.Chart.Draw does, when c has no points.
func Chart(c drawing.Chart, widthMM, dpi float64) ([]byte, error) {
	faces, err := newFaces(dpi)
	if err != nil {
		return nil, err
	}
	cv := newCanvas(widthMM, c.TotalHeight(faces, widthMM), faces)
	if err := c.Draw(cv, 0, 0, widthMM); err != nil {
		return nil, err
	}
	return cv.PNG()
}

// Figure draws the drawing of f (its caption is the document's) widthMM
// wide and returns the PNG. It fails when f has no points.
func Figure(f drawing.Figure, widthMM, dpi float64) ([]byte, error) {
	faces, err := newFaces(dpi)
	if err != nil {
		return nil, err
	}
	cv := newCanvas(widthMM, f.DrawingHeight(), faces)
	if err := f.Draw(cv, 0, 0, widthMM); err != nil {
		return nil, err
	}
	return cv.PNG()
}

// Canvas is a raster image drawn on in millimetres.
type Canvas struct {
	dc *gg.Context
	*faces
}

var _ drawing.Canvas = (*Canvas)(nil)

// New is a white canvas widthMM × heightMM at dpi; each side is at least
// one pixel.
func New(widthMM, heightMM, dpi float64) (*Canvas, error) {
	faces, err := newFaces(dpi)
	if err != nil {
		return nil, err
	}
	return newCanvas(widthMM, heightMM, faces), nil
}

func newCanvas(widthMM, heightMM float64, faces *faces) *Canvas {
	w := max(1, int(math.Round(widthMM*faces.px)))
	h := max(1, int(math.Round(heightMM*faces.px)))
	dc := gg.NewContext(w, h)
	dc.SetColor(color.White)
	dc.Clear()
	// Butt ends, as the PDF's lines have: round ends would lengthen each
	// dash of a dashed line and shorten its gaps.
	dc.SetLineCapButt()
	dc.SetLineJoinRound()
	return &Canvas{dc: dc, faces: faces}
}

// Pixel is the pixel that canvas point p (in mm) falls in.
func (c *Canvas) Pixel(p drawing.Point) image.Point {
	return image.Pt(int(math.Floor(p.X*c.px)), int(math.Floor(p.Y*c.px)))
}

// Image is the picture drawn so far.
func (c *Canvas) Image() image.Image { return c.dc.Image() }

// PNG encodes the picture. The fastest compression is used: on these
// mostly white pictures it is within a few per cent of the best and
// several times quicker.
func (c *Canvas) PNG() ([]byte, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, c.dc.Image()); err != nil {
		return nil, fmt.Errorf("encode drawing as png: %w", err)
	}
	return buf.Bytes(), nil
}

func rgb(c drawing.Colour) color.Color {
	return color.RGBA{R: uint8(c.R), G: uint8(c.G), B: uint8(c.B), A: 255}
}

// Path fills, then strokes, the polyline through pts.
func (c *Canvas) Path(pts []drawing.Point, closed bool, fill *drawing.Colour, pen *drawing.Pen) {
	if len(pts) == 0 || (fill == nil && pen == nil) {
		return
	}
	c.dc.MoveTo(pts[0].X*c.px, pts[0].Y*c.px)
	for _, p := range pts[1:] {
		c.dc.LineTo(p.X*c.px, p.Y*c.px)
	}
	if closed {
		c.dc.ClosePath()
	}
	if fill != nil {
		c.dc.SetColor(rgb(*fill))
		c.dc.FillPreserve()
	}
	if pen != nil {
		c.dc.SetColor(rgb(pen.Colour))
		c.dc.SetLineWidth(pen.Width * c.px)
		dashes := make([]float64, len(pen.Dash))
		for i, d := range pen.Dash {
			dashes[i] = d * c.px
		}
		c.dc.SetDash(dashes...)
		c.dc.StrokePreserve()
	}
	c.dc.ClearPath()
}

// Text sets text with its baseline at y.
func (c *Canvas) Text(x, y float64, text string, f drawing.Font, align drawing.Align) {
	face := c.face(f)
	switch align {
	case drawing.Right:
		x -= c.width(face, text)
	case drawing.Center:
		x -= c.width(face, text) / 2
	}
	c.dc.SetFontFace(face)
	c.dc.SetColor(rgb(f.Colour))
	c.dc.DrawString(text, x*c.px, y*c.px)
}

// Clip keeps what follows inside the rectangle, lines and fills (gg does
// not clip text, which the drawings do not need).
func (c *Canvas) Clip(x, y, w, h float64) {
	c.dc.DrawRectangle(x*c.px, y*c.px, w*c.px, h*c.px)
	c.dc.Clip()
}

// Unclip ends the clipping.
func (c *Canvas) Unclip() { c.dc.ResetClip() }

// parsed are the regular and bold DejaVu Sans, parsed once: a parsed font
// is read-only and shared; its faces are not (they cache glyphs).
var parsed = sync.OnceValues(func() ([2]*truetype.Font, error) {
	var out [2]*truetype.Font
	for i, data := range [][]byte{fonts.Sans, fonts.SansBold} {
		f, err := truetype.Parse(data)
		if err != nil {
			return out, fmt.Errorf("parse embedded font: %w", err)
		}
		out[i] = f
	}
	return out, nil
})

// faces sets and measures text at one resolution; it is the measurer the
// layout uses before the canvas exists.
type faces struct {
	fonts [2]*truetype.Font
	dpi   float64
	px    float64 // pixels a millimetre
	cache map[drawing.Font]font.Face
}

func newFaces(dpi float64) (*faces, error) {
	if !(dpi > 0) {
		return nil, fmt.Errorf("raster: resolution %v dpi", dpi)
	}
	f, err := parsed()
	if err != nil {
		return nil, err
	}
	return &faces{fonts: f, dpi: dpi, px: dpi / 25.4, cache: map[drawing.Font]font.Face{}}, nil
}

// face is the font face of f's size and weight; colour plays no part.
func (s *faces) face(f drawing.Font) font.Face {
	key := drawing.Font{Size: f.Size, Bold: f.Bold}
	if face, ok := s.cache[key]; ok {
		return face
	}
	ttf := s.fonts[0]
	if f.Bold {
		ttf = s.fonts[1]
	}
	// Unhinted, so widths scale with the size as the PDF's do and the
	// layout measured here matches the one drawn there.
	face := truetype.NewFace(ttf, &truetype.Options{Size: f.Size, DPI: s.dpi, Hinting: font.HintingNone})
	s.cache[key] = face
	return face
}

// width is the advance of text in mm.
func (s *faces) width(face font.Face, text string) float64 {
	return float64(font.MeasureString(face, text)) / 64 / s.px
}

// TextWidth is the width of text set in f, in mm.
func (s *faces) TextWidth(text string, f drawing.Font) float64 { return s.width(s.face(f), text) }
