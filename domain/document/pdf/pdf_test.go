package pdf

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// A4 in PDF points, as pdfinfo reports it.
const a4Width, a4Height = 595.0, 842.0

var fixed = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

// language is one document language's title block and body texts.
type language struct {
	name      string
	meta      TitleBlock
	heading   string
	paragraph string
	warning   string
	pageFmt   string // what the footer of page 2 of 3 must read
}

func languages() []language {
	return []language{
		{"en", TitleBlock{ProjectName: "Riverside Car Park", Location: "Leeds", Reference: "RCP-042",
			Date: "24/11/2026", Designer: "A. Smith", Company: "Drain Ltd", Software: "1.4.2",
			Labels: Labels{"Project", "Location", "Reference", "Date", "Designer", "Company", "Software", "Page %d of %d"}},
			"Hydraulic design", "Flow capacity of the channel run.", "Flooding at 12.5 m", "Page 2 of 3"},
		{"de", TitleBlock{ProjectName: "Parkplatz Süd", Location: "München", Reference: "PS-7",
			Date: "24.11.2026", Designer: "J. Müller", Company: "Entwässerung GmbH", Software: "1.4.2",
			Labels: Labels{"Projekt", "Ort", "Zeichen", "Datum", "Planer", "Firma", "Software", "Seite %d von %d"}},
			"Hydraulische Bemessung", "Abflussleistung der Rinne, Größe und Gefälle.", "Überflutung bei 12,5 m", "Seite 2 von 3"},
		{"bg", TitleBlock{ProjectName: "Паркинг Изток", Location: "София", Reference: "ПИ-3",
			Date: "24.11.2026", Designer: "Иван Петров", Company: "Дренаж ООД", Software: "1.4.2",
			Labels: Labels{"Проект", "Място", "Номер", "Дата", "Проектант", "Фирма", "Софтуер", "Страница %d от %d"}},
			"Хидравлично оразмеряване", "Пропускателна способност на канала.", "Наводнение при 12,5 м", "Страница 2 от 3"},
		{"sr", TitleBlock{ProjectName: "Паркинг Север", Location: "Београд", Reference: "ПС-9",
			Date: "24.11.2026.", Designer: "Ђорђе Јовић", Company: "Одводњавање д.о.о.", Software: "1.4.2",
			Labels: Labels{"Пројекат", "Локација", "Ознака", "Датум", "Пројектант", "Фирма", "Софтвер", "Страна %d од %d"}},
			"Хидраулички прорачун", "Проток љубичасте цеви џ ћ ђ.", "Плављење на 12,5 м", "Страна 2 од 3"},
		{"pl", TitleBlock{ProjectName: "Parking Łódź", Location: "Kraków", Reference: "PŁ-1",
			Date: "24.11.2026", Designer: "Zażółć Gęślą", Company: "Odwodnienia Sp. z o.o.", Software: "1.4.2",
			Labels: Labels{"Projekt", "Lokalizacja", "Numer", "Data", "Projektant", "Firma", "Program", "Strona %d z %d"}},
			"Obliczenia hydrauliczne", "Przepływ w korycie, źródło i spadek.", "Zalanie na 12,5 m", "Strona 2 z 3"},
		{"hu", TitleBlock{ProjectName: "Győri parkoló", Location: "Győr", Reference: "GY-5",
			Date: "2026.11.24.", Designer: "Őri Ödön", Company: "Vízelvezetés Kft.", Software: "1.4.2",
			Labels: Labels{"Projekt", "Helyszín", "Azonosító", "Dátum", "Tervező", "Cég", "Szoftver", "%d. oldal / %d"}},
			"Hidraulikai méretezés", "Szállítóképesség és árvízkockázat.", "Elöntés 12,5 m-nél", "2. oldal / 3"},
		{"hr", TitleBlock{ProjectName: "Parkiralište Čakovec", Location: "Čakovec", Reference: "PČ-2",
			Date: "24. 11. 2026.", Designer: "Đuro Šimić", Company: "Odvodnja d.o.o.", Software: "1.4.2",
			Labels: Labels{"Projekt", "Lokacija", "Oznaka", "Datum", "Projektant", "Tvrtka", "Softver", "Stranica %d od %d"}},
			"Hidraulički proračun", "Protočnost kanala, žlijeb i pad.", "Plavljenje na 12,5 m", "Stranica 2 od 3"},
		{"sl", TitleBlock{ProjectName: "Parkirišče Žalec", Location: "Žalec", Reference: "PŽ-4",
			Date: "24. 11. 2026", Designer: "Čebašek Špela", Company: "Odvodnjavanje d.o.o.", Software: "1.4.2",
			Labels: Labels{"Projekt", "Lokacija", "Oznaka", "Datum", "Projektant", "Podjetje", "Programska oprema", "Stran %d od %d"}},
			"Hidravlični izračun", "Pretočnost kanalete in naklon.", "Poplavljanje pri 12,5 m", "Stran 2 od 3"},
	}
}

// build makes a PDF and fails the test on an error.
func build(t *testing.T, meta TitleBlock, content func(*Doc)) []byte {
	t.Helper()
	meta.Created = fixed
	d := New(meta)
	content(d)
	data, err := d.Bytes()
	if err != nil {
		t.Fatalf("Bytes: %v", err)
	}
	return data
}

func mustContain(t *testing.T, where, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, fold(w)) {
			t.Errorf("%s: %q missing from\n%s", where, w, text)
		}
	}
}

// TestLanguages checks that every language's letters survive the embedded
// fonts, that each page has the title block and the right "page x of y",
// and that pages are A4.
func TestLanguages(t *testing.T) {
	requirePoppler(t)
	for _, lang := range languages() {
		t.Run(lang.name, func(t *testing.T) {
			path := writePDF(t, build(t, lang.meta, func(d *Doc) {
				d.Heading(lang.heading)
				d.Paragraph(lang.paragraph)
				d.PageBreak()
				d.Warning(lang.warning)
				d.PageBreak()
				d.Paragraph(lang.paragraph)
			}))
			info := readInfo(t, path)
			if info.Pages != 3 || math.Round(info.Width) != a4Width || math.Round(info.Height) != a4Height {
				t.Fatalf("pdfinfo = %+v, want 3 pages of %vx%v pts", info, a4Width, a4Height)
			}
			m, l := lang.meta, lang.meta.Labels
			for p := 1; p <= 3; p++ {
				text := pageText(t, path, p)
				where := fmt.Sprintf("page %d", p)
				mustContain(t, where, text, m.ProjectName, m.Location, m.Reference, m.Date, m.Designer,
					m.Company, m.Software, l.Project, l.Location, l.Reference, l.Date, l.Designer,
					l.Company, l.Software, fmt.Sprintf(l.Page, p, 3))
			}
			mustContain(t, "page 1", pageText(t, path, 1), lang.heading, lang.paragraph)
			mustContain(t, "page 2", pageText(t, path, 2), lang.pageFmt, "⚠ "+lang.warning)
			mustContain(t, "page 3", pageText(t, path, 3), lang.paragraph)
		})
	}
}

// TestRequiredWords pins the words the issue names, so a font that lost
// Cyrillic or Polish or Hungarian letters cannot pass unnoticed.
func TestRequiredWords(t *testing.T) {
	requirePoppler(t)
	words := []string{"Проект", "Przepływ", "Szállítóképesség", "Größe", "Đuro Šimić", "Ђорђе"}
	path := writePDF(t, build(t, TitleBlock{ProjectName: "Words"}, func(d *Doc) {
		for _, w := range words {
			d.Paragraph(w)
		}
	}))
	mustContain(t, "page 1", pageText(t, path, 1), words...)
}

// TestDefaultLabels: a title block without translations still reads.
func TestDefaultLabels(t *testing.T) {
	requirePoppler(t)
	path := writePDF(t, build(t, TitleBlock{ProjectName: "Bare"}, func(d *Doc) { d.Paragraph("x") }))
	mustContain(t, "page 1", pageText(t, path, 1), "Project", "Designer", "Software", "Page 1 of 1")
}

// TestLongTitleValue: a value too long for its box is cut, not spilled.
func TestLongTitleValue(t *testing.T) {
	requirePoppler(t)
	long := strings.Repeat("Company ", 20)
	path := writePDF(t, build(t, TitleBlock{ProjectName: "P", Company: long}, func(d *Doc) {}))
	text := pageText(t, path, 1)
	mustContain(t, "page 1", text, "Company Company Com…")
	if strings.Contains(text, fold(long)) {
		t.Errorf("the whole long company name was printed:\n%s", text)
	}
}

// TestReproducible: with a fixed creation time the same content gives the
// same bytes, which later golden tests rely on.
func TestReproducible(t *testing.T) {
	content := func(d *Doc) {
		d.Heading("Heading")
		d.Table([]Column{{Title: "A"}, {Title: "B"}}, [][]string{{"1", "2"}})
	}
	a := build(t, languages()[2].meta, content)
	b := build(t, languages()[2].meta, content)
	if !bytes.Equal(a, b) {
		t.Error("two builds of the same document differ")
	}
	if !bytes.HasPrefix(a, []byte("%PDF-")) {
		t.Errorf("not a PDF: %q", a[:min(len(a), 16)])
	}
}
