package api

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"draindesign/api/projects"
	"draindesign/domain/account"
	"draindesign/domain/catalogue"
	"draindesign/domain/design"
	"draindesign/domain/project"
	"draindesign/domain/rainfall"
	"draindesign/domain/storage"
	"draindesign/eventstore"

	"github.com/go-chi/chi/v5/middleware"
)

// Texts the client shows as they are (accounts-projects-staff.md section 8).
const (
	msgServerError    = "Server error, try again later"
	msgExpiredSession = "Your session has expired. Please log in again (for example in another tab) and try again."
	msgBadLogin       = "Unable to log in with the provided credentials."
)

type errorBody struct {
	Error string `json:"error"`
}

type notFound struct{ msg string }

func (e *notFound) Error() string { return e.msg }

type forbidden struct{ msg string }

func (e *forbidden) Error() string { return e.msg }

type unauthorized struct{ msg string }

func (e *unauthorized) Error() string { return e.msg }

type tooMany struct{ msg string }

func (e *tooMany) Error() string { return e.msg }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError is the one place where errors become HTTP answers. Anything it
// does not recognise is a server fault: logged in full, answered in general.
func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	var (
		bad  *badRequest
		nf   *notFound
		fb   *forbidden
		un   *unauthorized
		many *tooMany
		pv   *project.ValidationError
		pnf  *project.NotFoundError
		pfb  *project.ForbiddenError
		av   *account.ValidationError
		afb  *account.ForbiddenError
		dv   *design.ValidationError
		dl   *design.LengthMismatchError
		dc   *design.CalculationError
		dd   *design.DecodeError
		cnf  *catalogue.NotFoundError
		creq *catalogue.RequestError
		cun  *catalogue.UnavailableError
		rout *rainfall.OutsideError
		rin  *rainfall.InputError
		sin  *storage.InputError
	)
	switch {
	case errors.As(err, &av):
		// Per-field errors as the registration form reads them, plus one
		// readable sentence for any client that reads only "error".
		body := map[string]any{"error": av.Error()}
		for f, msgs := range av.Fields {
			body[f] = msgs
		}
		writeJSON(w, http.StatusBadRequest, body)
	case errors.As(err, &bad):
		writeJSON(w, http.StatusBadRequest, errorBody{bad.msg})
	case errors.As(err, &pv):
		writeJSON(w, http.StatusBadRequest, errorBody{pv.Message})
	case errors.As(err, &dv):
		// The field at fault, and in a shared calculation the run.
		body := map[string]any{"error": dv.Message}
		if dv.Field != "" {
			body["field"] = dv.Field
		}
		if run := failedRun(err); run != "" {
			body["run"] = run
		}
		writeJSON(w, http.StatusBadRequest, body)
	case errors.As(err, &dl):
		// The client sets its lengthsNotMatching flag from lengthDoNotMatch.
		writeJSON(w, http.StatusBadRequest, map[string]any{
			"error": dl.Error(), "lengthDoNotMatch": true, "short": dl.Short(), "difference_m": dl.DifferenceM(),
		})
	case errors.As(err, &dc):
		body := map[string]any{"error": dc.Message}
		if run := failedRun(err); run != "" {
			body["run"] = run
		}
		writeJSON(w, http.StatusBadRequest, body)
	case errors.As(err, &dd):
		writeJSON(w, http.StatusBadRequest, errorBody{dd.Message})
	case errors.As(err, &cnf), errors.As(err, &creq), errors.As(err, &cun):
		// Catalogue look-ups answer for their query parameters.
		writeJSON(w, http.StatusBadRequest, errorBody{strings.TrimPrefix(err.Error(), "catalogue: ")})
	case errors.As(err, &rout):
		// Worded for the designer: outside the UK, or in the sea.
		writeJSON(w, http.StatusBadRequest, errorBody{rout.Error()})
	case errors.As(err, &rin):
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": rin.Field + " " + rin.Reason, "field": rin.Field})
	case errors.As(err, &sin):
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": sin.Error(), "field": sin.Field})
	case errors.As(err, &un):
		writeJSON(w, http.StatusUnauthorized, errorBody{un.msg})
	case errors.As(err, &fb):
		writeJSON(w, http.StatusForbidden, errorBody{fb.msg})
	case errors.As(err, &pfb):
		writeJSON(w, http.StatusForbidden, errorBody{pfb.Reason})
	case errors.As(err, &afb):
		writeJSON(w, http.StatusForbidden, errorBody{afb.Reason})
	case errors.As(err, &nf):
		writeJSON(w, http.StatusNotFound, errorBody{nf.msg})
	case errors.As(err, &pnf):
		writeJSON(w, http.StatusNotFound, errorBody{errNoProject.msg})
	case errors.Is(err, account.ErrNotFound), errors.Is(err, account.ErrDeleted):
		writeJSON(w, http.StatusNotFound, errorBody{"No such user"})
	case errors.As(err, &many):
		writeJSON(w, http.StatusTooManyRequests, errorBody{many.msg})
	case errors.Is(err, projects.ErrStale):
		writeJSON(w, http.StatusConflict, errorBody{projects.ErrStale.Error()})
	case errors.Is(err, eventstore.ErrConflict):
		writeJSON(w, http.StatusConflict, errorBody{"Someone else changed this at the same time; please try again"})
	default:
		log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err,
			"request_id", middleware.GetReqID(r.Context()))
		writeJSON(w, http.StatusInternalServerError, errorBody{msgServerError})
	}
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	writeError(w, r, s.log, err)
}
