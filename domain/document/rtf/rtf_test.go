package rtf

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ from the current output")

func TestEscape(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"ASCII", "Channel run 1: 12.5 m, 3 l/s (ok)!", "Channel run 1: 12.5 m, 3 l/s (ok)!"},
		{"German umlauts", "Größe Übergänge", `Gr\u246o\u223se \u220Uberg\u228ange`},
		{"Polish", "Łódź, źdźbło", `\u321L\u243od\u378z, \u378zd\u378zb\u322lo`},
		{"Bulgarian Cyrillic", "Дренаж", `\u1044D\u1088r\u1077e\u1085n\u1072a\u1078z`},
		{"Hungarian double acute", "őű ŐŰ", `\u337o\u369u \u336O\u368U`},
		{"braces and backslashes", `a{b}\c\\`, `a\{b\}\\c\\\\`},
		{"RTF control word as text", `\par{\b x}`, `\\par\{\\b x\}`},
		{"emoji outside the BMP", "ok 😀!", `ok \u-10179?\u-8704?!`},
		{"BMP above 32767 is negative", "가\uffff", `\u-21504?\u-1?`},
		{"fallback never a digit", "€5 ²3", `\u8364E5 \u178?3`},
		{"no-break space keeps a visible fallback", "1\u00a0m", `1\u160_m`},
		{"typographic punctuation", "„Test“ – ok…", `\u8222"Test\u8220" \u8211- ok\u8230.`},
		{"newline", "one\ntwo", `one\line two`},
		{"CR LF and lone CR", "a\r\nb\rc", `a\line b\line c`},
		{"tab", "a\tb", `a\tab b`},
		{"control characters dropped", "a\x00b\x07c\x1bd\x7f", "abcd"},
		{"invalid UTF-8", "a\xffb", `a\u-3?b`},
		{"space after control word is kept", "\n x", `\line  x`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Escape(tt.in); got != tt.want {
				t.Errorf("Escape(%q)\n got %s\nwant %s", tt.in, got, tt.want)
			}
			if got, want := unescape(t, Escape(tt.in)), normalise(tt.in); got != want {
				t.Errorf("read back %q, want %q", got, want)
			}
		})
	}
}

// TestFallbacksAreSafe guards the rule that a fallback is one plain ASCII
// character a reader cannot mistake for part of the \u control word.
func TestFallbacksAreSafe(t *testing.T) {
	for r, b := range fallbacks {
		if b <= ' ' || b >= 0x7f || (b >= '0' && b <= '9') || b == '\\' || b == '{' || b == '}' {
			t.Errorf("fallback of %q is %q", r, b)
		}
		if r < 0x80 {
			t.Errorf("fallback listed for ASCII %q", r)
		}
	}
	for _, pair := range [][2]string{{"ä", "a"}, {"Ł", "L"}, {"ő", "o"}, {"Ж", "Z"}, {"щ", "s"}, {"ć", "c"}, {"ž", "z"}} {
		if got := fallback([]rune(pair[0])[0]); string(got) != pair[1] {
			t.Errorf("fallback(%s) = %c, want %s", pair[0], got, pair[1])
		}
	}
}

func TestGolden(t *testing.T) {
	image, err := os.ReadFile("testdata/stripes.png")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		build func(t *testing.T, d *Doc)
	}{
		{"minimal", func(_ *testing.T, d *Doc) {
			d.Heading(1, "Drainage design")
			d.Paragraph("One paragraph.")
		}},
		{"tables", func(_ *testing.T, d *Doc) {
			d.Heading(2, "Design specification")
			d.KeyValues([][2]string{{"Project", "Parkplatz Süd"}, {"Ort", "Łódź"}, {"Empty", ""}})
			d.Table([]string{"Run", "Length {m}", "Result"},
				[][]string{{"1", "12.5", "ok"}, {"2", "40"}, {"3", "8\n(ramp)", "Наводнение"}},
				[]int{1500, 0, 3000})
			d.Warning("Flooding at 31.0 m!")
		}},
		{"full", func(t *testing.T, d *Doc) {
			d.Title("Parkplatz Süd {hydraulics}")
			d.Header("Parkplatz Süd — Ref. {A-1}")
			d.Footer("Page {page} of {pages}")
			d.Heading(1, "Hydraulics")
			d.Heading(3, "Профил")
			d.Paragraph("Line one\nline two\twith a tab; 😀 and \\ slash.")
			if err := d.PNG(image, 3000, 0); err != nil {
				t.Fatal(err)
			}
			d.PageBreak()
			d.Heading(2, "Materials")
			d.Table(nil, [][]string{{"Channel", "10"}}, nil)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := New()
			tt.build(t, d)
			got := d.Bytes()
			checkWellFormed(t, got)
			path := filepath.Join("testdata", tt.name+".rtf")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the output (go test -update rewrites it after review):\n%s", path, got)
			}
		})
	}
}

func TestTable(t *testing.T) {
	d := New()
	d.Table([]string{"A", "B"}, [][]string{{"1"}, {"2", "3", "4"}}, []int{1000, 2000, 500})
	out := string(d.Bytes())
	// Three columns (the longest row), three rows of three cells.
	if got := strings.Count(out, `\cell`+"\n"); got != 9 {
		t.Errorf("%d cells, want 9:\n%s", got, out)
	}
	if got := strings.Count(out, `\row`); got != 3 {
		t.Errorf("%d rows, want 3", got)
	}
	if got := strings.Count(out, `\trhdr`); got != 1 {
		t.Errorf("%d repeated header rows, want 1", got)
	}
	if got := strings.Count(out, `\cellx1000`+"\n"+`\clbrdrt`); got != 3 {
		t.Errorf("first column edge appears %d times, want once per row", got)
	}
	for _, edge := range []string{`\cellx3000`, `\cellx3500`} {
		if got := strings.Count(out, edge); got != 3 {
			t.Errorf("%s appears %d times, want 3", edge, got)
		}
	}
	if !strings.Contains(out, `\intbl\s0\f0\fs20\b A\cell`) {
		t.Errorf("header cell not bold:\n%s", out)
	}
	if !strings.Contains(out, `\intbl\s0\f0\fs20 \cell`) {
		t.Errorf("short row not padded with an empty cell:\n%s", out)
	}

	empty := New()
	empty.Table(nil, nil, nil)
	if bytes.Contains(empty.Bytes(), []byte(`\trowd`)) {
		t.Error("a table without cells wrote a row")
	}
}

func TestCellEdges(t *testing.T) {
	tests := []struct {
		name    string
		columns int
		widths  []int
		want    []int
	}{
		{"all given", 2, []int{1000, 2000}, []int{1000, 3000}},
		{"none given share the text width", 2, nil, []int{TextWidth / 2, TextWidth / 2 * 2}},
		{"missing and zero widths share the rest", 3, []int{1638, 0}, []int{1638, 5638, 9638}},
		{"extra widths ignored", 1, []int{700, 800}, []int{700}},
		{"at least 1 cm when the given ones fill the page", 2, []int{TextWidth}, []int{TextWidth, TextWidth + 567}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cellEdges(tt.columns, tt.widths); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("cellEdges(%d, %v) = %v, want %v", tt.columns, tt.widths, got, tt.want)
			}
		})
	}
}

func TestImageSize(t *testing.T) {
	tests := []struct {
		name                  string
		pxW, pxH, w, h        int
		wantWidth, wantHeight int
	}{
		{"both given", 4, 2, 3000, 500, 3000, 500},
		{"from pixels at 96 dpi", 4, 2, 0, 0, 60, 30},
		{"height from width", 4, 2, 3000, 0, 3000, 1500},
		{"width from height", 4, 2, 0, 1001, 2002, 1001},
		{"shrunk to the text width", 1000, 500, 0, 0, TextWidth, TextWidth / 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, h := imageSize(tt.pxW, tt.pxH, tt.w, tt.h)
			if w != tt.wantWidth || h != tt.wantHeight {
				t.Errorf("imageSize = %d × %d, want %d × %d", w, h, tt.wantWidth, tt.wantHeight)
			}
		})
	}
}

func TestPNG(t *testing.T) {
	data, err := os.ReadFile("testdata/stripes.png")
	if err != nil {
		t.Fatal(err)
	}
	d := New()
	if err := d.PNG(data, 0, 0); err != nil {
		t.Fatal(err)
	}
	out := string(d.Bytes())
	if !strings.Contains(out, `{\pict\pngblip\picw4\pich2\picwgoal60\pichgoal30`) {
		t.Errorf("picture header missing:\n%s", out)
	}
	start := strings.Index(out, `\pichgoal30`) + len(`\pichgoal30`)
	end := strings.Index(out[start:], "}")
	hex := strings.Join(strings.Fields(out[start:start+end]), "")
	if want := fmt.Sprintf("%x", data); hex != want {
		t.Errorf("picture data\n got %s\nwant %s", hex, want)
	}

	for _, bad := range [][]byte{nil, []byte("GIF89a"), data[:20]} {
		d := New()
		before := string(d.Bytes())
		if err := d.PNG(bad, 100, 100); err == nil {
			t.Errorf("PNG(%q) accepted", bad)
		}
		if string(d.Bytes()) != before {
			t.Errorf("PNG(%q) changed the document", bad)
		}
	}
}

func TestHeaderFooterPlaceholders(t *testing.T) {
	d := New()
	d.Header("{pages} pages, {page} and {other} {")
	d.Footer("Seite {page}")
	out := string(d.Bytes())
	for _, want := range []string{
		`{\header\pard\plain\qr\f0\fs16 {\field{\*\fldinst NUMPAGES}{\fldrslt 1}} pages, \chpgn  and \{other\} \{\par}`,
		`{\footer\pard\plain\qc\f0\fs16 Seite \chpgn \par}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s in\n%s", want, out)
		}
	}
	if strings.Contains(string(New().Bytes()), `{\header`) {
		t.Error("a document without header text has a header")
	}
}

func TestHeadingLevels(t *testing.T) {
	for level, style := range map[int]string{-1: `\s1`, 1: `\s1`, 2: `\s2`, 3: `\s3`, 9: `\s3`} {
		d := New()
		d.Heading(level, "H")
		out := string(d.Bytes())
		_, body, found := strings.Cut(out, `\footery567`)
		if !found {
			t.Fatalf("no page setup in\n%s", out)
		}
		if !strings.Contains(body, `\pard\plain`+style+`\outlinelevel`) {
			t.Errorf("Heading(%d) not written with style %s:\n%s", level, style, body)
		}
	}
}

// FuzzText checks that any text, in any block, leaves the document with
// balanced groups and only 7-bit ASCII, and that the escaped text reads
// back as the text.
func FuzzText(f *testing.F) {
	for _, seed := range []string{"", "plain", "{}\\", "Größe Łódź őű Дренаж", "😀\n\r\t\x00", "\xff\xfe{", `\u1234?`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		d := New()
		d.Title(text)
		d.Header(text)
		d.Footer(text)
		d.Heading(1, text)
		d.Paragraph(text)
		d.Warning(text)
		d.Table([]string{text}, [][]string{{text, text}}, nil)
		d.KeyValues([][2]string{{text, text}})
		checkWellFormed(t, d.Bytes())
		if got, want := unescape(t, Escape(text)), normalise(text); got != want {
			t.Errorf("Escape(%q) = %s reads back as %q, want %q", text, Escape(text), got, want)
		}
	})
}

// checkWellFormed fails unless out is one balanced group of 7-bit ASCII.
func checkWellFormed(t *testing.T, out []byte) {
	t.Helper()
	depth := 0
	for i := 0; i < len(out); i++ {
		switch c := out[i]; {
		case c >= 0x80:
			t.Fatalf("raw non-ASCII byte %#x at %d", c, i)
		case c == '\\':
			i++ // an escaped character or the first letter of a control word
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 && i != len(bytes.TrimRight(out, "\n"))-1 {
				t.Fatalf("document group closed at %d before the end", i)
			}
			if depth < 0 {
				t.Fatalf("unbalanced } at %d", i)
			}
		}
	}
	if depth != 0 {
		t.Fatalf("%d groups left open", depth)
	}
}

// unescape reads text written by writeText back, as an RTF reader with
// Unicode support does, independently of the writer's code.
func unescape(t *testing.T, s string) string {
	t.Helper()
	var units []uint16
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			units = append(units, uint16(s[i]))
			continue
		}
		i++
		if i >= len(s) {
			t.Fatalf("dangling backslash in %q", s)
		}
		if c := s[i]; c == '\\' || c == '{' || c == '}' {
			units = append(units, uint16(c))
			continue
		}
		j := i
		for j < len(s) && s[j] >= 'a' && s[j] <= 'z' {
			j++
		}
		word := s[i:j]
		k := j
		if k < len(s) && s[k] == '-' {
			k++
		}
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		param := s[j:k]
		switch word {
		case "line", "tab":
			if param != "" || k >= len(s) || s[k] != ' ' {
				t.Fatalf("\\%s not closed by a space in %q", word, s)
			}
			units = append(units, map[string]uint16{"line": '\n', "tab": '\t'}[word])
			i = k // the delimiting space
		case "u":
			n, err := strconv.Atoi(param)
			if err != nil || n < -32768 || n > 32767 || k >= len(s) {
				t.Fatalf("bad \\u%s in %q", param, s)
			}
			units = append(units, uint16(int16(n)))
			i = k // skip the one fallback character (\uc1)
		default:
			t.Fatalf("unexpected control word \\%s in %q", word, s)
		}
	}
	return string(utf16.Decode(units))
}

// normalise is what the writer promises to keep of text: line ends as \n,
// tabs, no other control characters, invalid bytes as U+FFFD.
func normalise(text string) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	var b strings.Builder
	for _, r := range text {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// BenchmarkReport builds a document of the size of an "all" report: five
// runs, each with headings, key values, a 60-row table and a picture.
func BenchmarkReport(b *testing.B) {
	image, err := os.ReadFile("testdata/stripes.png")
	if err != nil {
		b.Fatal(err)
	}
	rows := make([][]string, 60)
	for i := range rows {
		rows[i] = []string{strconv.Itoa(i), "12.50", "Größe Дренаж", "0.85"}
	}
	b.ReportAllocs()
	for b.Loop() {
		d := New()
		d.Header("Parkplatz Süd")
		d.Footer("Page {page} of {pages}")
		for range 5 {
			d.Heading(1, "Hydraulics")
			d.KeyValues([][2]string{{"System", "Channel"}, {"Length", "40 m"}})
			d.Table([]string{"Distance", "Depth", "Note", "Froude"}, rows, nil)
			if err := d.PNG(image, 9000, 0); err != nil {
				b.Fatal(err)
			}
			d.PageBreak()
		}
		if len(d.Bytes()) == 0 {
			b.Fatal("empty document")
		}
	}
}
