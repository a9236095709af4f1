package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"draindesign/migrations"
)

// migrationLock is the advisory lock key (per database) held while
// migrating, so that processes starting together apply each file once.
const migrationLock = 0x6472_6169_6e64_6573 // "draindes"

// Migrate applies the migrations in migrations.Postgres that the database
// at databaseURL lacks, in order, each in its own transaction, and records
// them in schema_migrations. Running it again changes nothing.
func Migrate(ctx context.Context, databaseURL string) error {
	ms, err := migrations.List(migrations.Postgres, "postgres")
	if err != nil {
		return err
	}
	return migrate(ctx, databaseURL, ms)
}

func migrate(ctx context.Context, databaseURL string, ms []migrations.Migration) error {
	// Parsed as the pool's URL, so that the pool_* settings Open accepts
	// are not sent to the server as unknown parameters.
	cfg, err := pgxpool.ParseConfig(databaseURL)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	// Closing the session also releases the advisory lock.
	defer conn.Close(context.WithoutCancel(ctx))

	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, int64(migrationLock)); err != nil {
		return fmt.Errorf("migrate: lock: %w", err)
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    integer     PRIMARY KEY,
		name       text        NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now()
	)`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	applied := map[int]bool{}
	rows, err := conn.Query(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	versions, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	for _, v := range versions {
		applied[int(v)] = true
	}
	for _, m := range ms {
		if applied[m.Version] {
			continue
		}
		if err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			// Without arguments pgx uses the simple protocol, which runs a
			// file of several statements.
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, m.Version, m.Name)
			return err
		}); err != nil {
			return fmt.Errorf("migrate %s: %w", m.Name, err)
		}
	}
	return nil
}
