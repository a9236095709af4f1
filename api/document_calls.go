package api

import (
	"context"
	"encoding/json"
	"mime"
	"net/http"
	"strconv"

	"draindesign/api/usecase"
	"draindesign/domain/project"

	"github.com/go-chi/chi/v5"
)

// documentPayload is the body of the document calls (accounts-projects-staff
// section 7): the project details with the rainfall units, and the runs as
// the client holds them.
type documentPayload struct {
	// ProjectID is the saved project the document is of, if any: the
	// owner's documents are recorded in its timeline.
	ProjectID string `json:"project_id"`
	// Details carry the project's settings beside its details: the
	// rainfall units (spec) and the freeboard margin (optional).
	Details struct {
		project.Details
		project.Settings
	} `json:"details"`
	Runs []json.RawMessage `json:"runs"`
}

// profileCSV is POST /drainage/document/csv/{language}/hydraulics/{runIndex}/:
// the hydraulic profile of one run (runIndex counts from 1, as the document
// calls do) as a CSV file for the spreadsheets of that language.
func (s *Server) profileCSV(w http.ResponseWriter, r *http.Request) {
	var in documentPayload
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	n, err := strconv.Atoi(chi.URLParam(r, "runIndex"))
	if err != nil || n < 1 {
		s.fail(w, r, badRequestf("The run index is a whole number from 1"))
		return
	}
	f, err := s.documents.ProfileCSV(r.Context(), actorOf(r), usecase.DocumentRequest{
		ProjectID: in.ProjectID, ProjectName: in.Details.Name, Language: chi.URLParam(r, "language"), Runs: in.Runs,
	}, n-1)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeFile(w, f)
}

// documentPDF is POST /drainage/document/pdf/{language}/{kind}/ and
// .../hydraulics/{runIndex}/: a PDF document of the project in that
// language, every number calculated by the server.
func (s *Server) documentPDF(w http.ResponseWriter, r *http.Request) {
	s.document(w, r, s.documents.PDF)
}

// documentRTF is the same call for RTF, for users with advanced mode.
func (s *Server) documentRTF(w http.ResponseWriter, r *http.Request) {
	s.document(w, r, s.documents.RTF)
}

func (s *Server) document(w http.ResponseWriter, r *http.Request, makeFile func(context.Context, usecase.Actor, usecase.DocumentOrder) (usecase.File, error)) {
	var in documentPayload
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	kind := chi.URLParam(r, "kind")
	if n := chi.URLParam(r, "runIndex"); n != "" {
		kind = "hydraulics/" + n
	}
	f, err := makeFile(r.Context(), actorOf(r), usecase.DocumentOrder{
		DocumentRequest: usecase.DocumentRequest{ProjectID: in.ProjectID, ProjectName: in.Details.Name,
			Language: chi.URLParam(r, "language"), Runs: in.Runs},
		Details: in.Details.Details, Settings: in.Details.Settings, Kind: kind,
	})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeFile(w, f)
}

// writeFile answers a made document as a download.
func writeFile(w http.ResponseWriter, f usecase.File) {
	w.Header().Set("Content-Type", f.ContentType)
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": f.Name}))
	w.Header().Set("Content-Length", strconv.Itoa(len(f.Data)))
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(f.Data)
}
