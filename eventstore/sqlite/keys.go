package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"draindesign/eventstore"
)

var _ eventstore.SubjectKeys = (*Store)(nil)

// SubjectKey implements eventstore.SubjectKeys.
func (s *Store) SubjectKey(ctx context.Context, subject string, newKey []byte) ([]byte, error) {
	var key []byte
	var erased sql.NullInt64
	err := s.read.QueryRowContext(ctx, `SELECT data_key, erased_at FROM subject_keys WHERE subject = ?`, subject).Scan(&key, &erased)
	switch {
	case err == nil && erased.Valid:
		return nil, eventstore.ErrSubjectErased
	case err == nil:
		return key, nil
	case !errors.Is(err, sql.ErrNoRows):
		return nil, fmt.Errorf("subject key %s: %w", subject, err)
	}
	err = s.exclusive(ctx, func(c *sql.Conn) error {
		if _, err := c.ExecContext(ctx, `INSERT INTO subject_keys (subject, data_key, created_at) VALUES (?, ?, ?)
		ON CONFLICT (subject) DO NOTHING`, subject, newKey, time.Now().UnixMicro()); err != nil {
			return fmt.Errorf("store subject key %s: %w", subject, err)
		}
		// Whoever won the insert, the stored key is the one.
		if err := c.QueryRowContext(ctx, `SELECT data_key, erased_at FROM subject_keys WHERE subject = ?`, subject).Scan(&key, &erased); err != nil {
			return fmt.Errorf("subject key %s: %w", subject, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if erased.Valid {
		return nil, eventstore.ErrSubjectErased
	}
	return key, nil
}

// LookupSubjectKeys implements eventstore.SubjectKeys.
func (s *Store) LookupSubjectKeys(ctx context.Context, subjects []string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(subjects))
	if len(subjects) == 0 {
		return out, nil
	}
	list, err := json.Marshal(subjects)
	if err != nil {
		return nil, err
	}
	rows, err := s.read.QueryContext(ctx, `SELECT subject, data_key FROM subject_keys
		WHERE subject IN (SELECT value FROM json_each(?)) AND data_key IS NOT NULL`, string(list))
	if err != nil {
		return nil, fmt.Errorf("subject keys: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var subject string
		var key []byte
		if err := rows.Scan(&subject, &key); err != nil {
			return nil, fmt.Errorf("subject keys: %w", err)
		}
		out[subject] = key
	}
	return out, rows.Err()
}

// EraseSubjectKey implements eventstore.SubjectKeys. secure_delete is on
// for the writing connection, so the freed key bytes are overwritten.
func (s *Store) EraseSubjectKey(ctx context.Context, subject string) error {
	now := time.Now().UnixMicro()
	err := s.exclusive(ctx, func(c *sql.Conn) error {
		_, err := c.ExecContext(ctx, `INSERT INTO subject_keys (subject, data_key, created_at, erased_at) VALUES (?, NULL, ?, ?)
		ON CONFLICT (subject) DO UPDATE SET data_key = NULL, erased_at = COALESCE(subject_keys.erased_at, excluded.erased_at)`, subject, now, now)
		return err
	})
	if err != nil {
		return fmt.Errorf("erase subject key %s: %w", subject, err)
	}
	return nil
}

// RedactEvent implements eventstore.SubjectKeys.
func (s *Store) RedactEvent(ctx context.Context, eventID string, data json.RawMessage) error {
	if !json.Valid(data) {
		return fmt.Errorf("redact event %s: data is not JSON", eventID)
	}
	var n int64
	err := s.exclusive(ctx, func(c *sql.Conn) error {
		res, err := c.ExecContext(ctx, `UPDATE events SET data = ? WHERE event_id = ?`, string(data), eventID)
		if err == nil {
			n, _ = res.RowsAffected()
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("redact event %s: %w", eventID, err)
	}
	if n != 1 {
		return fmt.Errorf("redact event %s: no such event", eventID)
	}
	return nil
}

// DeleteStream implements eventstore.SubjectKeys.
func (s *Store) DeleteStream(ctx context.Context, stream string) error {
	if strings.TrimSpace(stream) == "" {
		return errors.New("delete stream: no name")
	}
	return s.exclusive(ctx, func(c *sql.Conn) error {
		tx, err := c.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("delete stream %s: %w", stream, err)
		}
		defer func() { _ = tx.Rollback() }()
		if _, err := tx.ExecContext(ctx, `DELETE FROM events WHERE stream_id = ?`, stream); err != nil {
			return fmt.Errorf("delete stream %s: %w", stream, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM streams WHERE stream_id = ?`, stream); err != nil {
			return fmt.Errorf("delete stream %s: %w", stream, err)
		}
		return tx.Commit()
	})
}

// Checkpoint copies the write-ahead log into the database file and
// truncates it, so that page images holding erased data do not outlive an
// erasure there (secure_delete zeroes freed space in the file itself).
func (s *Store) Checkpoint(ctx context.Context) error {
	err := s.exclusive(ctx, func(c *sql.Conn) error {
		_, err := c.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
		return err
	})
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}

// SubjectEvents implements eventstore.SubjectKeys.
func (s *Store) SubjectEvents(ctx context.Context, stream, author string) ([]eventstore.Event, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+eventColumns+` FROM events WHERE stream_id = ? OR (author = ? AND author <> '') ORDER BY seq`, stream, author)
	if err != nil {
		return nil, fmt.Errorf("events of %s / %s: %w", stream, author, err)
	}
	defer rows.Close()
	return scan(rows, 0)
}

// exclusive runs fn on the writing connection, which the appends' batches
// hold for good (group commit): it takes the lead as an append does, so no
// batch runs meanwhile, and hands it on to the next queued append after.
// These calls are rare (a new user's key, an erasure), so waiting for a gap
// between batches costs the appends nothing.
func (s *Store) exclusive(ctx context.Context, fn func(*sql.Conn) error) error {
	s.mu.Lock()
	for s.leading && !s.closed {
		s.idle.Wait()
	}
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	s.leading = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.passLead()
		s.mu.Unlock()
	}()
	if err := ctx.Err(); err != nil {
		return err
	}
	return fn(s.conn)
}
