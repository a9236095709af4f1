package api

import (
	"net/http"

	"draindesign/api/usecase"
	"draindesign/domain/project"

	"github.com/go-chi/chi/v5"
)

// Live editing. The design screen works on a project stream from the start:
// POST /api/projects/ opens a draft (with Run 1), and every edit is a command
// on it, so a second tab following the stream sees each edit at once. A
// draft joins the user's list when it is first saved.

func (s *Server) createProject(w http.ResponseWriter, r *http.Request) {
	if err := decode(w, r, &struct{}{}); err != nil {
		s.fail(w, r, err)
		return
	}
	p, runID, err := s.projects.CreateDraft(r.Context(), actorOf(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, editAnswer{ID: p.ID, Version: p.Version, RunID: runID, Runs: runStates(p)})
}

// editCommand is POST /api/projects/{id}/commands. Type names the command;
// the other fields are its arguments.
type editCommand struct {
	Type    string          `json:"type"`
	RunID   string          `json:"run_id"`
	Name    string          `json:"name"`
	Fields  project.Inputs  `json:"fields"`
	Notes   *string         `json:"notes"`
	Order   []string        `json:"order"`
	Details project.Details `json:"details"`
	project.Settings
	// Version is the version "restore" brings back ("undo" and "redo" take
	// theirs from the project's history).
	Version int64 `json:"version"`
}

type runState struct {
	ID    string           `json:"id"`
	Name  string           `json:"name"`
	State project.RunState `json:"state"`
}

type editAnswer struct {
	ID      string     `json:"id"`
	Version int64      `json:"version"`
	RunID   string     `json:"run_id,omitempty"`
	Runs    []runState `json:"runs"`
}

func runStates(p *project.Project) []runState {
	out := make([]runState, len(p.Runs))
	for i, r := range p.Runs {
		out[i] = runState{ID: r.ID, Name: r.Name, State: r.State()}
	}
	return out
}

func (s *Server) projectCommand(w http.ResponseWriter, r *http.Request) {
	var c editCommand
	if err := decode(w, r, &c); err != nil {
		s.fail(w, r, err)
		return
	}
	p, newRunID, err := s.projects.EditProject(r.Context(), actorOf(r), chi.URLParam(r, "id"), usecase.Edit{
		Type: c.Type, RunID: c.RunID, Name: c.Name, Fields: c.Fields, Notes: c.Notes, Order: c.Order, Details: c.Details,
		Settings: c.Settings, Version: c.Version,
	})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, editAnswer{ID: p.ID, Version: p.Version, RunID: newRunID, Runs: runStates(p)})
}
