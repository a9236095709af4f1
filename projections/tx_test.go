package projections

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"draindesign/eventstore"
	"draindesign/eventstore/pgtest"
)

// eachDB runs f against a fresh read-model database of each dialect; the
// PostgreSQL one pipelines its transactions (pgTx), the SQLite one does not.
func eachDB(t *testing.T, f func(t *testing.T, db *DB)) {
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		db, err := OpenSQLite(filepath.Join(t.TempDir(), "rm.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		f(t, db)
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		db, err := OpenPostgres(pgtest.NewDatabase(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		f(t, db)
	})
}

func countRows(t *testing.T, db *DB, table string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(context.Background(), `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

func makeTable(t *testing.T, db *DB) {
	t.Helper()
	if _, err := db.Exec(context.Background(), `CREATE TABLE kv (k TEXT PRIMARY KEY, v BIGINT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
}

func TestTxReadsItsOwnQueuedWrites(t *testing.T) {
	t.Parallel()
	eachDB(t, func(t *testing.T, db *DB) {
		ctx := context.Background()
		makeTable(t, db)
		err := db.InTx(ctx, func(tx *Tx) error {
			for i, k := range []string{"a", "b", "c"} {
				if err := tx.Exec(ctx, `INSERT INTO kv (k, v) VALUES (?, ?)`, k, int64(i)); err != nil {
					return err
				}
			}
			var sum int64
			if err := tx.QueryRow(ctx, `SELECT SUM(v) FROM kv`).Scan(&sum); err != nil {
				return err
			}
			if sum != 3 {
				t.Errorf("inside the transaction the sum is %d, want 3", sum)
			}
			// Writes after a read are queued again and sent with COMMIT.
			if err := tx.Exec(ctx, `UPDATE kv SET v = v + 10 WHERE k = ?`, "a"); err != nil {
				return err
			}
			rows, err := tx.Query(ctx, `SELECT k, v FROM kv ORDER BY k`)
			if err != nil {
				return err
			}
			var got []string
			for rows.Next() {
				var k string
				var v int64
				if err := rows.Scan(&k, &v); err != nil {
					return err
				}
				got = append(got, k)
				if k == "a" && v != 10 {
					t.Errorf("a = %d inside the transaction, want 10", v)
				}
			}
			if err := rows.Close(); err != nil {
				return err
			}
			if strings.Join(got, "") != "abc" {
				t.Errorf("rows %v, want a b c", got)
			}
			return tx.Exec(ctx, `INSERT INTO kv (k, v) VALUES (?, ?)`, "d", int64(4))
		})
		if err != nil {
			t.Fatal(err)
		}
		if n := countRows(t, db, "kv"); n != 4 {
			t.Errorf("%d rows committed, want 4", n)
		}
	})
}

// A failing statement anywhere in the transaction undoes the ones queued
// before it and after it, whether or not the transaction had read.
func TestTxFailureRollsBackEverything(t *testing.T) {
	t.Parallel()
	eachDB(t, func(t *testing.T, db *DB) {
		ctx := context.Background()
		makeTable(t, db)
		if _, err := db.Exec(ctx, `INSERT INTO kv (k, v) VALUES ('taken', 0)`); err != nil {
			t.Fatal(err)
		}
		for _, readFirst := range []bool{false, true} {
			err := db.InTx(ctx, func(tx *Tx) error {
				if err := tx.Exec(ctx, `INSERT INTO kv (k, v) VALUES ('new', 1)`); err != nil {
					return err
				}
				if readFirst {
					var n int
					if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM kv`).Scan(&n); err != nil {
						return err
					}
				}
				if err := tx.Exec(ctx, `INSERT INTO kv (k, v) VALUES ('taken', 2)`); err != nil {
					return err
				}
				return tx.Exec(ctx, `INSERT INTO kv (k, v) VALUES ('later', 3)`)
			})
			if err == nil {
				t.Fatalf("readFirst=%v: a duplicate key committed", readFirst)
			}
			if db.Dialect == Postgres && !strings.Contains(err.Error(), "INSERT INTO kv (k, v) VALUES ('taken', 2)") {
				t.Errorf("readFirst=%v: the error does not name the failed statement: %v", readFirst, err)
			}
			if n := countRows(t, db, "kv"); n != 1 {
				t.Errorf("readFirst=%v: %d rows after the failed transaction, want 1", readFirst, n)
			}
		}
		// The pool's connections are still fit for use.
		for range MaxReadModelConns + 2 {
			if err := db.InTx(ctx, func(tx *Tx) error {
				return tx.Exec(ctx, `UPDATE kv SET v = v + 1 WHERE k = 'taken'`)
			}); err != nil {
				t.Fatalf("after a failed transaction: %v", err)
			}
		}
	})
}

// A transaction whose first statement reads a row (a round's locked
// checkpoint) sends it in one pipeline with BEGIN: the row stays locked
// until the transaction ends, and writes after the read commit with it. A
// first read that fails or finds nothing leaves the pool fit for use.
func TestTxFirstReadOpensTheTransaction(t *testing.T) {
	t.Parallel()
	eachDB(t, func(t *testing.T, db *DB) {
		ctx := context.Background()
		makeTable(t, db)
		if _, err := db.Exec(ctx, `INSERT INTO kv (k, v) VALUES ('a', 1)`); err != nil {
			t.Fatal(err)
		}
		err := db.InTx(ctx, func(tx *Tx) error {
			var v int64
			if err := tx.QueryRow(ctx, `SELECT v FROM kv WHERE k = ?`+forUpdate(tx.Dialect), "a").Scan(&v); err != nil {
				return err
			}
			if v != 1 {
				t.Errorf("read %d, want 1", v)
			}
			if db.Dialect == Postgres {
				// Another writer of the row must wait for this transaction.
				err := db.InTx(ctx, func(other *Tx) error {
					if err := other.Exec(ctx, `SET LOCAL lock_timeout = '100ms'`); err != nil {
						return err
					}
					return other.Exec(ctx, `UPDATE kv SET v = 100 WHERE k = 'a'`)
				})
				if err == nil {
					t.Error("the row read first was not locked: another transaction changed it")
				}
			}
			return tx.Exec(ctx, `UPDATE kv SET v = ? WHERE k = ?`, v+1, "a")
		})
		if err != nil {
			t.Fatal(err)
		}
		var v int64
		if err := db.QueryRow(ctx, `SELECT v FROM kv WHERE k = 'a'`).Scan(&v); err != nil || v != 2 {
			t.Errorf("after the commit v = %d (%v), want 2", v, err)
		}
		for _, q := range []string{`SELECT nope FROM kv`, `SELECT v FROM kv WHERE k = 'none'`} {
			err := db.InTx(ctx, func(tx *Tx) error {
				return tx.QueryRow(ctx, q).Scan(&v)
			})
			if err == nil {
				t.Errorf("%s: no error", q)
			}
		}
		for range MaxReadModelConns + 2 {
			if err := db.InTx(ctx, func(tx *Tx) error {
				return tx.QueryRow(ctx, `SELECT v FROM kv WHERE k = 'a'`).Scan(&v)
			}); err != nil {
				t.Fatalf("after the failed reads: %v", err)
			}
		}
	})
}

func TestTxRollbackDropsQueuedAndSentWrites(t *testing.T) {
	t.Parallel()
	eachDB(t, func(t *testing.T, db *DB) {
		ctx := context.Background()
		makeTable(t, db)
		tx, err := db.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := tx.Exec(ctx, `INSERT INTO kv (k, v) VALUES ('sent', 1)`); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM kv`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("count inside: %d, %v", n, err)
		}
		if err := tx.Exec(ctx, `INSERT INTO kv (k, v) VALUES ('queued', 2)`); err != nil {
			t.Fatal(err)
		}
		if err := tx.Rollback(ctx); err != nil {
			t.Fatal(err)
		}
		if n := countRows(t, db, "kv"); n != 0 {
			t.Errorf("%d rows after rollback, want 0", n)
		}
		if err := tx.Commit(ctx); err == nil && db.Dialect == Postgres {
			t.Error("commit after rollback succeeded")
		}
	})
}

// advanceCheckpoint is the guard against two instances applying one batch:
// from a stale checkpoint it fails with errCheckpointMoved and the batch's
// statements queued after it are not committed.
func TestAdvanceCheckpointRefusesAStaleStart(t *testing.T) {
	t.Parallel()
	eachDB(t, func(t *testing.T, db *DB) {
		ctx := context.Background()
		makeTable(t, db)
		if _, err := db.Exec(ctx, checkpointSchema); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(ctx, `INSERT INTO projection_checkpoints (name, commit_pos, seq_pos, schema_hash) VALUES ('p', 5, 0, 'h')`); err != nil {
			t.Fatal(err)
		}
		apply := func(from, to eventstore.Position) error {
			return db.InTx(ctx, func(tx *Tx) error {
				if err := advanceCheckpoint(ctx, tx, "p", from, to); err != nil {
					return err
				}
				return tx.Exec(ctx, `INSERT INTO kv (k, v) VALUES (?, ?)`, to.String(), int64(to.Commit))
			})
		}
		if err := apply(eventstore.Position{Commit: 4}, eventstore.Position{Commit: 9}); !errors.Is(err, errCheckpointMoved) {
			t.Fatalf("from a stale checkpoint: %v, want errCheckpointMoved", err)
		}
		if n := countRows(t, db, "kv"); n != 0 {
			t.Errorf("%d rows applied from a stale checkpoint", n)
		}
		if err := apply(eventstore.Position{Commit: 5}, eventstore.Position{Commit: 9}); err != nil {
			t.Fatalf("from the checkpoint: %v", err)
		}
		var cp eventstore.Position
		err := db.InTx(ctx, func(tx *Tx) (err error) {
			cp, err = lockCheckpoint(ctx, tx, "p")
			return err
		})
		if err != nil || cp != (eventstore.Position{Commit: 9}) || countRows(t, db, "kv") != 1 {
			t.Errorf("after advancing: checkpoint %s (%v), %d rows; want 9, 1 row", cp, err, countRows(t, db, "kv"))
		}
	})
}

// Read-model commits on PostgreSQL do not wait for the WAL flush; the
// connection's own setting (sessions share the pool) is left alone.
func TestTxCommitsAsynchronouslyOnPostgres(t *testing.T) {
	t.Parallel()
	db, err := OpenPostgres(pgtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	var inside, outside string
	if err := db.InTx(ctx, func(tx *Tx) error {
		return tx.QueryRow(ctx, `SELECT current_setting('synchronous_commit')`).Scan(&inside)
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(ctx, `SELECT current_setting('synchronous_commit')`).Scan(&outside); err != nil {
		t.Fatal(err)
	}
	if inside != "off" || outside != "on" {
		t.Errorf("synchronous_commit inside a read-model transaction %q, outside %q; want off, on", inside, outside)
	}
}
