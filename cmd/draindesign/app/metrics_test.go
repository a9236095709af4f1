package app

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"draindesign/domain/account"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// scrape reads p's /metrics as the metrics listener serves it.
func scrape(t *testing.T, p *product) map[string]*dto.MetricFamily {
	t.Helper()
	rec := httptest.NewRecorder()
	p.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /metrics: %d\n%s", rec.Code, rec.Body.String())
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return fams
}

// series is the metric of family name whose labels include want, or nil.
func series(fams map[string]*dto.MetricFamily, name string, want map[string]string) *dto.Metric {
	f := fams[name]
	if f == nil {
		return nil
	}
next:
	for _, m := range f.GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if have[k] != v {
				continue next
			}
		}
		return m
	}
	return nil
}

func counter(fams map[string]*dto.MetricFamily, name string, labels map[string]string) float64 {
	if m := series(fams, name, labels); m != nil {
		return m.GetCounter().GetValue()
	}
	return 0
}

func histCount(fams map[string]*dto.MetricFamily, name string, labels map[string]string) uint64 {
	if m := series(fams, name, labels); m != nil {
		return m.GetHistogram().GetSampleCount()
	}
	return 0
}

// After a few real calls, /metrics shows each series the operators watch,
// moved by exactly what the calls did. The process-wide series are shared
// with the package's other tests, so the test compares before and after.
func TestMetricsAfterRealCalls(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			p := start(t, b.opts(t))
			// The example is an advanced design: it needs the advanced-mode right.
			u := p.staff(t, "mira", account.GroupAdvanced)
			before := scrape(t, p)

			const calcs = 3
			for range calcs {
				u.must(http.StatusOK, "POST", "/api/drainage/calculate/", exampleCalc, nil)
			}
			s := u.saveNew("Measured")
			conn := p.dial(t, u)
			subscribe(t, conn, map[string]any{"project": s.SaveID, "from": 0})
			wantView(t, next(t, conn), s.SaveID, s.Version)
			// Five wrong passwords, then the login is throttled (faults_test).
			intruder := p.newUser(t)
			for range 5 {
				intruder.must(http.StatusUnauthorized, "POST", "/api/auth/login/", map[string]string{"username": "mira", "password": "wrong guess"}, nil)
			}
			intruder.must(http.StatusTooManyRequests, "POST", "/api/auth/login/", map[string]string{"username": "mira", "password": "wrong guess"}, nil)
			u.must(http.StatusOK, "GET", "/api/projects/"+s.SaveID+"/timeline", nil, nil)
			u.must(http.StatusOK, "GET", "/api/health/ready/", nil, nil)
			u.must(http.StatusOK, "GET", "/api/health/live/", nil, nil)
			if err := p.Runner.CatchUp(context.Background()); err != nil {
				t.Fatal(err)
			}
			after := scrape(t, p)

			// Latency per route pattern, not per raw path.
			calcRoute := map[string]string{"method": "POST", "route": "/api/drainage/calculate/", "code": "200"}
			if d := histCount(after, "draindesign_http_request_duration_seconds", calcRoute) - histCount(before, "draindesign_http_request_duration_seconds", calcRoute); d != calcs {
				t.Errorf("calculate requests timed: %d more, want %d", d, calcs)
			}
			if m := series(after, "draindesign_http_request_duration_seconds", calcRoute); m == nil || m.GetHistogram().GetSampleSum() <= 0 {
				t.Errorf("calculate latency: %v", m)
			}
			if series(after, "draindesign_http_request_duration_seconds", map[string]string{"route": "/api/projects/{id}/timeline", "code": "200"}) == nil {
				t.Error("no series under the timeline's route pattern")
			}
			for _, m := range after["draindesign_http_request_duration_seconds"].GetMetric() {
				for _, l := range m.GetLabel() {
					if l.GetName() == "route" && strings.Contains(l.GetValue(), s.SaveID) {
						t.Errorf("a raw path became a route label: %s", l.GetValue())
					}
				}
			}
			// Calculations and their engine time.
			run := map[string]string{"kind": "run", "outcome": "ok"}
			if d := counter(after, "draindesign_calculations_total", run) - counter(before, "draindesign_calculations_total", run); d != calcs {
				t.Errorf("calculations: %v more, want %d", d, calcs)
			}
			kind := map[string]string{"kind": "run"}
			if d := histCount(after, "draindesign_calculation_duration_seconds", kind) - histCount(before, "draindesign_calculation_duration_seconds", kind); d != calcs {
				t.Errorf("calculation durations: %d more, want %d", d, calcs)
			}
			// The save appended the project's events (its version is their number).
			if d := counter(after, "draindesign_events_appended_total", nil) - counter(before, "draindesign_events_appended_total", nil); d < float64(s.Version) {
				t.Errorf("events appended: %v more, want at least the save's %d", d, s.Version)
			}
			// Every read model caught up: lag 0, one series per read model.
			for _, proj := range Projections() {
				m := series(after, "draindesign_projection_lag_events", map[string]string{"read_model": proj.Name()})
				if m == nil || m.GetGauge().GetValue() != 0 {
					t.Errorf("lag of %s after catching up: %v", proj.Name(), m)
				}
			}
			// The open subscription, and the throttled login.
			live := func(f map[string]*dto.MetricFamily) float64 {
				if m := series(f, "draindesign_live_subscribers", nil); m != nil {
					return m.GetGauge().GetValue()
				}
				return 0
			}
			// Other tests' connections may still be ending, so the gauge is
			// checked to count ours while open and to drop when it closes.
			open := live(after)
			if open < 1 {
				t.Errorf("live subscribers with one open: %v", open)
			}
			conn.Close()
			for deadline := time.Now().Add(3 * time.Second); live(scrape(t, p)) >= open; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Errorf("live subscribers still %v after the subscriber left", open)
					break
				}
			}
			login := map[string]string{"route": "/api/auth/login/"}
			if d := counter(after, "draindesign_throttled_requests_total", login) - counter(before, "draindesign_throttled_requests_total", login); d != 1 {
				t.Errorf("throttled logins: %v more, want 1", d)
			}
		})
	}
}
