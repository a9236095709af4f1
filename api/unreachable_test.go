package api

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"draindesign/domain/fault"

	"github.com/jackc/pgx/v5/pgconn"
)

// Only the database's absence is an outage (503); its refusals of the
// request itself, and the code's own faults, are not.
func TestDatabaseUnreachable(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"connection ended by the administrator", &pgconn.PgError{Code: "57P01", Message: "terminating connection due to administrator command"}, true},
		{"server starting up", &pgconn.PgError{Code: "57P03", Message: "the database system is starting up"}, true},
		{"connection failure", &pgconn.PgError{Code: "08006"}, true},
		{"database closed to connections", &pgconn.PgError{Code: "55000", Message: `database "x" is not currently accepting connections`}, true},
		{"other object state error", &pgconn.PgError{Code: "55000", Message: "cannot do this now"}, false},
		{"wrapped", fmt.Errorf("append to project-1: %w", &pgconn.PgError{Code: "57P01"}), true},
		{"connection refused", fmt.Errorf("read session: %w", &pgconn.ConnectError{}), true},
		{"unique violation", &pgconn.PgError{Code: "23505"}, false},
		{"wrong password", &pgconn.PgError{Code: "28P01"}, false},
		{"a bug", errors.New("index out of range"), false},
	} {
		if got := databaseUnreachable(tc.err); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// countingBody counts the bytes read from it.
type countingBody struct {
	left, read int
}

func (b *countingBody) Read(p []byte) (int, error) {
	if b.left == 0 {
		return 0, io.EOF
	}
	n := min(len(p), b.left)
	b.left -= n
	b.read += n
	return n, nil
}

func (b *countingBody) Close() error { return nil }

// An answer asking the client to try again (503, 429) reads the rest of
// the request's body first: net/http closes a connection whose handler left
// more than 256 KB unread, and the client then met a reset instead of the
// answer (large saves under `make load`'s database cut). Other errors leave
// the body alone.
func TestTryAgainAnswersReadTheBody(t *testing.T) {
	for _, tc := range []struct {
		err      error
		status   int
		drained  bool
		retryHdr string
	}{
		{fmt.Errorf("read session: %w", &pgconn.PgError{Code: "57P01"}), http.StatusServiceUnavailable, true, "1"},
		{&fault.Error{K: fault.Limit, Message: "busy", RetryAfter: 3 * time.Second}, http.StatusTooManyRequests, true, "3"},
		{&fault.Error{K: fault.BadInput, Message: "no"}, http.StatusBadRequest, false, ""},
	} {
		body := &countingBody{left: 1 << 20}
		r := httptest.NewRequest("POST", "/api/drainage/save/", nil)
		r.Body = body
		w := httptest.NewRecorder()
		writeError(w, r, slog.New(slog.DiscardHandler), tc.err)
		if w.Code != tc.status || w.Header().Get("Retry-After") != tc.retryHdr {
			t.Errorf("%v: %d, Retry-After %q; want %d, %q", tc.err, w.Code, w.Header().Get("Retry-After"), tc.status, tc.retryHdr)
		}
		if drained := body.left == 0; drained != tc.drained {
			t.Errorf("%v: body read %d of %d bytes, want drained %v", tc.err, body.read, 1<<20, tc.drained)
		}
	}
}
