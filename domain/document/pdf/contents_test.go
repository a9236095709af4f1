package pdf

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestContents: the contents page lists each heading after it with the
// page it landed on, including pages the content broke onto by itself.
func TestContents(t *testing.T) {
	requirePoppler(t)
	path := writePDF(t, build(t, TitleBlock{ProjectName: "All"}, func(d *Doc) {
		d.Heading("Not listed: before the contents")
		d.Contents("Contents")
		d.Heading("Introduction")
		d.Subheading("Not listed: a subheading")
		d.Paragraph("Text.")
		d.PageBreak()
		d.Heading("Hydraulics — Run 1")
		d.Table(runColumns, runRows(60)) // runs onto a second page
		d.Heading("Materials")
		d.PageBreak()
		d.Heading("Информация")
	}))
	info := readInfo(t, path)
	if info.Pages != 6 {
		t.Fatalf("pages = %d, want 6", info.Pages)
	}
	toc := pageText(t, path, 2)
	mustContain(t, "contents page", toc, "Contents", "Introduction 3", "Hydraulics — Run 1 4",
		"Materials 5", "Информация 6", "Page 2 of 6")
	if strings.Contains(toc, "Not listed") {
		t.Errorf("a heading before Contents or a subheading is listed:\n%s", toc)
	}
	mustContain(t, "page 5", pageText(t, path, 5), "Materials")
	mustContain(t, "page 6", pageText(t, path, 6), "Информация")
}

func TestContentsErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		content func(*Doc)
		want    string
	}{
		{"twice", func(d *Doc) { d.Contents("A"); d.Contents("B") }, "requested twice"},
		{"too many headings", func(d *Doc) {
			d.Contents("A")
			for i := range 60 {
				d.Heading(fmt.Sprint("Heading ", i))
			}
		}, "60 headings do not fit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := New(TitleBlock{})
			tc.content(d)
			if _, err := d.Bytes(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Bytes error = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestBadPageLabel: a page label without its two numbers fails the
// document instead of printing "%!(EXTRA int=3)" on every page.
func TestBadPageLabel(t *testing.T) {
	for _, label := range []string{"Page %d", "Page %s of %s", "Page %d of %d of %d"} {
		d := New(TitleBlock{Labels: Labels{Page: label}})
		if _, err := d.Bytes(); err == nil || !strings.Contains(err.Error(), "two integer verbs") {
			t.Errorf("label %q: Bytes error = %v, want the label refused", label, err)
		}
	}
	d := New(TitleBlock{Labels: Labels{Page: "%[2]d / %[1]d"}})
	if _, err := d.Bytes(); err != nil {
		t.Errorf("reordered label refused: %v", err)
	}
}

// TestBytesTwice: a second call returns the same file, not an empty one,
// and content added in between neither changes it nor panics.
func TestBytesTwice(t *testing.T) {
	d := New(TitleBlock{ProjectName: "Twice"})
	d.Paragraph("x")
	a, errA := d.Bytes()
	d.PageBreak()
	d.Table(runColumns, runRows(100))
	b, errB := d.Bytes()
	if errA != nil || errB != nil || len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("Bytes twice: %d bytes, %v; then %d bytes, %v", len(a), errA, len(b), errB)
	}
}
