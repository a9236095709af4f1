// Package report turns a project and its calculated runs into the PDF
// documents of POST /drainage/document/pdf/{language}/{kind}/: the
// introduction, one run's hydraulics, the materials, the system
// information, or all of them behind a contents page; RTF makes the same
// documents as editable RTF (…/document/rtf/…), from the same content
// functions written to a target of either format. It is pure: texts
// come from a Translator, numbers from the server's own calculation, and
// the same input with the same Created time gives the same bytes.
package report

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"draindesign/domain/design"
	"draindesign/domain/document/pdf"
	"draindesign/domain/project"
)

// Translator gives the text of a catalogue key in the document language,
// with {{.name}}-style data already filled in by the caller (go-i18n); a
// missing key comes back as English.
type Translator func(key string, data map[string]any) string

// Run is one calculated run of the project.
type Run struct {
	Name    string
	Notes   string
	Request *design.Request // the inputs it was calculated from
	Results *design.Results // calculated by the server, never taken from the client
}

// Project is everything a document prints.
type Project struct {
	Details       project.Details // name, location, reference, date, company, designer, telephone, email
	RainfallUnits string          // "mm/h", "l/s/m2" or "l/(s*ha)"
	// FreeboardMargin flags runs with little freeboard; the zero value
	// flags none, so callers pass the project's (Settings.FreeboardMargin).
	FreeboardMargin project.FreeboardMargin
	Runs            []Run
	Language        string // product code: en, de, fr, bg, hu, it, hr, nl, pl, rs, si (decimal comma for all but en)
	Software        string // "draindesign <version>"
	Created         time.Time
}

// Kind is the document asked for.
type Kind struct {
	Name string // "introduction", "materials", "information", "all", "hydraulics"
	Run  int    // 1-based, for "hydraulics"
}

// Document kinds.
const (
	Introduction = "introduction"
	Materials    = "materials"
	Information  = "information"
	All          = "all"
	Hydraulics   = "hydraulics"
)

// ParseKind reads the kind part of the document path: "introduction",
// "materials", "information", "all" or "hydraulics/<run>" (1-based), with
// or without a trailing slash.
func ParseKind(path string) (Kind, error) {
	p := strings.Trim(path, "/")
	switch p {
	case Introduction, Materials, Information, All:
		return Kind{Name: p}, nil
	}
	if rest, ok := strings.CutPrefix(p, Hydraulics+"/"); ok {
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 || strconv.Itoa(n) != rest {
			return Kind{}, fmt.Errorf("document kind %q: the run index must be a whole number from 1", path)
		}
		return Kind{Name: Hydraulics, Run: n}, nil
	}
	return Kind{}, fmt.Errorf("document kind %q: want introduction, materials, information, all or hydraulics/<run>", path)
}

// ErrNoRun is returned for a hydraulics document of a run the project lacks.
var ErrNoRun = errors.New("no such run")

// PDF makes the document k of project p in the language t speaks.
func PDF(p Project, k Kind, t Translator) ([]byte, error) {
	if err := checkInput(p, k); err != nil {
		return nil, err
	}
	w := newWriter(p, t)
	doc := pdf.New(w.titleBlock())
	w.d = doc
	if err := w.content(k); err != nil {
		return nil, err
	}
	out, err := doc.Bytes()
	if err != nil {
		return nil, fmt.Errorf("%s document: %w", k.Name, err)
	}
	return out, nil
}

// checkInput refuses a hydraulics document of a run the project lacks and
// a run without its calculation, for either format.
func checkInput(p Project, k Kind) error {
	if k.Name == Hydraulics && (k.Run < 1 || k.Run > len(p.Runs)) {
		return fmt.Errorf("hydraulics document of run %d of %d: %w", k.Run, len(p.Runs), ErrNoRun)
	}
	for i, r := range p.Runs {
		if r.Request == nil || r.Results == nil {
			return fmt.Errorf("run %d (%s) has no calculation", i+1, r.Name)
		}
	}
	switch k.Name {
	case Introduction, Hydraulics, Materials, Information, All:
		return nil
	}
	return fmt.Errorf("document kind %q unknown", k.Name)
}

func newWriter(p Project, t Translator) *writer {
	return &writer{p: p, t: t, num: numbers{comma: p.Language != "en" && p.Language != ""}}
}

// content writes the document k to w.d, whichever format it is.
func (w *writer) content(k Kind) error {
	switch k.Name {
	case Introduction:
		w.introduction()
	case Hydraulics:
		w.hydraulics(k.Run - 1)
	case Materials:
		w.materials()
	case Information:
		w.information()
	case All:
		w.all()
	default:
		return fmt.Errorf("document kind %q unknown", k.Name)
	}
	return nil
}

// writer builds one document.
type writer struct {
	p   Project
	t   Translator
	d   target // the PDF or RTF document being written
	num numbers
}

// tr translates a key without data.
func (w *writer) tr(key string) string { return w.t(key, nil) }

// trd translates a key with data given as name, value pairs.
func (w *writer) trd(key string, pairs ...any) string {
	data := make(map[string]any, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		data[fmt.Sprint(pairs[i])] = pairs[i+1]
	}
	return w.t(key, data)
}

func (w *writer) titleBlock() pdf.TitleBlock {
	d := w.p.Details
	return pdf.TitleBlock{
		ProjectName: d.Name,
		Location:    d.Location,
		Reference:   d.Reference,
		Date:        d.Date,
		Designer:    d.Designer,
		Company:     d.Company,
		Software:    w.p.Software,
		Created:     w.p.Created,
		Labels: pdf.Labels{
			Project:   w.tr("documents.pdf.project"),
			Location:  w.tr("documents.details.location"),
			Reference: w.tr("documents.pdf.reference"),
			Date:      w.tr("documents.details.date"),
			Designer:  w.tr("documents.details.designer"),
			Company:   w.tr("documents.details.company"),
			Software:  w.tr("documents.pdf.software"),
			// The page caption is a printf format; the catalogue's
			// placeholders become indexed verbs so a language may order them.
			Page: w.trd("documents.pdf.page", "page", "%[1]d", "pages", "%[2]d"),
		},
	}
}

// all is every document in one file behind a contents page.
func (w *writer) all() {
	w.d.Contents(w.tr("documents.pdf.contents"))
	w.introduction()
	for i := range w.p.Runs {
		w.d.PageBreak()
		w.hydraulics(i)
	}
	w.d.PageBreak()
	w.materials()
	w.d.PageBreak()
	w.information()
}
