package pdftest_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"draindesign/domain/document/pdf"
	"draindesign/domain/document/pdf/pdftest"
)

// TestMissing runs a test with an empty PATH in a child process: it must
// skip, or fail under CI=true.
func TestMissing(t *testing.T) {
	if os.Getenv("PDFTEST_CHILD") == "1" {
		pdftest.Require(t)
		t.Fatal("Require returned without poppler-utils")
	}
	for _, ci := range []string{"", "true"} {
		cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestMissing$", "-test.v")
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

func document(t *testing.T, heading string, rows int) string {
	t.Helper()
	d := pdf.New(pdf.TitleBlock{ProjectName: "Golden"})
	d.Heading(heading)
	var table [][]string
	for i := range rows {
		table = append(table, []string{fmt.Sprint("row ", i), "value"})
	}
	d.Table([]pdf.Column{{Title: "Name"}, {Title: "Value"}}, table)
	data, err := d.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return pdftest.Write(t, data)
}

func TestReadBack(t *testing.T) {
	pdftest.Require(t)
	path := document(t, "Read   back", 3)
	info := pdftest.ReadInfo(t, path)
	if info.Pages != 1 || int(info.Width+0.5) != 595 || int(info.Height+0.5) != 842 {
		t.Errorf("ReadInfo = %+v, want one A4 page", info)
	}
	if text := pdftest.PageText(t, path, 1); !strings.Contains(text, "Read back") || !strings.Contains(text, "row 2 value") {
		t.Errorf("PageText = %q", text)
	}
	pix, w, h := pdftest.Render(t, path, 1, 20)
	if w != 166 || h != 234 || len(pix) != 3*w*h {
		t.Errorf("Render at 20 dpi: %d x %d with %d bytes, want 166 x 234", w, h, len(pix))
	}
}

// recorder is a test that notes failures instead of failing, to see that
// Golden fails when it should.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Errorf(format string, args ...any) { r.failed = fmt.Sprintf(format, args...) }

// TestGolden: a page matches the golden image it wrote, a changed layout
// does not.
func TestGolden(t *testing.T) {
	pdftest.Require(t)
	golden := filepath.Join(t.TempDir(), "page.png")
	t.Setenv("UPDATE_GOLDEN", "1")
	pdftest.Golden(t, document(t, "Layout", 10), 1, golden, 0.002)
	t.Setenv("UPDATE_GOLDEN", "")
	for _, tc := range []struct {
		name    string
		path    string
		matches bool
	}{
		{"same layout", document(t, "Layout", 10), true},
		{"more rows", document(t, "Layout", 30), false},
		{"other heading", document(t, "A much longer heading in its place", 10), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{TB: t}
			pdftest.Golden(r, tc.path, 1, golden, 0.002)
			if (r.failed == "") != tc.matches {
				t.Errorf("matches = %v (%s), want %v", r.failed == "", r.failed, tc.matches)
			}
		})
	}
}
