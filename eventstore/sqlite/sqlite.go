// Package sqlite is the SQLite event store, for single-machine setups and
// tests.
//
// Appends go through one connection: concurrent Append calls queue, and
// the call that finds no transaction under way writes every append queued
// at the time in one transaction (group commit), each caller getting its
// own outcome: an append that conflicts or reuses an event ID is refused
// alone while the others are written. No caller hears of success before the
// transaction's COMMIT has returned, and if the transaction fails none is
// written and every caller gets the error.
// Transactions take the write lock at BEGIN (BEGIN IMMEDIATE), so they are
// serialised, also against other processes on the same file: the rowid seq
// alone orders the global log, and Position.Commit numbers the appends.
// Reads use a separate pool and, in WAL mode, never wait for the writer.
// synchronous=NORMAL keeps appends fast: a returned append survives a crash
// of the process, though the last ones may be lost if the machine loses
// power.
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
	"sync/atomic"
	"time"

	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"draindesign/eventstore"
	"draindesign/eventstore/internal/appendcheck"
	"draindesign/eventstore/internal/versions"
	"draindesign/migrations"
)

// Store is an eventstore.Store on a SQLite file.
type Store struct {
	write *sql.DB   // one connection, conn
	conn  *sql.Conn // held by the committer for good
	read  *sql.DB

	// On conn, used by the committer alone.
	begin, commit, rollback                         *sql.Stmt
	version, lastCommit, insert, upsertStream, byID *sql.Stmt
	// On read.
	readStream, readAll, readAllOf, countAfter, streamVersion *sql.Stmt

	mu      sync.Mutex
	queue   []*request // appends waiting for a batch
	leading bool       // an Append call is writing a batch
	closed  bool       // no more appends are queued
	idle    sync.Cond  // on mu: broadcast when leading turns false

	closeOnce sync.Once
	closeErr  error
}

var _ eventstore.Store = (*Store)(nil)

// ErrClosed is returned by appends made after Close was called.
var ErrClosed = errors.New("sqlite event store closed")

const eventColumns = `commit_id, seq, event_id, stream_id, version, type, schema_version, data, author, correlation_id, causation_id, occurred_at`

// typedEventColumns are eventColumns with data only for the types listed
// in the statement's first parameter, a JSON array (ReadAllOf).
const typedEventColumns = `commit_id, seq, event_id, stream_id, version, type, schema_version,
	CASE WHEN type IN (SELECT value FROM json_each(?)) THEN data END, author, correlation_id, causation_id, occurred_at`

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
	s.idle.L = &s.mu
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
	if s.conn, err = s.write.Conn(ctx); err != nil {
		return nil, err
	}
	if s.read, err = sql.Open("sqlite", name+"&_query_only=1"); err != nil {
		return nil, err
	}
	readers := max(4, runtime.GOMAXPROCS(0))
	s.read.SetMaxOpenConns(readers)
	s.read.SetMaxIdleConns(readers)

	prepare := func(prep func(context.Context, string) (*sql.Stmt, error), query string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var stmt *sql.Stmt
		if stmt, err = prep(ctx, query); err != nil {
			err = fmt.Errorf("prepare %q: %w", query, err)
		}
		return stmt
	}
	w := s.conn.PrepareContext
	s.begin = prepare(w, `BEGIN IMMEDIATE`)
	s.commit = prepare(w, `COMMIT`)
	s.rollback = prepare(w, `ROLLBACK`)
	s.version = prepare(w, `SELECT version FROM streams WHERE stream_id = ?`)
	s.lastCommit = prepare(w, `SELECT commit_id FROM events ORDER BY seq DESC LIMIT 1`)
	s.insert = prepare(w, `INSERT INTO events (commit_id, event_id, stream_id, version, type, schema_version, data, author, correlation_id, causation_id, occurred_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	s.upsertStream = prepare(w, `INSERT INTO streams (stream_id, version) VALUES (?, ?)
		ON CONFLICT (stream_id) DO UPDATE SET version = excluded.version`)
	s.byID = prepare(w, `SELECT `+eventColumns+` FROM events WHERE event_id IN (SELECT value FROM json_each(?))`)
	r := s.read.PrepareContext
	s.readStream = prepare(r, `SELECT `+eventColumns+` FROM events WHERE stream_id = ? AND version >= ? ORDER BY version LIMIT ?`)
	// seq alone orders the log, appends being serialised.
	s.readAll = prepare(r, `SELECT `+eventColumns+` FROM events WHERE seq > ? ORDER BY seq LIMIT ?`)
	s.readAllOf = prepare(r, `SELECT `+typedEventColumns+` FROM events WHERE seq > ? ORDER BY seq LIMIT ?`)
	s.countAfter = prepare(r, `SELECT count(*) FROM (SELECT 1 FROM events WHERE seq > ? LIMIT ?)`)
	s.streamVersion = prepare(r, `SELECT version FROM streams WHERE stream_id = ?`)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Close writes the appends queued before it, then closes the store; later
// appends fail with ErrClosed. It may be called more than once.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		for s.leading {
			s.idle.Wait()
		}
		s.mu.Unlock()
		var errs []error
		for _, st := range []*sql.Stmt{s.begin, s.commit, s.rollback,
			s.version, s.lastCommit, s.insert, s.upsertStream, s.byID, s.readStream, s.readAll, s.readAllOf, s.countAfter, s.streamVersion} {
			if st != nil {
				errs = append(errs, st.Close())
			}
		}
		if s.conn != nil {
			errs = append(errs, s.conn.Close())
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

// A request is one Append waiting for, or being written in, a batch.
type request struct {
	stream   string
	expected eventstore.ExpectedVersion
	evs      []eventstore.NewEvent
	// state moves from queued to taken (into a batch, or to lead the next
	// one) or to abandoned (by a caller whose context ended first), never
	// back.
	state atomic.Int32
	// lead, or else res and err, the outcome, are set before wake.
	lead bool
	res  eventstore.AppendResult
	err  error
	wake chan struct{}
}

const (
	queued int32 = iota
	taken
	abandoned
)

// Append implements eventstore.Store.
//
// Appends are written in batches, one transaction each (group commit), by
// the calls themselves: a call that finds no batch being written writes
// one, made of its own append and every one queued meanwhile, and then
// hands the lead to the first append that queued during its transaction.
// Calls that find a batch under way queue and wait. If ctx ends while the
// append is still queued, it is dropped, never written, and Append returns
// ctx's error; once taken into a batch, Append waits for its outcome, which
// comes with that transaction's end.
func (s *Store) Append(ctx context.Context, stream string, expected eventstore.ExpectedVersion, events ...eventstore.NewEvent) (eventstore.AppendResult, error) {
	evs, err := appendcheck.Prepare(stream, expected, events, time.Now())
	if err != nil {
		return eventstore.AppendResult{}, err
	}
	if err := ctx.Err(); err != nil {
		return eventstore.AppendResult{}, fmt.Errorf("append to %s: %w", stream, err)
	}
	r := &request{stream: stream, expected: expected, evs: evs, wake: make(chan struct{}, 1)}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return eventstore.AppendResult{}, fmt.Errorf("append to %s: %w", stream, ErrClosed)
	}
	lead := !s.leading
	if lead {
		s.leading = true
		r.state.Store(taken)
	} else {
		s.queue = append(s.queue, r)
	}
	s.mu.Unlock()
	if lead {
		s.leadBatch(r)
	}
	for {
		select {
		case <-r.wake:
		case <-ctx.Done():
			if r.state.CompareAndSwap(queued, abandoned) {
				return eventstore.AppendResult{}, fmt.Errorf("append to %s: %w", stream, ctx.Err())
			}
			<-r.wake
		}
		if !r.lead {
			break
		}
		// Handed the lead by the previous batch: this batch holds r.
		r.lead = false
		s.leadBatch(r)
	}
	var conflict *eventstore.ConflictError
	if r.err != nil && !errors.As(r.err, &conflict) { // a conflict names the stream itself
		return eventstore.AppendResult{}, fmt.Errorf("append to %s: %w", stream, r.err)
	}
	return r.res, r.err
}

// leadBatch writes self's append and those queued in one transaction, then
// passes the lead on to the first append queued since, if any.
func (s *Store) leadBatch(self *request) {
	s.mu.Lock()
	batch := []*request{self}
	for _, r := range s.queue {
		if r.state.CompareAndSwap(queued, taken) {
			batch = append(batch, r)
		}
	}
	clear(s.queue)
	s.queue = s.queue[:0]
	s.mu.Unlock()

	s.writeBatch(batch)

	s.mu.Lock()
	s.passLead()
	s.mu.Unlock()
}

// passLead hands the lead to the first append queued, or, if none is,
// drops it. s.mu must be held.
func (s *Store) passLead() {
	for i, r := range s.queue {
		if r.state.CompareAndSwap(queued, taken) {
			s.queue = append(s.queue[:0], s.queue[i+1:]...)
			r.lead = true
			r.wake <- struct{}{}
			return
		}
	}
	clear(s.queue)
	s.queue = s.queue[:0]
	s.leading = false
	s.idle.Broadcast()
}

// An outcome is what became of one append in a transaction.
type outcome int

const (
	written   outcome = iota
	rejected          // a conflict, a duplicate ID or a retry, told before any write
	duplicate         // an event ID was found taken while inserting: to be undone
	failed            // an unexpected error: the transaction is to be rolled back
)

// writeBatch writes batch in one transaction and wakes every caller up with
// its outcome once that is final: no success is told before COMMIT has
// returned, and if the transaction fails every caller gets the error.
//
// Savepoints would undo one rejected append alone, but cost two statements
// and a journal of the pages each append touches, on every append. The
// version check needs no undo (it runs before any write), so only an
// append that finds one of its event IDs taken while inserting, or fails
// unexpectedly, has written something to undo: then the transaction is
// rolled back and the batch written again without it. An unexpected
// failure is reported to its caller; a taken ID is settled afterwards, in a
// transaction of its own, once the rest is committed (it may be a retry of
// an append in that rest). Neither writes anything, so the others'
// outcomes do not depend on them.
func (s *Store) writeBatch(batch []*request) {
	ctx := context.Background() // a caller's end must not cut the others' transaction
	var later []*request
	for len(batch) > 0 {
		bad, err := s.tryBatch(ctx, batch)
		switch {
		case bad >= 0:
			if r := batch[bad]; errors.Is(r.err, errIDTaken) {
				later = append(later, r)
			} else {
				wake(batch[bad:bad+1], r.err)
			}
			batch = append(batch[:bad], batch[bad+1:]...)
			continue
		case err != nil:
			wake(batch, err)
		default:
			for _, r := range batch {
				r.wake <- struct{}{}
			}
		}
		break
	}
	for _, r := range later {
		s.writeBatch([]*request{r})
	}
}

// errIDTaken marks, in a batch of several, an append that found one of its
// event IDs stored while inserting.
var errIDTaken = errors.New("event ID taken")

// tryBatch runs batch in one transaction, leaving each request's outcome in
// it. It returns the index of a request whose writes had to be undone (-1
// if none), after rolling back, or an error that ends the whole batch.
func (s *Store) tryBatch(ctx context.Context, batch []*request) (int, error) {
	if err := s.exec(ctx, s.begin); err != nil {
		// A transaction left open by a failed ROLLBACK would make every
		// BEGIN fail: end it and try once more.
		_ = s.exec(ctx, s.rollback)
		if err = s.exec(ctx, s.begin); err != nil {
			return -1, fmt.Errorf("begin: %w", err)
		}
	}
	var commit uint64
	err := s.lastCommit.QueryRowContext(ctx).Scan(&commit)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		_ = s.exec(ctx, s.rollback)
		return -1, err
	}
	wrote := false
	for i, r := range batch {
		var o outcome
		r.res, o, r.err = s.appendOne(ctx, r, &commit)
		switch o {
		case written:
			wrote = true
		case failed:
			_ = s.exec(ctx, s.rollback)
			return i, nil
		case duplicate:
			if err := s.exec(ctx, s.rollback); err != nil {
				r.err = fmt.Errorf("rollback: %w", err)
				return i, nil
			}
			if len(batch) > 1 {
				r.err = errIDTaken
				return i, nil
			}
			// Alone, with nothing written, it is told here: a retry of a
			// stored append, or a duplicate.
			insertErr := r.err
			res, ok, err := s.retried(ctx, r)
			switch {
			case ok:
				r.res, r.err = res, nil
			case errors.Is(err, eventstore.ErrDuplicateEvent):
				r.err = err
			case err != nil:
				return -1, err
			default: // no ID stored: the constraint was another one
				return -1, insertErr
			}
			return -1, nil
		}
	}
	if !wrote {
		if err := s.exec(ctx, s.rollback); err != nil {
			return -1, fmt.Errorf("rollback: %w", err)
		}
		return -1, nil
	}
	if err := s.exec(ctx, s.commit); err != nil {
		_ = s.exec(ctx, s.rollback)
		return -1, fmt.Errorf("commit: %w", err)
	}
	return -1, nil
}

func (s *Store) exec(ctx context.Context, stmt *sql.Stmt) error {
	_, err := stmt.ExecContext(ctx)
	return err
}

// wake fails every request of batch with err.
func wake(batch []*request, err error) {
	for _, r := range batch {
		r.res, r.err = eventstore.AppendResult{}, err
		r.wake <- struct{}{}
	}
}

// appendOne writes r's events inside the transaction if its stream is at
// the expected version; *commit is the last commit number given.
func (s *Store) appendOne(ctx context.Context, r *request, commit *uint64) (eventstore.AppendResult, outcome, error) {
	var current int64
	if err := s.version.QueryRowContext(ctx, r.stream).Scan(&current); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return eventstore.AppendResult{}, failed, err
	}
	if r.expected != eventstore.Any && current != max(int64(r.expected), 0) {
		res, ok, err := s.retried(ctx, r)
		switch {
		case ok:
			return res, rejected, nil
		case errors.Is(err, eventstore.ErrDuplicateEvent):
			return eventstore.AppendResult{}, rejected, err
		case err != nil:
			return eventstore.AppendResult{}, failed, err
		}
		return eventstore.AppendResult{}, rejected, &eventstore.ConflictError{Stream: r.stream, Expected: r.expected, Actual: current}
	}
	c := *commit + 1
	var seq int64
	for i, e := range r.evs {
		res, err := s.insert.ExecContext(ctx, c, e.ID, r.stream, current+int64(i)+1, e.Type, e.Schema, string(e.Data),
			e.Metadata.Author, e.Metadata.CorrelationID, e.Metadata.CausationID, e.Metadata.Time.UnixMicro())
		var sqliteErr *sqlite.Error
		if errors.As(err, &sqliteErr) && sqliteErr.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE {
			// The write lock rules out a taken (stream, version), so an
			// event ID is stored already.
			return eventstore.AppendResult{}, duplicate, err
		}
		if err != nil {
			return eventstore.AppendResult{}, failed, err
		}
		if seq, err = res.LastInsertId(); err != nil { // the rowid, which is seq
			return eventstore.AppendResult{}, failed, err
		}
	}
	last := current + int64(len(r.evs))
	if _, err := s.upsertStream.ExecContext(ctx, r.stream, last); err != nil {
		return eventstore.AppendResult{}, failed, err
	}
	*commit = c
	return eventstore.AppendResult{FirstVersion: current + 1, LastVersion: last,
		Position: eventstore.Position{Commit: c, Seq: uint64(seq)}}, written, nil
}

// retried looks for r's events in the store, to tell a retry of a stored
// append from a conflict or duplicate (see appendcheck.Retry).
func (s *Store) retried(ctx context.Context, r *request) (eventstore.AppendResult, bool, error) {
	ids, err := json.Marshal(appendcheck.IDs(r.evs))
	if err != nil {
		return eventstore.AppendResult{}, false, err
	}
	rows, err := s.byID.QueryContext(ctx, string(ids))
	if err != nil {
		return eventstore.AppendResult{}, false, err
	}
	stored, err := scan(rows, len(r.evs))
	if err != nil {
		return eventstore.AppendResult{}, false, err
	}
	return appendcheck.Retry(r.stream, r.evs, stored)
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

// ReadAllOf implements eventstore.TypedReader.
func (s *Store) ReadAllOf(ctx context.Context, after eventstore.Position, limit int, types []string) ([]eventstore.Event, error) {
	list, err := json.Marshal(types)
	if err == nil {
		var rows *sql.Rows
		if rows, err = s.readAllOf.QueryContext(ctx, string(list), int64(after.Seq), sqlLimit(limit)); err == nil {
			var evs []eventstore.Event
			if evs, err = scan(rows, limit); err == nil {
				return evs, nil
			}
		}
	}
	return nil, fmt.Errorf("read log of %d types after %s: %w", len(types), after, err)
}

// CountAfter implements eventstore.Counter.
func (s *Store) CountAfter(ctx context.Context, after eventstore.Position, limit int) (int, error) {
	var n int
	if err := s.countAfter.QueryRowContext(ctx, int64(after.Seq), sqlLimit(limit)).Scan(&n); err != nil {
		return 0, fmt.Errorf("count the log after %s: %w", after, err)
	}
	return n, nil
}

// Head implements eventstore.HeadReader.
func (s *Store) Head(ctx context.Context) (eventstore.Position, error) {
	var commit, seq int64
	err := s.read.QueryRowContext(ctx, `SELECT commit_id, seq FROM events ORDER BY seq DESC LIMIT 1`).Scan(&commit, &seq)
	if errors.Is(err, sql.ErrNoRows) {
		return eventstore.Position{}, nil
	}
	if err != nil {
		return eventstore.Position{}, fmt.Errorf("head of the log: %w", err)
	}
	return eventstore.Position{Commit: uint64(commit), Seq: uint64(seq)}, nil
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

// StreamVersions implements eventstore.VersionsReader.
func (s *Store) StreamVersions(ctx context.Context, streams []string) (map[string]int64, error) {
	if len(streams) == 0 {
		return map[string]int64{}, nil
	}
	list, err := json.Marshal(streams)
	if err != nil {
		return nil, err
	}
	//nolint:rowserrcheck // versions.Scan checks rows.Err
	rows, err := s.read.QueryContext(ctx, `SELECT stream_id, version FROM streams
		WHERE stream_id IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return nil, fmt.Errorf("versions of %d streams: %w", len(streams), err)
	}
	defer rows.Close()
	out, err := versions.Scan(rows, len(streams))
	if err != nil {
		return nil, fmt.Errorf("versions of %d streams: %w", len(streams), err)
	}
	return out, nil
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
