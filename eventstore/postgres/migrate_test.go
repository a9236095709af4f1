package postgres

import (
	"testing"

	"github.com/jackc/pgx/v5"

	"draindesign/eventstore/pgtest"
	"draindesign/migrations"
)

// TestMigrateAppliesInOrderOnce runs the runner on made-up migrations, as
// later read-model migrations will arrive.
func TestMigrateAppliesInOrderOnce(t *testing.T) {
	url := pgtest.NewDatabase(t)
	m1 := migrations.Migration{Version: 1, Name: "0001_a.sql", SQL: `CREATE TABLE a (x int); INSERT INTO a VALUES (1);`}
	m2 := migrations.Migration{Version: 2, Name: "0002_b.sql", SQL: `CREATE TABLE b (x int); INSERT INTO b SELECT x + 1 FROM a;`}
	bad := migrations.Migration{Version: 3, Name: "0003_bad.sql", SQL: `CREATE TABLE c (x int); SELECT no_such_column FROM b;`}

	if err := migrate(t.Context(), url, []migrations.Migration{m1}); err != nil {
		t.Fatal(err)
	}
	// Were 0001 run again, CREATE TABLE a would fail.
	if err := migrate(t.Context(), url, []migrations.Migration{m1, m2}); err != nil {
		t.Fatal(err)
	}
	if err := migrate(t.Context(), url, []migrations.Migration{m1, m2, bad}); err == nil {
		t.Fatal("a failing migration gave no error")
	}

	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	var b int
	if err := conn.QueryRow(t.Context(), `SELECT x FROM b`).Scan(&b); err != nil || b != 2 {
		t.Errorf("b holds %d (%v), want 2: 0002 runs after 0001", b, err)
	}
	var c bool
	if err := conn.QueryRow(t.Context(), `SELECT to_regclass('c') IS NOT NULL`).Scan(&c); err != nil || c {
		t.Errorf("table c exists: %v (%v); a failed migration must leave nothing", c, err)
	}
	rows, err := conn.Query(t.Context(), `SELECT name FROM schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(names) != 2 || names[0] != m1.Name || names[1] != m2.Name {
		t.Errorf("recorded %v (%v), want [%s %s]", names, err, m1.Name, m2.Name)
	}
}
