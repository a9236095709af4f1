package api

import (
	"errors"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// databaseUnreachable reports whether err says the database could not be
// reached or ended the connection: a restart or failover of PostgreSQL,
// not a fault of the request or of this code. Such a request may well
// succeed when sent again a few seconds later, which a 503 with
// Retry-After tells the client (docs/decisions.md, "Waiting out a
// database restart").
//
// An error inside a query that reached the server (a constraint, a
// syntax error) is not one of these, nor a timeout of the request itself.
func databaseUnreachable(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case strings.HasPrefix(pgErr.Code, "08"): // connection exception
			return true
		case strings.HasPrefix(pgErr.Code, "57P"): // shut down by the administrator, crash, starting up
			return true
		case pgErr.Code == "55000" && strings.Contains(pgErr.Message, "not currently accepting connections"):
			return true // a database closed to new connections (ALLOW_CONNECTIONS false)
		}
		return false
	}
	// A connection that could not be made: refused while the server is
	// down, or the server's own refusal (a PgError, above).
	var connectErr *pgconn.ConnectError
	return errors.As(err, &connectErr)
}
