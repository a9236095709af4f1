package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"draindesign/eventstore"

	"github.com/jackc/pgx/v5"
)

var _ eventstore.SubjectKeys = (*Store)(nil)

// SubjectKey implements eventstore.SubjectKeys.
func (s *Store) SubjectKey(ctx context.Context, subject string, newKey []byte) ([]byte, error) {
	if _, err := s.pool.Exec(ctx, `INSERT INTO subject_keys (subject, data_key) VALUES ($1, $2)
		ON CONFLICT (subject) DO NOTHING`, subject, newKey); err != nil {
		return nil, fmt.Errorf("store subject key %s: %w", subject, err)
	}
	var key []byte
	var erased bool
	err := s.pool.QueryRow(ctx, `SELECT data_key, erased_at IS NOT NULL FROM subject_keys WHERE subject = $1`, subject).Scan(&key, &erased)
	if err != nil {
		return nil, fmt.Errorf("subject key %s: %w", subject, err)
	}
	if erased || key == nil {
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
	rows, err := s.logPool.Query(ctx, `SELECT subject, data_key FROM subject_keys WHERE subject = ANY($1) AND data_key IS NOT NULL`, subjects)
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

// EraseSubjectKey implements eventstore.SubjectKeys. The old row version
// stays in the table's storage until VACUUM (docs/privacy.md).
func (s *Store) EraseSubjectKey(ctx context.Context, subject string) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO subject_keys (subject, data_key, erased_at) VALUES ($1, NULL, now())
		ON CONFLICT (subject) DO UPDATE SET data_key = NULL, erased_at = COALESCE(subject_keys.erased_at, now())`, subject)
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
	tag, err := s.pool.Exec(ctx, `UPDATE events SET data = $1::json WHERE event_id = $2`, string(data), eventID)
	if err != nil {
		return fmt.Errorf("redact event %s: %w", eventID, err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("redact event %s: no such event", eventID)
	}
	return nil
}

// DeleteStream implements eventstore.SubjectKeys.
func (s *Store) DeleteStream(ctx context.Context, stream string) error {
	if strings.TrimSpace(stream) == "" {
		return errors.New("delete stream: no name")
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM events WHERE stream_id = $1`, stream); err != nil {
			return fmt.Errorf("delete stream %s: %w", stream, err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM streams WHERE stream_id = $1`, stream); err != nil {
			return fmt.Errorf("delete stream %s: %w", stream, err)
		}
		return nil
	})
}

// SubjectEvents implements eventstore.SubjectKeys. It reads every
// committed row, without ReadAll's snapshot horizon.
func (s *Store) SubjectEvents(ctx context.Context, stream, author string) ([]eventstore.Event, error) {
	evs, err := s.query(ctx, s.pool, 0, `SELECT `+eventColumns+` FROM events WHERE stream_id = $1 OR (author = $2 AND author <> '') ORDER BY tx_id, seq`, stream, author)
	if err != nil {
		return nil, fmt.Errorf("events of %s / %s: %w", stream, author, err)
	}
	return evs, nil
}
