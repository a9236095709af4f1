package api

import (
	"context"
	"net/http"
	"time"
)

// readyTimeout bounds a readiness probe: a store slower than this is as
// good as down for the designer waiting on it.
const readyTimeout = 2 * time.Second

// ready answers 200 when this instance can serve designers: its read-model
// database and its event store answer. A load balancer takes an instance
// that answers 503 out of rotation until it recovers, while liveness
// (/api/health/live/) keeps saying the process itself is fine, so that it
// is not restarted for a database outage it cannot cure.
func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	checks := map[string]string{"read_models": "ok", "event_store": "ok"}
	ok := true
	if err := s.cfg.DB.SQL.PingContext(ctx); err != nil {
		s.log.Warn("readiness: read-model database", "err", err)
		checks["read_models"], ok = "unavailable", false
	}
	// Any read proves the store answers; an unknown stream costs one lookup.
	if _, err := s.cfg.Store.StreamVersion(ctx, "readiness-probe"); err != nil {
		s.log.Warn("readiness: event store", "err", err)
		checks["event_store"], ok = "unavailable", false
	}
	if !ok {
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"status": "unavailable", "checks": checks})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "checks": checks})
}
