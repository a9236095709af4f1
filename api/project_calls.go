package api

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"draindesign/api/projects"
	"draindesign/domain/account"
	"draindesign/domain/design"
	"draindesign/domain/project"
	"draindesign/projections/projectlist"
	"draindesign/projections/timeline"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

func actor(r *http.Request) projects.Actor {
	return projects.Actor{UserID: currentUser(r).ID, CorrelationID: middleware.GetReqID(r.Context())}
}

// savePayload is POST /drainage/save/. Runs are the client's run objects,
// kept as JSON: the domain reads a handful of their fields.
type savePayload struct {
	Project struct {
		SaveID          string                       `json:"saveID"`
		Version         *int64                       `json:"version"`
		Details         project.Details              `json:"details"`
		Notes           string                       `json:"notes"`
		RainfallUnits   string                       `json:"rainfall_units"`
		DefaultRainfall *float64                     `json:"default_rainfall"`
		Runs            []map[string]json.RawMessage `json:"runs"`
	} `json:"project"`
	Share bool `json:"share"`
}

func (p savePayload) content() (project.Content, error) {
	c := project.Content{
		Details:  p.Project.Details,
		Settings: project.Settings{RainfallUnits: p.Project.RainfallUnits, DefaultRainfall: p.Project.DefaultRainfall},
		Notes:    p.Project.Notes,
	}
	for i, raw := range p.Project.Runs {
		var head struct {
			SaveID string
			Name   string
			Notes  string
		}
		// The run's results are not read: the domain recalculates them.
		for key, dst := range map[string]any{"saveID": &head.SaveID, "name": &head.Name, "notes": &head.Notes} {
			if v, ok := raw[key]; ok && string(v) != "null" {
				if err := json.Unmarshal(v, dst); err != nil {
					return c, badRequestf("Run %d: field %q has the wrong type", i+1, key)
				}
			}
		}
		if strings.TrimSpace(head.Name) == "" {
			return c, badRequestf("Run %d needs a name", i+1)
		}
		c.Runs = append(c.Runs, project.SavedRun{ID: head.SaveID, Name: head.Name, Notes: head.Notes, Inputs: project.InputsFrom(raw)})
	}
	return c, nil
}

func (s *Server) save(w http.ResponseWriter, r *http.Request) {
	var in savePayload
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	content, err := in.content()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	me := currentUser(r)
	by := project.SaveBy{UserID: me.ID, UserName: me.Username, ShareWithProvider: in.Share, At: s.cfg.Now().UTC()}
	var runIDs []string
	decide := func(p *project.Project) ([]project.Event, error) {
		if p.Owner != me.ID {
			return nil, &forbidden{"Only the owner can save over this project; use Save as new to keep your own copy"}
		}
		evs, ids, err := p.Save(content, by, projects.NewID, design.Verifier(s.catalogue()))
		runIDs = ids
		return evs, err
	}
	var p *project.Project
	if in.Project.SaveID == "" {
		p, err = s.projects.Create(r.Context(), projects.NewID(), me.ID, me.Username, me.Country, actor(r), decide)
	} else {
		// The version the client loaded is what makes a save from a stale
		// tab a conflict rather than a silent overwrite.
		if in.Project.Version == nil {
			s.fail(w, r, badRequestf("Field \"version\" is required when saving over an existing project"))
			return
		}
		p, err = s.projects.Execute(r.Context(), in.Project.SaveID, *in.Project.Version, actor(r), decide)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.settle(r, p)
	writeJSON(w, http.StatusOK, map[string]any{"saveID": p.ID, "runSaveIDs": runIDs, "version": p.Version})
}

// settle waits until this instance's read models show the project at its
// new version, so the list the client asks for next includes the change.
func (s *Server) settle(r *http.Request, p *project.Project) {
	if s.cfg.Runner == nil {
		return
	}
	if err := s.cfg.Runner.WaitForStream(r.Context(), project.Stream(p.ID), p.Version); err != nil {
		s.log.Warn("read models behind after write", "project", p.ID, "err", err)
	}
}

func (s *Server) projectList(w http.ResponseWriter, r *http.Request) {
	items, err := projectlist.Owned(r.Context(), s.cfg.DB, currentUser(r).ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, items)
}

// access says whether user may read project p, and may write it.
func access(user *account.Account, p *project.Project) (read, write bool) {
	flags := user.Flags()
	switch {
	case p.Deleted:
		return flags.IsAdmin, false
	case p.Owner == user.ID:
		return true, true
	case flags.IsAdmin, p.ShareID != "", p.ShareWithProvider && flags.SharedProjects:
		return true, false
	}
	return false, false
}

func (s *Server) load(w http.ResponseWriter, r *http.Request) {
	var in struct {
		ShareID   string `json:"shareID"`
		SupportID string `json:"supportID"`
		SuperID   string `json:"superID"`
		ID        string `json:"id"`
	}
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	me := currentUser(r)
	id, err := s.resolveLoad(r, me, in.ShareID, in.SupportID, in.SuperID, in.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p, err := s.projects.Load(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	canRead, canWrite := access(me, p)
	if !canRead || (p.Deleted && in.SuperID == "") {
		s.fail(w, r, errNoProject)
		return
	}
	if len(p.Runs) == 0 {
		s.fail(w, r, badRequestf("No runs in project!"))
		return
	}
	schedule := make([]string, len(p.Runs))
	for i, run := range p.Runs {
		schedule[i] = p.ID + "." + run.ID
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"saveID": p.ID, "version": p.Version, "schedule": schedule, "details": p.Details, "notes": p.Notes,
		"rainfall_units": p.Settings.RainfallUnits, "default_rainfall": p.Settings.DefaultRainfall,
		"share": p.ShareWithProvider, "owner": p.OwnerName, "editable": canWrite,
		"created": p.Created, "last_saved": p.LastSaved, "saved_by": p.LastSavedByName,
	})
}

// resolveLoad turns the one identifier a load names into a project id,
// checking the right that identifier needs.
func (s *Server) resolveLoad(r *http.Request, me *account.Account, shareID, supportID, superID, id string) (string, error) {
	given := 0
	for _, v := range []string{shareID, supportID, superID, id} {
		if v != "" {
			given++
		}
	}
	if given != 1 {
		return "", badRequestf("Give exactly one of shareID, supportID, superID or id")
	}
	switch {
	case shareID != "":
		return orMissing(projectlist.ByShareID(r.Context(), s.cfg.DB, shareID))
	case supportID != "":
		n, err := strconv.ParseInt(supportID, 10, 64)
		if err != nil {
			return "", badRequestf("supportID must be a number")
		}
		if !me.Flags().SharedProjects && !me.Flags().IsAdmin {
			return "", errNoProject
		}
		return orMissing(projectlist.BySupportID(r.Context(), s.cfg.DB, n))
	case superID != "":
		if !me.Flags().IsAdmin {
			return "", &forbidden{"Only staff may do this"}
		}
		return superID, nil
	}
	return id, nil
}

// errNoProject answers alike for a project that does not exist and one the
// user may not see, so nobody learns which projects exist.
var errNoProject = &notFound{"The project could not be loaded: it does not exist or you have no access to it"}

func orMissing(pid string, found bool, err error) (string, error) {
	if err == nil && !found {
		err = errNoProject
	}
	return pid, err
}

// loadRun is GET /drainage/load/{key}/, one schedule entry: "<project>.<run>".
func (s *Server) loadRun(w http.ResponseWriter, r *http.Request) {
	pid, runID, ok := strings.Cut(chi.URLParam(r, "key"), ".")
	if !ok {
		s.fail(w, r, badRequestf("A load key is a project id and a run id joined by a dot"))
		return
	}
	p, err := s.projects.Load(r.Context(), pid)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if canRead, _ := access(currentUser(r), p); !canRead {
		s.fail(w, r, errNoProject)
		return
	}
	run, found := p.Run(runID)
	if !found {
		s.fail(w, r, &notFound{"No such run in this project"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": run.ID, "run": runView(run)})
}

// runView is a run as the client holds it: its inputs, with identity, notes,
// results and state alongside.
func runView(run *project.Run) map[string]any {
	out := make(map[string]any, len(run.Inputs)+6)
	for k, v := range run.Inputs {
		out[k] = v
	}
	out["saveID"], out["name"], out["notes"], out["state"] = run.ID, run.Name, run.Notes, run.State()
	if run.Summary != nil {
		out["results"] = run.Summary
	}
	return out
}

func (s *Server) share(w http.ResponseWriter, r *http.Request) {
	var in struct {
		ID string `json:"id"`
	}
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	me := currentUser(r)
	var shareID string
	p, err := s.projects.Execute(r.Context(), in.ID, -1, actor(r), func(p *project.Project) ([]project.Event, error) {
		if p.Owner != me.ID {
			return nil, &project.NotFoundError{What: "project", ID: in.ID}
		}
		evs, id, err := p.ShareByLink(projects.NewID())
		shareID = id
		return evs, err
	})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.settle(r, p)
	writeJSON(w, http.StatusOK, s.publicURL(r)+"/"+shareID)
}

func (s *Server) deleteProject(w http.ResponseWriter, r *http.Request) {
	var in struct {
		ID string `json:"id"`
	}
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	me := currentUser(r)
	p, err := s.projects.Execute(r.Context(), in.ID, -1, actor(r), func(p *project.Project) ([]project.Event, error) {
		if p.Owner != me.ID {
			return nil, &project.NotFoundError{What: "project", ID: in.ID}
		}
		return p.Delete(s.cfg.Now().UTC())
	})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.settle(r, p)
	writeJSON(w, http.StatusOK, map[string]any{"deleted": in.ID})
}

func (s *Server) sharedProjects(w http.ResponseWriter, r *http.Request) {
	f := currentUser(r).Flags()
	if !f.SharedProjects && !f.IsAdmin {
		s.fail(w, r, &forbidden{"You have no access to shared projects"})
		return
	}
	items, err := projectlist.SharedWithProvider(r.Context(), s.cfg.DB, r.URL.Query().Get("creator"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, items)
}

// timeline is the project's events with author and time, and with
// ?version=N the project as it stood after event N, for support replay.
func (s *Server) timeline(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	p, err := s.projects.Load(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	me := currentUser(r)
	f := me.Flags()
	if p.Owner != me.ID && !f.IsAdmin && !(f.SharedProjects && p.ShareWithProvider) {
		s.fail(w, r, errNoProject)
		return
	}
	entries, err := timeline.List(r.Context(), s.cfg.DB, id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	answer := map[string]any{"project": id, "version": p.Version, "events": entries}
	if v := r.URL.Query().Get("version"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 || n > p.Version {
			s.fail(w, r, badRequestf("version must be a number from 1 to %d", p.Version))
			return
		}
		at, err := s.projects.LoadAt(r.Context(), id, n)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		answer["state"] = stateView(at)
	}
	writeJSON(w, http.StatusOK, answer)
}

func stateView(p *project.Project) map[string]any {
	runs := make([]map[string]any, len(p.Runs))
	for i, run := range p.Runs {
		runs[i] = runView(run)
	}
	return map[string]any{
		"version": p.Version, "details": p.Details, "notes": p.Notes, "runs": runs,
		"saved": p.Saved, "deleted": p.Deleted, "share_with_provider": p.ShareWithProvider, "shared_by_link": p.ShareID != "",
	}
}
