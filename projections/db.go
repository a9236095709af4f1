package projections

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	// Registers the "sqlite" database/sql driver.
	_ "modernc.org/sqlite"

	"draindesign/eventstore/pgsession"
)

// Dialect names the SQL flavour behind a DB. Projections write portable SQL
// with ? placeholders; the few places where the dialects differ ask for it.
type Dialect string

const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// DB is a read-model database: SQLite for the embedded single-binary mode,
// PostgreSQL when several app instances share one database.
type DB struct {
	SQL     *sql.DB
	Dialect Dialect
	// pool is the connection pool behind SQL on PostgreSQL, used directly
	// by read-model transactions to pipeline their statements (pgTx).
	pool *pgxpool.Pool
}

// OpenSQLite opens (creating if needed) the read-model database file at path.
//
// Transactions start with BEGIN IMMEDIATE so that two writers (two runners on
// the same file) queue on the busy timeout instead of failing with
// SQLITE_BUSY when a reader tries to upgrade to a writer mid-transaction.
func OpenSQLite(path string) (*DB, error) {
	if path == "" {
		return nil, fmt.Errorf("open read models: empty sqlite path")
	}
	// The file: URI form lets the path hold '?' and '#'.
	dsn := "file:" + strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(path) +
		"?_txlock=immediate" +
		"&_pragma=busy_timeout(10000)" +
		"&_pragma=journal_mode(WAL)" +
		"&_pragma=synchronous(NORMAL)" +
		// Erased personal data must not linger in freed pages.
		"&_pragma=secure_delete(1)"
	sqldb, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open read models %s: %w", path, err)
	}
	if err := sqldb.Ping(); err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("open read models %s: %w", path, err)
	}
	return &DB{SQL: sqldb, Dialect: SQLite}, nil
}

// MaxReadModelConns bounds one instance's connections to the PostgreSQL
// read-model database. With the event store's pools (postgres.Conns) an
// instance holds at most 37 connections; docker-compose.yml raises
// PostgreSQL's max_connections to fit its replicas.
const MaxReadModelConns = 16

// OpenPostgres connects to the read-model database at url (a postgres:// URL
// or keyword/value DSN understood by pgx).
func OpenPostgres(url string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("open read models: %w", err)
	}
	// Bounded: without a limit, a busy instance (hundreds of live streams
	// re-checking their sessions every second) opened connections until
	// the server refused everyone with "too many clients" (found by
	// `make load`). Beyond the limit, queries wait for a free connection.
	cfg.MaxConns = MaxReadModelConns
	pgsession.PreferLZ4(cfg)
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		return nil, fmt.Errorf("open read models: %w", err)
	}
	// Queries outside transactions go through database/sql on the same
	// pool, so the bound above covers both.
	sqldb := stdlib.OpenDBFromPool(pool)
	if err := sqldb.Ping(); err != nil {
		sqldb.Close()
		pool.Close()
		return nil, fmt.Errorf("open read models: %w", err)
	}
	return &DB{SQL: sqldb, Dialect: Postgres, pool: pool}, nil
}

// Close closes the underlying connection pool.
func (db *DB) Close() error {
	err := db.SQL.Close()
	if db.pool != nil {
		db.pool.Close()
	}
	return err
}

// Rebind rewrites ? placeholders for the dialect.
func (db *DB) Rebind(query string) string { return rebind(db.Dialect, query) }

// Exec runs a statement outside any transaction, with ? placeholders.
func (db *DB) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return db.SQL.ExecContext(ctx, db.Rebind(query), args...)
}

// Query runs a query outside any transaction, with ? placeholders.
func (db *DB) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return db.SQL.QueryContext(ctx, db.Rebind(query), args...)
}

// QueryRow runs a single-row query outside any transaction, with ? placeholders.
func (db *DB) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return db.SQL.QueryRowContext(ctx, db.Rebind(query), args...)
}

// Begin starts a transaction. On PostgreSQL nothing reaches the server
// until the transaction reads or commits (pgTx).
func (db *DB) Begin(ctx context.Context) (*Tx, error) {
	if db.pool != nil {
		return &Tx{Dialect: db.Dialect, pg: &pgTx{pool: db.pool}}, nil
	}
	tx, err := db.SQL.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("begin read-model transaction: %w", err)
	}
	return &Tx{Dialect: db.Dialect, sql: tx}, nil
}

// InTx runs fn in a transaction, committing when it returns nil and rolling
// back otherwise.
func (db *DB) InTx(ctx context.Context, fn func(*Tx) error) error {
	tx, err := db.Begin(ctx)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback(ctx)
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit read-model transaction: %w", err)
	}
	return nil
}

// Tx is a read-model transaction. A projection's Apply gets one that also
// carries the checkpoint update, so both commit or neither does.
//
// On PostgreSQL, Exec only queues its statement: its error, if any, comes
// from the next Query, QueryRow or Commit, and rolls the transaction back
// all the same.
type Tx struct {
	Dialect Dialect
	sql     *sql.Tx // SQLite, and a DB opened without a pgx pool
	pg      *pgTx   // PostgreSQL
}

// Exec runs (on PostgreSQL: queues) a statement with ? placeholders.
func (tx *Tx) Exec(ctx context.Context, query string, args ...any) error {
	if tx.pg != nil {
		return tx.pg.exec(rebind(tx.Dialect, query), args)
	}
	_, err := tx.sql.ExecContext(ctx, rebind(tx.Dialect, query), args...)
	if isCheckpointMoved(err) {
		return errCheckpointMoved
	}
	return err
}

// execRows runs a statement at once and returns how many rows it changed;
// for the SQLite checkpoint only (advanceCheckpoint).
func (tx *Tx) execRows(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := tx.sql.ExecContext(ctx, rebind(tx.Dialect, query), args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Query runs a query with ? placeholders, after the statements queued
// before it.
func (tx *Tx) Query(ctx context.Context, query string, args ...any) (Rows, error) {
	if tx.pg != nil {
		return tx.pg.query(ctx, rebind(tx.Dialect, query), args)
	}
	//nolint:rowserrcheck // handed to the caller, who checks Err
	return tx.sql.QueryContext(ctx, rebind(tx.Dialect, query), args...)
}

// QueryRow runs a single-row query with ? placeholders, after the
// statements queued before it.
func (tx *Tx) QueryRow(ctx context.Context, query string, args ...any) Row {
	if tx.pg != nil {
		return tx.pg.queryRow(ctx, rebind(tx.Dialect, query), args)
	}
	return tx.sql.QueryRowContext(ctx, rebind(tx.Dialect, query), args...)
}

// queryRowLocked is QueryRow after lock, a statement that takes a lock
// for the rest of the transaction (an advisory lock), on PostgreSQL only:
// as the transaction's first statements, BEGIN, the lock and the query go
// to the server as one pipeline. On SQLite the lock is left out: BEGIN
// IMMEDIATE holds the database's write lock already.
func (tx *Tx) queryRowLocked(ctx context.Context, lock string, lockArgs []any, query string, args ...any) Row {
	if tx.pg != nil {
		return tx.pg.queryRow(ctx, rebind(tx.Dialect, query), args, queuedStmt{sql: rebind(tx.Dialect, lock), args: lockArgs})
	}
	if tx.Dialect == Postgres {
		if _, err := tx.sql.ExecContext(ctx, rebind(tx.Dialect, lock), lockArgs...); err != nil {
			return errRow{err}
		}
	}
	return tx.sql.QueryRowContext(ctx, rebind(tx.Dialect, query), args...)
}

// Commit sends what is queued and commits the transaction.
func (tx *Tx) Commit(ctx context.Context) error {
	if tx.pg != nil {
		return tx.pg.commit(ctx)
	}
	return tx.sql.Commit()
}

// Rollback aborts the transaction; after a Commit it is a harmless no-op.
func (tx *Tx) Rollback(ctx context.Context) error {
	if tx.pg != nil {
		return tx.pg.rollback(ctx)
	}
	return tx.sql.Rollback()
}

// rebind turns ? into $1, $2, ... for PostgreSQL. Question marks inside
// quoted strings, quoted identifiers and comments are left alone so that
// literals such as 'why?' survive.
func rebind(d Dialect, query string) string {
	if d != Postgres || !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 8)
	n := 0
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case c == '\'' || c == '"':
			// A doubled quote inside the literal closes and reopens it, which
			// this loop handles for free.
			j := strings.IndexByte(query[i+1:], c)
			if j < 0 {
				b.WriteString(query[i:])
				return b.String()
			}
			b.WriteString(query[i : i+j+2])
			i += j + 1
		case c == '-' && i+1 < len(query) && query[i+1] == '-':
			j := strings.IndexByte(query[i:], '\n')
			if j < 0 {
				b.WriteString(query[i:])
				return b.String()
			}
			b.WriteString(query[i : i+j+1])
			i += j
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// Checkpoint, on SQLite, copies the write-ahead log into the database file
// and truncates it, so that page images holding erased personal data do
// not outlive an erasure there; on PostgreSQL it does nothing (dead row
// versions go at VACUUM, docs/privacy.md). A busy log is left for the
// next checkpoint.
func (db *DB) Checkpoint(ctx context.Context) error {
	if db.Dialect != SQLite {
		return nil
	}
	if _, err := db.SQL.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return fmt.Errorf("checkpoint read models: %w", err)
	}
	return nil
}
