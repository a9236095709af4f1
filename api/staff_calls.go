package api

import (
	"net/http"
	"strconv"

	"draindesign/domain/account"
	"draindesign/projections/userlist"

	"github.com/go-chi/chi/v5"
)

func (s *Server) staffUsers(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	users, err := s.queries.Users(r.Context(), actorOf(r), userlist.Filter{Search: q.Get("search"), HideBlocked: q.Get("hide_blocked") == "true" || q.Get("hide_blocked") == "1"})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, users)
}

func (s *Server) staffUserProjects(w http.ResponseWriter, r *http.Request) {
	items, err := s.queries.ProjectsOf(r.Context(), actorOf(r), chi.URLParam(r, "id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, items)
}

// staffAction runs a staff use case on the user in the path; the domain
// decides whether the acting staff member may.
func (s *Server) staffAction(w http.ResponseWriter, r *http.Request, act func(r *http.Request, id string) (*account.Account, error)) {
	a, err := act(r, chi.URLParam(r, "id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": a.ID, "blocked": a.Blocked, "group": a.Group, "deleted": a.Deleted})
}

func (s *Server) staffBlock(w http.ResponseWriter, r *http.Request) {
	s.staffAction(w, r, func(r *http.Request, id string) (*account.Account, error) {
		return s.accounts.Block(r.Context(), actorOf(r), id)
	})
}

func (s *Server) staffUnblock(w http.ResponseWriter, r *http.Request) {
	s.staffAction(w, r, func(r *http.Request, id string) (*account.Account, error) {
		return s.accounts.Unblock(r.Context(), actorOf(r), id)
	})
}

func (s *Server) staffDelete(w http.ResponseWriter, r *http.Request) {
	s.staffAction(w, r, func(r *http.Request, id string) (*account.Account, error) {
		return s.accounts.DeleteUser(r.Context(), actorOf(r), id)
	})
}

func (s *Server) staffGroup(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Group string `json:"group"`
	}
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	g, err := account.ParseGroup(in.Group)
	if err != nil {
		s.fail(w, r, badRequestf("Unknown permission group %q", in.Group))
		return
	}
	s.staffAction(w, r, func(r *http.Request, id string) (*account.Account, error) {
		return s.accounts.ChangeGroup(r.Context(), actorOf(r), id, g)
	})
}

func (s *Server) staffCalculations(w http.ResponseWriter, r *http.Request) {
	limit := 200
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			s.fail(w, r, badRequestf("limit must be a number from 1 to 5000"))
			return
		}
		limit = n
	}
	rows, err := s.queries.Calculations(r.Context(), actorOf(r), r.URL.Query().Get("user"), limit)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, rows)
}
