package sqlite

import (
	"database/sql"
	"path/filepath"
	"testing"

	"draindesign/eventstore"
	"draindesign/migrations"
)

func TestOpenConfiguresAndMigratesOnce(t *testing.T) {
	// A name that breaks a naively built DSN.
	path := filepath.Join(t.TempDir(), "odd ?name#1%.db")
	for range 2 {
		s, err := Open(t.Context(), path)
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		t.Cleanup(func() { s.Close() })
		var mode string
		var fk, sync int
		if err := s.conn.QueryRowContext(t.Context(), `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
			t.Errorf("journal_mode %q (%v), want wal", mode, err)
		}
		if err := s.conn.QueryRowContext(t.Context(), `PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
			t.Errorf("foreign_keys %d (%v), want 1", fk, err)
		}
		if err := s.conn.QueryRowContext(t.Context(), `PRAGMA synchronous`).Scan(&sync); err != nil || sync != 1 {
			t.Errorf("synchronous %d (%v), want 1 (NORMAL)", sync, err)
		}
		if _, err := s.read.ExecContext(t.Context(), `DELETE FROM streams`); err == nil {
			t.Error("the read pool can write")
		}
		ms, err := migrations.List(migrations.SQLite, "sqlite")
		if err != nil {
			t.Fatal(err)
		}
		var applied int
		if err := s.conn.QueryRowContext(t.Context(), `SELECT count(*) FROM schema_migrations`).Scan(&applied); err != nil || applied != len(ms) {
			t.Errorf("%d migrations recorded (%v), want %d", applied, err, len(ms))
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if matches, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*")); len(matches) == 0 || filepath.Base(matches[0]) != filepath.Base(path) {
		t.Errorf("files %v, want the database at %s", matches, path)
	}
}

// TestOpenOldStore opens a file holding events written before schema
// versions were stored: they read back as version 1.
func TestOpenOldStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path+"?_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	ms, err := migrations.List(migrations.SQLite, "sqlite")
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate(t.Context(), db, ms[:1]); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO streams VALUES ('old', 1);
		INSERT INTO events (commit_id, event_id, stream_id, version, type, data, occurred_at) VALUES (1, 'e1', 'old', 1, 'T', '{"a":1}', 0)`); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
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

// TestMigrateAppliesInOrderOnce runs the runner on made-up migrations, as
// later read-model migrations will arrive.
func TestMigrateAppliesInOrderOnce(t *testing.T) {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "m.db")+"?_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	m1 := migrations.Migration{Version: 1, Name: "0001_a.sql", SQL: `CREATE TABLE a (x int); INSERT INTO a VALUES (1);`}
	m2 := migrations.Migration{Version: 2, Name: "0002_b.sql", SQL: `CREATE TABLE b (x int); INSERT INTO b SELECT x + 1 FROM a;`}
	bad := migrations.Migration{Version: 3, Name: "0003_bad.sql", SQL: `CREATE TABLE c (x int); SELECT no_such_column FROM b;`}

	if err := migrate(t.Context(), db, []migrations.Migration{m1}); err != nil {
		t.Fatal(err)
	}
	// Were 0001 run again, CREATE TABLE a would fail.
	if err := migrate(t.Context(), db, []migrations.Migration{m1, m2}); err != nil {
		t.Fatal(err)
	}
	if err := migrate(t.Context(), db, []migrations.Migration{m1, m2, bad}); err == nil {
		t.Fatal("a failing migration gave no error")
	}
	var b int
	if err := db.QueryRow(`SELECT x FROM b`).Scan(&b); err != nil || b != 2 {
		t.Errorf("b holds %d (%v), want 2: 0002 runs after 0001", b, err)
	}
	var c int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name = 'c'`).Scan(&c); err != nil || c != 0 {
		t.Errorf("table c exists (%v); a failed migration must leave nothing", err)
	}
	var names string
	if err := db.QueryRow(`SELECT group_concat(name, ' ') FROM (SELECT name FROM schema_migrations ORDER BY version)`).Scan(&names); err != nil || names != "0001_a.sql 0002_b.sql" {
		t.Errorf("recorded %q (%v), want 0001_a.sql 0002_b.sql", names, err)
	}
}
