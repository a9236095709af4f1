package pgtest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestNewDatabase(t *testing.T) {
	var names []string
	t.Run("fresh databases", func(t *testing.T) {
		seen := map[string]bool{}
		for range 2 {
			url := NewDatabase(t)
			conn, err := pgx.Connect(t.Context(), url)
			if err != nil {
				t.Fatalf("connect to the new database: %v", err)
			}
			var name string
			var tables int
			err = conn.QueryRow(t.Context(), `SELECT current_database(), (SELECT count(*) FROM pg_tables WHERE schemaname = 'public')`).Scan(&name, &tables)
			conn.Close(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if seen[name] || tables != 0 {
				t.Errorf("database %s: %d tables, seen before %v; want a new, empty one", name, tables, seen[name])
			}
			seen[name] = true
			names = append(names, name)
		}
	})
	if len(names) == 0 {
		t.Skip("no databases were made")
	}
	conn, err := pgx.Connect(t.Context(), ServerURL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var left int
	if err := conn.QueryRow(t.Context(), `SELECT count(*) FROM pg_database WHERE datname = ANY($1)`, names).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d of the test's databases left after it (%v), want 0", left, err)
	}
}

func TestWithDatabase(t *testing.T) {
	for server, want := range map[string]string{
		"postgres://u:p@h:5432/postgres?sslmode=disable": "postgres://u:p@h:5432/t_x?sslmode=disable",
		"postgresql://h/":               "postgresql://h/t_x",
		"host=h user=u dbname=postgres": "host=h user=u dbname=postgres dbname=t_x",
	} {
		if got, err := withDatabase(server, "t_x"); err != nil || got != want {
			t.Errorf("withDatabase(%q) = %q, %v; want %q", server, got, err, want)
		}
	}
}

// TestUnreachable runs a test against a closed port in a child process: it
// must skip, or fail under CI=true.
func TestUnreachable(t *testing.T) {
	if os.Getenv("PGTEST_CHILD") == "1" {
		NewDatabase(t)
		t.Fatal("NewDatabase returned without a server")
	}
	for _, ci := range []string{"", "true"} {
		cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestUnreachable$", "-test.v")
		cmd.Env = append(os.Environ(), "PGTEST_CHILD=1", "CI="+ci,
			"DATABASE_URL=postgres://postgres@127.0.0.1:1/postgres?sslmode=disable&connect_timeout=5")
		out, err := cmd.CombinedOutput()
		switch {
		case ci == "" && (err != nil || !strings.Contains(string(out), "--- SKIP")):
			t.Errorf("without CI: %v, want a skip:\n%s", err, out)
		case ci == "true" && (err == nil || !strings.Contains(string(out), "required under CI=true")):
			t.Errorf("under CI=true: %v, want a failure:\n%s", err, out)
		}
	}
}
