package api

import (
	"net/http"

	"draindesign/api/projects"
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
	me := currentUser(r)
	runID := projects.NewID()
	p, err := s.projects.Create(r.Context(), projects.NewID(), me.ID, me.Username, me.Country, actor(r), func(p *project.Project) ([]project.Event, error) {
		return p.AddRun(runID)
	})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, editAnswer{ID: p.ID, Version: p.Version, RunID: runID, Runs: runStates(p)})
}

// editCommand is POST /api/projects/{id}/commands. Type names the command;
// the other fields are its arguments.
type editCommand struct {
	Type            string          `json:"type"`
	RunID           string          `json:"run_id"`
	Name            string          `json:"name"`
	Fields          project.Inputs  `json:"fields"`
	Notes           *string         `json:"notes"`
	Order           []string        `json:"order"`
	Details         project.Details `json:"details"`
	RainfallUnits   string          `json:"rainfall_units"`
	DefaultRainfall *float64        `json:"default_rainfall"`
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

func (c editCommand) decide(newRunID string) (projects.Decision, error) {
	switch c.Type {
	case "add_run":
		return func(p *project.Project) ([]project.Event, error) { return p.AddRun(newRunID) }, nil
	case "rename_run":
		return func(p *project.Project) ([]project.Event, error) { return p.Rename(c.RunID, c.Name) }, nil
	case "duplicate_run":
		return func(p *project.Project) ([]project.Event, error) { return p.Duplicate(c.RunID, newRunID) }, nil
	case "remove_run":
		return func(p *project.Project) ([]project.Event, error) { return p.RemoveRun(c.RunID, newRunID) }, nil
	case "reorder_runs":
		return func(p *project.Project) ([]project.Event, error) { return p.Reorder(c.Order) }, nil
	case "change_inputs":
		if len(c.Fields) == 0 {
			return nil, badRequestf("change_inputs needs the changed fields")
		}
		return func(p *project.Project) ([]project.Event, error) { return p.ChangeInputs(c.RunID, c.Fields) }, nil
	case "change_notes":
		if c.Notes == nil {
			return nil, badRequestf("change_notes needs notes")
		}
		return func(p *project.Project) ([]project.Event, error) { return p.ChangeNotes(c.RunID, *c.Notes) }, nil
	case "reset_run":
		return func(p *project.Project) ([]project.Event, error) { return p.Reset(c.RunID) }, nil
	case "change_details":
		return func(p *project.Project) ([]project.Event, error) {
			return p.ChangeDetails(c.Details, project.Settings{RainfallUnits: c.RainfallUnits, DefaultRainfall: c.DefaultRainfall}, p.Notes)
		}, nil
	}
	return nil, badRequestf("Unknown command %q", c.Type)
}

func (s *Server) projectCommand(w http.ResponseWriter, r *http.Request) {
	var c editCommand
	if err := decode(w, r, &c); err != nil {
		s.fail(w, r, err)
		return
	}
	newRunID := projects.NewID()
	decide, err := c.decide(newRunID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	me := currentUser(r)
	id := chi.URLParam(r, "id")
	p, err := s.projects.Execute(r.Context(), id, -1, actor(r), func(p *project.Project) ([]project.Event, error) {
		if p.Owner != me.ID {
			return nil, &project.NotFoundError{What: "project", ID: id}
		}
		return decide(p)
	})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ans := editAnswer{ID: p.ID, Version: p.Version, Runs: runStates(p)}
	if _, ok := p.Run(newRunID); ok {
		ans.RunID = newRunID
	}
	writeJSON(w, http.StatusOK, ans)
}
