package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/projections"
)

// The fixture store (testdata/fixture-v1) is an event log written by the
// product as it was when event schemas were first versioned. Its goldens
// say what the aggregates and read models made of it then; every later
// version of the code must make the same of it. This file holds the stable
// views the goldens are written in.

const fixtureDir = "testdata/fixture-v1"

// projectView is the project as a stable JSON shape.
type projectView struct {
	ID                string           `json:"id"`
	Owner             string           `json:"owner"`
	OwnerName         string           `json:"owner_name"`
	Country           string           `json:"country"`
	Created           time.Time        `json:"created"`
	Details           project.Details  `json:"details"`
	Settings          project.Settings `json:"settings"`
	Notes             string           `json:"notes"`
	Runs              []runView        `json:"runs"`
	Saved             bool             `json:"saved"`
	LastSaved         time.Time        `json:"last_saved"`
	LastSavedBy       string           `json:"last_saved_by"`
	LastSavedByName   string           `json:"last_saved_by_name"`
	ShareWithProvider bool             `json:"share_with_provider"`
	ShareID           string           `json:"share_id"`
	Deleted           bool             `json:"deleted"`
	DeletedAt         time.Time        `json:"deleted_at"`
	Version           int64            `json:"version"`
}

type runView struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Notes     string          `json:"notes"`
	Inputs    project.Inputs  `json:"inputs"`
	Summary   project.Summary `json:"summary"`
	LastError string          `json:"last_error"`
	State     string          `json:"state"`
}

func viewProject(p *project.Project) projectView {
	v := projectView{
		ID: p.ID, Owner: p.Owner, OwnerName: p.OwnerName, Country: p.Country, Created: p.Created,
		Details: p.Details, Settings: p.Settings, Notes: p.Notes, Runs: []runView{},
		Saved: p.Saved, LastSaved: p.LastSaved, LastSavedBy: p.LastSavedBy, LastSavedByName: p.LastSavedByName,
		ShareWithProvider: p.ShareWithProvider, ShareID: p.ShareID, Deleted: p.Deleted, DeletedAt: p.DeletedAt,
		Version: p.Version,
	}
	for _, r := range p.Runs {
		v.Runs = append(v.Runs, runView{ID: r.ID, Name: r.Name, Notes: r.Notes, Inputs: r.Inputs, Summary: r.Summary,
			LastError: r.LastError, State: string(r.State())})
	}
	return v
}

// accountView is the account as a stable JSON shape: what the user sees,
// and what staff and log-in decide on.
type accountView struct {
	ID                  string           `json:"id"`
	User                account.UserView `json:"user"`
	DefaultAdvancedMode bool             `json:"default_advanced_mode_stored"`
	PasswordHash        string           `json:"password_hash"`
	Group               account.Group    `json:"group"`
	Confirmed           bool             `json:"confirmed"`
	Blocked             bool             `json:"blocked"`
	Deleted             bool             `json:"deleted"`
	RegisteredAt        time.Time        `json:"registered_at"`
	ConfirmedAt         time.Time        `json:"confirmed_at"`
	PasswordSetAt       time.Time        `json:"password_set_at"`
	ResetRequestedAt    time.Time        `json:"reset_requested_at"`
	DeletedAt           time.Time        `json:"deleted_at"`
	Version             int64            `json:"version"`
}

func viewAccount(a *account.Account) accountView {
	return accountView{
		ID: a.ID, User: a.View(), DefaultAdvancedMode: a.DefaultAdvancedMode, PasswordHash: a.PasswordHash,
		Group: a.Group, Confirmed: a.Confirmed, Blocked: a.Blocked, Deleted: a.Deleted,
		RegisteredAt: a.RegisteredAt, ConfirmedAt: a.ConfirmedAt, PasswordSetAt: a.PasswordSetAt,
		ResetRequestedAt: a.ResetRequestedAt, DeletedAt: a.DeletedAt, Version: a.Version,
	}
}

// aggregateGolden is one aggregate's replay: its view after the whole
// stream, and a digest of the view after every event, so that an event
// whose effect a later one overwrites is checked as well.
type aggregateGolden[V any] struct {
	Final V          `json:"final"`
	Steps []stepHash `json:"steps"`
}

type stepHash struct {
	Version int64  `json:"version"`
	Type    string `json:"type"`
	SHA256  string `json:"sha256"`
}

func digest(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// readLog reads the whole log of s.
func readLog(t testing.TB, s eventstore.Store) []eventstore.Event {
	t.Helper()
	var all []eventstore.Event
	var after eventstore.Position
	for {
		page, err := s.ReadAll(context.Background(), after, 500)
		if err != nil {
			t.Fatalf("read log: %v", err)
		}
		if len(page) == 0 {
			return all
		}
		all = append(all, page...)
		after = page[len(page)-1].Position
	}
}

// byStream groups the log by stream, each in version order.
func byStream(log []eventstore.Event) map[string][]eventstore.Event {
	out := map[string][]eventstore.Event{}
	for _, ev := range log {
		out[ev.Stream] = append(out[ev.Stream], ev)
	}
	return out
}

// replayProjects rebuilds every project of the log, event by event.
func replayProjects(t testing.TB, log []eventstore.Event) map[string]aggregateGolden[projectView] {
	t.Helper()
	out := map[string]aggregateGolden[projectView]{}
	for stream, evs := range byStream(log) {
		if !strings.HasPrefix(stream, project.StreamPrefix) {
			continue
		}
		p := &project.Project{}
		var g aggregateGolden[projectView]
		for _, ev := range evs {
			e, err := decodeProjectEvent(ev)
			if err != nil {
				t.Fatalf("%s v%d: %v", stream, ev.Version, err)
			}
			p.Apply(e)
			g.Steps = append(g.Steps, stepHash{Version: ev.Version, Type: ev.Type, SHA256: digest(t, viewProject(p))})
		}
		g.Final = viewProject(p)
		out[strings.TrimPrefix(stream, project.StreamPrefix)] = g
	}
	return out
}

// replayAccounts rebuilds every account of the log, event by event.
func replayAccounts(t testing.TB, log []eventstore.Event) map[string]aggregateGolden[accountView] {
	t.Helper()
	out := map[string]aggregateGolden[accountView]{}
	for stream, evs := range byStream(log) {
		if !strings.HasPrefix(stream, "account-") {
			continue
		}
		var decoded []account.Event
		var g aggregateGolden[accountView]
		for _, ev := range evs {
			e, err := decodeAccountEvent(ev)
			if err != nil {
				t.Fatalf("%s v%d: %v", stream, ev.Version, err)
			}
			decoded = append(decoded, e)
			a, err := account.FromEvents(decoded)
			if err != nil {
				t.Fatalf("%s v%d: %v", stream, ev.Version, err)
			}
			g.Steps = append(g.Steps, stepHash{Version: ev.Version, Type: ev.Type, SHA256: digest(t, viewAccount(a))})
			g.Final = viewAccount(a)
		}
		out[strings.TrimPrefix(stream, "account-")] = g
	}
	return out
}

func decodeProjectEvent(ev eventstore.Event) (project.Event, error) {
	return project.Decode(ev.Type, ev.Schema, ev.Data)
}

func decodeAccountEvent(ev eventstore.Event) (account.Event, error) {
	return account.Decode(ev.Type, ev.Schema, ev.Data)
}

// reservationView is a username or e-mail reservation stream: who holds
// the name now, and what happened to it.
type reservationView struct {
	Holder string   `json:"holder"`
	Types  []string `json:"types"`
}

// replayReservations reads the reservation streams as the account service
// does: the holder is the user of the last event if that is a claim.
func replayReservations(t testing.TB, log []eventstore.Event) map[string]reservationView {
	t.Helper()
	out := map[string]reservationView{}
	for stream, evs := range byStream(log) {
		if !strings.HasPrefix(stream, "username-") && !strings.HasPrefix(stream, "email-") {
			continue
		}
		var v reservationView
		for _, ev := range evs {
			v.Types = append(v.Types, ev.Type)
		}
		last := evs[len(evs)-1]
		if last.Type == "reservation.claimed" {
			var r struct {
				UserID string `json:"user_id"`
			}
			if err := json.Unmarshal(last.Data, &r); err != nil {
				t.Fatalf("%s v%d: %v", stream, last.Version, err)
			}
			v.Holder = r.UserID
		}
		out[stream] = v
	}
	return out
}

// projectFixture builds every read model from position 0 of store into
// db, as a fresh instance would, and returns each table's rows.
func projectFixture(t testing.TB, store eventstore.Store, db *projections.DB) map[string][]map[string]any {
	t.Helper()
	ctx := context.Background()
	// No subscriber: Start catches the projections writers wait for up to
	// the head of the log, and CatchUp the views refreshed on read, which
	// is all a fixed log needs.
	runner, err := projections.NewRunner(projections.Config{
		Store: store, DB: db, Projections: Projections(), SweepInterval: time.Hour,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := runner.Start(ctx); err != nil {
		t.Fatalf("start runner: %v", err)
	}
	defer runner.Close()
	if err := runner.CatchUp(ctx); err != nil {
		t.Fatalf("catch up: %v", err)
	}
	return dumpReadModels(t, db)
}

// dumpReadModels returns the rows of every read-model table, each row as
// column → value and the rows in the order of their JSON encoding.
func dumpReadModels(t testing.TB, db *projections.DB) map[string][]map[string]any {
	t.Helper()
	out := map[string][]map[string]any{}
	for _, p := range Projections() {
		for _, table := range p.Tables() {
			out[table] = dumpTable(t, db, table)
		}
	}
	return out
}

func dumpTable(t testing.TB, db *projections.DB, table string) []map[string]any {
	t.Helper()
	rows, err := db.Query(context.Background(), "SELECT * FROM "+table)
	if err != nil {
		t.Fatalf("dump %s: %v", table, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatalf("dump %s: %v", table, err)
	}
	out := []map[string]any{}
	var keys []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatalf("dump %s: %v", table, err)
		}
		row := make(map[string]any, len(cols))
		for i, c := range cols {
			row[c] = normalizeCell(vals[i])
		}
		out = append(out, row)
		b, _ := json.Marshal(row)
		keys = append(keys, string(b))
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("dump %s: %v", table, err)
	}
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
	sorted := make([]map[string]any, len(out))
	for i, j := range idx {
		sorted[i] = out[j]
	}
	return sorted
}

// normalizeCell makes a value read from either dialect compare alike:
// text as string, every integer as int64.
func normalizeCell(v any) any {
	switch x := v.(type) {
	case []byte:
		return string(x)
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case int16:
		return int64(x)
	case bool:
		if x {
			return int64(1)
		}
		return int64(0)
	}
	return v
}
