package projections

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pgTx is a read-model transaction on PostgreSQL that costs as few round
// trips as its statements allow. A projection's Apply mostly writes, one or
// two statements per event; sent one by one through database/sql, a batch
// of 50 events took 100 to 150 ms on a loaded server (`make load`), and
// every writer waiting to read its own write waited for it. Here a write
// is only queued; the queue goes to the server as one pipeline when the
// transaction reads (Query, QueryRow) or commits.
//
// A transaction that never reads is one pipeline: BEGIN, its statements,
// COMMIT. PostgreSQL skips everything after a failed statement up to the
// pipeline's end, so nothing after it commits, and the block is then
// rolled back. One that reads sends BEGIN with its first flush and COMMIT
// with its last queued statements.
type pgTx struct {
	pool   *pgxpool.Pool
	conn   *pgxpool.Conn // acquired at the first flush
	queued []queuedStmt
	begun  bool // an explicit transaction block is open on conn
	done   bool // committed, rolled back or failed: conn is released
}

type queuedStmt struct {
	sql  string
	args []any
}

func (t *pgTx) exec(query string, args []any) error {
	if t.done {
		return errors.New("read-model transaction already ended")
	}
	t.queued = append(t.queued, queuedStmt{sql: query, args: args})
	return nil
}

// flush sends the queued statements, opening the explicit transaction block
// first, so that a read after it sees them.
func (t *pgTx) flush(ctx context.Context) error {
	if t.done {
		return errors.New("read-model transaction already ended")
	}
	if t.begun && len(t.queued) == 0 {
		return nil
	}
	open := !t.begun
	t.begun = true
	return t.send(ctx, open, false)
}

// send runs the queued statements as one pipeline, after BEGIN when begin
// is set and followed by COMMIT when commit is set. A failure ends the
// transaction: the caller gets the first statement's error and only
// Rollback remains.
func (t *pgTx) send(ctx context.Context, begin, commit bool) error {
	br, b, err := t.start(ctx, begin, commit, nil)
	if err != nil {
		return err
	}
	return t.finish(ctx, br, b, commit, b.Len())
}

// start sends the queued statements as one pipeline, BEGIN first when
// begin is set, then COMMIT when commit is set or the query read when it
// is not nil, without reading the answers.
func (t *pgTx) start(ctx context.Context, begin, commit bool, read *queuedStmt) (pgx.BatchResults, *pgx.Batch, error) {
	if t.conn == nil {
		c, err := t.pool.Acquire(ctx)
		if err != nil {
			t.done = true
			return nil, nil, fmt.Errorf("read-model connection: %w", err)
		}
		t.conn = c
	}
	b := &pgx.Batch{QueuedQueries: make([]*pgx.QueuedQuery, 0, len(t.queued)+3)}
	if begin {
		b.Queue("BEGIN")
		// A read model is derived from the log: a commit lost in a server
		// crash goes with its checkpoint and is applied again, so its
		// commit need not wait for the WAL to reach the disk.
		b.Queue("SET LOCAL synchronous_commit = off")
	}
	for _, s := range t.queued {
		b.Queue(s.sql, s.args...)
	}
	if commit {
		b.Queue("COMMIT")
	}
	if read != nil {
		b.Queue(read.sql, read.args...)
	}
	t.queued = nil
	return t.conn.SendBatch(ctx, b), b, nil
}

// finish reads the answers of the pipeline's first n statements and,
// when n is the whole pipeline, closes it. A failure ends the transaction.
func (t *pgTx) finish(ctx context.Context, br pgx.BatchResults, b *pgx.Batch, commit bool, n int) error {
	var first error
	for i := 0; i < n && first == nil; i++ {
		tag, err := br.Exec()
		switch {
		case err != nil:
			first = stmtError(b.QueuedQueries[i].SQL, err)
		case commit && i == b.Len()-1 && tag.String() != "COMMIT":
			// COMMIT of an aborted block answers ROLLBACK, not an error.
			first = fmt.Errorf("commit read-model transaction: server answered %q", tag.String())
		}
	}
	if first != nil || n == b.Len() {
		if err := br.Close(); err != nil && first == nil {
			first = err
		}
	}
	if first != nil {
		t.end(ctx)
		return first
	}
	return nil
}

// stmtError names the statement that failed, shortened, so that an error
// from a pipeline of fifty says which one.
func stmtError(query string, err error) error {
	if isCheckpointMoved(err) {
		return errCheckpointMoved
	}
	q := strings.Join(strings.Fields(query), " ")
	if len(q) > 80 {
		q = q[:80] + "…"
	}
	return fmt.Errorf("%s: %w", q, err)
}

func (t *pgTx) query(ctx context.Context, query string, args []any) (Rows, error) {
	if err := t.flush(ctx); err != nil {
		return nil, err
	}
	rows, err := t.conn.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return pgRows{rows}, nil
}

// queryRow runs the statements before (if any), then the query. As a
// transaction's first statements they go in one pipeline with BEGIN, so
// that a transaction that reads a row first (a round's locked checkpoint)
// costs no round trip more than one that only writes. After queued
// statements it waits for them first: pgx prepares a pipeline's statements
// before running any, and a query cannot be prepared against a table a
// queued statement has yet to create.
func (t *pgTx) queryRow(ctx context.Context, query string, args []any, before ...queuedStmt) Row {
	if t.done {
		return errRow{errors.New("read-model transaction already ended")}
	}
	if t.begun || len(t.queued) > 0 {
		t.queued = append(t.queued, before...)
		if err := t.flush(ctx); err != nil {
			return errRow{err}
		}
		return t.conn.QueryRow(ctx, query, args...)
	}
	t.begun = true
	t.queued = before
	br, b, err := t.start(ctx, true, false, &queuedStmt{sql: query, args: args})
	if err != nil {
		return errRow{err}
	}
	if err := t.finish(ctx, br, b, false, b.Len()-1); err != nil {
		return errRow{err}
	}
	return &pipelinedRow{t: t, ctx: ctx, br: br}
}

// pipelinedRow is the row a pipeline's last query answers; scanning it
// closes the pipeline.
type pipelinedRow struct {
	t   *pgTx
	ctx context.Context
	br  pgx.BatchResults
}

func (r *pipelinedRow) Scan(dest ...any) error {
	err := r.br.QueryRow().Scan(dest...)
	if cerr := r.br.Close(); cerr != nil && (err == nil || errors.Is(err, pgx.ErrNoRows)) {
		err = cerr
	}
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		r.t.end(r.ctx)
	}
	return err
}

func (t *pgTx) commit(ctx context.Context) error {
	if t.done {
		return errors.New("read-model transaction already ended")
	}
	if !t.begun && len(t.queued) == 0 {
		t.done = true
		t.release()
		return nil
	}
	if err := t.send(ctx, !t.begun, true); err != nil {
		return err
	}
	t.release()
	return nil
}

func (t *pgTx) rollback(ctx context.Context) error {
	if t.done {
		return nil
	}
	t.end(ctx)
	return nil
}

// end gives the connection back after rolling back an open block. Should
// the ROLLBACK fail, pgxpool drops the connection rather than pool one
// still in a transaction.
func (t *pgTx) end(ctx context.Context) {
	t.queued = nil
	if t.conn != nil && t.conn.Conn().PgConn().TxStatus() != 'I' {
		_, _ = t.conn.Exec(context.WithoutCancel(ctx), "ROLLBACK")
	}
	t.release()
}

func (t *pgTx) release() {
	t.done = true
	if t.conn != nil {
		t.conn.Release()
		t.conn = nil
	}
}

// errCheckpointMoved says that a projection's checkpoint was no longer
// where the batch being applied starts: another instance applied it first.
var errCheckpointMoved = errors.New("projection checkpoint moved")

// checkpointMovedText is the marker the PostgreSQL checkpoint statement
// raises (advanceCheckpoint); the error is the server's, so the transaction
// it is in rolls back before anything after it runs.
const checkpointMovedText = "projection checkpoint moved"

func isCheckpointMoved(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "22P02" && strings.Contains(pe.Message, checkpointMovedText)
}

// Rows is a query's result inside a read-model transaction: *sql.Rows on
// SQLite, pgx's rows on PostgreSQL.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close() error
}

// Row is a single-row query's result inside a read-model transaction.
type Row interface {
	Scan(dest ...any) error
}

type pgRows struct{ pgx.Rows }

func (r pgRows) Close() error {
	r.Rows.Close()
	return r.Rows.Err()
}

type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }
