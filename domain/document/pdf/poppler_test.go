package pdf

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// requirePoppler skips the test when poppler-utils is missing, except
// under CI=true, where that fails it: CI must not pass by checking nothing.
// web/scripts/install-poppler.sh installs it (make test-go runs it).
func requirePoppler(t testing.TB) {
	t.Helper()
	for _, tool := range []string{"pdftotext", "pdfinfo"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("poppler-utils (%s) is required under CI=true: %v", tool, err)
			}
			t.Skipf("poppler-utils missing, skipping (run web/scripts/install-poppler.sh, or CI=true to fail): %v", err)
		}
	}
}

// writePDF stores a generated file for the poppler tools.
func writePDF(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// pageText is the text of one page (1-based) as pdftotext reads it in
// layout mode (a table row stays one line), with
// runs of white space folded to one space so wrapped words compare simply.
func pageText(t *testing.T, path string, page int) string {
	t.Helper()
	p := strconv.Itoa(page)
	out, err := exec.CommandContext(t.Context(), "pdftotext", "-layout", "-f", p, "-l", p, path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext page %d: %v\n%s", page, err, out)
	}
	return fold(string(out))
}

func fold(s string) string { return strings.Join(strings.Fields(s), " ") }

// pdfInfo is what pdfinfo says of a file: its page count and the first
// page's size in points.
type pdfInfo struct {
	pages         int
	width, height float64
}

var (
	pagesLine = regexp.MustCompile(`(?m)^Pages:\s+(\d+)`)
	sizeLine  = regexp.MustCompile(`(?m)^Page size:\s+([\d.]+) x ([\d.]+) pts`)
)

func readInfo(t *testing.T, path string) pdfInfo {
	t.Helper()
	out, err := exec.CommandContext(t.Context(), "pdfinfo", path).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfinfo: %v\n%s", err, out)
	}
	pages, size := pagesLine.FindSubmatch(out), sizeLine.FindSubmatch(out)
	if pages == nil || size == nil {
		t.Fatalf("pdfinfo output without pages or size:\n%s", out)
	}
	var info pdfInfo
	info.pages, _ = strconv.Atoi(string(pages[1]))
	info.width, _ = strconv.ParseFloat(string(size[1]), 64)
	info.height, _ = strconv.ParseFloat(string(size[2]), 64)
	return info
}

// TestPopplerMissing runs a test with an empty PATH in a child process: it
// must skip, or fail under CI=true.
func TestPopplerMissing(t *testing.T) {
	if os.Getenv("PDFTEST_CHILD") == "1" {
		requirePoppler(t)
		t.Fatal("requirePoppler returned without pdftotext")
	}
	for _, ci := range []string{"", "true"} {
		cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestPopplerMissing$", "-test.v")
		cmd.Env = append(os.Environ(), "PDFTEST_CHILD=1", "CI="+ci, "PATH="+t.TempDir())
		out, err := cmd.CombinedOutput()
		switch {
		case ci == "" && (err != nil || !strings.Contains(string(out), "--- SKIP")):
			t.Errorf("without CI: %v, want a skip:\n%s", err, out)
		case ci == "true" && (err == nil || !strings.Contains(string(out), "required under CI=true")):
			t.Errorf("under CI=true: %v, want a failure:\n%s", err, out)
		}
	}
}
