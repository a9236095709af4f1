// Package translations is the read model of the translators' overrides:
// the text each key of each language has now, who set it and when, and per
// language a revision that moves with every change, so that every instance
// can tell cheaply whether its merged catalogue is still current.
package translations

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/translation"
	"draindesign/eventstore"
	"draindesign/eventstore/privacy"
	"draindesign/projections"
)

// Projection fills translation_overrides and translation_revisions.
type Projection struct{}

func (Projection) Name() string { return "translation_overrides" }

// Follows: translation streams, and account streams for an erasure.
func (Projection) Follows(stream string) bool {
	return strings.HasPrefix(stream, "translation-") || strings.HasPrefix(stream, "account-")
}
func (Projection) Tables() []string {
	return []string{"translation_overrides", "translation_revisions"}
}

// Reads: the translation events and an account's erasure
// (projections.Selecting); the log's other events are read without their
// data.
func (Projection) Reads() []string { return append(translation.EventTypes(), account.TypeErased) }

func (Projection) Schema() []string {
	return []string{`CREATE TABLE IF NOT EXISTS translation_overrides (
		language   TEXT NOT NULL,
		kind       TEXT NOT NULL,
		text_key   TEXT NOT NULL,
		text       TEXT NOT NULL,
		english    TEXT NOT NULL,
		changed_by TEXT NOT NULL,
		by_name    TEXT NOT NULL,
		changed_at BIGINT NOT NULL,
		PRIMARY KEY (language, kind, text_key)
	)`,
		`CREATE TABLE IF NOT EXISTS translation_revisions (
		language TEXT PRIMARY KEY,
		revision BIGINT NOT NULL
	)`}
}

func (Projection) Apply(ctx context.Context, tx *projections.Tx, ev eventstore.Event) error {
	if ev.Type == account.TypeErased {
		// The translator's name was sealed with their key (docs/privacy.md).
		e, err := account.Decode(ev.Type, ev.Schema, ev.Data)
		if err != nil {
			return fmt.Errorf("translation_overrides: %s v%d: %w", ev.Stream, ev.Version, err)
		}
		if err := tx.Exec(ctx, `UPDATE translation_overrides SET by_name = CASE WHEN by_name = '' THEN '' ELSE ? END
			WHERE changed_by = ?`, privacy.Erased, e.AccountID()); err != nil {
			return fmt.Errorf("translation_overrides: erase %s: %w", e.AccountID(), err)
		}
		return nil
	}
	if !strings.HasPrefix(ev.Stream, "translation-") {
		return nil
	}
	// Every event moves the revision, also one of a type this build skips:
	// caches compare revisions, not contents.
	err := tx.Exec(ctx, `INSERT INTO translation_revisions (language, revision) VALUES (?, ?)
		ON CONFLICT (language) DO UPDATE SET revision = excluded.revision`, strings.TrimPrefix(ev.Stream, "translation-"), ev.Version)
	if err != nil {
		return fmt.Errorf("translation_revisions: %s v%d: %w", ev.Stream, ev.Version, err)
	}
	e, err := translation.Decode(ev.Type, ev.Schema, ev.Data)
	if errors.Is(err, translation.ErrUnknownEventType) {
		projections.SkipUnknown(Projection{}.Name(), ev.Type)
		return nil
	}
	if err != nil {
		return fmt.Errorf("translation_overrides: %s v%d: %w", ev.Stream, ev.Version, err)
	}
	switch e := e.(type) {
	case translation.TextChanged:
		err = tx.Exec(ctx, `INSERT INTO translation_overrides (language, kind, text_key, text, english, changed_by, by_name, changed_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (language, kind, text_key) DO UPDATE SET text = excluded.text, english = excluded.english,
				changed_by = excluded.changed_by, by_name = excluded.by_name, changed_at = excluded.changed_at`,
			e.Language, e.Kind, e.Key, e.New, e.English, e.By, e.ByName, e.At.UnixMilli())
	case translation.TextReset:
		err = tx.Exec(ctx, `DELETE FROM translation_overrides WHERE language = ? AND kind = ? AND text_key = ?`, e.Language, e.Kind, e.Key)
	}
	if err != nil {
		return fmt.Errorf("translation_overrides: %s %s v%d: %w", ev.Type, ev.Stream, ev.Version, err)
	}
	return nil
}

// Override is one key's text as a translator left it.
type Override struct {
	Language string    `json:"language"`
	Kind     string    `json:"kind"`
	Key      string    `json:"key"`
	Text     string    `json:"text"`
	English  string    `json:"english"`
	By       string    `json:"by"`
	ByName   string    `json:"by_name"`
	At       time.Time `json:"at"`
}

// List is every override of kind in language ("" for every language).
func List(ctx context.Context, db *projections.DB, language, kind string) ([]Override, error) {
	q := `SELECT language, kind, text_key, text, english, changed_by, by_name, changed_at FROM translation_overrides WHERE kind = ?`
	args := []any{kind}
	if language != "" {
		q += ` AND language = ?`
		args = append(args, language)
	}
	rows, err := db.Query(ctx, q+` ORDER BY language, text_key`, args...)
	if err != nil {
		return nil, fmt.Errorf("translation overrides: %w", err)
	}
	defer rows.Close()
	out := []Override{}
	for rows.Next() {
		var o Override
		var at int64
		if err := rows.Scan(&o.Language, &o.Kind, &o.Key, &o.Text, &o.English, &o.By, &o.ByName, &at); err != nil {
			return nil, fmt.Errorf("translation overrides: %w", err)
		}
		o.At = time.UnixMilli(at).UTC()
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("translation overrides: %w", err)
	}
	return out, nil
}

// Revisions is the revision of every language that has ever changed (the
// stream version of its last change); a language missing has revision 0.
func Revisions(ctx context.Context, db *projections.DB) (map[string]int64, error) {
	rows, err := db.Query(ctx, `SELECT language, revision FROM translation_revisions`)
	if err != nil {
		return nil, fmt.Errorf("translation revisions: %w", err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var lang string
		var rev int64
		if err := rows.Scan(&lang, &rev); err != nil {
			return nil, fmt.Errorf("translation revisions: %w", err)
		}
		out[lang] = rev
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("translation revisions: %w", err)
	}
	return out, nil
}
