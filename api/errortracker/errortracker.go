// Package errortracker sends server errors to a tracker that speaks the
// Sentry protocol (Sentry itself, GlitchTip, a self-hosted relay), with
// the spec's settings and with personal data taken out before anything
// leaves the process.
package errortracker

import (
	"net/http"
	"regexp"
	"strings"

	"github.com/getsentry/sentry-go"
)

// Settings configure the tracker; an empty DSN means no tracker.
type Settings struct {
	DSN         string
	Environment string
	Release     string
	// Transport overrides the SDK's HTTP transport (nil: the SDK's own).
	Transport sentry.Transport
}

// New makes the client of the tracker, or nil when no DSN is set: the
// tracker is optional and the product runs the same without it.
func New(s Settings) (*sentry.Client, error) {
	if strings.TrimSpace(s.DSN) == "" {
		return nil, nil
	}
	return sentry.NewClient(sentry.ClientOptions{
		Dsn:         s.DSN,
		Environment: s.Environment,
		Release:     s.Release,
		// The spec's production settings: every request traced, every
		// error with the stack of where it was reported.
		EnableTracing:    true,
		TracesSampleRate: 1,
		AttachStacktrace: true,
		// Never the SDK's own collection of cookies, all headers and the
		// peer's address; Scrub removes what could still slip through.
		SendDefaultPII: false,
		BeforeSend: func(e *sentry.Event, _ *sentry.EventHint) *sentry.Event {
			return Scrub(e)
		},
		BeforeSendTransaction: func(e *sentry.Event, _ *sentry.EventHint) *sentry.Event {
			return Scrub(e)
		},
		Transport: s.Transport,
	})
}

var email = regexp.MustCompile(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}`)

// Headers that carry who the caller is: credentials, cookies and the
// client's address.
var personalHeaders = []string{"Authorization", "Cookie", "Set-Cookie", "X-Forwarded-For", "X-Real-Ip", "Forwarded", "Proxy-Authorization"}

// Scrub removes personal data from an event: the user, cookies, the
// request's body and query (reset and confirmation links carry tokens and
// addresses there), identifying headers, and any e-mail address in a
// message. Passwords and names only ever arrive in request bodies, which
// are never attached.
func Scrub(e *sentry.Event) *sentry.Event {
	if e == nil {
		return nil
	}
	e.User = sentry.User{}
	e.ServerName = ""
	if req := e.Request; req != nil {
		req.Cookies = ""
		req.Data = ""
		req.QueryString = ""
		req.Env = nil
		for k := range req.Headers {
			for _, p := range personalHeaders {
				if http.CanonicalHeaderKey(k) == p {
					delete(req.Headers, k)
				}
			}
		}
		req.URL = email.ReplaceAllString(req.URL, "[email]")
	}
	e.Message = email.ReplaceAllString(e.Message, "[email]")
	for i := range e.Exception {
		e.Exception[i].Value = email.ReplaceAllString(e.Exception[i].Value, "[email]")
		dropSource(e.Exception[i].Stacktrace)
	}
	for i := range e.Threads {
		dropSource(e.Threads[i].Stacktrace)
	}
	for _, b := range e.Breadcrumbs {
		b.Message = email.ReplaceAllString(b.Message, "[email]")
		b.Data = nil
	}
	return e
}

// dropSource keeps file, function and line of each frame but not the lines
// of code around it, which may hold literals (test data, fixed addresses)
// and which the tracker can show from the repository instead.
func dropSource(st *sentry.Stacktrace) {
	if st == nil {
		return
	}
	for i := range st.Frames {
		st.Frames[i].PreContext, st.Frames[i].ContextLine, st.Frames[i].PostContext = nil, "", nil
	}
}
