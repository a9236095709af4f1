package usecase

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"

	"draindesign/domain/catalogue"
	"draindesign/domain/document/profilecsv"
	"draindesign/domain/fault"
	"draindesign/domain/project"
)

// Documents make the designer's deliverables from a document request: the
// project's details and its runs as the client holds them. Every number a
// document prints is calculated here, never taken from the request.
type Documents struct {
	cat      *catalogue.Catalogue
	projects *Projects
	now      func() time.Time
}

// NewDocuments builds the document use cases; documents of a saved project
// are recorded in it through projects.
func NewDocuments(cfg Config, projects *Projects) *Documents {
	cfg = cfg.withDefaults()
	return &Documents{cat: cfg.Catalogue, projects: projects, now: cfg.Now}
}

// DocumentRequest is what a document is made from (accounts-projects-staff
// section 3, "Document request").
type DocumentRequest struct {
	// ProjectID names the saved project the document is made of, if any:
	// its owner's documents are recorded in its stream.
	ProjectID   string
	ProjectName string
	Language    string
	// Runs are the run objects as the client sends them to calculate.
	Runs []json.RawMessage
}

// File is a made document.
type File struct {
	Name        string
	ContentType string
	Data        []byte
}

// ProfileCSV is the hydraulic profile of run index (0-based) as CSV, with
// the decimal and column separators of the language's spreadsheets.
func (u *Documents) ProfileCSV(ctx context.Context, a Actor, in DocumentRequest, index int) (File, error) {
	if err := signedIn(a); err != nil {
		return File{}, err
	}
	loc, err := profilecsv.LocaleFor(in.Language)
	if err != nil {
		return File{}, fault.New(fault.BadInput, "Unknown document language %q", in.Language)
	}
	if index < 0 || index >= len(in.Runs) {
		return File{}, fault.New(fault.BadInput, "There is no run %d in this project: it has %d", index+1, len(in.Runs))
	}
	run, err := u.calculated(in.Runs[index], index)
	if err != nil {
		return File{}, err
	}
	data, err := profilecsv.Profile(run.Results, loc)
	if err != nil {
		return File{}, fault.New(fault.BadInput, "%s", sentence(err.Error()))
	}
	if err := u.record(ctx, a, in, fmt.Sprintf("hydraulics/%d", index+1), "csv"); err != nil {
		return File{}, err
	}
	return File{
		Name:        fileName(in.ProjectName, run.Name, "profile", in.Language, "csv"),
		ContentType: profilecsv.ContentType,
		Data:        data,
	}, nil
}

// record notes a document made of a saved project in its stream when the
// actor may write it; anyone else's documents (a share-link holder's, say)
// are theirs alone and change nothing.
func (u *Documents) record(ctx context.Context, a Actor, in DocumentRequest, kind, format string) error {
	if in.ProjectID == "" || u.projects == nil {
		return nil
	}
	p, err := u.projects.repo.Load(ctx, in.ProjectID)
	if fault.Of(err) == fault.NotFound || (err == nil && !p.CanWrite(a.Viewer(""))) {
		return nil
	}
	if err != nil {
		return err
	}
	at := u.now().UTC()
	_, err = u.projects.update(ctx, a, in.ProjectID, -1, func(p *project.Project) ([]project.Event, error) {
		return p.RecordDocument(kind, format, in.Language, at)
	})
	return err
}

// fileName joins the parts that say what a document is into a name every
// file system takes: letters and digits kept (any script), the rest dashes.
func fileName(parts ...string) string {
	ext := parts[len(parts)-1]
	var words []string
	for _, p := range parts[:len(parts)-1] {
		w := strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return r
			}
			return '-'
		}, strings.TrimSpace(p))
		w = strings.Trim(strings.Join(strings.FieldsFunc(w, func(r rune) bool { return r == '-' }), "-"), "-")
		if w != "" {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		words = []string{"document"}
	}
	return fmt.Sprintf("%s.%s", strings.Join(words, "-"), ext)
}

// sentence starts a message with a capital, as users read it.
func sentence(s string) string {
	s = strings.TrimPrefix(s, "profile csv: ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
