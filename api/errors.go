package api

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/catalogue"
	"draindesign/domain/fault"
	"draindesign/eventstore"

	"github.com/go-chi/chi/v5/middleware"
)

// Texts the client shows as they are (accounts-projects-staff.md section 8).
const (
	msgServerError    = "Server error, try again later"
	msgExpiredSession = "Your session has expired. Please log in again (for example in another tab) and try again."
	msgBadLogin       = "Unable to log in with the provided credentials."
	// Not in the spec: the answer while the database restarts (503).
	msgUnavailable = "The server cannot reach its database at the moment. Please try again in a few seconds."
)

// unavailableRetry is the Retry-After of a 503 for an unreachable
// database: a restart of PostgreSQL takes a few seconds.
const unavailableRetry = time.Second

type errorBody struct {
	Error string `json:"error"`
}

func badRequestf(format string, a ...any) error { return fault.New(fault.BadInput, format, a...) }

func notFound(msg string) error     { return &fault.Error{K: fault.NotFound, Message: msg} }
func forbidden(msg string) error    { return &fault.Error{K: fault.Forbidden, Message: msg} }
func unauthorized(msg string) error { return &fault.Error{K: fault.Unauthenticated, Message: msg} }
func tooMany(msg string) error      { return &fault.Error{K: fault.Limit, Message: msg} }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

var statusOf = map[fault.Kind]int{
	fault.BadInput:        http.StatusBadRequest,
	fault.TooLarge:        http.StatusRequestEntityTooLarge,
	fault.Unauthenticated: http.StatusUnauthorized,
	fault.Forbidden:       http.StatusForbidden,
	fault.NotFound:        http.StatusNotFound,
	fault.Conflict:        http.StatusConflict,
	fault.Limit:           http.StatusTooManyRequests,
	fault.Timeout:         http.StatusRequestTimeout,
	fault.Unavailable:     http.StatusServiceUnavailable,
}

// writeError is the one place where errors become HTTP answers: the kind
// gives the status, the error its message and any extra fields. Anything
// without a kind is a server fault: logged in full, answered in general.
func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	kind, msg := classify(err)
	status, known := statusOf[kind]
	if !known {
		log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err,
			"request_id", middleware.GetReqID(r.Context()))
		reportError(r, err)
		writeJSON(w, http.StatusInternalServerError, errorBody{msgServerError})
		return
	}
	body := fault.DetailsOf(err)
	body["error"] = msg
	wait := fault.RetryAfter(err)
	if kind == fault.Unavailable {
		// Not the client's fault nor a bug: logged, not reported.
		log.Warn("request failed: database unreachable", "method", r.Method, "path", r.URL.Path, "err", err,
			"request_id", middleware.GetReqID(r.Context()))
		wait = max(wait, unavailableRetry)
	}
	if kind == fault.Limit || kind == fault.Unavailable {
		if wait > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int((wait+999_999_999)/1_000_000_000)))
		}
		drainBody(r)
	}
	writeJSON(w, status, body)
}

// drainBody reads what is left of the request's body (at most maxBody) before
// an answer that asks the client to try again. Answered before its body was
// read (a save refused while the session could not be read), a large
// request was cut off by the server closing the connection, and the client
// got a reset instead of the answer: under `make load`'s database cut, saves
// failed that way instead of waiting.
func drainBody(r *http.Request) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, maxBody))
	}
}

// classify gives the kind and user text of err, including the few errors
// of packages that do not speak in kinds.
func classify(err error) (fault.Kind, string) {
	if k := fault.Of(err); k != fault.Internal {
		return k, fault.Message(err)
	}
	var (
		cnf  *catalogue.NotFoundError
		creq *catalogue.RequestError
		cun  *catalogue.UnavailableError
	)
	switch {
	case errors.As(err, &cnf), errors.As(err, &creq), errors.As(err, &cun):
		// Catalogue look-ups answer for their query parameters.
		return fault.BadInput, strings.TrimPrefix(err.Error(), "catalogue: ")
	case errors.Is(err, account.ErrNotFound), errors.Is(err, account.ErrDeleted):
		return fault.NotFound, "No such user"
	case errors.Is(err, eventstore.ErrConflict):
		return fault.Conflict, "Someone else changed this at the same time; please try again"
	case databaseUnreachable(err):
		return fault.Unavailable, msgUnavailable
	}
	return fault.Internal, ""
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	writeError(w, r, s.log, err)
}
