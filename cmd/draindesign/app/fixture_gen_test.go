//go:build fixturegen

package app

// The generator of the fixture store. It was run once, on the code of the
// day the event schemas were first versioned, and its output is committed
// under testdata/fixture-v1. NEVER run it again to "fix" a failing fixture
// test: that test failing means stored events no longer load as they did,
// which is what it is there to catch. Kept, behind a build tag, as the
// record of how the fixture was made:
//
//	go test -tags fixturegen ./cmd/draindesign/app -run TestWriteFixture -args -write-fixture

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"

	"draindesign/api"
	"draindesign/api/accounts"
	"draindesign/api/mail"
	"draindesign/domain/account"
	"draindesign/eventstore"
	"draindesign/eventstore/sqlite"
	"draindesign/projections"
)

var writeFixture = flag.Bool("write-fixture", false, "write the fixture store and its goldens to "+fixtureDir)

// stepClock starts at a fixed instant and moves one second per reading, so
// that every time in the fixture is fixed and distinct.
type stepClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(time.Second)
	return c.now
}

// startFixed starts the product the way Start does, but with the API on
// clock (Start has no clock option).
func startFixed(t *testing.T, dir string, clock func() time.Time) *product {
	t.Helper()
	ctx := context.Background()
	opts := Options{DataDir: dir, Client: testClient,
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	store, db, err := OpenStores(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	a := &App{Store: store, DB: db}
	a.closers = append(a.closers, store.Close, db.Close)
	wmLog := watermill.NewSlogLogger(opts.Logger)
	transport := projections.GoChannel(wmLog)
	a.closers = append(a.closers, transport.Close)
	feed := projections.NewFeed(256)
	runner, err := projections.NewRunner(projections.Config{Store: store, DB: db, Projections: Projections(), Subscriber: transport.Subscriber, Logger: wmLog})
	if err != nil {
		t.Fatal(err)
	}
	runner.AddFeed(feed)
	runCtx, cancel := context.WithCancel(context.Background())
	a.cancel = cancel
	if err := runner.Start(runCtx); err != nil {
		t.Fatal(err)
	}
	a.Runner = runner
	a.closers = append(a.closers, runner.Close)
	relay := projections.NewRelay(projections.RelayConfig{Store: store, Publisher: transport.Publisher, Logger: wmLog})
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		_ = relay.Run(runCtx)
	}()
	a.Mail = mail.Dir(filepath.Join(dir, "mail"), opts.Logger)
	a.Handler, err = api.New(ctx, api.Config{
		Store: store, DB: db, Runner: runner, Feed: feed, Appended: func(string, eventstore.AppendResult, []string) { relay.Notify() }, Mail: a.Mail,
		Secret: []byte(strings.Repeat("fixture-secret-", 3)), Logger: opts.Logger, Client: testClient, Now: clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	return &product{App: a, opts: opts, srv: httptest.NewServer(a.Handler)}
}

// userID finds an account's id through its username reservation.
func (p *product) userID(t *testing.T, name string) string {
	t.Helper()
	a, err := (&accounts.Service{Store: p.Store}).ByUsername(context.Background(), name)
	if err != nil {
		t.Fatalf("user %s: %v", name, err)
	}
	return a.ID
}

func TestWriteFixture(t *testing.T) {
	if !*writeFixture {
		t.Skip("writes the fixture only with -write-fixture")
	}
	if _, err := os.Stat(filepath.Join(fixtureDir, "events.db")); err == nil {
		t.Fatalf("%s/events.db exists: the fixture is written once and never again", fixtureDir)
	}
	dir := t.TempDir()
	clock := &stepClock{now: time.Date(2025, 3, 3, 9, 0, 0, 0, time.UTC)}
	p := startFixed(t, dir, clock.Now)
	var stop sync.Once
	t.Cleanup(func() { stop.Do(p.stop) })

	fixtureJourney(t, p, clock)

	stop.Do(p.stop)
	if _, err := os.Stat(filepath.Join(dir, "events.db-wal")); err == nil {
		t.Fatal("events.db-wal left behind: the store did not close cleanly")
	}
	if err := os.MkdirAll(fixtureDir, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join(dir, "events.db"), filepath.Join(fixtureDir, "events.db"))

	// The goldens: what today's code makes of the committed file.
	work := filepath.Join(t.TempDir(), "events.db")
	copyFile(t, filepath.Join(fixtureDir, "events.db"), work)
	store, err := sqlite.Open(context.Background(), work)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	log := readLog(t, store)
	types := eventTypes(log)
	t.Logf("%d events of %d types: %v", len(log), len(types), types)
	for _, want := range fixtureEventTypes {
		if !slices.Contains(types, want) {
			t.Errorf("the journey wrote no %s", want)
		}
	}
	db, err := projections.OpenSQLite(filepath.Join(t.TempDir(), "readmodels.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g := fixtureGoldens{
		Projects: replayProjects(t, log), Accounts: replayAccounts(t, log),
		Reservations: replayReservations(t, log), ReadModels: projectFixture(t, store, db),
	}
	for name, v := range g.files() {
		b, err := marshalGolden(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(fixtureDir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fixtureEventTypes is every event type the product wrote when the fixture
// was made.
var fixtureEventTypes = []string{
	"account.registered", "account.email_confirmed", "account.password_changed", "account.reset_requested",
	"account.settings_changed", "account.country_changed", "account.blocked", "account.unblocked",
	"account.group_changed", "account.deleted",
	"reservation.claimed", "reservation.released",
	"project.created", "project.details_changed", "project.run_added", "project.run_renamed",
	"project.run_duplicated", "project.run_removed", "project.runs_reordered", "project.run_inputs_changed",
	"project.run_notes_changed", "project.run_calculated", "project.calculation_failed", "project.run_reset",
	"project.saved", "project.shared_by_link", "project.deleted",
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// fixtureJourney is a realistic life of the product, through the HTTP API,
// that writes every event type there is.
func fixtureJourney(t *testing.T, p *product, clock *stepClock) {
	// Accounts: sign-ups confirmed by their mailed links.
	alice := p.signUp(t, "alice")
	bob := p.signUp(t, "bob")
	p.signUp(t, "dave")

	// Erin never confirms; a password reset proves her address instead.
	erin := p.newUser(t)
	erin.must(http.StatusCreated, "POST", "/api/drainage/register/", registration("erin"), nil)
	erin.must(http.StatusOK, "POST", "/api/auth/password/reset/", map[string]string{"email": "erin@example.com"}, nil)
	link, err := url.Parse(mailedLink(t, p.opts.DataDir, "erin@example.com"))
	if err != nil {
		t.Fatal(err)
	}
	erin.must(http.StatusOK, "POST", "/api/auth/password/reset/confirm/", map[string]string{
		"uid": strings.TrimPrefix(link.Path, "/password-reset/"), "token": link.Query().Get("token"),
		"new_password1": "another long password", "new_password2": "another long password",
	}, nil)
	erin.must(http.StatusOK, "POST", "/api/auth/login/", map[string]string{"username": "erin", "password": "another long password"}, nil)

	// Carol picks a free username but Alice's address: the username is
	// claimed, then released.
	carol := registration("carol")
	carol["email"] = "alice@example.com"
	p.newUser(t).must(http.StatusBadRequest, "POST", "/api/drainage/register/", carol, nil)

	alice.must(http.StatusOK, "PATCH", "/api/drainage/user_settings/", map[string]any{
		"company": "Alice Drains", "city": "York", "telephone": "01904 000000"}, nil)

	// Staff: an administrator made directly, as `users add` does.
	svc := &accounts.Service{Store: p.Store, Now: clock.Now}
	in := account.RegisterInput{}
	b, _ := json.Marshal(registration("root"))
	_ = json.Unmarshal(b, &in)
	root, err := svc.Register(context.Background(), in, account.GroupAdmin, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Execute(context.Background(), root.ID, root.ID, func(a *account.Account) ([]account.Event, error) {
		return a.ConfirmEmail(clock.Now())
	}); err != nil {
		t.Fatal(err)
	}
	admin := p.newUser(t)
	admin.must(http.StatusOK, "POST", "/api/auth/login/", map[string]string{"username": "root", "password": "a long password"}, nil)

	bobID, daveID := p.userID(t, "bob"), p.userID(t, "dave")
	admin.must(http.StatusOK, "POST", "/api/staff/users/"+bobID+"/group/", map[string]string{"group": "support"}, nil)
	bob.must(http.StatusOK, "POST", "/api/auth/login/", map[string]string{"username": "bob", "password": "a long password"}, nil)
	bob.must(http.StatusOK, "PATCH", "/api/drainage/user_settings/country/", map[string]string{"country": "DE"}, nil)
	admin.must(http.StatusOK, "POST", "/api/staff/users/"+bobID+"/block/", nil, nil)
	admin.must(http.StatusOK, "POST", "/api/staff/users/"+bobID+"/unblock/", nil, nil)
	bob.must(http.StatusOK, "POST", "/api/auth/login/", map[string]string{"username": "bob", "password": "a long password"}, nil)
	admin.must(http.StatusOK, "DELETE", "/api/staff/users/"+daveID+"/", nil, nil)

	// A project edited live, command by command.
	var d editAnswer
	alice.must(http.StatusCreated, "POST", "/api/projects/", map[string]any{}, &d)
	cmd := func(body map[string]any) editAnswer {
		t.Helper()
		var a editAnswer
		alice.must(http.StatusOK, "POST", "/api/projects/"+d.ID+"/commands", body, &a)
		return a
	}
	run1 := d.RunID
	cmd(map[string]any{"type": "change_inputs", "run_id": run1, "fields": map[string]any{
		"channel_group": "concrete", "concreteChannel": map[string]any{"width": 100, "depth": 300, "roughness": 0.011},
		"channel_length_m": 20, "drainage_area_m2": 144}})
	cmd(map[string]any{"type": "change_notes", "run_id": run1, "notes": "Along the gate"})
	cmd(map[string]any{"type": "rename_run", "run_id": run1, "name": "Gate"})
	cmd(map[string]any{"type": "change_details", "details": map[string]any{"name": "Depot yard", "location": "Leeds", "reference": "P-17",
		"date": "2025-03-03", "company": "Alice Drains", "designer": "Ann Example"}, "rainfall_units": "mm/hr", "default_rainfall": 50})
	calc := func(u *user, status int, run string, fields map[string]any) {
		t.Helper()
		u.must(status, "POST", "/api/drainage/calculate/", patch(t, exampleCalc, mergeFields(fields, map[string]any{"project_id": d.ID, "run_id": run})), nil)
	}
	calc(alice, http.StatusOK, run1, map[string]any{"name": "Gate"})
	dup := cmd(map[string]any{"type": "duplicate_run", "run_id": run1}).RunID
	run3 := cmd(map[string]any{"type": "add_run"}).RunID
	cmd(map[string]any{"type": "reorder_runs", "order": []string{run3, run1, dup}})
	cmd(map[string]any{"type": "change_inputs", "run_id": dup, "fields": map[string]any{"channel_length_m": 35}})
	// No channel can be designed for this rain: a failed calculation.
	alice.must(http.StatusBadRequest, "POST", "/api/drainage/calculate/", map[string]any{
		"project_id": d.ID, "run_id": run3, "channel_group": "poly-100", "loading": "C250", "grating": "poly-100-slot-iron",
		"channel_length_m": 20, "drainage_area_m2": 200, "rainfall": map[string]any{"rainfall_mm_per_hr": 5000}}, nil)
	cmd(map[string]any{"type": "reset_run", "run_id": run3})
	cmd(map[string]any{"type": "remove_run", "run_id": run3})
	var tl struct {
		Version int64 `json:"version"`
	}
	alice.must(http.StatusOK, "GET", "/api/projects/"+d.ID+"/timeline", nil, &tl)
	var saved saveAnswer
	alice.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{
		"project": map[string]any{
			"saveID": d.ID, "version": tl.Version, "notes": "Yard drainage, phase 1",
			"details":        map[string]any{"name": "Depot yard", "location": "Leeds", "reference": "P-17", "date": "2025-03-03"},
			"rainfall_units": "mm/hr", "default_rainfall": 50,
			"runs": []any{
				mergeFields(calculatedRun("Gate", 20, run1), map[string]any{"notes": "Along the gate"}),
				calculatedRun("Gate (copy)", 35, dup),
			},
		},
	}, &saved)
	var shareLink string
	alice.must(http.StatusOK, "POST", "/api/drainage/share/", map[string]string{"id": d.ID}, &shareLink)
	bob.must(http.StatusOK, "POST", "/api/drainage/load/", map[string]string{"shareID": shareLink[strings.LastIndex(shareLink, "/")+1:]}, nil)

	// A project saved in one go and shared with the provider.
	var second saveAnswer
	alice.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{
		"project": map[string]any{
			"details": map[string]any{"name": "Car park", "location": "York"},
			"runs": []any{
				mergeFields(calculatedRun("North bay", 40, ""), map[string]any{"notes": "Kerb line"}),
				calculatedRun("South bay", 25, ""),
			},
		},
		"share": true,
	}, &second)

	// Bob's project, saved, then deleted.
	var third saveAnswer
	bob.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{
		"project": map[string]any{"details": map[string]any{"name": "Loading dock"}, "runs": []any{calculatedRun("Run 1", 12, "")}},
	}, &third)
	bob.must(http.StatusOK, "DELETE", "/api/drainage/delete/", map[string]string{"id": third.SaveID}, nil)

	// Erin's draft, never saved.
	erin.must(http.StatusCreated, "POST", "/api/projects/", map[string]any{}, nil)
}

func mergeFields(base, more map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(more))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range more {
		out[k] = v
	}
	return out
}

// fixtureGoldens are the golden files, by name.
type fixtureGoldens struct {
	Projects     map[string]aggregateGolden[projectView]
	Accounts     map[string]aggregateGolden[accountView]
	Reservations map[string]reservationView
	ReadModels   map[string][]map[string]any
}

func (g fixtureGoldens) files() map[string]any {
	return map[string]any{
		"projects.json": g.Projects, "accounts.json": g.Accounts,
		"reservations.json": g.Reservations, "readmodels.json": g.ReadModels,
	}
}

// eventTypes lists the distinct types of the log, sorted.
func eventTypes(log []eventstore.Event) []string {
	var types []string
	for _, ev := range log {
		if !slices.Contains(types, ev.Type) {
			types = append(types, ev.Type)
		}
	}
	slices.Sort(types)
	return types
}

func marshalGolden(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode golden: %w", err)
	}
	return append(b, '\n'), nil
}
