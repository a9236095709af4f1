// Package pgoutage takes one PostgreSQL database away from its clients as a
// restart of the server would, without restarting the server, which other
// databases (other tests, other sessions) share: new connections to the
// database are refused and the open ones ended, until Restore.
//
// The fault tests (pgtest.CutOff) and the load test's PostgreSQL phase
// (cmd/loadtest) both cut this way.
package pgoutage

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Outage is a cut of database Database, made over an administrative
// connection to Server (a URL of the same server, on another database).
type Outage struct {
	Server   string
	Database string
}

// Cut refuses new connections to the database, then ends the open ones (in
// that order, so that none slips in between).
func (o Outage) Cut(ctx context.Context) error {
	return o.exec(ctx, "cut",
		statement{sql: "ALTER DATABASE " + o.name() + " ALLOW_CONNECTIONS false"},
		statement{sql: "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
			args: []any{o.Database}})
}

// Restore lets connections in again.
func (o Outage) Restore(ctx context.Context) error {
	return o.exec(ctx, "restore", statement{sql: "ALTER DATABASE " + o.name() + " ALLOW_CONNECTIONS true"})
}

func (o Outage) name() string { return pgx.Identifier{o.Database}.Sanitize() }

type statement struct {
	sql  string
	args []any
}

func (o Outage) exec(ctx context.Context, what string, stmts ...statement) error {
	admin, err := pgx.Connect(ctx, o.Server)
	if err != nil {
		return fmt.Errorf("%s database %s: connect: %w", what, o.Database, err)
	}
	defer admin.Close(context.WithoutCancel(ctx))
	for _, s := range stmts {
		if _, err := admin.Exec(ctx, s.sql, s.args...); err != nil {
			return fmt.Errorf("%s database %s: %s: %w", what, o.Database, s.sql, err)
		}
	}
	return nil
}
