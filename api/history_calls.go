package api

import (
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"
)

// History calls: a project's versions, a comparison of two, and a copy of
// one into a new project of the caller's. Restoring a version, undo and
// redo are commands (POST /api/projects/{id}/commands with type
// "restore" and a version, "undo" or "redo").

// history is GET /api/projects/{id}/history.
func (s *Server) history(w http.ResponseWriter, r *http.Request) {
	h, err := s.projects.History(r.Context(), actorOf(r), chi.URLParam(r, "id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, h)
}

// versionParam reads a version from the query; 0 with an error when it is
// missing or not a whole number from 1.
func versionParam(r *http.Request, name string) (int64, error) {
	n, err := strconv.ParseInt(r.URL.Query().Get(name), 10, 64)
	if err != nil || n < 1 {
		return 0, badRequestf("%s must be a whole number from 1", name)
	}
	return n, nil
}

// compare is GET /api/projects/{id}/diff?from=A&to=B.
func (s *Server) compare(w http.ResponseWriter, r *http.Request) {
	from, err := versionParam(r, "from")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	to, err := versionParam(r, "to")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d, err := s.projects.Compare(r.Context(), actorOf(r), chi.URLParam(r, "id"), from, to)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, d)
}

// copyVersion is POST /api/projects/{id}/copy {"version": N}: a new draft
// of the caller's with that version's content.
func (s *Server) copyVersion(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Version int64 `json:"version"`
	}
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	p, err := s.projects.CopyVersion(r.Context(), actorOf(r), chi.URLParam(r, "id"), in.Version)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, editAnswer{ID: p.ID, Version: p.Version, Runs: runStates(p)})
}
