package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"draindesign/api/usecase"
	"draindesign/domain/account"
)

// A backup taken while the server runs restores, into a fresh directory
// (and on PostgreSQL a new database, through pg_dump and pg_restore), the
// log, every project and account, every read model (rebuilt from the
// restored log) and the secret key as they were when it was taken; what
// was written after it is not in it; the restored product serves the same
// accounts and projects; and a second restore over it is refused.
func TestBackupRestoresEverything(t *testing.T) {
	files := map[string][]string{
		"sqlite":   {"readmodels.db", "events.db", "secret.key"},
		"postgres": {"draindesign.dump", "secret.key"},
	}
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) { testBackupRestoresEverything(t, b, files[b.name]) })
	}
}

func testBackupRestoresEverything(t *testing.T, b backend, wantFiles []string) {
	ctx := context.Background()
	opts := b.opts(t)
	p := start(t, opts)
	gina := p.signUp(t, "gina")
	p.staff(t, "sam", account.GroupAdmin)
	var s saveAnswer
	gina.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"details": map[string]any{"name": "Car park"}, "runs": []any{calculatedRun("Run 1", 10, ""), calculatedRun("Run 2", 12, "")}}, "share": true}, &s)
	gina.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"saveID": s.SaveID, "version": s.Version, "details": map[string]any{"name": "Car park, renamed"},
		"runs": []any{calculatedRun("Run 2", 14, s.RunSaveIDs[1])}}}, nil)
	gina.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"details": map[string]any{"name": "Yard"}, "runs": []any{calculatedRun("Run 1", 3, "")}}}, &s)
	gina.must(http.StatusOK, "DELETE", "/api/drainage/delete/", map[string]string{"id": s.SaveID}, nil)
	if err := p.Runner.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	log := readLog(t, p.Store)
	projects, accounts := replayProjects(t, log), replayAccounts(t, log)
	models := dumpReadModels(t, p.DB)
	if len(projects) != 2 || len(accounts) != 2 || len(models["project_list"]) != 2 || len(models["user_list"]) != 2 {
		t.Fatalf("before the backup: %d projects, %d accounts, read models %v", len(projects), len(accounts), models)
	}
	key, err := os.ReadFile(filepath.Join(opts.DataDir, "secret.key"))
	if err != nil {
		t.Fatal(err)
	}

	backupDir := filepath.Join(t.TempDir(), "backup")
	res, err := Backup(ctx, p.opts, backupDir)
	if err != nil {
		t.Fatalf("backup while serving: %v", err)
	}
	if !reflect.DeepEqual(res.Files, wantFiles) || len(res.Notes) != 0 {
		t.Fatalf("backup wrote %v (notes %v), want %v", res.Files, res.Notes, wantFiles)
	}
	for _, f := range wantFiles {
		if fi, err := os.Stat(filepath.Join(backupDir, f)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("backup file %s: %v, want one readable by its owner only", f, err)
		}
	}
	// Written after the backup: must not come back.
	gina.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
		"details": map[string]any{"name": "After the backup"}, "runs": []any{calculatedRun("Run 1", 5, "")}}}, nil)
	p.stop()

	// A new, empty database (PostgreSQL) and a data directory not yet made.
	restored := b.opts(t)
	restored.DataDir = filepath.Join(restored.DataDir, "restored")
	res, err = Restore(ctx, restored, backupDir)
	if err != nil {
		t.Fatalf("restore: %v", err)
	}
	if len(res.Notes) != 0 || res.Position != log[len(log)-1].Position {
		t.Fatalf("restore: notes %v, read models at %v, want the backup's head %v", res.Notes, res.Position, log[len(log)-1].Position)
	}
	if got, _ := os.ReadFile(filepath.Join(restored.DataDir, "secret.key")); string(got) != string(key) {
		t.Error("the restored secret key differs: links mailed before the backup would stop working")
	}

	store, db, err := OpenStores(ctx, restored)
	if err != nil {
		t.Fatal(err)
	}
	gotLog := readLog(t, store)
	if len(gotLog) != len(log) {
		t.Fatalf("restored log has %d events, the backup was taken at %d", len(gotLog), len(log))
	}
	checkSameLog(t, gotLog, log)
	for i := range log {
		if gotLog[i].Position != log[i].Position {
			t.Fatalf("event %d at position %v, was at %v", i, gotLog[i].Position, log[i].Position)
		}
	}
	if got := replayProjects(t, gotLog); !jsonEqual(t, got, projects) {
		t.Errorf("restored projects differ\ngot:  %s\nwant: %s", mustJSON(t, got), mustJSON(t, projects))
	}
	if got := replayAccounts(t, gotLog); !jsonEqual(t, got, accounts) {
		t.Errorf("restored accounts differ\ngot:  %s\nwant: %s", mustJSON(t, got), mustJSON(t, accounts))
	}
	if got := dumpReadModels(t, db); !reflect.DeepEqual(got, models) {
		t.Errorf("rebuilt read models differ\ngot:  %v\nwant: %v", got, models)
	}
	store.Close()
	db.Close()

	// The restored product serves them: gina logs in with her password
	// and lists her one remaining project.
	q := start(t, restored)
	again := q.newUser(t)
	again.must(http.StatusOK, "POST", "/api/auth/login/", map[string]string{"username": "gina", "password": "a long password"}, nil)
	var mine []listItem
	again.must(http.StatusOK, "GET", "/api/drainage/projects/", nil, &mine)
	if len(mine) != 1 || mine[0].Name != "Car park, renamed" {
		t.Fatalf("restored project list %+v, want only \"Car park, renamed\"", mine)
	}
	q.stop()
	if _, err := Restore(ctx, restored, backupDir); err == nil || !strings.Contains(err.Error(), "already holds a store") {
		t.Errorf("a second restore over the restored store: %v, want a refusal", err)
	}
}

// Restore never writes over a store, backs up into a used directory or
// reads a directory that is not a backup; on PostgreSQL without pg_dump
// and pg_restore on PATH both say how to run them by hand instead of
// pretending, and with the log in KurrentDB both refuse.
func TestBackupRefusals(t *testing.T) {
	ctx := context.Background()
	t.Setenv("PATH", t.TempDir()) // no pg_dump, no pg_restore
	live := Options{DataDir: t.TempDir()}
	store, db, err := OpenStores(ctx, live)
	if err != nil {
		t.Fatal(err)
	}
	store.Close()
	db.Close()
	backupDir := filepath.Join(t.TempDir(), "b")
	res, err := Backup(ctx, live, backupDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "no secret key") {
		t.Errorf("backup without a secret key: notes %v, want one saying so", res.Notes)
	}
	withKeyElsewhere := Options{DataDir: t.TempDir(), SecretKeyFile: "/run/secrets/draindesign.key"}
	if err := os.WriteFile(filepath.Join(backupDir, "secret.key"), []byte(strings.Repeat("k", 40)), 0o600); err != nil {
		t.Fatal(err)
	}
	if res, err := Restore(ctx, withKeyElsewhere, backupDir); err != nil || len(res.Notes) != 1 ||
		!strings.Contains(res.Notes[0], "copy "+filepath.Join(backupDir, "secret.key")+" to /run/secrets/draindesign.key") {
		t.Errorf("restore with SECRET_KEY_FILE: %v, notes %v, want one telling where to copy the key", err, res.Notes)
	}
	if _, err := os.Stat(filepath.Join(withKeyElsewhere.DataDir, "secret.key")); err == nil {
		t.Error("restore wrote the key into the data directory although SECRET_KEY_FILE names another place")
	}

	pg := Options{DataDir: t.TempDir(), DatabaseURL: "postgres://db.example/draindesign"}
	pgBackup := filepath.Join(t.TempDir(), "pg")
	if err := os.Mkdir(pgBackup, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pgBackup, "draindesign.dump"), []byte("PGDMP"), 0o600); err != nil {
		t.Fatal(err)
	}
	kurrent := pg
	kurrent.KurrentDBURL = "kurrentdb://db.example:2113"
	cases := []struct {
		name string
		do   func() error
		want string
	}{
		{"restore over a store", func() error { _, err := Restore(ctx, live, backupDir); return err }, "already holds a store"},
		{"backup into a used directory", func() error { _, err := Backup(ctx, live, backupDir); return err }, "not empty"},
		{"restore from a non-backup", func() error { _, err := Restore(ctx, Options{DataDir: t.TempDir()}, t.TempDir()); return err }, "not a draindesign backup"},
		{"backup of an empty directory", func() error {
			_, err := Backup(ctx, Options{DataDir: t.TempDir()}, filepath.Join(t.TempDir(), "x"))
			return err
		}, "no store"},
		{"backup on PostgreSQL", func() error { _, err := Backup(ctx, pg, filepath.Join(t.TempDir(), "x")); return err }, "pg_dump --format=custom"},
		{"restore on PostgreSQL", func() error { _, err := Restore(ctx, pg, pgBackup); return err }, "pg_restore"},
		{"restore on PostgreSQL from a non-backup", func() error { _, err := Restore(ctx, pg, backupDir); return err }, "not a draindesign backup of PostgreSQL"},
		{"backup with the log in KurrentDB", func() error { _, err := Backup(ctx, kurrent, filepath.Join(t.TempDir(), "x")); return err }, "KurrentDB's own tools"},
		{"restore with the log in KurrentDB", func() error { _, err := Restore(ctx, kurrent, pgBackup); return err }, "KurrentDB's own tools"},
	}
	for _, tc := range cases {
		err := tc.do()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
		if (tc.name == "backup on PostgreSQL" || tc.name == "restore on PostgreSQL") && !errors.Is(err, ErrPostgresBackup) {
			t.Errorf("%s: %v is not ErrPostgresBackup", tc.name, err)
		}
	}
}

// A backup taken while accounts are being added is a snapshot: the
// restored log is a prefix of the live one, and its rebuilt user list holds
// exactly the accounts of that prefix.
func TestBackupDuringWrites(t *testing.T) {
	ctx := context.Background()
	p := start(t, Options{DataDir: t.TempDir()})
	svc := usecase.NewAccounts(usecase.Config{Store: p.Store}, nil, nil)
	add := func(i int) error {
		in := account.RegisterInput{Username: fmt.Sprintf("user%d", i), Email: fmt.Sprintf("user%d@example.com", i),
			Password: "a long password", PasswordConfirmation: "a long password", FirstName: "A", LastName: "B",
			Company: "-", Country: "GB", Address: "-", City: "-", Postcode: "-"}
		_, err := svc.AddUser(ctx, usecase.Actor{}, in, account.GroupStandard)
		return err
	}
	for i := range 5 {
		if err := add(i); err != nil {
			t.Fatal(err)
		}
	}
	stop, done, writing := make(chan struct{}), make(chan error, 1), make(chan struct{})
	go func() {
		for i := 5; ; i++ {
			if i == 8 {
				close(writing) // the backup starts with the writer in full flow
			}
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			if err := add(i); err != nil {
				done <- err
				return
			}
		}
	}()
	select {
	case <-writing:
	case err := <-done:
		t.Fatalf("writer: %v", err)
	}
	backupDir := filepath.Join(t.TempDir(), "b")
	_, err := Backup(ctx, p.opts, backupDir)
	close(stop)
	if werr := <-done; werr != nil {
		t.Fatalf("writer: %v", werr)
	}
	if err != nil {
		t.Fatalf("backup during writes: %v", err)
	}
	live := readLog(t, p.Store)
	p.stop()

	restored := Options{DataDir: filepath.Join(t.TempDir(), "r")}
	if _, err := Restore(ctx, restored, backupDir); err != nil {
		t.Fatal(err)
	}
	store, db, err := OpenStores(ctx, restored)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	defer db.Close()
	got := readLog(t, store)
	if len(got) == 0 || len(got) > len(live) {
		t.Fatalf("restored log has %d events, live %d", len(got), len(live))
	}
	checkSameLog(t, got, live[:len(got)])
	accounts := replayAccounts(t, got)
	if users := dumpTable(t, db, "user_list"); len(users) != len(accounts) || len(accounts) < 8 {
		t.Fatalf("restored user list has %d rows for %d accounts in the restored log", len(users), len(accounts))
	}
	t.Logf("backup caught %d of %d events, %d accounts", len(got), len(live), len(accounts))
}

// pg_dump and pg_restore get the database without its password (handed
// over in PGPASSWORD) and without pgx's pool settings, which libpq refuses.
func TestSplitPassword(t *testing.T) {
	cases := []struct{ in, dsn, password string }{
		{"postgres://u:secret@db:5432/dd?sslmode=disable", "postgres://u@db:5432/dd?sslmode=disable", "secret"},
		{"postgresql://u@db/dd", "postgresql://u@db/dd", ""},
		{"postgres://u:p%40ss@db/dd?pool_max_conns=10&sslmode=require", "postgres://u@db/dd?sslmode=require", "p@ss"},
		{"host=db user=u password=secret dbname=dd", "host=db user=u password=secret dbname=dd", ""},
	}
	for _, tc := range cases {
		dsn, password := splitPassword(tc.in)
		if dsn != tc.dsn || password != tc.password {
			t.Errorf("splitPassword(%q) = %q, %q; want %q, %q", tc.in, dsn, password, tc.dsn, tc.password)
		}
	}
}
