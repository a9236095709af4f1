package postgres_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"draindesign/eventstore"
	"draindesign/eventstore/eventstoretest"
	"draindesign/eventstore/pgtest"
	"draindesign/eventstore/postgres"
	"draindesign/migrations"
)

func open(t testing.TB, url string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(t.Context(), url)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return s
}

func TestConformance(t *testing.T) {
	eventstoretest.Factory{
		Storage: func(t *testing.T) string { return pgtest.NewDatabase(t) },
		Open:    func(t *testing.T, url string) eventstore.Store { return open(t, url) },
	}.Run(t)
}

func TestMigrateIsIdempotentAndSerialised(t *testing.T) {
	url := pgtest.NewDatabase(t)
	errs := make(chan error, 3)
	for range 3 {
		go func() { errs <- postgres.Migrate(t.Context(), url) }()
	}
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatalf("concurrent migrate: %v", err)
		}
	}
	if err := postgres.Migrate(t.Context(), url); err != nil {
		t.Fatalf("migrate again: %v", err)
	}
	ms, err := migrations.List(migrations.Postgres, "postgres")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	var n int
	if err := conn.QueryRow(t.Context(), `SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(ms) {
		t.Errorf("%d migrations recorded (%v), want %d", n, err, len(ms))
	}
}

// TestMigrateOldStore opens a database holding events written before
// schema versions were stored: they read back as version 1.
func TestMigrateOldStore(t *testing.T) {
	url := pgtest.NewDatabase(t)
	ms, err := migrations.List(migrations.Postgres, "postgres")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	if _, err := conn.Exec(t.Context(), ms[0].SQL); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(t.Context(), `CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
		INSERT INTO schema_migrations (version, name) VALUES (1, '0001_events.sql');
		INSERT INTO streams VALUES ('old', 1);
		INSERT INTO events (event_id, stream_id, version, type, data, occurred_at) VALUES ('e1', 'old', 1, 'T', '{"a":1}', now())`); err != nil {
		t.Fatal(err)
	}
	s := open(t, url)
	defer s.Close()
	evs, err := s.ReadStream(t.Context(), "old", 1, 0)
	if err != nil || len(evs) != 1 || evs[0].Schema != 1 || string(evs[0].Data) != `{"a":1}` {
		t.Fatalf("old event read back as %+v (%v), want schema version 1", evs, err)
	}
	if _, err := s.Append(t.Context(), "old", eventstore.Exactly(1), eventstore.NewEvent{ID: "e2", Type: "T", Schema: 2, Data: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if evs, err = s.ReadStream(t.Context(), "old", 2, 0); err != nil || len(evs) != 1 || evs[0].Schema != 2 {
		t.Fatalf("new event read back as %+v (%v), want schema version 2", evs, err)
	}
}

// BenchmarkStore measures the store beside plain batched INSERTs, one
// implicit transaction per append, on the same database and pool settings,
// into a bare copy of the events table: its columns and its primary key,
// the log order, but none of what the version check and idempotency need
// (no streams row, no unique index on event ID or on stream and version).
func BenchmarkStore(b *testing.B) {
	url := pgtest.NewDatabase(b)
	s := open(b, url)
	defer s.Close()
	pool, err := pgxpool.New(b.Context(), url)
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(b.Context(), `CREATE TABLE raw_events (LIKE events INCLUDING DEFAULTS INCLUDING IDENTITY, PRIMARY KEY (tx_id, seq))`); err != nil {
		b.Fatal(err)
	}
	eventstoretest.Benchmark(b, s, func(ctx context.Context, stream string, version int64, evs []eventstore.NewEvent) error {
		batch := &pgx.Batch{}
		for i, e := range evs {
			batch.Queue(`INSERT INTO raw_events (event_id, stream_id, version, type, schema_version, data, author, correlation_id, causation_id, occurred_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
				e.ID, stream, version+int64(i), e.Type, max(e.Schema, 1), e.Data, e.Metadata.Author, e.Metadata.CorrelationID, e.Metadata.CausationID, e.Metadata.Time)
		}
		// One round trip; the queries of a batch run in one implicit transaction.
		return pool.SendBatch(ctx, batch).Close()
	})
}

// newDatabaseWith is a new test database's URL with the given settings
// (name, value, name, value…) added to its query; the test is skipped when
// DATABASE_URL is not a URL.
func newDatabaseWith(t *testing.T, settings ...string) string {
	u, err := url.Parse(pgtest.NewDatabase(t))
	if err != nil || u.Scheme == "" {
		t.Skipf("DATABASE_URL is not a URL (%v)", err)
	}
	q := u.Query()
	for i := 0; i+1 < len(settings); i += 2 {
		q.Set(settings[i], settings[i+1])
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// TestOpenWithPoolSettings: the pool_* settings that Open passes to pgxpool
// must not reach the server, which refuses unknown parameters.
func TestOpenWithPoolSettings(t *testing.T) {
	s := open(t, newDatabaseWith(t, "pool_max_conns", "2", "pool_min_conns", "1"))
	defer s.Close()
	if _, err := s.Append(t.Context(), "s", eventstore.NoStream, eventstore.NewEvent{ID: "e1", Type: "T", Data: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
}

// TestReadRepeatedTexts reads back events whose text fields repeat from one
// row to the next, change, come back and go empty: the reader keeps a text
// equal to the row before's only once.
func TestReadRepeatedTexts(t *testing.T) {
	s := open(t, pgtest.NewDatabase(t))
	defer s.Close()
	meta := []eventstore.Metadata{
		{Author: "a", CorrelationID: "c1"},
		{Author: "a", CorrelationID: "c1"},
		{Author: "b", CorrelationID: "c1", CausationID: "x"},
		{Author: "a", CorrelationID: "c2", CausationID: "x"},
		{Author: "", CorrelationID: "", CausationID: ""},
		{Author: "a"},
	}
	types := []string{"T", "T", "U", "T", "T", "U"}
	var evs []eventstore.NewEvent
	for i, m := range meta {
		evs = append(evs, eventstore.NewEvent{ID: fmt.Sprintf("e%d", i), Type: types[i], Data: []byte(`{}`), Metadata: m})
	}
	for _, stream := range []string{"s1", "s2"} {
		ids := slices.Clone(evs)
		for i := range ids {
			ids[i].ID = stream + ids[i].ID
		}
		if _, err := s.Append(t.Context(), stream, eventstore.NoStream, ids...); err != nil {
			t.Fatal(err)
		}
	}
	// ReadAll holds events back while any older transaction on the server
	// runs (other tests' too), hence the polling.
	var got []eventstore.Event
	for deadline := time.Now().Add(10 * time.Second); len(got) < 2*len(evs) && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		var err error
		if got, err = s.ReadAll(t.Context(), eventstore.Position{}, 0); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != 2*len(evs) {
		t.Fatalf("read %d events, want %d", len(got), 2*len(evs))
	}
	for i, e := range got {
		stream, want := []string{"s1", "s2"}[i/len(evs)], evs[i%len(evs)]
		m := e.Metadata
		if e.Stream != stream || e.ID != stream+want.ID || e.Type != want.Type || m.Author != want.Metadata.Author ||
			m.CorrelationID != want.Metadata.CorrelationID || m.CausationID != want.Metadata.CausationID {
			t.Errorf("event %d: %s %s %s %+v, want %s %s %s %+v", i, e.Stream, e.ID, e.Type, m, stream, stream+want.ID, want.Type, want.Metadata)
		}
	}
}

// TestHeadUsesTheLogIndex: Head reads the primary key's last entry. With
// sorting priced out, a statement the index cannot answer still sorts, so
// a Sort or a sequential scan in the plan means Head reads the whole log
// (it did: its ORDER BY named the output column, a cast).
func TestHeadUsesTheLogIndex(t *testing.T) {
	url := pgtest.NewDatabase(t)
	s := open(t, url)
	defer s.Close()
	for i := range 50 {
		if _, err := s.Append(t.Context(), fmt.Sprintf("s%d", i), eventstore.NoStream, eventstore.NewEvent{ID: fmt.Sprintf("e%d", i), Type: "T", Data: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(t.Context(), `SET enable_sort = off`); err != nil {
		t.Fatal(err)
	}
	var plan string
	rows, err := conn.Query(t.Context(), `EXPLAIN `+postgres.HeadQuery)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan += line + "\n"
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	if strings.Contains(plan, "Sort") || strings.Contains(plan, "Seq Scan") || !strings.Contains(plan, "Index") {
		t.Errorf("Head does not read the log's index:\n%s", plan)
	}
}

// The reads of the whole log and of subject keys have a pool of their
// own: with every connection of the main pool taken (the designers' calls
// of a busy instance), the read models' log reads and key look-ups still
// get through, and a stream read, which is the main pool's, does not.
func TestLogReadsDoNotQueueBehindTheMainPool(t *testing.T) {
	s := open(t, newDatabaseWith(t, "pool_max_conns", "2"))
	defer s.Close()
	ctx := t.Context()
	if _, err := s.Append(ctx, "s", eventstore.NoStream, eventstore.NewEvent{ID: "e1", Type: "T", Data: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SubjectKey(ctx, "u1", bytes.Repeat([]byte{7}, 32)); err != nil {
		t.Fatal(err)
	}
	// ReadAll shows an event once every transaction older than it has
	// ended, in any database of the cluster: another package's test may
	// hold one open for a moment. Once shown, an event stays shown.
	eventstoretest.ReadAll(t, s, 1)
	release := postgres.HoldMainPool(t, s)
	defer release()

	short, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if evs, err := s.ReadAll(short, eventstore.Position{}, 10); err != nil || len(evs) != 1 {
		t.Errorf("ReadAll with the main pool taken: %d events, %v", len(evs), err)
	}
	if evs, err := s.ReadAllOf(short, eventstore.Position{}, 10, []string{"T"}); err != nil || len(evs) != 1 {
		t.Errorf("ReadAllOf with the main pool taken: %d events, %v", len(evs), err)
	}
	if head, err := s.Head(short); err != nil || head == (eventstore.Position{}) {
		t.Errorf("Head with the main pool taken: %v, %v", head, err)
	}
	if n, err := s.CountAfter(short, eventstore.Position{}, 10); err != nil || n != 1 {
		t.Errorf("CountAfter with the main pool taken: %d, %v", n, err)
	}
	if keys, err := s.LookupSubjectKeys(short, []string{"u1"}); err != nil || len(keys) != 1 {
		t.Errorf("LookupSubjectKeys with the main pool taken: %d keys, %v", len(keys), err)
	}

	blocked, cancel2 := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel2()
	if _, err := s.ReadStream(blocked, "s", 1, 0); err == nil {
		t.Error("ReadStream got through with every connection of the main pool taken: the pools are not apart")
	}
}

// Appends marked low priority (the records of calculations) have a pool
// of their own: with its connections taken they wait, while the other
// appends go through, and with the main pool taken they still go through.
// A conflict and a retried append are told apart on that pool too.
func TestLowPriorityAppendsHaveTheirOwnPool(t *testing.T) {
	s := open(t, newDatabaseWith(t, "pool_max_conns", "8"))
	defer s.Close()
	ctx := t.Context()
	low := eventstore.LowPriority(ctx)
	ev := func(id string) eventstore.NewEvent {
		return eventstore.NewEvent{ID: id, Type: "T", Data: []byte(`{}`)}
	}

	release := postgres.HoldLowPool(t, s)
	defer release() // before Close: a pool closes once its connections are back
	short, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, err := s.Append(short, "edits", eventstore.NoStream, ev("e1")); err != nil {
		t.Fatalf("an append waited for the low-priority pool: %v", err)
	}
	blocked, cancel2 := context.WithTimeout(low, 200*time.Millisecond)
	defer cancel2()
	if _, err := s.Append(blocked, "records", eventstore.NoStream, ev("r1")); err == nil {
		t.Fatal("a low-priority append got through with its pool taken: it is on the main pool")
	}
	release()

	releaseMain := postgres.HoldMainPool(t, s)
	defer releaseMain()
	low, cancel3 := context.WithTimeout(low, 5*time.Second)
	defer cancel3()
	first, err := s.Append(low, "records", eventstore.NoStream, ev("r1"))
	if err != nil {
		t.Fatalf("a low-priority append with the main pool taken: %v", err)
	}
	if again, err := s.Append(low, "records", eventstore.NoStream, ev("r1")); err != nil || again != first {
		t.Errorf("the low-priority append sent again: %+v, %v; want %+v", again, err, first)
	}
	if _, err := s.Append(low, "records", eventstore.NoStream, ev("r2")); !errors.Is(err, eventstore.ErrConflict) {
		t.Errorf("a low-priority append on a moved stream: %v, want a conflict", err)
	}
	if res, err := s.Append(low, "records", eventstore.Any, ev("r3")); err != nil || res.LastVersion != 2 {
		t.Errorf("a low-priority append at any version: %+v, %v", res, err)
	}
}

// The low-priority appends' pool is a sixteenth of the main pool, at
// least one.
func TestLowConns(t *testing.T) {
	for main, want := range map[int32]int32{1: 1, 8: 1, 16: 1, 32: 2, 40: 2} {
		if got := postgres.LowConns(main); got != want {
			t.Errorf("lowConns(%d) = %d, want %d", main, got, want)
		}
	}
}

// The log readers' pool is a quarter of the main pool, at least one.
func TestLogConns(t *testing.T) {
	for main, want := range map[int32]int32{1: 1, 2: 1, 4: 1, 8: 2, 16: 4, 40: 10} {
		if got := postgres.LogConns(main); got != want {
			t.Errorf("logConns(%d) = %d, want %d", main, got, want)
		}
	}
}

// TestLargeEventsAreCompressedWithLZ4: the store's sessions compress large
// event data with lz4 (pgsession.PreferLZ4), not the server's default pglz,
// which was 8 % of PostgreSQL's CPU under `make load`.
func TestLargeEventsAreCompressedWithLZ4(t *testing.T) {
	url := pgtest.NewDatabase(t)
	s := open(t, url)
	defer s.Close()
	// About the size of a calculation's record.
	data := []byte(`{"slices":[` + strings.Repeat(`{"chainage_m":12.5,"depth_mm":48.2},`, 120) + `{}]}`)
	if _, err := s.Append(t.Context(), "big", eventstore.NoStream, eventstore.NewEvent{ID: "e1", Type: "T", Data: data}); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var how *string
	if err := conn.QueryRow(t.Context(), `SELECT pg_column_compression(data) FROM events WHERE event_id = 'e1'`).Scan(&how); err != nil {
		t.Fatal(err)
	}
	if how == nil || *how != "lz4" {
		t.Fatalf("the event's data was compressed with %v, want lz4", how)
	}
	evs, err := s.ReadStream(t.Context(), "big", 1, 0)
	if err != nil || len(evs) != 1 || !bytes.Equal(evs[0].Data, data) {
		t.Fatalf("read back %d events (%v), data equal: %v", len(evs), err, len(evs) == 1 && bytes.Equal(evs[0].Data, data))
	}
}
