package main

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// dbOutage takes the run's database away from the instances as a
// PostgreSQL restart would, without restarting the shared server: every
// connection to the database is terminated and new ones are refused until
// Restore. A TCP proxy in the instances' path did this before, but it sat
// in every query's path for the whole run, costing every round trip two
// more hops and the load generator a tenth of a core, on the same cores as
// the system it measures.
type dbOutage struct {
	server string // the server's URL, for an administrative connection
	db     string
}

func (o dbOutage) exec(ctx context.Context, sqls ...string) error {
	admin, err := pgx.Connect(ctx, o.server)
	if err != nil {
		return fmt.Errorf("database outage: %w", err)
	}
	defer admin.Close(context.WithoutCancel(ctx))
	for _, q := range sqls {
		if _, err := admin.Exec(ctx, q); err != nil {
			return fmt.Errorf("database outage: %s: %w", q, err)
		}
	}
	return nil
}

// Cut refuses new connections to the database, then ends the open ones.
func (o dbOutage) Cut(ctx context.Context) error {
	name := pgx.Identifier{o.db}.Sanitize()
	return o.exec(ctx,
		"ALTER DATABASE "+name+" ALLOW_CONNECTIONS false",
		"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = "+quoteLiteral(o.db)+" AND pid <> pg_backend_pid()")
}

// Restore lets connections in again.
func (o dbOutage) Restore(ctx context.Context) error {
	return o.exec(ctx, "ALTER DATABASE "+pgx.Identifier{o.db}.Sanitize()+" ALLOW_CONNECTIONS true")
}

func quoteLiteral(s string) string {
	out := []byte{'\''}
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			out = append(out, '\'')
		}
		out = append(out, s[i])
	}
	return string(append(out, '\''))
}
