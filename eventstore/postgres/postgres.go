// Package postgres is the PostgreSQL event store.
//
// The global log is ordered by (tx_id, seq), where tx_id is the writing
// transaction's xid8. seq comes from a sequence, so it is handed out before
// commit and concurrent transactions may commit their seqs out of order; a
// plain "seq > last" reader would then skip events. ReadAll instead returns
// only rows whose tx_id is below the xmin of its snapshot: every transaction
// with a smaller id has finished, so whatever commits later has a tx_id at
// least that xmin and sorts after everything already returned. The price is
// that one long-running writing transaction anywhere on the server holds
// ReadAll back until it ends.
//
// Each append is one statement whose first write is to its stream's row in
// streams, made only if the row holds the expected version in the
// statement's snapshot (a concurrent append that commits first makes the
// re-check fail: a conflict). So the append that wrote the previous version
// committed before that snapshot was taken, and as a transaction gets its id
// only at its first write, the new append's id is larger: the log holds
// each stream in version order. Any is turned into an exact version for
// this, and the UNIQUE (stream_id, version) on events backs the row up.
package postgres

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"draindesign/eventstore"
	"draindesign/eventstore/internal/appendcheck"
	"draindesign/eventstore/internal/versions"
	"draindesign/eventstore/pgsession"
)

// DefaultMaxConns bounds the store's pool unless the URL sets
// pool_max_conns.
const DefaultMaxConns = 16

// Store is an eventstore.Store on a pgxpool.
type Store struct {
	pool *pgxpool.Pool
	// logPool serves the reads of the whole log (ReadAll, ReadAllOf,
	// CountAfter, Head), of subject keys and of many streams' versions
	// (StreamVersions): the read models' followers, the relay, the
	// watchers and the recheck of cached accounts, which read in the
	// background. Sharing pool, they queued behind the calls of the people
	// using the product: under `make load` about 75 requests of an
	// instance waited for one of its 16 connections at any moment, a
	// follower's round waited seconds for each page and key look-up, and
	// every read model fell behind the log, further each second. Each side
	// now waits only for its own kind.
	logPool *pgxpool.Pool
	// lowPool serves the appends marked eventstore.LowPriority, the
	// records of calculations. On the main pool they took part in the
	// commits beside the edits: under `make load` PostgreSQL's commits
	// wait for one another's WAL flush (LWLock:WALWrite), and the more
	// commits at once on two busy cores, the longer the flusher's turn
	// for a core keeps the others waiting. Held to lowConns connections,
	// the records queue in the instance instead, and the edits' commits
	// meet fewer others (docs/decisions.md, "Records yield to edits").
	lowPool *pgxpool.Pool
	// scratches holds the read buffers of finished queries for the next
	// ones. A sync.Pool would drop them at every garbage collection, which
	// a reader of pages of 1,000 events triggers every few pages: their
	// regrowth was a sixth of the bytes ReadAll allocated.
	scratches chan *scratch
}

// Up to keptScratches read buffers of at most maxKeptScratch bytes each
// are kept: a few concurrent readers' worth, of pages of a few thousand
// events; the buffers of larger results go to the garbage collector.
const (
	keptScratches  = 4
	maxKeptScratch = 4 << 20
)

var _ eventstore.Store = (*Store)(nil)

// Open migrates the database at databaseURL (see Migrate) and connects to
// it. pgxpool settings such as pool_max_conns may be given in the URL;
// pool_max_conns sizes the main pool, the log readers' pool has a quarter
// as many connections beside it (logConns) and the low-priority appends'
// pool a sixteenth (lowConns).
func Open(ctx context.Context, databaseURL string) (*Store, error) {
	if err := Migrate(ctx, databaseURL); err != nil {
		return nil, err
	}
	cfg, err := pgxpool.ParseConfig(databaseURL)
	if err != nil {
		return nil, fmt.Errorf("open event store: %w", err)
	}
	if _, set := cfg.ConnConfig.RuntimeParams["plan_cache_mode"]; !set {
		// The store's statements have one good plan whatever their
		// arguments, but with the default mode PostgreSQL plans the append
		// anew for every call (its generic plan, sized for unnest's default
		// 100 rows, looks dearer than a custom one), which doubled its cost.
		cfg.ConnConfig.RuntimeParams["plan_cache_mode"] = "force_generic_plan"
	}
	pgsession.PreferLZ4(cfg)
	if !strings.Contains(databaseURL, "pool_max_conns") {
		// pgxpool's default (four on two cores) made every request of a
		// busy instance queue for a connection (issue 15's load test);
		// the read models have as many of their own.
		cfg.MaxConns = DefaultMaxConns
	}
	s := &Store{scratches: make(chan *scratch, keptScratches)}
	for _, p := range []struct {
		pool *(*pgxpool.Pool)
		size int32
	}{{&s.pool, cfg.MaxConns}, {&s.logPool, logConns(cfg.MaxConns)}, {&s.lowPool, lowConns(cfg.MaxConns)}} {
		c := cfg.Copy()
		c.MaxConns, c.MinConns = p.size, min(cfg.MinConns, p.size)
		if *p.pool, err = pgxpool.NewWithConfig(ctx, c); err != nil {
			s.Close()
			return nil, fmt.Errorf("open event store: %w", err)
		}
	}
	if err := s.pool.Ping(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("open event store: %w", err)
	}
	return s, nil
}

// logConns is the size of the log readers' pool beside a main pool of
// main connections: a quarter of it (4 beside the default 16), at least
// one. pool_max_conns in the URL sizes the main pool.
func logConns(main int32) int32 {
	return max(1, main/4)
}

// lowConns is the size of the low-priority appends' pool beside a main
// pool of main connections: a sixteenth of it (1 beside the default 16),
// at least one. One connection per instance keeps up with the records of
// `make load`'s calculations (about 150 a second per instance, each a few
// milliseconds); against the records on the main pool the edits' p99 fell
// by a fifth with two connections and by a quarter with one
// (docs/performance.md, "Session of 2026-12-07").
func lowConns(main int32) int32 {
	return max(1, main/16)
}

// Conns is the most connections a store opens when its main pool has
// main: its three pools together (21 for the default 16). A deployment's
// PostgreSQL needs as many per instance, beside the read models' own.
func Conns(main int32) int32 {
	return main + logConns(main) + lowConns(main)
}

// Close closes the pools; it may be called more than once, and on a store
// that Open left half made.
func (s *Store) Close() error {
	for _, p := range []*pgxpool.Pool{s.pool, s.logPool, s.lowPool} {
		if p != nil {
			p.Close()
		}
	}
	return nil
}

// writePool is the pool of an append made with ctx.
func (s *Store) writePool(ctx context.Context) *pgxpool.Pool {
	if eventstore.IsLowPriority(ctx) {
		return s.lowPool
	}
	return s.pool
}

// An append is one statement: a CTE writing the stream row (its first
// write: see the package doc), then the events, joined to it so that none
// is written unless the stream was at the expected version. $1 is the
// stream, $2 the expected version, $3 the number of events.
const (
	headNew = `WITH head AS (
	INSERT INTO streams (stream_id, version) VALUES ($1::text, $2::bigint + $3::bigint)
	ON CONFLICT (stream_id) DO NOTHING RETURNING version
)`
	headExisting = `WITH head AS (
	UPDATE streams SET version = $2::bigint + $3::bigint
	WHERE stream_id = $1::text AND version = $2::bigint RETURNING version
)`
	insertEvents = `
INSERT INTO events (event_id, stream_id, version, type, schema_version, data, author, correlation_id, causation_id, occurred_at)
SELECT e.event_id, $1, $2 + e.n, e.type, e.schema_version, e.data, e.author, e.correlation_id, e.causation_id, e.occurred_at
FROM head, `
	// Ordered, so that seq follows version within an append.
	eventsAlias = ` AS e(event_id, type, schema_version, data, author, correlation_id, causation_id, occurred_at, n) ORDER BY e.n
RETURNING tx_id, seq`

	// Up to valuesMax events are given as a VALUES list, eight parameters
	// each, in a statement prepared once per count: a fifth cheaper than
	// unnesting arrays, which larger appends do, as PostgreSQL takes at
	// most 65,535 parameters.
	valuesMax = 32
	perEvent  = 8
	unnested  = `unnest($4::text[], $5::text[], $6::integer[], $7::json[], $8::text[], $9::text[], $10::text[], $11::timestamptz[]) WITH ORDINALITY`
)

// appendSQL[new][n] is the statement appending n <= valuesMax events to a
// new (1) or existing (0) stream; [new][0] unnests arrays.
var appendSQL = func() (q [2][valuesMax + 1]string) {
	for isNew, head := range []string{headExisting, headNew} {
		q[isNew][0] = head + insertEvents + unnested + eventsAlias
		var values strings.Builder
		for n := 1; n <= valuesMax; n++ {
			if n > 1 {
				values.WriteString(", ")
			}
			p := 4 + perEvent*(n-1)
			fmt.Fprintf(&values, "($%d::text, $%d::text, $%d::integer, $%d::json, $%d::text, $%d::text, $%d::text, $%d::timestamptz, %d::bigint)",
				p, p+1, p+2, p+3, p+4, p+5, p+6, p+7, n)
			q[isNew][n] = head + insertEvents + "(VALUES " + values.String() + ")" + eventsAlias
		}
	}
	return q
}()

const (
	eventColumns = `tx_id, seq, event_id, stream_id, version, type, schema_version, data, author, correlation_id, causation_id, occurred_at`
	// typedEventColumns are eventColumns with data only for the types in
	// the query's fourth parameter (ReadAllOf).
	typedEventColumns = `tx_id, seq, event_id, stream_id, version, type, schema_version,
		CASE WHEN type = ANY($4::text[]) THEN data END, author, correlation_id, causation_id, occurred_at`
)

var (
	// errMoved is the outcome of an attempt whose stream was not at the
	// expected version.
	errMoved = errors.New("stream moved")
	// errVersionTaken says an event already holds a version that the
	// streams row called free: only rows written around the store can cause
	// it, so retrying would not help.
	errVersionTaken = errors.New("version taken")
)

// Append implements eventstore.Store.
func (s *Store) Append(ctx context.Context, stream string, expected eventstore.ExpectedVersion, events ...eventstore.NewEvent) (eventstore.AppendResult, error) {
	evs, err := appendcheck.Prepare(stream, expected, events, time.Now())
	if err != nil {
		return eventstore.AppendResult{}, err
	}
	args := appendArgs(stream, evs)
	for {
		at := max(int64(expected), 0) // NoStream is version 0
		if expected == eventstore.Any {
			// Any becomes an exact version read here and retried when it
			// moves: writing on top of whatever version the row holds when
			// the lock is granted could give a later version a smaller
			// transaction id (ids are assigned before the lock wait).
			if at, err = s.streamVersion(ctx, s.writePool(ctx), stream); err != nil {
				return eventstore.AppendResult{}, fmt.Errorf("append to %s: %w", stream, err)
			}
		}
		pos, err := s.tryAppend(ctx, at, evs, args)
		switch {
		case err == nil:
			return eventstore.AppendResult{FirstVersion: at + 1, LastVersion: at + int64(len(evs)), Position: pos}, nil
		case errors.Is(err, errMoved) && expected == eventstore.Any:
			continue
		case errors.Is(err, errMoved) || errors.Is(err, errVersionTaken) || errors.Is(err, eventstore.ErrDuplicateEvent):
			return s.afterFailure(ctx, stream, expected, evs, err)
		default:
			return eventstore.AppendResult{}, fmt.Errorf("append to %s: %w", stream, err)
		}
	}
}

// tryAppend writes the events from version at+1 on if the stream is at
// version at, else returns errMoved; an event ID in use gives
// ErrDuplicateEvent. args are appendArgs' but for the version. It returns
// the last event's position, which the statement returns.
func (s *Store) tryAppend(ctx context.Context, at int64, evs []eventstore.NewEvent, args []any) (eventstore.Position, error) {
	isNew := 0
	if at == 0 {
		isNew = 1
	}
	query := appendSQL[isNew][0]
	if len(evs) <= valuesMax {
		query = appendSQL[isNew][len(evs)]
	}
	args[1] = at
	var last eventstore.Position
	written := 0
	rows, err := s.writePool(ctx).Query(ctx, query, append([]any{positionFormats}, args...)...)
	if err == nil {
		for rows.Next() {
			v := rows.RawValues()
			if len(v) != 2 || len(v[0]) != 8 || len(v[1]) != 8 {
				rows.Close()
				return last, errors.New("append returned an unexpected position")
			}
			if p := (eventstore.Position{Commit: binary.BigEndian.Uint64(v[0]), Seq: binary.BigEndian.Uint64(v[1])}); last.Less(p) {
				last = p
			}
			written++
		}
		rows.Close()
		err = rows.Err()
	}
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr) && pgErr.Code == "23505" && pgErr.ConstraintName == "events_event_id_unique":
		return last, fmt.Errorf("%s: %w", pgErr.Detail, eventstore.ErrDuplicateEvent)
	case errors.As(err, &pgErr) && pgErr.Code == "23505" && pgErr.ConstraintName == "events_stream_version_unique":
		return last, errVersionTaken
	case err != nil:
		return last, err
	case written == 0:
		return last, errMoved
	case written != len(evs):
		return last, fmt.Errorf("wrote %d of %d events", written, len(evs))
	}
	return last, nil
}

// positionFormats asks for the append's returned tx_id and seq in binary.
var positionFormats = pgx.QueryResultFormats{1, 1}

// appendArgs are the parameters of the append statement for evs, the
// version ($2) left to fill in.
func appendArgs(stream string, evs []eventstore.NewEvent) []any {
	if len(evs) > valuesMax {
		n := len(evs)
		ids, types, authors, correlations, causations := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		schemas, data, times := make([]int32, n), make([][]byte, n), make([]time.Time, n)
		for i, e := range evs {
			ids[i], types[i], schemas[i], data[i] = e.ID, e.Type, int32(e.Schema), e.Data
			authors[i], correlations[i], causations[i] = e.Metadata.Author, e.Metadata.CorrelationID, e.Metadata.CausationID
			times[i] = e.Metadata.Time
		}
		return []any{stream, nil, n, ids, types, schemas, data, authors, correlations, causations, times}
	}
	args := make([]any, 3, 3+perEvent*len(evs))
	args[0], args[2] = stream, len(evs)
	for _, e := range evs {
		args = append(args, e.ID, e.Type, int32(e.Schema), e.Data, e.Metadata.Author, e.Metadata.CorrelationID, e.Metadata.CausationID, e.Metadata.Time)
	}
	return args
}

// afterFailure tells a retry of a stored append, which succeeds with the
// original result, from a real conflict or duplicate.
func (s *Store) afterFailure(ctx context.Context, stream string, expected eventstore.ExpectedVersion, evs []eventstore.NewEvent, failure error) (eventstore.AppendResult, error) {
	stored, err := s.eventsByID(ctx, appendcheck.IDs(evs))
	if err != nil {
		return eventstore.AppendResult{}, fmt.Errorf("append to %s: %w", stream, err)
	}
	res, ok, err := appendcheck.Retry(stream, evs, stored)
	switch {
	case err != nil:
		return eventstore.AppendResult{}, fmt.Errorf("append to %s: %w", stream, err)
	case ok:
		return res, nil
	case errors.Is(failure, eventstore.ErrDuplicateEvent):
		// Events are never deleted, so the owner of the ID should have been
		// found; whatever happened, a duplicate is not to be reported as a
		// version conflict.
		return eventstore.AppendResult{}, fmt.Errorf("append to %s: %w", stream, failure)
	}
	actual, err := s.streamVersion(ctx, s.writePool(ctx), stream)
	if err != nil {
		return eventstore.AppendResult{}, fmt.Errorf("append to %s: %w", stream, err)
	}
	return eventstore.AppendResult{}, &eventstore.ConflictError{Stream: stream, Expected: expected, Actual: actual}
}

func (s *Store) eventsByID(ctx context.Context, ids []string) ([]eventstore.Event, error) {
	return s.query(ctx, s.writePool(ctx), len(ids), `SELECT `+eventColumns+` FROM events WHERE event_id = ANY($1)`, ids)
}

// ReadStream implements eventstore.Store.
func (s *Store) ReadStream(ctx context.Context, stream string, from int64, limit int) ([]eventstore.Event, error) {
	evs, err := s.query(ctx, s.pool, limit,
		`SELECT `+eventColumns+` FROM events WHERE stream_id = $1 AND version >= $2 ORDER BY version LIMIT $3`,
		stream, from, sqlLimit(limit))
	if err != nil {
		return nil, fmt.Errorf("read stream %s: %w", stream, err)
	}
	return evs, nil
}

// ReadAll implements eventstore.Store.
func (s *Store) ReadAll(ctx context.Context, after eventstore.Position, limit int) ([]eventstore.Event, error) {
	evs, err := s.query(ctx, s.logPool, limit,
		`SELECT `+eventColumns+` FROM events
		WHERE (tx_id, seq) > ($1::xid8, $2::bigint) AND tx_id < pg_snapshot_xmin(pg_current_snapshot())
		ORDER BY tx_id, seq LIMIT $3`,
		after.Commit, int64(after.Seq), sqlLimit(limit))
	if err != nil {
		return nil, fmt.Errorf("read log after %s: %w", after, err)
	}
	return evs, nil
}

// ReadAllOf implements eventstore.TypedReader: ReadAll, with the data of
// the events of other types left out by the server (sent as NULL).
func (s *Store) ReadAllOf(ctx context.Context, after eventstore.Position, limit int, types []string) ([]eventstore.Event, error) {
	evs, err := s.query(ctx, s.logPool, limit,
		`SELECT `+typedEventColumns+` FROM events
		WHERE (tx_id, seq) > ($1::xid8, $2::bigint) AND tx_id < pg_snapshot_xmin(pg_current_snapshot())
		ORDER BY tx_id, seq LIMIT $3`,
		after.Commit, int64(after.Seq), sqlLimit(limit), types)
	if err != nil {
		return nil, fmt.Errorf("read log of %d types after %s: %w", len(types), after, err)
	}
	return evs, nil
}

// CountAfter implements eventstore.Counter over the primary key's entries
// alone (an index-only scan where the visibility map allows).
func (s *Store) CountAfter(ctx context.Context, after eventstore.Position, limit int) (int, error) {
	var n int
	err := s.logPool.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM events
		WHERE (tx_id, seq) > ($1::xid8, $2::bigint) AND tx_id < pg_snapshot_xmin(pg_current_snapshot())
		LIMIT $3) AS page`, after.Commit, int64(after.Seq), sqlLimit(limit)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count the log after %s: %w", after, err)
	}
	return n, nil
}

// headQuery reads the log's last position from the primary key's last
// entry. Its ORDER BY names the table's columns: a bare tx_id there is the
// output column, the cast to bigint, which no index orders, and the
// server read and sorted the whole log on every call (13 ms at 15,000
// events under `make load`, growing with the log).
const headQuery = `SELECT tx_id::text::bigint, seq FROM events ORDER BY events.tx_id DESC, events.seq DESC LIMIT 1`

// Head implements eventstore.HeadReader: the greatest position among the
// committed events (the primary key's last entry), held back or not.
func (s *Store) Head(ctx context.Context) (eventstore.Position, error) {
	var commit, seq uint64
	err := s.logPool.QueryRow(ctx, headQuery).Scan(&commit, &seq)
	if errors.Is(err, pgx.ErrNoRows) {
		return eventstore.Position{}, nil
	}
	if err != nil {
		return eventstore.Position{}, fmt.Errorf("head of the log: %w", err)
	}
	return eventstore.Position{Commit: commit, Seq: seq}, nil
}

// sqlLimit maps "no limit" to NULL, which LIMIT takes as none.
func sqlLimit(limit int) *int {
	if limit <= 0 {
		return nil
	}
	return &limit
}

// resultFormats asks for every column of eventColumns in binary: the
// integers, xid8 and timestamptz then come as fixed-size big-endian words
// instead of text to parse (and PostgreSQL skips formatting them), and text
// and json come as their bytes either way.
var resultFormats = pgx.QueryResultFormats{1, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1}

// columns of eventColumns, in order.
const (
	colTx = iota
	colSeq
	colID
	colStream
	colVersion
	colType
	colSchema
	colData
	colAuthor
	colCorrelation
	colCausation
	colTime
	nColumns
)

// textColumns are the text columns of eventColumns, in the order query
// gathers them.
var textColumns = [...]int{colID, colStream, colType, colAuthor, colCorrelation, colCausation}

// scratch holds a result's column bytes while its rows are read.
type scratch struct {
	texts, data []byte
	spans       []span // per event: its texts' spans in texts
	dataEnds    []int  // per event: the end of its data in data
}

// span is where one text value lies in scratch.texts.
type span struct{ start, end int }

// postgresEpoch is where timestamptz's binary form counts microseconds
// from.
var postgresEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()

// query runs sql, which selects eventColumns, and returns its events.
//
// The rows are decoded from the wire's bytes (pgx's RawValues) rather than
// scanned: scanning twelve columns through pgx's type map was most of the
// client's time per event. The text columns are gathered in reused buffers
// and copied out into one string and one byte slice for the whole result
// (a text equal to the row before's is kept once, see addTexts): a handful
// of allocations per page instead of seven per event keeps ReadAll fast,
// the garbage collector idle.
func (s *Store) query(ctx context.Context, pool *pgxpool.Pool, sizeHint int, sql string, args ...any) ([]eventstore.Event, error) {
	rows, err := pool.Query(ctx, sql, append([]any{resultFormats}, args...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if fds := rows.FieldDescriptions(); len(fds) != nColumns {
		// A query that failed at once (its connection ended by a server
		// restart) has no columns either: its error says more.
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("query gave %d columns, want %d", len(fds), nColumns)
	}
	sc := s.getScratch()
	defer s.putScratch(sc)
	sc.texts, sc.data, sc.spans, sc.dataEnds = sc.texts[:0], sc.data[:0], sc.spans[:0], sc.dataEnds[:0]
	evs := make([]eventstore.Event, 0, max(0, min(sizeHint, 1024)))
	for rows.Next() {
		v := rows.RawValues()
		var e eventstore.Event
		if len(v[colTx]) != 8 || len(v[colSeq]) != 8 || len(v[colVersion]) != 8 || len(v[colSchema]) != 4 || len(v[colTime]) != 8 {
			return nil, fmt.Errorf("row %d: unexpected binary column sizes", len(evs)+1)
		}
		e.Position.Commit = binary.BigEndian.Uint64(v[colTx])
		e.Position.Seq = binary.BigEndian.Uint64(v[colSeq])
		e.Version = int64(binary.BigEndian.Uint64(v[colVersion]))
		e.Schema = int(int32(binary.BigEndian.Uint32(v[colSchema])))
		e.Metadata.Time = time.UnixMicro(postgresEpoch + int64(binary.BigEndian.Uint64(v[colTime]))).UTC()
		sc.addTexts(v)
		sc.data = append(sc.data, v[colData]...)
		sc.dataEnds = append(sc.dataEnds, len(sc.data))
		evs = append(evs, e)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	texts, data := string(sc.texts), bytes.Clone(sc.data)
	var dataAt int
	for i := range evs {
		var t [len(textColumns)]string
		for j, sp := range sc.spans[len(t)*i : len(t)*(i+1)] {
			t[j] = texts[sp.start:sp.end]
		}
		e := &evs[i]
		e.ID, e.Stream, e.Type, e.Metadata.Author, e.Metadata.CorrelationID, e.Metadata.CausationID = t[0], t[1], t[2], t[3], t[4], t[5]
		end := sc.dataEnds[i]
		// Capped, so that appending to one event's data cannot overwrite
		// the next one's.
		e.Data, dataAt = data[dataAt:end:end], end
	}
	return evs, nil
}

// addTexts gathers the text columns of row v. A value equal to the same
// column's in the row before is not copied again but shares its span: the
// events of one append mostly have one stream, type, author, correlation
// and causation, so a page holds about one copy of each instead of one per
// event, which saves copying and the garbage collector's time.
func (sc *scratch) addTexts(v [][]byte) {
	n := len(sc.spans)
	for j, c := range textColumns {
		if n > 0 {
			if prev := sc.spans[n-len(textColumns)+j]; bytes.Equal(sc.texts[prev.start:prev.end], v[c]) {
				sc.spans = append(sc.spans, prev)
				continue
			}
		}
		start := len(sc.texts)
		sc.texts = append(sc.texts, v[c]...)
		sc.spans = append(sc.spans, span{start, len(sc.texts)})
	}
}

// getScratch returns a kept read buffer, or a new one.
func (s *Store) getScratch() *scratch {
	select {
	case sc := <-s.scratches:
		return sc
	default:
		return new(scratch)
	}
}

// putScratch keeps sc for a later query, unless it is large or enough
// are kept.
func (s *Store) putScratch(sc *scratch) {
	// Bytes on a 64-bit platform: a span is two ints.
	size := cap(sc.texts) + cap(sc.data) + 16*cap(sc.spans) + 8*cap(sc.dataEnds)
	if size > maxKeptScratch {
		return
	}
	select {
	case s.scratches <- sc:
	default:
	}
}

// StreamVersions implements eventstore.VersionsReader, on the log's pool:
// it is the background recheck of an instance's cached accounts.
func (s *Store) StreamVersions(ctx context.Context, streams []string) (map[string]int64, error) {
	if len(streams) == 0 {
		return map[string]int64{}, nil
	}
	rows, err := s.logPool.Query(ctx, `SELECT stream_id, version FROM streams WHERE stream_id = ANY($1)`, streams)
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
	return s.streamVersion(ctx, s.pool, stream)
}

func (s *Store) streamVersion(ctx context.Context, pool *pgxpool.Pool, stream string) (int64, error) {
	var v int64
	err := pool.QueryRow(ctx, `SELECT version FROM streams WHERE stream_id = $1`, stream).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("version of stream %s: %w", stream, err)
	}
	return v, nil
}
