// Package app assembles the running product: the event store, the read
// models and their delivery, and the HTTP API, on the embedded store or on
// PostgreSQL. The binary and the end-to-end tests start it the same way.
package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"draindesign/api"
	"draindesign/api/errortracker"
	"draindesign/api/lowpriority"
	"draindesign/api/mail"
	"draindesign/api/usecase"
	"draindesign/eventstore"
	"draindesign/eventstore/kurrent"
	"draindesign/eventstore/postgres"
	"draindesign/eventstore/privacy"
	"draindesign/eventstore/sqlite"
	"draindesign/metrics"
	"draindesign/projections"
	"draindesign/projections/calcaudit"
	"draindesign/projections/calchistory"
	"draindesign/projections/offer"
	"draindesign/projections/projectlist"
	"draindesign/projections/stafflog"
	"draindesign/projections/staffmap"
	"draindesign/projections/timeline"
	"draindesign/projections/translations"
	"draindesign/projections/userlist"
	"draindesign/web"

	"github.com/ThreeDotsLabs/watermill"
)

// Options say where the product keeps its data.
type Options struct {
	// DataDir holds the SQLite files, the mail folder and the secret key.
	DataDir string
	// DatabaseURL selects PostgreSQL for the event store and read models.
	DatabaseURL string
	// KurrentDBURL selects KurrentDB for the event store (KURRENTDB_URL, a
	// kurrentdb:// connection string); the read models stay where
	// DatabaseURL or DataDir put them.
	KurrentDBURL string
	// NATSURL selects NATS JetStream as the transport between instances.
	NATSURL string
	// NATSStream names the JetStream stream (NATS_STREAM; default
	// DRAINDESIGN); its lower-cased name is the subject prefix. Deployments
	// sharing one NATS server each take their own.
	NATSStream string
	SMTPURL    string
	// PublicURL is the address people use; required (serve defaults it on
	// loopback).
	PublicURL string
	// TrustedProxies is the comma-separated addresses and CIDR prefixes of
	// proxies whose X-Forwarded-For is believed (TRUSTED_PROXIES).
	TrustedProxies string
	// Limits bound what one client may ask; zero fields take the defaults.
	Limits api.Limits
	// CalculationNice, from 1 to 19, runs the calculations on threads of
	// that nice value (Linux), below the network work; 0 runs each on its
	// request's thread.
	CalculationNice int
	// Timeouts bound how long one connection may take; zero fields take
	// the defaults.
	Timeouts Timeouts
	// SecretKeyFile holds the key that signs mailed links; default
	// <DataDir>/secret.key, created on first start.
	SecretKeyFile string
	// SentryDSN is where server errors are reported, to a tracker that
	// speaks the Sentry protocol (SENTRY_DSN; empty: not reported).
	SentryDSN string
	// SentryEnvironment names this deployment in the tracker
	// (SENTRY_ENVIRONMENT, e.g. production).
	SentryEnvironment string
	// FeedbackEmail is the address the feedback page's mail link writes
	// to (FEEDBACK_EMAIL; empty: no link).
	FeedbackEmail string
	Logger        *slog.Logger
	// Client overrides the embedded web client (tests).
	Client fs.FS
}

// FromEnv fills the options the environment sets.
func FromEnv(dataDir string) Options {
	return Options{
		DataDir: dataDir, DatabaseURL: os.Getenv("DATABASE_URL"), NATSURL: os.Getenv("NATS_URL"),
		NATSStream: os.Getenv("NATS_STREAM"),
		SMTPURL:    os.Getenv("SMTP_URL"), PublicURL: os.Getenv("PUBLIC_URL"), SecretKeyFile: os.Getenv("SECRET_KEY_FILE"),
		TrustedProxies: os.Getenv("TRUSTED_PROXIES"), KurrentDBURL: os.Getenv("KURRENTDB_URL"),
		SentryDSN: os.Getenv("SENTRY_DSN"), SentryEnvironment: os.Getenv("SENTRY_ENVIRONMENT"),
		FeedbackEmail: strings.TrimSpace(os.Getenv("FEEDBACK_EMAIL")),
	}
}

// Timeouts of the HTTP server. A client that sends its headers or body
// slowly, or never reads the answer, holds a connection and a goroutine
// only this long. The WebSocket is not cut by them: net/http clears the
// deadlines when the connection is hijacked and the live stream keeps its
// own (pings and a read deadline).
type Timeouts struct {
	// ReadHeader bounds reading the request line and headers (10 s).
	ReadHeader time.Duration
	// Read bounds reading a whole request, body included (30 s): every
	// body here is a JSON document of at most a few megabytes.
	Read time.Duration
	// Write bounds the time from the end of the request headers to the end
	// of the answer (2 minutes): above the longest calculation.
	Write time.Duration
	// Idle bounds a kept-alive connection between requests (2 minutes).
	Idle time.Duration
}

func (t Timeouts) withDefaults() Timeouts {
	for _, f := range []struct {
		v *time.Duration
		d time.Duration
	}{{&t.ReadHeader, 10 * time.Second}, {&t.Read, 30 * time.Second}, {&t.Write, 2 * time.Minute}, {&t.Idle, 2 * time.Minute}} {
		if *f.v <= 0 {
			*f.v = f.d
		}
	}
	return t
}

// App is the assembled product.
type App struct {
	Store   eventstore.Store
	DB      *projections.DB
	Runner  *projections.Runner
	Handler http.Handler
	Mail    mail.Sender

	timeouts Timeouts
	cancel   context.CancelFunc
	closers  []func() error
	wg       sync.WaitGroup
}

// Projections are every read model, in the order they are kept up to date.
func Projections() []projections.Projection {
	return []projections.Projection{projectlist.Projection{}, userlist.Projection{}, calchistory.Projection{}, timeline.New(),
		calcaudit.Projection{}, offer.Projection{}, stafflog.Projection{}, staffmap.Projection{}, translations.Projection{}}
}

// OpenStores opens the event store and the read-model database.
func OpenStores(ctx context.Context, o Options) (eventstore.Store, *projections.DB, error) {
	if o.DatabaseURL == "" {
		if err := os.MkdirAll(o.DataDir, 0o750); err != nil {
			return nil, nil, fmt.Errorf("create data directory: %w", err)
		}
	}
	store, err := openEventStore(ctx, o)
	if err != nil {
		return nil, nil, err
	}
	var db *projections.DB
	if o.DatabaseURL != "" {
		db, err = projections.OpenPostgres(o.DatabaseURL)
	} else {
		db, err = projections.OpenSQLite(filepath.Join(o.DataDir, "readmodels.db"))
	}
	if err != nil {
		store.Close()
		return nil, nil, err
	}
	return store, db, nil
}

// openEventStore opens KurrentDB if KURRENTDB_URL is set, else PostgreSQL
// if DATABASE_URL is, else the embedded SQLite file. The read models stay
// in PostgreSQL or SQLite whichever event store is chosen.
func openEventStore(ctx context.Context, o Options) (eventstore.Store, error) {
	switch {
	case o.KurrentDBURL != "":
		s, err := kurrent.Open(ctx, o.KurrentDBURL, kurrentNamespace)
		if err != nil {
			return nil, err
		}
		return s, nil
	case o.DatabaseURL != "":
		s, err := postgres.Open(ctx, o.DatabaseURL)
		if err != nil {
			return nil, err
		}
		sealed, _, _ := privacy.Wrap(s)
		return sealed, nil
	default:
		s, err := sqlite.Open(ctx, filepath.Join(o.DataDir, "events.db"))
		if err != nil {
			return nil, err
		}
		// Personal fields are sealed with per-user keys (docs/privacy.md).
		sealed, _, _ := privacy.Wrap(s)
		return sealed, nil
	}
}

// kurrentNamespace prefixes the product's streams on a KurrentDB server.
const kurrentNamespace = "draindesign-"

// Start opens everything, brings the read models to the head of the log and
// starts delivery. Close stops it all.
func Start(ctx context.Context, o Options) (*App, error) {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	a := &App{timeouts: o.Timeouts.withDefaults()}
	proxies, err := api.ParseTrustedProxies(o.TrustedProxies)
	if err != nil {
		return nil, fmt.Errorf("TRUSTED_PROXIES: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			a.Close()
		}
	}()
	store, db, err := OpenStores(ctx, o)
	if err != nil {
		return nil, err
	}
	// Account erasure shreds through the sealing store (nil on KurrentDB).
	eraser, _ := store.(*privacy.Store)
	// Every append, whoever makes it, counts in /metrics.
	store = metrics.CountAppends(store)
	a.Store, a.DB = store, db
	a.closers = append(a.closers, store.Close, db.Close)

	wmLog := projections.Logger(o.Logger)
	transport, err := openTransport(o, wmLog)
	if err != nil {
		return nil, err
	}
	a.closers = append(a.closers, transport.Close)

	feed := projections.NewFeed(256)
	runner, err := projections.NewRunner(projections.Config{
		Store: store, DB: db, Projections: Projections(), Subscriber: transport.Subscriber,
		HintSubscriber: transport.HintSubscriber, Logger: wmLog,
	})
	if err != nil {
		return nil, err
	}
	runner.AddFeed(feed)
	runCtx, cancel := context.WithCancel(context.Background())
	a.cancel = cancel
	if err := runner.Start(runCtx); err != nil {
		return nil, fmt.Errorf("start read models: %w", err)
	}
	a.Runner = runner
	a.closers = append(a.closers, runner.Close)

	from, err := runner.Position(ctx)
	if err != nil {
		return nil, err
	}
	// The relay publishes events as stored, personal fields still sealed:
	// its readers (the runner, the live feed) need only streams, versions
	// and positions, so the bus never carries personal data in the clear,
	// and no key is looked up to publish.
	relay := projections.NewRelay(projections.RelayConfig{Store: eventstore.Bare(store), Publisher: transport.Publisher, After: from, Logger: wmLog})
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		if err := relay.Run(runCtx); err != nil && !errors.Is(err, context.Canceled) {
			o.Logger.Error("relay stopped", "err", err)
		}
	}()

	sender, err := openMail(o)
	if err != nil {
		return nil, err
	}
	a.Mail = sender
	secret, err := secretKey(o)
	if err != nil {
		return nil, err
	}
	client := o.Client
	if client == nil {
		client = web.Dist()
	}
	// Translators' changes reach this instance's documents and e-mails
	// within a poll, whichever instance took them.
	hints := projections.NewHints(feed, transport.HintPublisher, wmLog)
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		hints.Run(runCtx)
	}()
	appended := func(stream string, res eventstore.AppendResult, types []string) {
		relay.Notify()
		hints.Appended(stream, res.LastVersion)
		runner.Appended(stream, res, types)
	}
	texts := usecase.NewTranslations(usecase.Config{Store: store, DB: db, Runner: runner, Appended: appended, Logger: o.Logger})
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		texts.Watch(runCtx, 2*time.Second)
	}()
	tracker, err := errortracker.New(errortracker.Settings{DSN: o.SentryDSN, Environment: o.SentryEnvironment})
	if err != nil {
		return nil, fmt.Errorf("SENTRY_DSN: %w", err)
	}
	if tracker != nil {
		// Reports still queued at shutdown get a moment to leave.
		a.closers = append(a.closers, func() error { tracker.Flush(2 * time.Second); return nil })
	}
	var calcs *lowpriority.Threads
	if o.CalculationNice != 0 {
		if calcs, err = lowpriority.Start(o.CalculationNice); err != nil {
			return nil, fmt.Errorf("calculation threads: %w", err)
		}
		a.closers = append(a.closers, calcs.Close)
	}
	a.Handler, err = api.New(ctx, api.Config{
		Store: store, DB: db, Runner: runner, Feed: feed, Appended: appended, Mail: sender,
		Secret: secret, PublicURL: o.PublicURL, TrustedProxies: proxies, Limits: o.Limits, Logger: o.Logger, Client: client,
		Calculations: calcs,
		Translations: texts, WebLinksFile: filepath.Join(o.DataDir, "weblinks.json"), Errors: tracker,
		ClientErrors:  api.ClientErrors{DSN: strings.TrimSpace(o.SentryDSN), Environment: o.SentryEnvironment},
		Eraser:        eraserOf(eraser),
		FeedbackEmail: o.FeedbackEmail,
		Lifetime:      runCtx,
	})
	if err != nil {
		return nil, err
	}
	ok = true
	return a, nil
}

// eraserOf keeps a nil *privacy.Store a nil interface.
func eraserOf(p *privacy.Store) usecase.Eraser {
	if p == nil {
		return nil
	}
	return p
}

func openTransport(o Options, log watermill.LoggerAdapter) (*projections.Transport, error) {
	if o.NATSURL != "" {
		cfg := projections.NATSConfig{URL: o.NATSURL}
		if o.NATSStream != "" {
			cfg.Stream, cfg.SubjectPrefix = o.NATSStream, strings.ToLower(o.NATSStream)
		}
		return projections.NewNATS(cfg, log)
	}
	return projections.GoChannel(log), nil
}

func openMail(o Options) (mail.Sender, error) {
	if o.SMTPURL != "" {
		return mail.SMTP(o.SMTPURL)
	}
	return mail.Dir(filepath.Join(o.DataDir, "mail"), o.Logger), nil
}

// secretKey reads the link-signing key, creating a random one on first
// start so that links keep working across restarts.
func secretKey(o Options) ([]byte, error) {
	path := o.SecretKeyFile
	if path == "" {
		path = filepath.Join(o.DataDir, "secret.key")
	}
	if b, err := os.ReadFile(path); err == nil {
		key := strings.TrimSpace(string(b))
		if len(key) < 32 {
			return nil, fmt.Errorf("secret key in %s is shorter than 32 characters", path)
		}
		return []byte(key), nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read secret key: %w", err)
	}
	buf := make([]byte, 32)
	if _, err := rand.Read(buf); err != nil {
		return nil, err
	}
	key := hex.EncodeToString(buf)
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, fmt.Errorf("create secret key: %w", err)
	}
	if err := os.WriteFile(path, []byte(key+"\n"), 0o600); err != nil {
		return nil, fmt.Errorf("write secret key: %w", err)
	}
	return []byte(key), nil
}

// Server is the HTTP server to run the handler with, its timeouts set.
func (a *App) Server() *http.Server {
	t := a.timeouts
	return &http.Server{
		Handler: a.Handler, ReadHeaderTimeout: t.ReadHeader, ReadTimeout: t.Read, WriteTimeout: t.Write, IdleTimeout: t.Idle,
	}
}

// MetricsHandler serves /metrics: the process's series and this App's
// projection lag, for the separate metrics listener (METRICS_ADDR). The
// Go profiler's pages (/debug/pprof/) are there too: that listener is for
// operators only, never behind the public balancer (docs/decisions.md).
func (a *App) MetricsHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", metrics.Handler(metrics.ProjectionLag(a.Runner.Lag)))
	mux.HandleFunc("GET /debug/pprof/", pprof.Index)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("GET /debug/pprof/symbol", pprof.Symbol)
	return mux
}

// Close stops delivery and closes everything, newest first.
func (a *App) Close() error {
	if a.cancel != nil {
		a.cancel()
	}
	a.wg.Wait()
	var errs []error
	for i := len(a.closers) - 1; i >= 0; i-- {
		errs = append(errs, a.closers[i]())
	}
	return errors.Join(errs...)
}
