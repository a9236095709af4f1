package pdf

import (
	"fmt"
	"strings"
	"testing"
)

var runColumns = []Column{
	{Title: "Run name", Width: 2},
	{Title: "Length (m)", Width: 1, Align: Right},
	{Title: "Discharge (l/s)", Width: 1, Align: Right},
	{Title: "Notes", Width: 3},
}

func runRows(n int) [][]string {
	rows := make([][]string, n)
	for i := range rows {
		note := "ok"
		if i%7 == 0 { // some rows wrap to several lines
			note = fmt.Sprintf("Flooding near outlet %d; the channel top is exceeded over a long reach so this note wraps", i+1)
		}
		rows[i] = []string{fmt.Sprintf("R-%03d", i+1), fmt.Sprintf("%d.5", 10+i), fmt.Sprintf("%d.25", i*3), note}
	}
	return rows
}

// TestTableAcrossPages: every cell comes back once, in order, and each page
// the table runs onto starts with its header row.
func TestTableAcrossPages(t *testing.T) {
	requirePoppler(t)
	for _, tc := range []struct {
		name  string
		rows  int
		pages int // at least
	}{
		{"one page", 5, 1},
		{"three pages", 150, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows := runRows(tc.rows)
			path := writePDF(t, build(t, TitleBlock{ProjectName: "Tables"}, func(d *Doc) {
				d.Heading("Runs")
				d.Table(runColumns, rows)
				d.Paragraph("After the table.")
			}))
			info := readInfo(t, path)
			if info.Pages < tc.pages {
				t.Fatalf("pages = %d, want at least %d", info.Pages, tc.pages)
			}
			var all strings.Builder
			for p := 1; p <= info.Pages; p++ {
				text := pageText(t, path, p)
				all.WriteString(text + " ")
				if strings.Contains(text, "R-") {
					mustContain(t, fmt.Sprintf("page %d", p), text, "Run name", "Length (m)", "Discharge (l/s)", "Notes",
						fmt.Sprintf("Page %d of %d", p, info.Pages))
				}
			}
			text := all.String()
			at := 0
			for _, r := range rows {
				for _, cell := range r[:3] {
					i := strings.Index(text[at:], cell)
					if i < 0 {
						t.Fatalf("cell %q of row %s missing or out of order", cell, r[0])
					}
					at += i
				}
			}
			mustContain(t, "document", text, rows[0][3], "After the table.")
			if n := strings.Count(text, "R-0"); tc.rows == 150 && n != 99 {
				t.Errorf("R-0xx appears %d times, want 99 (each row once)", n)
			}
		})
	}
}

// TestRowTallerThanPage: a cell longer than a page is split over pages
// under a repeated header, losing no line.
func TestRowTallerThanPage(t *testing.T) {
	requirePoppler(t)
	var lines []string
	for i := 1; i <= 120; i++ {
		lines = append(lines, fmt.Sprintf("line%03d", i))
	}
	path := writePDF(t, build(t, TitleBlock{ProjectName: "Tall"}, func(d *Doc) {
		d.Table([]Column{{Title: "Key"}, {Title: "Value"}}, [][]string{{"tall", strings.Join(lines, "\n")}, {"next", "after"}})
	}))
	info := readInfo(t, path)
	if info.Pages < 3 {
		t.Fatalf("pages = %d, want at least 3 for 120 lines", info.Pages)
	}
	var all strings.Builder
	for p := 1; p <= info.Pages; p++ {
		text := pageText(t, path, p)
		mustContain(t, fmt.Sprintf("page %d", p), text, "Key Value")
		all.WriteString(text + " ")
	}
	mustContain(t, "document", all.String(), append(lines, "next after")...)
}

// TestWrap: long cell text is wrapped to its column, not written past it.
func TestWrap(t *testing.T) {
	d := New(TitleBlock{})
	tb := newTable(runColumns)
	cells := d.split(tb, runRows(1)[0], false)
	if len(cells[3]) < 2 {
		t.Errorf("long note split into %d lines, want several", len(cells[3]))
	}
	d.cellFont(tb, 3, false)
	for _, line := range cells[3] {
		if w := d.f.GetStringWidth(line); w > tb.widths[3] {
			t.Errorf("line %q is %.1f mm wide in a %.1f mm column", line, w, tb.widths[3])
		}
	}
}

// TestKeyValues: a specification table prints its names and values side
// by side, in order.
func TestKeyValues(t *testing.T) {
	requirePoppler(t)
	pairs := [][2]string{{"System", "Monoblock RD 200"}, {"Length", "48.0 m"}, {"Freeboard", "35 mm"}, {"Дебит", "12,4 л/с"}}
	path := writePDF(t, build(t, TitleBlock{ProjectName: "Spec"}, func(d *Doc) { d.KeyValues(pairs) }))
	text := pageText(t, path, 1)
	for _, p := range pairs {
		mustContain(t, "page 1", text, p[0]+" "+p[1])
	}
}

// TestBadTables: a table the caller got wrong fails the document instead
// of printing a misaligned table.
func TestBadTables(t *testing.T) {
	for _, tc := range []struct {
		name    string
		columns []Column
		rows    [][]string
		want    string
	}{
		{"short row", runColumns, [][]string{{"a", "b"}}, "row 1 has 2 cells for 4 columns"},
		{"long row", runColumns[:1], [][]string{{"a"}, {"a", "b"}}, "row 2 has 2 cells for 1 columns"},
		{"no columns", nil, nil, "without columns"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := New(TitleBlock{})
			d.Table(tc.columns, tc.rows)
			_, err := d.Bytes()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Bytes error = %v, want %q", err, tc.want)
			}
		})
	}
}
