package api

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"draindesign/api/usecase"
	"draindesign/domain/project"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// Project calls: each decodes, calls one use case and encodes. Who may do
// what is decided in the use cases, by the domain's access rules.

// actorOf is who makes the request: the signed-in account (nil when none),
// the request id as the cause of the events it writes, and the client's
// correlation id (X-Correlation-Id) or else the request id.
func actorOf(r *http.Request) usecase.Actor {
	reqID := middleware.GetReqID(r.Context())
	corr := strings.TrimSpace(r.Header.Get("X-Correlation-Id"))
	if corr == "" || len(corr) > 128 {
		corr = reqID
	}
	return usecase.Actor{User: currentUser(r), CorrelationID: corr, CausationID: reqID, Token: viaToken(r)}
}

// savePayload is POST /drainage/save/. Runs are the client's run objects;
// the domain keeps their design inputs.
type savePayload struct {
	Project struct {
		SaveID  string          `json:"saveID"`
		Version *int64          `json:"version"`
		Details project.Details `json:"details"`
		Notes   string          `json:"notes"`
		project.Settings
		Runs []map[string]json.RawMessage `json:"runs"`
	} `json:"project"`
	Share bool `json:"share"`
	// RequestID names the request, so that one sent again after its answer
	// was lost is answered alike (usecase.Save.RequestID).
	RequestID string `json:"request_id"`
}

func (p savePayload) content() (project.Content, error) {
	c := project.Content{
		Details:  p.Project.Details,
		Settings: p.Project.Settings,
		Notes:    p.Project.Notes,
	}
	for i, raw := range p.Project.Runs {
		var head struct {
			SaveID string
			LinkID string
			Name   string
			Notes  string
		}
		// The run's results are not read: the domain recalculates them.
		for key, dst := range map[string]any{"saveID": &head.SaveID, "linkID": &head.LinkID, "name": &head.Name, "notes": &head.Notes} {
			if v, ok := raw[key]; ok && string(v) != "null" {
				if err := json.Unmarshal(v, dst); err != nil {
					return c, badRequestf("Run %d: field %q has the wrong type", i+1, key)
				}
			}
		}
		if strings.TrimSpace(head.Name) == "" {
			return c, badRequestf("Run %d needs a name", i+1)
		}
		c.Runs = append(c.Runs, project.SavedRun{ID: head.SaveID, LinkID: head.LinkID, Name: head.Name, Notes: head.Notes, Inputs: project.InputsFrom(raw)})
	}
	return c, nil
}

func (s *Server) save(w http.ResponseWriter, r *http.Request) {
	var in savePayload
	if err := decodeSave(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	content, err := in.content()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	saved, err := s.projects.SaveProject(r.Context(), actorOf(r), usecase.Save{
		ProjectID: in.Project.SaveID, Version: in.Project.Version, Content: content, ShareWithProvider: in.Share,
		RequestID: in.RequestID,
		// The heavy slot covers the recalculation, if any, not the wait on
		// the store.
		Calculate: func(f func()) error { return s.heavyCalculate(r, f) },
		Verified:  func() { heavyDone(r) },
	})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"saveID": saved.Project.ID, "runSaveIDs": saved.RunIDs, "version": saved.Version})
}

func (s *Server) projectList(w http.ResponseWriter, r *http.Request) {
	items, err := s.queries.OwnProjects(r.Context(), actorOf(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, items)
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
	o, err := s.projects.Open(r.Context(), actorOf(r), usecase.OpenBy{ShareID: in.ShareID, SupportID: in.SupportID, SuperID: in.SuperID, ID: in.ID})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p := o.Project
	schedule := make([]string, len(p.Runs))
	for i, run := range p.Runs {
		schedule[i] = o.RunKey(run.ID)
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"saveID": p.ID, "version": p.Version, "schedule": schedule, "details": p.Details, "notes": p.Notes,
		"rainfall_units": p.Settings.RainfallUnits, "default_rainfall": p.Settings.DefaultRainfall,
		"freeboard_min_mm": p.Settings.FreeboardMinMM, "freeboard_min_percent": p.Settings.FreeboardMinPercent,
		"share": p.ShareWithProvider, "owner": p.OwnerName, "editable": o.Editable,
		"created": p.Created, "last_saved": p.LastSaved, "saved_by": p.LastSavedByName,
	})
}

// loadRun is GET /drainage/load/{key}/, one schedule entry of a load.
func (s *Server) loadRun(w http.ResponseWriter, r *http.Request) {
	// The client escapes the key (a share key's colon arrives as %3A), and
	// chi hands the segment over as it came.
	key, err := url.PathUnescape(chi.URLParam(r, "key"))
	if err != nil {
		s.fail(w, r, badRequestf("A load key is a project id and a run id joined by a dot"))
		return
	}
	run, err := s.projects.OpenRun(r.Context(), actorOf(r), key)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": run.ID, "run": runView(run)})
}

// runView is a run as the client holds it: its inputs, with identity, notes,
// results and state alongside.
func runView(run *project.Run) map[string]any { return usecase.RunView(run) }

// projectRef is the body of the calls that name one project.
type projectRef struct {
	ID string `json:"id"`
}

func (s *Server) share(w http.ResponseWriter, r *http.Request) {
	var in projectRef
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	shareID, err := s.projects.Share(r.Context(), actorOf(r), in.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.publicURL(r)+"/"+shareID)
}

// unshare is POST /drainage/unshare/: the share link stops working.
func (s *Server) unshare(w http.ResponseWriter, r *http.Request) {
	var in projectRef
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.projects.StopSharing(r.Context(), actorOf(r), in.ID); err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": in.ID, "shared": false})
}

func (s *Server) deleteProject(w http.ResponseWriter, r *http.Request) {
	var in projectRef
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.projects.Delete(r.Context(), actorOf(r), in.ID); err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"deleted": in.ID})
}

func (s *Server) sharedProjects(w http.ResponseWriter, r *http.Request) {
	items, err := s.queries.SharedWithProvider(r.Context(), actorOf(r), r.URL.Query().Get("creator"))
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
	var at int64
	if v := r.URL.Query().Get("version"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			s.fail(w, r, badRequestf("version must be a whole number from 1"))
			return
		}
		at = n
	}
	h, err := s.projects.Timeline(r.Context(), actorOf(r), id, at)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	answer := map[string]any{"project": id, "version": h.Project.Version, "events": h.Events}
	if h.At != nil {
		answer["state"] = stateView(h.At)
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
		// The settings, so that a version can be shown as the design screen showed it.
		"rainfall_units": p.Settings.RainfallUnits, "default_rainfall": p.Settings.DefaultRainfall,
		"freeboard_min_mm": p.Settings.FreeboardMinMM, "freeboard_min_percent": p.Settings.FreeboardMinPercent,
		"owner": p.OwnerName,
	}
}
