package api

import (
	"net/http"

	"github.com/getsentry/sentry-go"
	"github.com/go-chi/chi/v5/middleware"
)

// track gives each request its own hub of the error tracker (so scopes of
// concurrent requests never mix) and a transaction, when a tracker is
// configured. Server errors and panics report through this hub: see
// writeError and recoverer.
func (s *Server) track(next http.Handler) http.Handler {
	if s.cfg.Errors == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hub := sentry.NewHub(s.cfg.Errors, sentry.NewScope())
		hub.Scope().SetRequest(r)
		hub.Scope().SetTag("request_id", middleware.GetReqID(r.Context()))
		ctx := sentry.SetHubOnContext(r.Context(), hub)
		tx := sentry.StartTransaction(ctx, r.Method+" "+r.URL.Path,
			sentry.WithOpName("http.server"), sentry.WithTransactionSource(sentry.SourceURL))
		defer tx.Finish()
		next.ServeHTTP(w, r.WithContext(tx.Context()))
	})
}

// ClientErrors configure the web client's error reporting.
type ClientErrors struct {
	DSN         string
	Environment string
}

type clientConfigBody struct {
	SentryDSN         string `json:"sentryDsn"`
	SentryEnvironment string `json:"sentryEnvironment"`
	FeedbackEmail     string `json:"feedbackEmail"`
}

// clientConfig tells the web client, before anyone signs in, where to
// report its errors and where the feedback page's mail goes. A DSN holds
// only a public key: it is meant for browsers.
func (s *Server) clientConfig(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, clientConfigBody{
		SentryDSN: s.cfg.ClientErrors.DSN, SentryEnvironment: s.cfg.ClientErrors.Environment, FeedbackEmail: s.cfg.FeedbackEmail,
	})
}

// reportError sends a server error to the tracker of the request, if any.
func reportError(r *http.Request, err error) {
	if hub := sentry.GetHubFromContext(r.Context()); hub != nil {
		hub.CaptureException(err)
	}
}

// reportPanic sends a recovered panic to the tracker of the request, if any.
func reportPanic(r *http.Request, v any) {
	if hub := sentry.GetHubFromContext(r.Context()); hub != nil {
		hub.RecoverWithContext(r.Context(), v)
	}
}
