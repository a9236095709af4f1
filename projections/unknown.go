package projections

import (
	"log/slog"
	"net/http"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
)

// Unknown event types. The log may hold event types this code does not
// know: written by a newer version during a rolling deploy, or by a
// feature since removed. Every reader (an aggregate being loaded, a read
// model, the live feed) skips them rather than stall on them, and says so
// here: each (source, type) pair is logged once per process, and counted
// in draindesign_unknown_events_total, so that skipping never goes unseen.

var unknownEvents = func() *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "draindesign_unknown_events_total",
		Help: "Events skipped because their type is unknown to this code, by reader (source) and event type.",
	}, []string{"source", "type"})
	prometheus.MustRegister(c)
	return c
}()

var unknownLogged sync.Map // [2]string{source, type} → struct{}

// SkipUnknown records that source (a read model's name, "project",
// "account", "live") skipped an event of a type it does not know.
func SkipUnknown(source, eventType string) {
	unknownEvents.WithLabelValues(source, eventType).Inc()
	if _, seen := unknownLogged.LoadOrStore([2]string{source, eventType}, struct{}{}); !seen {
		slog.Warn("skipping events of an unknown type (logged once; see draindesign_unknown_events_total)",
			"source", source, "type", eventType)
	}
}

// UnknownCount is how many events of eventType source has skipped since
// the process started (what the metric says), for tests and status pages.
// Unlike WithLabelValues it adds no series to the metric.
func UnknownCount(source, eventType string) float64 {
	ch := make(chan prometheus.Metric)
	go func() {
		unknownEvents.Collect(ch)
		close(ch)
	}()
	var n float64
	for m := range ch {
		var d dto.Metric
		if m.Write(&d) != nil {
			continue
		}
		labels := map[string]string{}
		for _, l := range d.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		if labels["source"] == source && labels["type"] == eventType {
			n = d.GetCounter().GetValue()
		}
	}
	return n
}

// MetricsHandler serves the process's Prometheus metrics, the count of
// skipped unknown events among them, in the text exposition format.
func MetricsHandler() http.Handler { return promhttp.Handler() }
