// Package pgsession holds the settings draindesign gives each of its
// PostgreSQL sessions, the event store's and the read models' alike.
package pgsession

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// compressionParam is the server setting that picks how large values are
// compressed when stored (TOAST).
const compressionParam = "default_toast_compression"

// PreferLZ4 makes the sessions of cfg compress the large values they
// store with lz4 rather than PostgreSQL's default pglz, where the server
// has lz4 (built with it, version 14 or later): lz4 compresses several
// times faster for about the same size. A calculation's record is about
// 4 KB of JSON, stored twice (the event and the timeline's copy), and under
// `make load` pglz took 8 % of PostgreSQL's CPU (docs/performance.md,
// fourteenth session). Reads decompress faster too. A server without lz4
// keeps pglz, and a URL that sets default_toast_compression keeps its own
// choice. Values stored before keep the compression they had.
func PreferLZ4(cfg *pgxpool.Config) {
	if _, set := cfg.ConnConfig.RuntimeParams[compressionParam]; set {
		return
	}
	next := cfg.AfterConnect
	cfg.AfterConnect = func(ctx context.Context, c *pgx.Conn) error {
		if _, err := c.Exec(ctx, "SET "+compressionParam+" = lz4"); err != nil && !Unsupported(err) {
			return fmt.Errorf("prefer lz4 compression: %w", err)
		}
		if next != nil {
			return next(ctx, c)
		}
		return nil
	}
}

// Unsupported tells whether err is a server's refusal of lz4: a server
// built without it answers invalid_parameter_value, one before version 14
// does not know the setting (undefined_object).
func Unsupported(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "22023" || pgErr.Code == "42704")
}
