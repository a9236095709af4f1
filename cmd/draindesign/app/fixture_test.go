package app

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/eventstore/pgtest"
	"draindesign/eventstore/postgres"
	"draindesign/eventstore/sqlite"
	"draindesign/projections"
)

// TestFixtureStore holds today's code to the fixture store written before
// event schemas were versioned (testdata/fixture-v1, see its README): the
// file opens with the current SQLite store (migrating it), every event
// decodes, every project and account replays to the golden view after
// each of its events, and every read model built from position 0 holds
// the golden rows. The same events loaded into PostgreSQL give the same.
//
// When this test fails, stored events no longer mean what they meant: an
// event's shape, or what an aggregate or read model makes of it, changed.
// Give the changed type a new schema version and an upcaster; never edit
// or regenerate the fixture.
func TestFixtureStore(t *testing.T) {
	want := readGoldens(t)
	src := openFixture(t)
	log := readLog(t, src)
	if len(log) == 0 {
		t.Fatal("the fixture store is empty")
	}
	for _, ev := range log {
		if ev.Schema != 1 {
			t.Fatalf("fixture event %s (%s) reads back at schema version %d, want 1: it was written before versions", ev.ID, ev.Type, ev.Schema)
		}
	}

	t.Run("sqlite", func(t *testing.T) {
		checkAggregates(t, log, want)
		db, err := projections.OpenSQLite(filepath.Join(t.TempDir(), "readmodels.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		checkReadModels(t, projectFixture(t, src, db), upcastTimeline(t, want.ReadModels))
	})

	t.Run("postgres", func(t *testing.T) {
		url := pgtest.NewDatabase(t)
		store, err := postgres.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		copyLog(t, log, store)
		pgLog := readLogOf(t, store, len(log))
		checkSameLog(t, pgLog, log)
		checkAggregates(t, pgLog, want)

		db, err := projections.OpenPostgres(url)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		got := projectFixture(t, store, db)
		fixturePositions(got, pgLog, log)
		checkReadModels(t, got, upcastTimeline(t, want.ReadModels))
	})
}

// openFixture opens a copy of the fixture store, so that the migration the
// current store runs on it never touches the committed file.
func openFixture(t *testing.T) eventstore.Store {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtureDir, "events.db"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "events.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("open the fixture with today's store: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// goldenFiles are the goldens as written: views are kept as the JSON in
// the file, so that what is compared is the file, not what today's view
// types can read of it.
type goldenFiles struct {
	Projects     map[string]aggregateGolden[json.RawMessage]
	Accounts     map[string]aggregateGolden[json.RawMessage]
	Reservations json.RawMessage
	ReadModels   map[string][]map[string]any
}

func readGoldens(t *testing.T) goldenFiles {
	t.Helper()
	var g goldenFiles
	for name, dst := range map[string]any{
		"projects.json": &g.Projects, "accounts.json": &g.Accounts,
		"reservations.json": &g.Reservations, "readmodels.json": &g.ReadModels,
	} {
		b, err := os.ReadFile(filepath.Join(fixtureDir, name))
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber() // read-model cells compare as the numbers written
		if err := dec.Decode(dst); err != nil {
			t.Fatalf("golden %s: %v", name, err)
		}
	}
	return g
}

// checkAggregates replays every aggregate of log and compares it with the
// goldens: the view after each event (by digest) and after the whole
// stream.
func checkAggregates(t *testing.T, log []eventstore.Event, want goldenFiles) {
	t.Helper()
	compareAggregates(t, "project", replayProjects(t, log), want.Projects)
	compareAggregates(t, "account", replayAccounts(t, log), want.Accounts)
	if got := replayReservations(t, log); !jsonEqual(t, got, want.Reservations) {
		t.Errorf("reservations:\n got %s\nwant %s", mustJSON(t, got), mustJSON(t, want.Reservations))
	}
}

func compareAggregates[V any](t *testing.T, kind string, got map[string]aggregateGolden[V], want map[string]aggregateGolden[json.RawMessage]) {
	t.Helper()
	if !slices.Equal(sortedKeys(got), sortedKeys(want)) {
		t.Errorf("%ss %v, golden %v", kind, sortedKeys(got), sortedKeys(want))
	}
	for _, id := range sortedKeys(want) {
		g, w := got[id], want[id]
		for i, step := range w.Steps {
			if i >= len(g.Steps) || g.Steps[i] != step {
				var at stepHash
				if i < len(g.Steps) {
					at = g.Steps[i]
				}
				t.Errorf("%s %s differs after version %d (%s): digest %s, golden %s", kind, id, step.Version, step.Type, at.SHA256, step.SHA256)
				break
			}
		}
		if len(g.Steps) != len(w.Steps) {
			t.Errorf("%s %s replays %d events, golden %d", kind, id, len(g.Steps), len(w.Steps))
		}
		if !jsonEqual(t, g.Final, w.Final) {
			t.Errorf("%s %s after its stream:\n got %s\nwant %s", kind, id, mustJSON(t, g.Final), mustJSON(t, w.Final))
		}
	}
}

// checkReadModels compares every golden table, row by row.
func checkReadModels(t *testing.T, got, want map[string][]map[string]any) {
	t.Helper()
	for _, table := range sortedKeys(want) {
		g, w := got[table], want[table]
		if _, ok := got[table]; !ok {
			t.Errorf("read model table %s is gone", table)
			continue
		}
		gs, ws := rowsJSON(t, g), rowsJSON(t, w)
		if len(gs) != len(ws) {
			t.Errorf("%s has %d rows, golden %d", table, len(gs), len(ws))
		}
		for i := range min(len(gs), len(ws)) {
			if gs[i] != ws[i] {
				t.Errorf("%s row %d:\n got %s\nwant %s", table, i, gs[i], ws[i])
			}
		}
	}
}

// upcastTimeline returns the golden rows with the timeline's event data
// brought to the current shape of its type, as the timeline keeps it: the
// golden holds the data as it was stored, at schema version 1. Until a
// type's shape changes this is the data itself; after, the upcasters say
// what it became (and the aggregate replay says whether they are right).
func upcastTimeline(t *testing.T, rows map[string][]map[string]any) map[string][]map[string]any {
	t.Helper()
	out := make(map[string][]map[string]any, len(rows))
	for table, rs := range rows {
		out[table] = rs
	}
	out["timeline"] = nil
	for _, r := range rows["timeline"] {
		typ, _ := r["type"].(string)
		data, _ := r["data"].(string)
		e, err := project.Decode(typ, 1, []byte(data))
		if err != nil {
			t.Fatalf("golden timeline row %v: %v", r, err)
		}
		_, _, current, err := project.Encode(e)
		if err != nil {
			t.Fatal(err)
		}
		up := maps.Clone(r)
		up["data"] = string(current)
		out["timeline"] = append(out["timeline"], up)
	}
	return out
}

// rowsJSON renders rows as canonical JSON, sorted, so that rows compare
// whatever order the dialect or a decoder gave them in.
func rowsJSON(t *testing.T, rows []map[string]any) []string {
	t.Helper()
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = string(canonicalJSON(t, r))
	}
	sort.Strings(out)
	return out
}

// copyLog appends the fixture's events to store as they were appended:
// the events of one commit in one append, in log order.
func copyLog(t *testing.T, log []eventstore.Event, store eventstore.Store) {
	t.Helper()
	for i := 0; i < len(log); {
		j := i
		var batch []eventstore.NewEvent
		for ; j < len(log) && log[j].Position.Commit == log[i].Position.Commit && log[j].Stream == log[i].Stream; j++ {
			e := log[j]
			batch = append(batch, eventstore.NewEvent{ID: e.ID, Type: e.Type, Schema: e.Schema, Data: e.Data, Metadata: e.Metadata})
		}
		if _, err := store.Append(context.Background(), log[i].Stream, eventstore.Exactly(log[i].Version-1), batch...); err != nil {
			t.Fatalf("copy the fixture's %s v%d: %v", log[i].Stream, log[i].Version, err)
		}
		i = j
	}
}

// readLogOf reads the whole log once it holds n events (PostgreSQL may show
// a committed event to ReadAll a little later).
func readLogOf(t *testing.T, s eventstore.Store, n int) []eventstore.Event {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		log := readLog(t, s)
		if len(log) >= n || time.Now().After(deadline) {
			if len(log) != n {
				t.Fatalf("log holds %d events, want %d", len(log), n)
			}
			return log
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// checkSameLog checks that got holds the fixture's events, in its order,
// byte for byte; positions are each store's own.
func checkSameLog(t *testing.T, got, want []eventstore.Event) {
	t.Helper()
	for i, w := range want {
		g := got[i]
		if g.ID != w.ID || g.Stream != w.Stream || g.Version != w.Version || g.Type != w.Type || g.Schema != w.Schema ||
			!bytes.Equal(g.Data, w.Data) || g.Metadata != w.Metadata {
			t.Fatalf("event %d is %+v, the fixture's %+v", i, g, w)
		}
	}
}

// fixturePositions rewrites the read-model columns that hold log positions
// (PostgreSQL's are transaction ids and its own sequence) to the fixture's
// positions of the same events.
func fixturePositions(rows map[string][]map[string]any, got, fixture []eventstore.Event) {
	byID := make(map[string]eventstore.Position, len(fixture))
	for _, e := range fixture {
		byID[e.ID] = e.Position
	}
	seq := make(map[int64]int64, len(got))
	for _, e := range got {
		seq[int64(e.Position.Seq)] = int64(byID[e.ID].Seq)
	}
	for _, r := range rows["timeline"] {
		p := byID[r["event_id"].(string)]
		r["commit_pos"], r["seq_pos"] = int64(p.Commit), int64(p.Seq)
	}
	for _, r := range rows["project_list"] {
		r["support_id"] = seq[r["support_id"].(int64)]
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// canonicalJSON encodes v, then re-encodes it through a generic value with
// numbers kept as written, so that values built in Go and values read
// from a golden file encode alike.
func canonicalJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var generic any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&generic); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(generic)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func jsonEqual(t *testing.T, a, b any) bool {
	t.Helper()
	return bytes.Equal(canonicalJSON(t, a), canonicalJSON(t, b))
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	return strings.TrimSpace(string(canonicalJSON(t, v)))
}
