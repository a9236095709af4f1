package projections_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/projections"
	"draindesign/projections/calchistory"
	"draindesign/projections/internal/testkit"
	"draindesign/projections/projectlist"
	"draindesign/projections/timeline"
	"draindesign/projections/userlist"
)

// unknownCount reads draindesign_unknown_events_total{source, type} from
// the metrics handler, as Prometheus would scrape it.
func unknownCount(t *testing.T, source, eventType string) float64 {
	t.Helper()
	rec := httptest.NewRecorder()
	projections.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	sc := bufio.NewScanner(rec.Body)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "draindesign_unknown_events_total{") ||
			!strings.Contains(line, `source="`+source+`"`) || !strings.Contains(line, `type="`+eventType+`"`) {
			continue
		}
		v, err := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
		if err != nil {
			t.Fatalf("metric line %q: %v", line, err)
		}
		return v
	}
	return 0
}

// stored encodes events for the store with encode (a domain Encode).
func stored[E any](t *testing.T, encode func(E) (string, int, []byte, error), evs ...E) []eventstore.NewEvent {
	t.Helper()
	out := make([]eventstore.NewEvent, len(evs))
	for i, e := range evs {
		typ, schema, data, err := encode(e)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = eventstore.NewEvent{ID: fmt.Sprintf("%s-%s-%d", t.Name(), typ, i), Type: typ, Schema: schema, Data: data,
			Metadata: eventstore.Metadata{Author: "u1"}}
	}
	return out
}

// An event of a type no codec knows, in a project and in an account stream
// between known events, is skipped by every read model: each catches up
// past it, applies what follows it, and counts it.
func TestProjectionsSkipUnknownEventTypes(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, store eventstore.Store, database testkit.Database) {
		ctx := context.Background()
		db := database.Open(t)
		// A type per backend, so that backends running in parallel count
		// apart.
		backend := t.Name()[strings.LastIndexByte(t.Name(), '/')+1:]
		projectType, accountType := "project.exploded_"+backend, "account.teleported_"+backend
		at := time.Date(2025, 3, 3, 9, 0, 0, 0, time.UTC)

		evs := stored[project.Event](t, project.Encode, project.Created{ProjectID: "p1", Owner: "u1", OwnerName: "ann", Country: "GB", At: at},
			project.RunAdded{RunID: "r1", Name: "Run 1"})
		evs = append(evs, eventstore.NewEvent{ID: t.Name() + "-unknown-p", Type: projectType, Schema: 3, Data: []byte(`{"run_id":"r1"}`)})
		evs = append(evs, stored[project.Event](t, project.Encode, project.RunRenamed{RunID: "r1", Name: "Gate"},
			project.DetailsChanged{Details: project.Details{Name: "Yard"}},
			project.Saved{SaveID: "p1", RunSaveIDs: []string{"r1"}, SavedBy: "u1", SavedByName: "ann", At: at})...)
		if _, err := store.Append(ctx, project.Stream("p1"), eventstore.NoStream, evs...); err != nil {
			t.Fatal(err)
		}
		acc := stored[account.Event](t, account.Encode, account.Registered{UserID: "u1", Username: "ann", Email: "a@b.c", Group: account.GroupStandard, At: at})
		acc = append(acc, eventstore.NewEvent{ID: t.Name() + "-unknown-a", Type: accountType, Data: []byte(`{}`)})
		acc = append(acc, stored[account.Event](t, account.Encode, account.EmailConfirmed{UserID: "u1", At: at}, account.Blocked{UserID: "u1", By: "root", At: at})...)
		if _, err := store.Append(ctx, account.Stream("u1"), eventstore.NoStream, acc...); err != nil {
			t.Fatal(err)
		}

		// The counters are the process's: what this run adds is counted
		// (go test -count=2 runs it twice in one process).
		counted := map[[2]string]float64{}
		for _, k := range [][2]string{{"calc_history", projectType}, {"timeline", projectType}, {"user_list", accountType}, {"user_list", projectType}, {"project_list", projectType}} {
			counted[k] = unknownCount(t, k[0], k[1])
		}
		added := func(source, typ string) float64 {
			return unknownCount(t, source, typ) - counted[[2]string{source, typ}]
		}

		projs := []projections.Projection{projectlist.Projection{}, calchistory.Projection{}, timeline.New(), userlist.Projection{}}
		runner, err := projections.NewRunner(projections.Config{Store: store, DB: db, Projections: projs})
		if err != nil {
			t.Fatal(err)
		}
		if err := runner.WaitForStream(ctx, account.Stream("u1"), 4); err != nil {
			t.Fatalf("read models stalled: %v", err)
		}
		if err := runner.WaitForStream(ctx, project.Stream("p1"), 6); err != nil {
			t.Fatalf("read models stalled: %v", err)
		}
		// Writers do not wait for views refreshed on read: their readers
		// refresh them.
		if err := runner.Refresh(ctx, calchistory.Projection{}.Name(), timeline.New().Name()); err != nil {
			t.Fatalf("calculation history or timeline stalled: %v", err)
		}
		head := testkit.Head(t, store)
		for _, p := range projs {
			if cp := checkpoint(t, db, p.Name()); cp != head {
				t.Errorf("%s checkpoint at %s, want the head %s", p.Name(), cp, head)
			}
		}

		items, err := projectlist.AllOf(ctx, db, "u1")
		if err != nil || len(items) != 1 || items[0].Name != "Yard" || items[0].SavedAt == nil || items[0].IsEmpty {
			t.Errorf("project list %+v (%v), want Yard saved with its run", items, err)
		}
		var runName string
		if err := db.QueryRow(ctx, `SELECT name FROM calc_run_names WHERE run_id = 'r1'`).Scan(&runName); err != nil || runName != "Gate" {
			t.Errorf("calc_run_names holds %q (%v), want the rename after the unknown event", runName, err)
		}
		entries, err := timeline.List(ctx, db, "p1")
		var versions []int64
		for _, e := range entries {
			versions = append(versions, e.Version)
		}
		if err != nil || fmt.Sprint(versions) != "[1 2 4 5 6]" {
			t.Errorf("timeline versions %v (%v), want every known event: [1 2 4 5 6]", versions, err)
		}
		var confirmed, blocked int
		if err := db.QueryRow(ctx, `SELECT confirmed, blocked FROM user_list WHERE id = 'u1'`).Scan(&confirmed, &blocked); err != nil || confirmed != 1 || blocked != 1 {
			t.Errorf("user_list confirmed %d blocked %d (%v), want both after the unknown event", confirmed, blocked, err)
		}

		for _, c := range []struct{ source, typ string }{
			{"calc_history", projectType}, {"timeline", projectType}, {"user_list", accountType},
		} {
			if n := added(c.source, c.typ); n != 1 {
				t.Errorf("draindesign_unknown_events_total{source=%q,type=%q} = %v, want 1", c.source, c.typ, n)
			}
		}
		// Read models of the other aggregate do not count it: not theirs.
		// Nor does the project list, which reads a list of known types
		// (projections.Selecting) and so ignores every other one.
		if n := added("user_list", projectType); n != 0 {
			t.Errorf("user_list counted a project event: %v", n)
		}
		if n := added("project_list", projectType); n != 0 {
			t.Errorf("project_list counted an event type it does not read: %v", n)
		}
	})
}

// syncBuffer is a log destination safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// SkipUnknown counts every skip but logs each (source, type) once.
func TestSkipUnknownLogsOnceCountsAll(t *testing.T) {
	var logs syncBuffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	defer slog.SetDefault(old)

	typ := "thing.happened_" + strconv.FormatInt(time.Now().UnixNano(), 36)
	for range 3 {
		projections.SkipUnknown("test_source", typ)
	}
	projections.SkipUnknown("other_source", typ)
	if n := unknownCount(t, "test_source", typ); n != 3 {
		t.Errorf("counted %v skips, want 3", n)
	}
	if n := projections.UnknownCount("test_source", typ); n != 3 {
		t.Errorf("UnknownCount = %v, want 3", n)
	}
	if n := unknownCount(t, "other_source", typ); n != 1 {
		t.Errorf("other source counted %v skips, want 1", n)
	}
	if n := strings.Count(logs.String(), "type="+typ); n != 2 {
		t.Errorf("logged %d times, want once per source:\n%s", n, logs.String())
	}
}
