package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"draindesign/cmd/draindesign/app"
	"draindesign/projections"
)

func TestCommands(t *testing.T) {
	t.Setenv("DATABASE_URL", "")
	dir := t.TempDir()
	tests := []struct {
		args    []string
		wantOut string
		wantErr string
	}{
		{nil, "Commands:", ""},
		{[]string{"frobnicate"}, "", `unknown command "frobnicate"`},
		{[]string{"users", "add", "--data-dir", dir, "--username", "mo", "--email", "mo@example.com", "--password", "a long password", "--group", "admin"}, "user mo created in group admin", ""},
		{[]string{"users", "add", "--data-dir", dir, "--username", "mo", "--email", "other@example.com", "--password", "a long password"}, "", "already exists"},
		{[]string{"users", "add", "--data-dir", dir, "--username", "x", "--email", "x@example.com", "--password", "p", "--group", "king"}, "", "group"},
		{[]string{"users", "add", "--data-dir", dir, "--username", "nina", "--email", "nina@example.com", "--password", "short"}, "", "password"},
		{[]string{"projections", "rebuild", "--data-dir", dir}, "read models rebuilt up to position", ""},
		{[]string{"projections"}, "", "usage"},
		{[]string{"migrate"}, "", "needs DATABASE_URL"},
	}
	for _, tc := range tests {
		var out bytes.Buffer
		err := run(context.Background(), tc.args, &out)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(tc.wantErr)) {
				t.Errorf("%v: error %v, want one containing %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !strings.Contains(out.String(), tc.wantOut) {
			t.Errorf("%v: %v, output %q, want %q", tc.args, err, out.String(), tc.wantOut)
		}
	}
}

// serve never builds links from a request's Host: on loopback the public
// address defaults to the listening one; beyond loopback it must be set.
// The start-up hint creates the account in the store the server runs on.
func TestAccountHint(t *testing.T) {
	cases := []struct {
		dataDir  string
		postgres bool
		want     string
	}{
		{"./data", false, "Or create an account: bin/draindesign users add --data-dir ./data --username NAME"},
		{"/srv/drains data", false, "users add --data-dir '/srv/drains data' --username"},
		{"/tmp/it's", false, `users add --data-dir '/tmp/it'\''s' --username`},
		{"./data", true, "Or create an account (with the same DATABASE_URL): bin/draindesign users add --username NAME"},
	}
	for _, tc := range cases {
		if got := accountHint("bin/draindesign", tc.dataDir, tc.postgres); !strings.Contains(got, tc.want) {
			t.Errorf("accountHint(%q, %v) = %q, want it to contain %q", tc.dataDir, tc.postgres, got, tc.want)
		}
	}
}

func TestServePublicURL(t *testing.T) {
	tcp := func(s string) net.Addr { return net.TCPAddrFromAddrPort(netip.MustParseAddrPort(s)) }
	cases := []struct {
		listen     net.Addr
		configured string
		want       string
		wantErr    string
	}{
		{tcp("127.0.0.1:8080"), "", "http://127.0.0.1:8080", ""},
		{tcp("[::1]:8080"), "", "http://[::1]:8080", ""},
		{tcp("0.0.0.0:8080"), "", "", "PUBLIC_URL is required when listening on 0.0.0.0:8080"},
		{tcp("[::]:8080"), "", "", "PUBLIC_URL is required"},
		{tcp("192.0.2.10:80"), "", "", "PUBLIC_URL is required"},
		{tcp("0.0.0.0:8080"), "https://drains.example.com", "https://drains.example.com", ""},
	}
	for _, tc := range cases {
		got, err := publicURL(tc.listen, tc.configured)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: %q %v, want error %q", tc.listen, got, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s %q: %q %v, want %q", tc.listen, tc.configured, got, err, tc.want)
		}
	}
}

// Listening beyond loopback without PUBLIC_URL, serve refuses to start and
// says why.
func TestServeRefusesWithoutPublicURL(t *testing.T) {
	t.Setenv("PUBLIC_URL", "")
	t.Setenv("DATABASE_URL", "")
	err := run(context.Background(), []string{"serve", "--addr", "0.0.0.0:0", "--data-dir", t.TempDir()}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "PUBLIC_URL is required") {
		t.Fatalf("serve on all addresses without PUBLIC_URL: %v", err)
	}
}

// The metrics listener shows the counter of skipped unknown event types.
func TestMetricsShowUnknownEvents(t *testing.T) {
	projections.SkipUnknown("project", "project.from_the_future")
	a, err := app.Start(context.Background(), app.Options{DataDir: t.TempDir(), PublicURL: "http://127.0.0.1:8080"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	rec := httptest.NewRecorder()
	a.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `draindesign_unknown_events_total{source="project",type="project.from_the_future"} 1`) {
		t.Fatalf("metrics %d:\n%s", rec.Code, rec.Body.String())
	}
}

// backup and restore from the command line: a user added to one data
// directory can log in from the restored one; with DATABASE_URL and no
// pg_dump on PATH backup refuses and says how to run it by hand.
func TestBackupCommands(t *testing.T) {
	t.Setenv("DATABASE_URL", "")
	t.Setenv("SECRET_KEY_FILE", "")
	live, backupDir, restored := t.TempDir(), filepath.Join(t.TempDir(), "b"), filepath.Join(t.TempDir(), "r")
	steps := []struct {
		args    []string
		wantOut string
		wantErr string
	}{
		{[]string{"users", "add", "--data-dir", live, "--username", "mo", "--email", "mo@example.com", "--password", "a long password"}, "user mo created", ""},
		{[]string{"backup", "--data-dir", live}, "", "usage: draindesign backup --to DIR"},
		{[]string{"backup", "--data-dir", live, "--to", backupDir}, "backed up " + live + " into " + backupDir + ": readmodels.db, events.db", ""},
		{[]string{"restore", "--data-dir", restored}, "", "usage: draindesign restore --from DIR"},
		{[]string{"restore", "--data-dir", restored, "--from", backupDir}, "read models rebuilt up to position", ""},
		{[]string{"restore", "--data-dir", restored, "--from", backupDir}, "", "already holds a store"},
		{[]string{"users", "add", "--data-dir", restored, "--username", "mo", "--email", "mo2@example.com", "--password", "a long password"}, "", "already exists"},
	}
	for _, tc := range steps {
		var out bytes.Buffer
		err := run(context.Background(), tc.args, &out)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%v: error %v, want one containing %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !strings.Contains(out.String(), tc.wantOut) {
			t.Errorf("%v: %v, output %q, want %q", tc.args, err, out.String(), tc.wantOut)
		}
	}
	t.Setenv("DATABASE_URL", "postgres://db.example/draindesign")
	if err := run(context.Background(), []string{"backup"}, io.Discard); err == nil || !strings.Contains(err.Error(), "usage: draindesign backup --to DIR") {
		t.Errorf("backup on PostgreSQL without --to: %v, want the usage", err)
	}
	t.Setenv("PATH", t.TempDir())
	err := run(context.Background(), []string{"backup", "--to", filepath.Join(t.TempDir(), "pg")}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "pg_dump") || !strings.Contains(err.Error(), "SECRET_KEY_FILE") {
		t.Errorf("backup with DATABASE_URL: %v, want pg_dump guidance naming the secret key", err)
	}
}

// serve gives Go a spare P per core and calculations a slot per core, says
// so, and puts the Ps back when it returns.
func TestServeSetsProcs(t *testing.T) {
	t.Setenv("PUBLIC_URL", "")
	t.Setenv("DATABASE_URL", "")
	t.Setenv("GOMAXPROCS", "")
	t.Setenv("GOGC", "")
	t.Setenv("CALCULATION_NICE", "")
	before := runtime.GOMAXPROCS(0)
	gcBefore := debug.SetGCPercent(100)
	defer debug.SetGCPercent(gcBefore)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, in := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--data-dir", t.TempDir()}, in)
		in.Close()
		done <- err
	}()
	said := make(chan string, 1)
	go func() { // reads to the end, so that serve never blocks on its output
		for sc := bufio.NewScanner(out); sc.Scan(); {
			if strings.Contains(sc.Text(), "calculations run") {
				said <- sc.Text()
			}
		}
		close(said)
	}()
	line, ok := <-said
	if !ok {
		t.Fatalf("serve ended without saying how calculations run: %v", <-done)
	}
	nice := " at nice 10"
	if runtime.GOOS != "linux" {
		nice = ""
	}
	if want := fmt.Sprintf("calculations run %d at a time%s, on %d Go Ps, collector at GOGC=200", before, nice, 3*before); !strings.Contains(line, want) {
		t.Errorf("serve said %q, want %q", line, want)
	}
	if got := runtime.GOMAXPROCS(0); got != 3*before {
		t.Errorf("while serving: %d Ps, want %d", got, 3*before)
	}
	if got := gcPercent(); got != 200 {
		t.Errorf("while serving: GOGC=%d, want 200", got)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Errorf("after serve: %d Ps, want %d", got, before)
	}
	if got := gcPercent(); got != 100 {
		t.Errorf("after serve: GOGC=%d, want 100 as before", got)
	}
}
