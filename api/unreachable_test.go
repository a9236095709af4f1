package api

import (
	"errors"
	"fmt"
	"testing"

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
