package rtf

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestOpensInLibreOffice converts a document using every block to PDF with
// LibreOffice, as a reader who edits the RTF would open it, and reads the
// PDF's text back: a file LibreOffice cannot read gives no PDF or loses text.
func TestOpensInLibreOffice(t *testing.T) {
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		// make test installs it (web/scripts/install-libreoffice.sh); CI must
		// not pass by checking nothing.
		if os.Getenv("CI") == "true" {
			t.Fatal("soffice (LibreOffice) is required under CI: run web/scripts/install-libreoffice.sh")
		}
		t.Skip("soffice (LibreOffice) not installed; web/scripts/install-libreoffice.sh installs it")
	}
	image, err := os.ReadFile("testdata/stripes.png")
	if err != nil {
		t.Fatal(err)
	}

	d := New()
	d.Title("Drainage report Дренаж")
	d.Header("Parkplatz Süd")
	d.Footer("Page {page} of {pages}")
	d.Heading(1, "Drainage design")
	d.Paragraph("First paragraph about {braces} and back\\slashes.\nSecond line.")
	d.Paragraph("Größe, Łódź, őű, Дренажен канал")
	d.KeyValues([][2]string{{"Designer", "Zoë Kowalczyk"}})
	d.Table([]string{"Run", "Discharge"}, [][]string{{"Ulica", "12.5"}, {"Улица", "7.25"}}, []int{3000, 0})
	d.Warning("Flooding warning")
	if err := d.PNG(image, 3000, 0); err != nil {
		t.Fatal(err)
	}
	d.PageBreak()
	d.Paragraph("Continued after the break")

	// A table longer than a page, to see its header row repeated.
	long := New()
	rows := make([][]string, 120)
	for i := range rows {
		rows[i] = []string{fmt.Sprintf("Row %d", i+1), fmt.Sprintf("Value %d", i+1)}
	}
	long.Table([]string{"Name", "Amount"}, rows, nil)

	dir := t.TempDir()
	source := filepath.Join(dir, "sample.rtf")
	if err := os.WriteFile(source, d.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	longSource := filepath.Join(dir, "long.rtf")
	if err := os.WriteFile(longSource, long.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// A profile of its own, so a LibreOffice run elsewhere on the machine
	// does not hold the lock; the deadline only stops a hung converter.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, soffice,
		"-env:UserInstallation=file://"+filepath.Join(dir, "profile"),
		"--headless", "--convert-to", "pdf", "--outdir", dir, source, longSource)
	output, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("soffice: %v\n%s", err, output)
	}
	pdf := filepath.Join(dir, "sample.pdf")
	longPDF := filepath.Join(dir, "long.pdf")
	for _, path := range []string{pdf, longPDF} {
		info, err := os.Stat(path)
		if err != nil || info.Size() == 0 {
			t.Fatalf("no PDF from soffice (%v):\n%s", err, output)
		}
	}

	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Log("pdftotext (poppler-utils) not installed: checked only that the PDF was made")
		return
	}
	text, err := exec.Command(pdftotext, "-layout", pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	// Layout may split or pad lines; compare words separated by single spaces.
	flat := strings.Join(strings.Fields(string(text)), " ")
	for _, want := range []string{
		"Parkplatz Süd", "Page 1 of 2", "Page 2 of 2",
		"Drainage design",
		"First paragraph about {braces} and back\\slashes.", "Second line.",
		"Größe, Łódź, őű, Дренажен канал",
		"Designer", "Zoë Kowalczyk",
		"Run", "Discharge", "Ulica", "12.5", "Улица", "7.25",
		"Flooding warning", "Continued after the break",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("PDF text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(flat, "\\line") || strings.Contains(flat, "\\u") {
		t.Errorf("PDF shows RTF control words as text:\n%s", text)
	}

	// Every row of the long table, in order across its pages, under its
	// header row.
	pageText := func(page int) string {
		text, err := exec.Command(pdftotext, "-layout", "-f", strconv.Itoa(page), "-l", strconv.Itoa(page), longPDF, "-").Output()
		if err != nil {
			t.Fatalf("pdftotext page %d: %v", page, err)
		}
		return string(text)
	}
	longText, err := exec.Command(pdftotext, "-layout", longPDF, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	rowPattern := regexp.MustCompile(`Row (\d+) +Value (\d+)\b`)
	found := rowPattern.FindAllStringSubmatch(string(longText), -1)
	if len(found) != 120 {
		t.Errorf("long table shows %d rows, want 120:\n%s", len(found), longText)
	}
	for i, m := range found {
		if want := strconv.Itoa(i + 1); m[1] != want || m[2] != want {
			t.Errorf("row %d of the long table reads %q", i+1, m[0])
		}
	}
	if first := strings.Fields(pageText(1)); len(first) < 2 || first[0] != "Name" || first[1] != "Amount" {
		t.Errorf("the long table does not start with its header row:\n%s", pageText(1))
	}
	// \trhdr is what Word reads to repeat the header row; LibreOffice 7.4
	// (Debian 12) ignores it on RTF import, so its repetition is only
	// reported here, not required.
	if second := strings.Fields(pageText(2)); len(second) < 2 || second[0] != "Name" {
		t.Log("this LibreOffice does not repeat the RTF header row (\\trhdr) on page 2")
	}

	// The paragraph after a page break that follows a centred picture
	// starts at the left margin like the heading, not centred.
	boxes, err := exec.Command(pdftotext, "-bbox", pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext -bbox: %v", err)
	}
	left := func(word string) float64 {
		m := regexp.MustCompile(`<word xMin="([0-9.]+)"[^>]*>` + word + `</word>`).FindSubmatch(boxes)
		if m == nil {
			t.Fatalf("no box for %q:\n%s", word, boxes)
		}
		x, err := strconv.ParseFloat(string(m[1]), 64)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	if heading, after := left("Drainage"), left("Continued"); math.Abs(heading-after) > 2 {
		t.Errorf("paragraph after the page break starts at x=%.1f pt, the heading at %.1f pt", after, heading)
	}

	// The picture survived as the 4 × 2 pixel image it is.
	if pdfimages, err := exec.LookPath("pdfimages"); err == nil {
		list, err := exec.Command(pdfimages, "-list", pdf).Output()
		if err != nil {
			t.Fatalf("pdfimages: %v", err)
		}
		if !regexp.MustCompile(`(?m)^\s*1\s+\d+\s+image\s+4\s+2\s`).Match(list) {
			t.Errorf("want the 4 × 2 PNG on page 1:\n%s", list)
		}
	}

	// The font table's first font is used, in regular and bold, where the
	// machine has it (web/scripts/install-libreoffice.sh installs it).
	if fcList, err := exec.Command("fc-list", "DejaVu Sans").Output(); err == nil && len(fcList) > 0 {
		if pdffonts, err := exec.LookPath("pdffonts"); err == nil {
			fonts, err := exec.Command(pdffonts, pdf).Output()
			if err != nil {
				t.Fatalf("pdffonts: %v", err)
			}
			for _, font := range []string{"+DejaVuSans ", "+DejaVuSans-Bold "} {
				if !strings.Contains(string(fonts), font) {
					t.Errorf("PDF lacks font %q:\n%s", strings.TrimSpace(font), fonts)
				}
			}
		}
	}

	pdfinfo, err := exec.LookPath("pdfinfo")
	if err != nil {
		return
	}
	meta, err := exec.Command(pdfinfo, pdf).Output()
	if err != nil {
		t.Fatalf("pdfinfo: %v", err)
	}
	if pages := regexp.MustCompile(`(?m)^Pages:\s+(\d+)`).FindSubmatch(meta); len(pages) != 2 || string(pages[1]) != "2" {
		t.Errorf("want 2 pages (one page break):\n%s", meta)
	}
	if !regexp.MustCompile(`(?m)^Title:\s+Drainage report Дренаж$`).Match(meta) {
		t.Errorf("want the title in the PDF's properties:\n%s", meta)
	}
	if !regexp.MustCompile(`(?m)^Page size:\s+595\.\d* x 841\.\d* pts \(A4\)`).Match(meta) {
		t.Errorf("want A4 pages:\n%s", meta)
	}
}
