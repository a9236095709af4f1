// Package api is the HTTP and WebSocket face of draindesign under /api: the
// calls of the specs' call tables, plus the timeline and the live project
// stream. Handlers decode, call a command or a read model, and answer; the
// mapping of errors to statuses lives in errors.go only.
package api

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"path"
	"strings"
	"time"

	"draindesign/api/lowpriority"
	"draindesign/api/mail"
	"draindesign/api/usecase"
	"draindesign/eventstore"
	"draindesign/metrics"
	"draindesign/projections"
	"draindesign/projections/offer"

	"github.com/getsentry/sentry-go"
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// Config is what the API needs from the process that runs it.
type Config struct {
	// Lifetime, when set, is the instance's life: while it lasts the
	// server watches the log for erasures (WatchErasures), so that its
	// cached copies need not be loaded whole every usecase.CacheMaxAge,
	// and rechecks the sessions and accounts in use together
	// (keepAuthFresh). Nil (tests): neither; the copies age, and each
	// request reads its session and account again after authTrust.
	Lifetime context.Context
	Store    eventstore.Store
	DB       *projections.DB
	Runner   *projections.Runner
	Feed     *projections.Feed
	// Appended is called after every append, with the stream and where
	// the append landed (the relay's Notify, the live hints, the runner).
	Appended func(stream string, res eventstore.AppendResult, types []string)
	// Skipped is told of each stored event of a type this build does not
	// know, skipped while loading an aggregate.
	Skipped func(stream, eventType string)
	Mail    mail.Sender
	// Secret signs confirmation and reset links.
	Secret []byte
	// PublicURL is the address people use (https://drains.example.com):
	// the base of every mailed and shared link, and https makes the session
	// cookie Secure. Required.
	PublicURL string
	// TrustedProxies may report the client's address in X-Forwarded-For or
	// X-Real-IP; from any other peer those headers are ignored.
	TrustedProxies []netip.Prefix
	Limits         Limits
	// Calculations are the threads the engine runs on, below the network
	// work's priority (nil: each request's own).
	Calculations *lowpriority.Threads
	Logger       *slog.Logger
	// Client is the built web client, served for every path outside /api.
	Client fs.FS
	// Translations keeps the overrides (nil: made here, refreshed on read
	// only; the app passes one it also keeps watching).
	Translations *usecase.Translations
	// WebLinksFile is staff's data file of the top bar's web links (""
	// for the release's default).
	WebLinksFile string
	// Errors is the client of the error tracker (nil: none); server
	// errors and panics are reported to it.
	Errors *sentry.Client
	// ClientErrors is what the web client is told of the tracker
	// (GET /api/client-config/); an empty DSN keeps its reporting off.
	ClientErrors ClientErrors
	// Eraser erases a deleted account's personal data from the event log
	// (the app's *privacy.Store; nil: deleting an account fails).
	Eraser usecase.Eraser
	// FeedbackEmail is where the feedback page's mail link writes to
	// (FEEDBACK_EMAIL; empty: the page shows its texts without a link).
	FeedbackEmail string
	Now           func() time.Time
}

// Server holds the API's collaborators.
type Server struct {
	cfg      Config
	caches   *usecase.Caches
	accounts *usecase.Accounts
	projects *usecase.Projects
	queries  *usecase.Queries
	// documents make the designer's deliverables.
	documents *usecase.Documents
	// exports are a user's copy of their data.
	exports *usecase.Exports
	// availability changes what each country is offered.
	availability *usecase.Availability
	// translations are the translators' overrides and the help topics.
	translations *usecase.Translations
	webLinks     *usecase.WebLinks
	sessions     *sessions
	// live re-checks this instance's live connections (live_watch.go).
	live *liveWatcher
	// liveViews shares encoded project views between live streams.
	liveViews liveViews
	// offers is what each country has withdrawn, as read lately.
	offers recentReads[string, offer.Withdrawn]
	log    *slog.Logger

	clients       clientAddrs
	logins        *loginLimiter
	signups       *addrRate
	resets        *addrRate
	heavyCalls    *heavyLimiter
	tokenRate     *addrRate
	secureCookies bool
}

// New builds the HTTP handler. It creates the sessions table if missing.
func New(ctx context.Context, cfg Config) (http.Handler, error) {
	s, err := newServer(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if cfg.Lifetime != nil {
		go s.WatchErasures(cfg.Lifetime)
		go s.keepAuthFresh(cfg.Lifetime)
	}
	return s.handler(), nil
}

// newServer builds the Server behind New's handler.
func newServer(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Appended == nil {
		cfg.Appended = func(string, eventstore.AppendResult, []string) {}
	}
	public, err := parsePublicURL(cfg.PublicURL)
	if err != nil {
		return nil, err
	}
	cfg.PublicURL = public
	cfg.Limits = cfg.Limits.withDefaults()
	lim := cfg.Limits
	caches := usecase.NewCaches()
	uc := usecase.Config{Store: cfg.Store, DB: cfg.DB, Runner: cfg.Runner, Appended: cfg.Appended,
		Skipped: cfg.Skipped, Now: cfg.Now, Logger: cfg.Logger, Eraser: cfg.Eraser, Caches: caches}
	sess := &sessions{db: cfg.DB, now: cfg.Now}
	projects := usecase.NewProjects(uc)
	accounts := usecase.NewAccounts(uc, sess, cfg.Secret)
	documents := usecase.NewDocuments(uc, projects)
	s := &Server{
		caches:       caches,
		cfg:          cfg,
		accounts:     accounts,
		projects:     projects,
		queries:      usecase.NewQueries(cfg.DB, cfg.Runner),
		documents:    documents,
		exports:      usecase.NewExports(uc, accounts, projects, documents),
		availability: usecase.NewAvailability(uc),
		translations: cfg.Translations,
		webLinks:     usecase.NewWebLinks(cfg.WebLinksFile),
		sessions:     sess,
		log:          cfg.Logger,

		clients:       clientAddrs{trusted: cfg.TrustedProxies},
		logins:        newLoginLimiter(lim, cfg.Now),
		signups:       newAddrRate(lim.RequestsBurst, lim.RequestsEvery, cfg.Now),
		resets:        newAddrRate(lim.RequestsBurst, lim.RequestsEvery, cfg.Now),
		heavyCalls:    newHeavyLimiter(lim.HeavyPerUser, lim.HeavyTotal, lim.HeavyQueue),
		tokenRate:     newAddrRate(lim.TokenBurst, lim.TokenEvery, cfg.Now),
		secureCookies: strings.HasPrefix(public, "https://"),
	}
	s.live = newLiveWatcher(s)
	if s.translations == nil {
		s.translations = usecase.NewTranslations(uc)
	}
	if err := s.sessions.setup(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// handler routes every path: the calls under /api, the help pages and the
// web client.
func (s *Server) handler() http.Handler {
	cfg := s.cfg
	r := chi.NewRouter()
	// No RealIP: the client's address comes from clientKey, which believes
	// forwarding headers only from trusted proxies.
	r.Use(middleware.RequestID, metrics.Requests, s.track, s.recoverer)
	s.mount(r)
	// The help pages of the spec's calls, outside /api.
	r.Get("/static/help/{locale}/{file}", s.helpPage)
	if cfg.Client != nil {
		// Help videos are files of the client build (web/public).
		r.Handle("/static/help/videos/*", helpVideos(cfg.Client))
		r.Handle("/*", spa(cfg.Client))
	}
	// Browsers send Sec-Fetch-Site/Origin; a cross-site state-changing
	// request is refused before any handler sees it (requests with an API
	// token excepted: see crossOriginUnlessBearer).
	return crossOriginUnlessBearer(r)
}

// mount puts every call under /api.
func (s *Server) mount(r chi.Router) { r.Route("/api", s.routes) }

func (s *Server) routes(r chi.Router) {
	// Every other call ends in a slash; a load balancer's probe may be
	// written either way, so health answers both.
	health := func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	}
	r.Get("/health", health)
	r.Get("/health/", health)
	// The load balancer's probes (docs/decisions.md, "Metrics and
	// probes"): live says the process answers, ready that its stores do.
	r.Get("/health/live/", health)
	r.Get("/health/ready/", s.ready)
	r.Get("/client-config/", s.clientConfig)
	r.Post("/auth/login/", s.login)
	r.Post("/auth/logout/", s.logout)
	r.Post("/auth/token/refresh/", s.refresh)
	r.With(s.limitResets).Post("/auth/password/reset/", s.resetRequest)
	r.Post("/auth/password/reset/confirm/", s.resetConfirm)
	r.Get("/auth/confirm/", s.confirmEmail)
	r.With(s.limitSignups).Post("/drainage/register/", s.register)
	r.Get("/drainage/countries/", s.countries)
	// The catalogues and help are for everyone, signed in or not.
	r.Get("/locales/", s.localeRevisions)
	r.Get("/locales/{lang}.json", s.localeCatalogue)
	r.Get("/drainage/help-topics", s.helpTopics)
	r.Get("/drainage/feature-sheet/{version}/{language}/", s.featureSheet)

	// The API's own description (docs/api.md) and its reference page.
	r.Get("/openapi.json", s.openAPIDocument)
	r.Get("/docs/", s.apiDocsPage)

	r.Group(func(r chi.Router) {
		r.Use(s.requireUser)
		r.Get("/auth/me/", s.me)
		// Personal API tokens, managed from a session only.
		r.Get("/auth/tokens/", s.apiTokens)
		r.Post("/auth/tokens/", s.createAPIToken)
		r.Delete("/auth/tokens/{id}/", s.revokeAPIToken)
		r.Patch("/drainage/user_settings/", s.userSettings)
		r.Patch("/drainage/user_settings/country/", s.userCountry)
		r.Get("/account/export/", s.accountExport)
		r.Delete("/account/", s.accountDelete)

		// A save recalculates every run it cannot vouch for: heavy, with
		// the instance slot taken only when it does.
		r.With(s.heavyLater).Post("/drainage/save/", s.save)
		r.Get("/drainage/projects/", s.projectList)
		r.Post("/drainage/load/", s.load)
		r.Get("/drainage/load/{key}/", s.loadRun)
		r.Post("/drainage/share/", s.share)
		r.Post("/drainage/unshare/", s.unshare)
		r.Delete("/drainage/delete/", s.deleteProject)
		r.Get("/drainage/shared_projects/", s.sharedProjects)
		r.Post("/projects/", s.createProject)
		r.Post("/projects/{id}/commands", s.projectCommand)
		r.Get("/projects/{id}/timeline", s.timeline)
		r.Get("/projects/{id}/history", s.history)
		r.Get("/projects/{id}/diff", s.compare)
		r.Post("/projects/{id}/copy", s.copyVersion)
		r.Get("/ws", s.websocket)

		r.Get("/drainage/weblinks/", s.webLinksOf)
		r.Get("/drainage/product/", s.products)
		r.With(s.heavyLater).Post("/drainage/calculate/", s.calculate)
		r.With(s.heavyLater).Post("/drainage/calculate_shared/", s.calculateShared)
		r.Post("/drainage/materials/", s.materials)
		r.Get("/drainage/endcap/with_outlet/", s.endCapsWithOutlet)
		r.Get("/drainage/trashbox/discharges/", s.trashBoxDischarges)
		r.Get("/drainage/channel/subproducts/", s.subProducts)
		r.Get("/drainage/channel/", s.channels)

		r.With(s.heavy).Post("/rainfall/findRainStats/", s.findRainStats)
		r.Post("/rainfall/updateRainStats/", s.updateRainStats)
		r.With(s.heavy).Post("/drainage/calculate_storage/", s.calculateStorage)
		r.With(s.heavy).Post("/drainage/document/csv/{language}/hydraulics/{runIndex}/", s.profileCSV)
		r.With(s.heavy).Post("/drainage/document/pdf/{language}/{kind}/", s.documentPDF)
		r.With(s.heavy).Post("/drainage/document/pdf/{language}/hydraulics/{runIndex}/", s.documentPDF)
		r.With(s.heavy).Post("/drainage/document/rtf/{language}/{kind}/", s.documentRTF)
		r.With(s.heavy).Post("/drainage/document/rtf/{language}/hydraulics/{runIndex}/", s.documentRTF)

		// Translators' editors; the use cases check the right.
		r.Get("/translations/{kind}/{lang}/", s.translationTexts)
		r.Post("/translations/{kind}/{lang}/", s.translationSet)
		r.Post("/translations/{kind}/{lang}/reset/", s.translationReset)
		r.Post("/translations/{kind}/{lang}/import/", s.translationImport)
		r.Post("/translations/preview/", s.translationPreview)

		// Every staff call checks the staff right in its use case.
		r.Route("/staff", func(r chi.Router) {
			r.Get("/summary/", s.staffSummary)
			r.Get("/users/", s.staffUsers)
			r.Get("/users/page/", s.staffUserPage)
			r.Get("/users/{id}/", s.staffUser)
			r.Get("/users/{id}/projects/", s.staffUserProjects)
			r.Post("/users/{id}/block/", s.staffBlock)
			r.Post("/users/{id}/unblock/", s.staffUnblock)
			r.Post("/users/{id}/group/", s.staffGroup)
			r.Delete("/users/{id}/", s.staffDelete)
			r.Get("/calculations/", s.staffCalculations)
			r.Get("/calculations/page/", s.staffCalculationPage)
			r.Get("/calculations/csv/", s.staffCalculationCSV)
			r.Get("/calculations/systems/", s.staffCalculationSystems)
			r.Get("/calculations/{id}/", s.staffCalculation)
			r.Get("/history/", s.staffHistory)
			r.Get("/map/", s.staffMap)
			// Channel availability: marketing users and administrators.
			r.Get("/availability/", s.staffOffers)
			r.Post("/availability/", s.staffChangeOffer)
		})
	})
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, notFound("No such call: "+r.Method+" "+r.URL.Path))
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusMethodNotAllowed, errorBody{Error: r.Method + " is not allowed on " + r.URL.Path})
	})
}

// spa serves the built client, and index.html for any other path so that
// client routes (/sign-up, /projects/123, a share link) load the app.
// videoTypes are the help videos' media types, named here: the system's
// mime.types may call .webm audio (Debian's does), and a browser told
// audio/webm will not show the picture.
var videoTypes = map[string]string{".webm": "video/webm", ".jpg": "image/jpeg", ".json": "application/json"}

// helpVideos serves /static/help/videos/ from the client build with their
// own media types; a file that is not there is a 404, not the client's page.
func helpVideos(client fs.FS) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := strings.TrimPrefix(r.URL.Path, "/")
		st, err := fs.Stat(client, p)
		if err != nil || st.IsDir() {
			http.NotFound(w, r)
			return
		}
		if t, ok := videoTypes[path.Ext(p)]; ok {
			w.Header().Set("Content-Type", t)
		}
		http.ServeFileFS(w, r, client, p)
	})
}

func spa(client fs.FS) http.Handler {
	files := http.FileServerFS(client)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := strings.TrimPrefix(r.URL.Path, "/")
		if p != "" {
			if st, err := fs.Stat(client, p); err == nil && !st.IsDir() {
				if strings.HasPrefix(p, "assets/") {
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				}
				files.ServeHTTP(w, r)
				return
			}
		}
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFileFS(w, r, client, "index.html")
	})
}

func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if err, ok := v.(error); ok && errors.Is(err, http.ErrAbortHandler) {
					panic(v)
				}
				s.log.Error("panic", "path", r.URL.Path, "panic", v, "request_id", middleware.GetReqID(r.Context()))
				reportPanic(r, v)
				writeJSON(w, http.StatusInternalServerError, errorBody{Error: msgServerError})
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// Route is one call the API answers.
type Route struct{ Method, Pattern string }

// Routes lists every call registered under /api, for the authorization
// matrix test, which fails when a call has no row.
func Routes() ([]Route, error) {
	r := chi.NewRouter()
	(&Server{}).mount(r)
	var out []Route
	err := chi.Walk(r, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		out = append(out, Route{Method: method, Pattern: strings.TrimSuffix(strings.ReplaceAll(route, "/*/", "/"), "/*")})
		return nil
	})
	return out, err
}

// keepAuthFresh rechecks, every half authTrust until ctx ends, the
// sessions and accounts that requests asked for within authActive: a
// query for all the sessions and one for all the accounts, instead of one
// of each for every active user and second (`make load`: the account's
// was a fifth of the waits for an event-store connection). What another
// instance changed still shows within authTrust: an entry is taken as read
// when the recheck began, and one the recheck could not confirm is read
// by the next request that needs it.
func (s *Server) keepAuthFresh(ctx context.Context) {
	t := time.NewTicker(authTrust / 2)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.recheckAuth(ctx)
	}
}

// recheckAuth is one round of keepAuthFresh. A failure costs only the
// queries it would have saved, so it is logged at debug level.
func (s *Server) recheckAuth(parent context.Context) {
	ctx, cancel := context.WithTimeout(parent, authTrust/2)
	defer cancel()
	if err := s.sessions.recheck(ctx, authActive); err != nil && parent.Err() == nil {
		s.log.Debug("recheck sessions", "err", err)
	}
	if err := s.accounts.Recheck(ctx, authActive); err != nil && parent.Err() == nil {
		s.log.Debug("recheck accounts", "err", err)
	}
}

// WatchErasures keeps the server's cached accounts and projects past
// their age limit while the log shows no erasure (usecase.Caches), until
// ctx ends. The app runs it for the life of the instance; without it the
// copies are loaded whole again every usecase.CacheMaxAge.
func (s *Server) WatchErasures(ctx context.Context) {
	s.caches.WatchErasures(ctx, s.cfg.Store, time.Second)
}
