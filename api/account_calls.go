package api

import (
	"net/http"
)

// accountExport is GET /api/account/export/: a ZIP of the user's account
// data and every saved project with its PDF document (docs/privacy.md).
func (s *Server) accountExport(w http.ResponseWriter, r *http.Request) {
	f, err := s.exports.Export(r.Context(), actorOf(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeFile(w, f)
}

// accountDelete is DELETE /api/account/ {password}: the user closes their
// own account; its personal data is erased and the session ends.
func (s *Server) accountDelete(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Password string `json:"password"`
	}
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.accounts.DeleteOwn(r.Context(), actorOf(r), in.Password); err != nil {
		s.fail(w, r, err)
		return
	}
	s.clearSessionCookie(w, r)
	writeJSON(w, http.StatusOK, map[string]string{"detail": "Account deleted"})
}
