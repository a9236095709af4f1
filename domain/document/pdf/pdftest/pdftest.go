// Package pdftest reads generated PDF files back in tests with poppler-utils
// (pdftotext, pdfinfo, pdftoppm): their text, page count and size, and a
// page rendered for comparison with a committed golden image. Without
// poppler-utils a test is skipped, except under CI=true, where that fails it:
// CI must not pass by checking nothing. web/scripts/install-poppler.sh
// installs them (make test-go runs it).
package pdftest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Require skips the test when poppler-utils is missing, or fails it under
// CI=true.
func Require(t testing.TB) {
	t.Helper()
	for _, tool := range []string{"pdftotext", "pdfinfo", "pdftoppm"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("poppler-utils (%s) is required under CI=true: %v", tool, err)
			}
			t.Skipf("poppler-utils missing, skipping (run web/scripts/install-poppler.sh, or CI=true to fail): %v", err)
		}
	}
}

// Write stores a generated file in the test's temporary directory for the
// poppler tools and returns its path.
func Write(t testing.TB, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// PageText is the text of one page (1-based) as pdftotext reads it in
// layout mode (a table row stays one line), with runs of white space folded
// to one space so wrapped words compare simply.
func PageText(t testing.TB, path string, page int) string {
	t.Helper()
	p := strconv.Itoa(page)
	out, err := exec.CommandContext(t.Context(), "pdftotext", "-layout", "-f", p, "-l", p, path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext page %d: %v\n%s", page, err, out)
	}
	return Fold(string(out))
}

// Fold turns every run of white space into one space.
func Fold(s string) string { return strings.Join(strings.Fields(s), " ") }

// Info is what pdfinfo says of a file: its page count and the first page's
// size in points (A4 is 595 x 842, rounded).
type Info struct {
	Pages         int
	Width, Height float64
}

var (
	pagesLine = regexp.MustCompile(`(?m)^Pages:\s+(\d+)`)
	sizeLine  = regexp.MustCompile(`(?m)^Page size:\s+([\d.]+) x ([\d.]+) pts`)
)

// ReadInfo runs pdfinfo on the file at path.
func ReadInfo(t testing.TB, path string) Info {
	t.Helper()
	out, err := exec.CommandContext(t.Context(), "pdfinfo", path).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfinfo: %v\n%s", err, out)
	}
	pages, size := pagesLine.FindSubmatch(out), sizeLine.FindSubmatch(out)
	if pages == nil || size == nil {
		t.Fatalf("pdfinfo output without pages or size:\n%s", out)
	}
	var info Info
	info.Pages, _ = strconv.Atoi(string(pages[1]))
	info.Width, _ = strconv.ParseFloat(string(size[1]), 64)
	info.Height, _ = strconv.ParseFloat(string(size[2]), 64)
	return info
}

// Render draws one page (1-based) at dpi and returns its pixels as 8-bit
// RGB rows, with the image's width and height.
func Render(t testing.TB, path string, page, dpi int) (pix []byte, w, h int) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "page")
	p := strconv.Itoa(page)
	cmd := exec.CommandContext(t.Context(), "pdftoppm", "-r", strconv.Itoa(dpi), "-f", p, "-l", p, "-singlefile", path, out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v\n%s", err, msg)
	}
	data, err := os.ReadFile(out + ".ppm")
	if err != nil {
		t.Fatal(err)
	}
	return parsePPM(t, data)
}

// parsePPM reads a binary (P6, 8-bit) PPM file as pdftoppm writes it.
func parsePPM(t testing.TB, data []byte) (pix []byte, w, h int) {
	t.Helper()
	var maxv int
	r := bytes.NewReader(data)
	if _, err := fmt.Fscanf(r, "P6\n%d %d\n%d\n", &w, &h, &maxv); err != nil || maxv != 255 {
		t.Fatalf("not an 8-bit P6 PPM (%v): %q", err, data[:min(len(data), 20)])
	}
	pix = data[len(data)-r.Len():]
	if len(pix) != 3*w*h {
		t.Fatalf("PPM has %d pixel bytes, want %d", len(pix), 3*w*h)
	}
	return pix, w, h
}
