// Package sqlite is the SQLite event store, for single-machine setups and
// tests.
//
// Appends go through one connection and take the write lock at BEGIN
// (BEGIN IMMEDIATE), so they are serialised, also against other processes
// on the same file: the rowid seq alone orders the global log, and
// Position.Commit numbers the appends. Reads use a separate pool and, in WAL
// mode, never wait for the writer. synchronous=NORMAL keeps appends fast:
// a returned append survives a crash of the process, though the last ones
// may be lost if the machine loses power.
package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"draindesign/eventstore"
	"draindesign/eventstore/internal/appendcheck"
	"draindesign/migrations"
)

// Store is an eventstore.Store on a SQLite file.
type Store struct {
	write *sql.DB // one connection
	read  *sql.DB

	version, lastCommit, insert, upsertStream, byID *sql.Stmt // on write
	readStream, readAll, streamVersion              *sql.Stmt // on read

	closeOnce sync.Once
	closeErr  error
}

var _ eventstore.Store = (*Store)(nil)

const eventColumns = `commit_id, seq, event_id, stream_id, version, type, schema_version, data, author, correlation_id, causation_id, occurred_at`

// Open opens, creating it if need be, the store in the SQLite file at path
// and applies the migrations in migrations.SQLite it lacks.
func Open(ctx context.Context, path string) (*Store, error) {
	s, err := open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("open event store %s: %w", path, err)
	}
	return s, nil
}

func open(ctx context.Context, path string) (_ *Store, err error) {
	// The file: form lets a path hold '?' or '#'; pragmas are per connection.
	name := "file:" + strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(path) +
		"?_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)"
	s := &Store{}
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	if s.write, err = sql.Open("sqlite", name+"&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=secure_delete(1)&_txlock=immediate"); err != nil {
		return nil, err
	}
	s.write.SetMaxOpenConns(1)
	// Keep the one connection, and the statements prepared on it, for good.
	s.write.SetConnMaxIdleTime(0)
	s.write.SetConnMaxLifetime(0)
	ms, err := migrations.List(migrations.SQLite, "sqlite")
	if err != nil {
		return nil, err
	}
	if err := migrate(ctx, s.write, ms); err != nil {
		return nil, err
	}
	if s.read, err = sql.Open("sqlite", name+"&_query_only=1"); err != nil {
		return nil, err
	}
	readers := max(4, runtime.GOMAXPROCS(0))
	s.read.SetMaxOpenConns(readers)
	s.read.SetMaxIdleConns(readers)

	prepare := func(db *sql.DB, query string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var stmt *sql.Stmt
		if stmt, err = db.PrepareContext(ctx, query); err != nil {
			err = fmt.Errorf("prepare %q: %w", query, err)
		}
		return stmt
	}
	s.version = prepare(s.write, `SELECT version FROM streams WHERE stream_id = ?`)
	s.lastCommit = prepare(s.write, `SELECT commit_id FROM events ORDER BY seq DESC LIMIT 1`)
	s.insert = prepare(s.write, `INSERT INTO events (commit_id, event_id, stream_id, version, type, schema_version, data, author, correlation_id, causation_id, occurred_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	s.upsertStream = prepare(s.write, `INSERT INTO streams (stream_id, version) VALUES (?, ?)
		ON CONFLICT (stream_id) DO UPDATE SET version = excluded.version`)
	s.byID = prepare(s.write, `SELECT `+eventColumns+` FROM events WHERE event_id IN (SELECT value FROM json_each(?))`)
	s.readStream = prepare(s.read, `SELECT `+eventColumns+` FROM events WHERE stream_id = ? AND version >= ? ORDER BY version LIMIT ?`)
	// seq alone orders the log, appends being serialised.
	s.readAll = prepare(s.read, `SELECT `+eventColumns+` FROM events WHERE seq > ? ORDER BY seq LIMIT ?`)
	s.streamVersion = prepare(s.read, `SELECT version FROM streams WHERE stream_id = ?`)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Close closes the store; it may be called more than once.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		var errs []error
		for _, st := range []*sql.Stmt{s.version, s.lastCommit, s.insert, s.upsertStream, s.byID, s.readStream, s.readAll, s.streamVersion} {
			if st != nil {
				errs = append(errs, st.Close())
			}
		}
		for _, db := range []*sql.DB{s.read, s.write} {
			if db != nil {
				errs = append(errs, db.Close())
			}
		}
		s.closeErr = errors.Join(errs...)
	})
	return s.closeErr
}

// Append implements eventstore.Store.
func (s *Store) Append(ctx context.Context, stream string, expected eventstore.ExpectedVersion, events ...eventstore.NewEvent) (eventstore.AppendResult, error) {
	evs, err := appendcheck.Prepare(stream, expected, events, time.Now())
	if err != nil {
		return eventstore.AppendResult{}, err
	}
	res, err := s.append(ctx, stream, expected, evs)
	var conflict *eventstore.ConflictError
	if err != nil && !errors.As(err, &conflict) { // a conflict names the stream itself
		return eventstore.AppendResult{}, fmt.Errorf("append to %s: %w", stream, err)
	}
	return res, err
}

func (s *Store) append(ctx context.Context, stream string, expected eventstore.ExpectedVersion, evs []eventstore.NewEvent) (eventstore.AppendResult, error) {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return eventstore.AppendResult{}, err
	}
	defer tx.Rollback() // a no-op once committed
	var current int64
	if err := tx.StmtContext(ctx, s.version).QueryRowContext(ctx, stream).Scan(&current); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return eventstore.AppendResult{}, err
	}
	if expected != eventstore.Any && current != max(int64(expected), 0) {
		res, ok, err := s.retried(ctx, tx, stream, evs)
		if err != nil || ok {
			return res, err
		}
		return eventstore.AppendResult{}, &eventstore.ConflictError{Stream: stream, Expected: expected, Actual: current}
	}

	var commit uint64
	if err := tx.StmtContext(ctx, s.lastCommit).QueryRowContext(ctx).Scan(&commit); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return eventstore.AppendResult{}, err
	}
	commit++
	insert := tx.StmtContext(ctx, s.insert)
	for i, e := range evs {
		_, err := insert.ExecContext(ctx, commit, e.ID, stream, current+int64(i)+1, e.Type, e.Schema, string(e.Data),
			e.Metadata.Author, e.Metadata.CorrelationID, e.Metadata.CausationID, e.Metadata.Time.UnixMicro())
		var sqliteErr *sqlite.Error
		if errors.As(err, &sqliteErr) && sqliteErr.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE {
			// The write lock rules out a taken (stream, version), so an
			// event ID is stored already.
			res, ok, rerr := s.retried(ctx, tx, stream, evs)
			if rerr != nil || ok {
				return res, rerr
			}
		}
		if err != nil {
			return eventstore.AppendResult{}, err
		}
	}
	last := current + int64(len(evs))
	if _, err := tx.StmtContext(ctx, s.upsertStream).ExecContext(ctx, stream, last); err != nil {
		return eventstore.AppendResult{}, err
	}
	if err := tx.Commit(); err != nil {
		return eventstore.AppendResult{}, err
	}
	return eventstore.AppendResult{FirstVersion: current + 1, LastVersion: last}, nil
}

// retried looks for evs in the store, to tell a retry of a stored append
// from a conflict or duplicate (see appendcheck.Retry).
func (s *Store) retried(ctx context.Context, tx *sql.Tx, stream string, evs []eventstore.NewEvent) (eventstore.AppendResult, bool, error) {
	ids, err := json.Marshal(appendcheck.IDs(evs))
	if err != nil {
		return eventstore.AppendResult{}, false, err
	}
	rows, err := tx.StmtContext(ctx, s.byID).QueryContext(ctx, string(ids))
	if err != nil {
		return eventstore.AppendResult{}, false, err
	}
	stored, err := scan(rows, len(evs))
	if err != nil {
		return eventstore.AppendResult{}, false, err
	}
	return appendcheck.Retry(stream, evs, stored)
}

// ReadStream implements eventstore.Store.
func (s *Store) ReadStream(ctx context.Context, stream string, from int64, limit int) ([]eventstore.Event, error) {
	rows, err := s.readStream.QueryContext(ctx, stream, from, sqlLimit(limit))
	if err == nil {
		var evs []eventstore.Event
		if evs, err = scan(rows, limit); err == nil {
			return evs, nil
		}
	}
	return nil, fmt.Errorf("read stream %s: %w", stream, err)
}

// ReadAll implements eventstore.Store.
func (s *Store) ReadAll(ctx context.Context, after eventstore.Position, limit int) ([]eventstore.Event, error) {
	rows, err := s.readAll.QueryContext(ctx, int64(after.Seq), sqlLimit(limit))
	if err == nil {
		var evs []eventstore.Event
		if evs, err = scan(rows, limit); err == nil {
			return evs, nil
		}
	}
	return nil, fmt.Errorf("read log after %s: %w", after, err)
}

// sqlLimit maps "no limit" to -1, which LIMIT takes as none.
func sqlLimit(limit int) int {
	if limit <= 0 {
		return -1
	}
	return limit
}

func scan(rows *sql.Rows, sizeHint int) ([]eventstore.Event, error) {
	defer rows.Close()
	evs := make([]eventstore.Event, 0, max(0, min(sizeHint, 1024)))
	var (
		e               eventstore.Event
		commit, seq, at int64 // database/sql sets unsigned integers by reflection
		data            []byte
		// One destination list for all rows: built per row it would cost
		// two allocations.
		dest = []any{&commit, &seq, &e.ID, &e.Stream, &e.Version, &e.Type, &e.Schema, &data,
			&e.Metadata.Author, &e.Metadata.CorrelationID, &e.Metadata.CausationID, &at}
	)
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		e.Position = eventstore.Position{Commit: uint64(commit), Seq: uint64(seq)}
		e.Data = data
		e.Metadata.Time = time.UnixMicro(at).UTC()
		evs = append(evs, e)
	}
	return evs, rows.Err()
}

// StreamVersion implements eventstore.Store.
func (s *Store) StreamVersion(ctx context.Context, stream string) (int64, error) {
	var v int64
	err := s.streamVersion.QueryRowContext(ctx, stream).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("version of stream %s: %w", stream, err)
	}
	return v, nil
}
