package projections

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/jackc/pgx/v5"

	"draindesign/eventstore"
)

// checkpointSchema holds one row per projection: the position of the last
// event it applied, and a hash of its schema so that a changed read model is
// rebuilt rather than silently left in its old shape.
const checkpointSchema = `CREATE TABLE IF NOT EXISTS projection_checkpoints (
	name        TEXT PRIMARY KEY,
	commit_pos  BIGINT NOT NULL,
	seq_pos     BIGINT NOT NULL,
	schema_hash TEXT NOT NULL
)`

// initLockKey serialises schema setup and rebuilds across app instances on
// PostgreSQL, where concurrent CREATE TABLE IF NOT EXISTS can still collide.
const initLockKey = 7_310_442_051

func schemaHash(p Projection) string {
	h := sha256.New()
	for _, s := range p.Schema() {
		h.Write([]byte(strings.Join(strings.Fields(s), " ")))
		h.Write([]byte{0})
	}
	for _, t := range p.Tables() {
		h.Write([]byte(t))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

func forUpdate(d Dialect) string {
	if d == Postgres {
		// SQLite has no row locks; BEGIN IMMEDIATE already holds the
		// database's single write lock for the whole transaction.
		return " FOR UPDATE"
	}
	return ""
}

func lockInit(ctx context.Context, tx *Tx) error {
	if tx.Dialect != Postgres {
		return nil
	}
	if err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(?)`, int64(initLockKey)); err != nil {
		return fmt.Errorf("lock read-model schema: %w", err)
	}
	return nil
}

// roundLockClass is the first key of the advisory locks taken on the
// projections' checkpoints (lockCheckpoint); the second is the hash of the
// projection's name. The two-key form keeps them apart from initLockKey.
const roundLockClass = 73_104

// errRoundBusy says another instance is in a round of the projection.
var errRoundBusy = errors.New("projection busy on another instance")

// tryLockCheckpoint is lockCheckpoint for a round that need not wait: when
// another instance holds the projection's lock, it fails with errRoundBusy
// at once. The lock is tried in the statement that reads the checkpoint,
// so the read's snapshot may predate the other instance's commit by the
// few microseconds between the two; such a round then starts from the old
// checkpoint, and its conditional update (advanceCheckpoint) rolls it back.
func tryLockCheckpoint(ctx context.Context, tx *Tx, name string) (eventstore.Position, error) {
	if tx.Dialect != Postgres {
		return lockCheckpoint(ctx, tx, name)
	}
	var c, s int64
	var locked bool
	err := tx.QueryRow(ctx, `SELECT commit_pos, seq_pos, pg_try_advisory_xact_lock(?, hashtext(name))
		FROM projection_checkpoints WHERE name = ?`, int32(roundLockClass), name).Scan(&c, &s, &locked)
	if err == nil && !locked {
		return eventstore.Position{}, errRoundBusy
	}
	return checkpointRead(name, c, s, err)
}

// lockCheckpoint reads the checkpoint inside tx, after taking, on
// PostgreSQL, the projection's advisory lock for the rest of the
// transaction: another instance applying the same projection finishes
// first, and the read (a statement after the lock, so with a snapshot
// taken after it) sees where that one ended. (On SQLite, BEGIN IMMEDIATE
// holds the database's write lock already.)
//
// An advisory lock, not the row's FOR UPDATE: locking a row gives the
// transaction an ID, and a transaction with an ID holds back every reader
// of the event log in the same database until it ends (ReadAll shows only
// what is older than the oldest open transaction). Held for a whole round
// (reading the log, applying the batch), that kept the log a second
// behind under `make load`, and every read model with it.
func lockCheckpoint(ctx context.Context, tx *Tx, name string) (eventstore.Position, error) {
	var c, s int64
	err := tx.queryRowLocked(ctx, `SELECT pg_advisory_xact_lock(?, hashtext(?))`, []any{int32(roundLockClass), name},
		`SELECT commit_pos, seq_pos FROM projection_checkpoints WHERE name = ?`, name).Scan(&c, &s)
	return checkpointRead(name, c, s, err)
}

// checkpointRead is the position a locked checkpoint read gave, or its
// error with the projection named.
func checkpointRead(name string, c, s int64, err error) (eventstore.Position, error) {
	if errors.Is(err, sql.ErrNoRows) || errors.Is(err, pgx.ErrNoRows) {
		return eventstore.Position{}, fmt.Errorf("checkpoint of %s: projection not initialised", name)
	}
	if err != nil {
		return eventstore.Position{}, fmt.Errorf("lock checkpoint of %s: %w", name, err)
	}
	return eventstore.Position{Commit: uint64(c), Seq: uint64(s)}, nil
}

// advanceCheckpoint moves the projection's checkpoint from "from" to "to"
// inside tx, or fails with errCheckpointMoved when it is no longer at
// "from". On PostgreSQL the statement is only queued (Tx.Exec): the server
// raises the error itself, so that the statements queued after it, sent in
// the same pipeline, roll back with it.
func advanceCheckpoint(ctx context.Context, tx *Tx, name string, from, to eventstore.Position) error {
	if to.Commit > math.MaxInt64 || to.Seq > math.MaxInt64 {
		return fmt.Errorf("checkpoint of %s: position %s does not fit BIGINT", name, to)
	}
	args := []any{int64(to.Commit), int64(to.Seq), name, int64(from.Commit), int64(from.Seq)}
	const update = `UPDATE projection_checkpoints SET commit_pos = ?, seq_pos = ? WHERE name = ? AND commit_pos = ? AND seq_pos = ?`
	if tx.Dialect != Postgres {
		n, err := tx.execRows(ctx, update, args...)
		if err != nil {
			return fmt.Errorf("advance checkpoint of %s to %s: %w", name, to, err)
		}
		if n != 1 {
			return errCheckpointMoved
		}
		return nil
	}
	// The cast fails only when no row was updated; it depends on the
	// count, so the planner cannot fold it into an error up front.
	return tx.Exec(ctx, `WITH moved AS (`+update+` RETURNING 1)
		SELECT CASE WHEN COUNT(*) = 1 THEN 0 ELSE CAST('`+checkpointMovedText+`: ' || COUNT(*) AS INTEGER) END FROM moved`, args...)
}

// resetProjection drops the projection's tables, recreates them and puts
// its checkpoint back to the start of the log.
func resetProjection(ctx context.Context, tx *Tx, p Projection) error {
	for _, t := range p.Tables() {
		if err := tx.Exec(ctx, `DROP TABLE IF EXISTS `+t); err != nil {
			return fmt.Errorf("reset %s: drop %s: %w", p.Name(), t, err)
		}
	}
	if err := createSchema(ctx, tx, p); err != nil {
		return err
	}
	err := tx.Exec(ctx, `INSERT INTO projection_checkpoints (name, commit_pos, seq_pos, schema_hash) VALUES (?, 0, 0, ?)
		ON CONFLICT (name) DO UPDATE SET commit_pos = 0, seq_pos = 0, schema_hash = excluded.schema_hash`,
		p.Name(), schemaHash(p))
	if err != nil {
		return fmt.Errorf("reset checkpoint of %s: %w", p.Name(), err)
	}
	return nil
}

func createSchema(ctx context.Context, tx *Tx, p Projection) error {
	for _, s := range p.Schema() {
		if err := tx.Exec(ctx, s); err != nil {
			return fmt.Errorf("schema of %s: %w", p.Name(), err)
		}
	}
	return nil
}
