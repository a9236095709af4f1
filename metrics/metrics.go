// Package metrics holds the process's Prometheus series: what the HTTP
// layer, the calculations, the event store and the live stream count. They
// live in the default registry, one set per process, whatever the number of
// App instances in it (tests start many); series that belong to one App
// (projection lag) are gathered per App instead (see Handler).
package metrics

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"draindesign/eventstore"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// unmatched is the route label of a request no route took, so that probes
// of random paths cannot grow the number of series.
const unmatched = "unmatched"

// requestBuckets bound the request-duration histogram's buckets, in
// seconds. They lie close together from 5 to 250 ms, where the edits'
// tail is (issue 15's target: 100 ms at p99, edit to other tab): from
// 50 ms up no bucket spans more than 1.3×, so that a p99 read off them
// tells 90 ms from 110 ms. The earlier decades (…, 50, 100, 250 ms)
// could not say on which side of 100 ms an instance's p99 lay.
var requestBuckets = []float64{.0005, .001, .0025, .005, .0075, .01, .015, .02, .03, .04, .05, .065, .08, .1, .13, .16, .2, .25, .35, .5, 1, 2.5, 5, 10}

var (
	requestDuration = register(prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "draindesign_http_request_duration_seconds",
		Help:    "Time to answer an HTTP request, by method, route pattern (not the raw path) and status code.",
		Buckets: requestBuckets,
	}, []string{"method", "route", "code"}))

	throttled = register(prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "draindesign_throttled_requests_total",
		Help: "Requests refused with 429 Too Many Requests (rate limits, heavy-call slots, login back-off), by route pattern.",
	}, []string{"route"}))

	calculations = register(prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "draindesign_calculations_total",
		Help: "Hydraulic calculations run, by kind (run, shared, storage) and outcome (ok, failed).",
	}, []string{"kind", "outcome"}))

	calculationDuration = register(prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "draindesign_calculation_duration_seconds",
		Help:    "Time spent in the engine per calculation, by kind; decoding and recording excluded.",
		Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
	}, []string{"kind"}))

	eventsAppended = register(prometheus.NewCounter(prometheus.CounterOpts{
		Name: "draindesign_events_appended_total",
		Help: "Events in appends to the event store that succeeded in this process (an idempotent repeat of an append counts again).",
	}))

	liveSubscribers = register(prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "draindesign_live_subscribers",
		Help: "Live project subscriptions (one per project per WebSocket) now being followed.",
	}))
)

func register[C prometheus.Collector](c C) C {
	prometheus.MustRegister(c)
	return c
}

// Requests times every request under its chi route pattern. It must be a
// middleware of the router (chi fills the pattern in while routing) and
// outside any recoverer, so that a panic still counts as the 500 it became.
func Requests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		started := time.Now()
		defer func() {
			route := unmatched
			if rc := chi.RouteContext(r.Context()); rc != nil && len(rc.RoutePatterns) > 0 {
				route = pattern(rc.RoutePatterns)
			}
			code := ww.Status()
			if code == 0 {
				code = http.StatusOK // nothing written: net/http answers 200
			}
			requestDuration.WithLabelValues(r.Method, route, strconv.Itoa(code)).Observe(time.Since(started).Seconds())
			if code == http.StatusTooManyRequests {
				throttled.WithLabelValues(route).Inc()
			}
		}()
		next.ServeHTTP(ww, r)
	})
}

// pattern joins the patterns of the routers a request went through
// ("/api/*", "/drainage/calculate/") into the route as written. Unlike
// chi's RoutePattern it keeps a trailing slash, which in this API tells
// calls apart.
func pattern(parts []string) string {
	p := strings.Join(parts, "")
	for strings.Contains(p, "/*/") {
		p = strings.ReplaceAll(p, "/*/", "/")
	}
	return p
}

// Calculation records one calculation of kind ("run", "shared", "storage").
func Calculation(kind string, took time.Duration, err error) {
	outcome := "ok"
	if err != nil {
		outcome = "failed"
	}
	calculations.WithLabelValues(kind, outcome).Inc()
	calculationDuration.WithLabelValues(kind).Observe(took.Seconds())
}

// CountAppends wraps store so that every successful append adds its
// events to draindesign_events_appended_total, whichever implementation
// the store is and whoever appends (commands, translations, accounts).
func CountAppends(store eventstore.Store) eventstore.Store { return countingStore{store} }

type countingStore struct{ eventstore.Store }

// Unwrap is the store counted, for readers that need no wrapper.
func (s countingStore) Unwrap() eventstore.Store { return s.Store }

// ReadAllOf passes eventstore.TypedReader through.
func (s countingStore) ReadAllOf(ctx context.Context, after eventstore.Position, limit int, types []string) ([]eventstore.Event, error) {
	return eventstore.ReadAllOf(ctx, s.Store, after, limit, types)
}

func (s countingStore) Append(ctx context.Context, stream string, expected eventstore.ExpectedVersion, events ...eventstore.NewEvent) (eventstore.AppendResult, error) {
	res, err := s.Store.Append(ctx, stream, expected, events...)
	if err == nil {
		eventsAppended.Add(float64(len(events)))
	}
	return res, err
}

// Subscribed counts a live subscription that starts; call the returned
// function once when it ends.
func Subscribed() (ended func()) {
	liveSubscribers.Inc()
	return liveSubscribers.Dec
}

// Handler serves the process-wide series together with those of extra
// (one App's own collectors), in the text exposition format.
func Handler(extra ...prometheus.Collector) http.Handler {
	own := prometheus.NewRegistry()
	for _, c := range extra {
		own.MustRegister(c)
	}
	return promhttp.HandlerFor(prometheus.Gatherers{prometheus.DefaultGatherer, own}, promhttp.HandlerOpts{})
}

// LagLimit is how far behind a projection the lag gauge counts exactly.
const LagLimit = 10000

var lagDesc = prometheus.NewDesc("draindesign_projection_lag_events",
	"Events of the log a read model has yet to apply, counted up to "+strconv.Itoa(LagLimit)+", by read model.",
	[]string{"read_model"}, nil)

// ProjectionLag is a collector that asks lag (a Runner's Lag) on every
// scrape, so the figure is the read models' state now, not a stale copy.
func ProjectionLag(lag func(ctx context.Context, limit int) (map[string]int, error)) prometheus.Collector {
	return lagCollector(lag)
}

type lagCollector func(ctx context.Context, limit int) (map[string]int, error)

func (lagCollector) Describe(ch chan<- *prometheus.Desc) { ch <- lagDesc }

func (l lagCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	lags, err := l(ctx, LagLimit)
	if err != nil {
		// The scrape reports the failure (promhttp answers 500 with it by
		// default) rather than a made-up zero.
		ch <- prometheus.NewInvalidMetric(lagDesc, err)
		return
	}
	for name, n := range lags {
		ch <- prometheus.MustNewConstMetric(lagDesc, prometheus.GaugeValue, float64(n), name)
	}
}
