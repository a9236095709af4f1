package usecase

import (
	"context"
	"encoding/json"
	"fmt"

	"draindesign/api/locale"
	"draindesign/domain/account"
	"draindesign/domain/design"
	"draindesign/domain/document/report"
	"draindesign/domain/fault"
	"draindesign/domain/project"
)

// Software names the program and version on every document's title block.
var Software = "draindesign"

// DocumentOrder is a document request for one kind of document.
type DocumentOrder struct {
	DocumentRequest
	Details project.Details
	// Settings carry the rainfall units and the freeboard margin.
	Settings project.Settings
	// Kind is the document path of the call: introduction, materials,
	// information, all or hydraulics/N.
	Kind string
}

// PDF makes a PDF document in the request's language. Every run is
// calculated here; a run that does not calculate refuses the document with
// its reason and the run's name.
func (u *Documents) PDF(ctx context.Context, a Actor, in DocumentOrder) (File, error) {
	return u.document(ctx, a, in, "pdf")
}

// RTF makes the same document as editable text, for advanced users only.
func (u *Documents) RTF(ctx context.Context, a Actor, in DocumentOrder) (File, error) {
	if err := signedIn(a); err != nil {
		return File{}, err
	}
	if !a.User.Flags().HasAdvancedMode {
		return File{}, fault.New(fault.Forbidden, "RTF documents come with advanced mode")
	}
	return u.document(ctx, a, in, "rtf")
}

func (u *Documents) document(ctx context.Context, a Actor, in DocumentOrder, format string) (File, error) {
	if err := signedIn(a); err != nil {
		return File{}, err
	}
	if !account.ValidLanguage(in.Language) {
		return File{}, fault.New(fault.BadInput, "Unknown document language %q", in.Language)
	}
	kind, err := report.ParseKind(in.Kind)
	if err != nil {
		return File{}, fault.New(fault.BadInput, "Unknown document %q: use introduction, materials, information, all or hydraulics/<run number>", in.Kind)
	}
	if kind.Name == "hydraulics" && (kind.Run < 1 || kind.Run > len(in.Runs)) {
		return File{}, fault.New(fault.BadInput, "There is no run %d in this project: it has %d", kind.Run, len(in.Runs))
	}
	if len(in.Runs) == 0 {
		return File{}, fault.New(fault.BadInput, "No runs in project!")
	}
	runs := make([]report.Run, len(in.Runs))
	for i, raw := range in.Runs {
		if runs[i], err = u.calculated(raw, i); err != nil {
			return File{}, err
		}
	}
	for i := range runs {
		if n, ok := project.DefaultRunNumber(runs[i].Name); ok {
			runs[i].Name = locale.T(in.Language, "runs.defaultName", map[string]any{"n": n})
		}
	}
	render := report.PDF
	if format == "rtf" {
		render = report.RTF
	}
	data, err := render(report.Project{
		Details: in.Details, RainfallUnits: in.Settings.RainfallUnits, FreeboardMargin: in.Settings.FreeboardMargin(),
		Runs: runs, Language: in.Language,
		Software: Software, Created: u.now().UTC(),
	}, kind, func(key string, data map[string]any) string { return locale.T(in.Language, key, data) })
	if err != nil {
		return File{}, fmt.Errorf("make %s document: %w", in.Kind, err)
	}
	if err := u.record(ctx, a, in.DocumentRequest, in.Kind, format); err != nil {
		return File{}, err
	}
	contentType := map[string]string{"pdf": "application/pdf", "rtf": "application/rtf"}[format]
	return File{Name: fileName(in.ProjectName, kindWord(kind), in.Language, format), ContentType: contentType, Data: data}, nil
}

// calculated is run i of a document request, calculated by the server.
func (u *Documents) calculated(raw json.RawMessage, i int) (report.Run, error) {
	var head struct {
		Name  string `json:"name"`
		Notes string `json:"notes"`
	}
	_ = json.Unmarshal(raw, &head)
	if head.Name == "" {
		head.Name = fmt.Sprintf("Run %d", i+1)
	}
	req, err := design.DecodeRequest(raw)
	if err != nil {
		return report.Run{}, inRun(head.Name, err)
	}
	ans, err := design.Calculate(u.cat, req)
	if err != nil {
		return report.Run{}, inRun(head.Name, err)
	}
	return report.Run{Name: head.Name, Notes: head.Notes, Request: req, Results: ans.Results}, nil
}

// inRun names the run a refusal belongs to, keeping the refusal's kind.
func inRun(name string, err error) error {
	return &fault.Error{K: fault.Of(err), Message: fmt.Sprintf("%s: %s", name, fault.Message(err)), Err: err,
		Fields: map[string]any{"run_name": name}}
}

func kindWord(k report.Kind) string {
	if k.Name == "hydraulics" {
		return fmt.Sprintf("hydraulics-%d", k.Run)
	}
	return k.Name
}
