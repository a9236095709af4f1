// Package timeline is the project timeline read model: every event of every
// project stream, as support needs it to replay what happened to a project.
// Events are kept in the current shape of their type (upcast by the project
// codec), so that readers of the timeline know one shape per type; types
// this code does not know are skipped and counted.
package timeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/eventstore/privacy"
	"draindesign/projections"
)

// StreamPrefix marks the streams this read model keeps.
const StreamPrefix = project.StreamPrefix

// Projection fills the timeline table.
type Projection struct{}

// New returns the timeline projection, for projections.Config.Projections.
func New() Projection { return Projection{} }

func (Projection) Name() string { return "timeline" }

// Follows: project streams, and account streams for an erasure.
func (Projection) Follows(stream string) bool {
	return strings.HasPrefix(stream, StreamPrefix) || strings.HasPrefix(stream, "account-")
}

func (Projection) Tables() []string { return []string{"timeline"} }

// RefreshedOnRead: a timeline is read far less often than it is written
// (every edit and calculation adds a row), so its readers bring it to the
// version they need (Runner.Show) and writers do not wait for it.
func (Projection) RefreshedOnRead() {}

func (Projection) Schema() []string {
	return []string{`CREATE TABLE IF NOT EXISTS timeline (
		stream     TEXT   NOT NULL,
		version    BIGINT NOT NULL,
		commit_pos BIGINT NOT NULL,
		seq_pos    BIGINT NOT NULL,
		event_id   TEXT   NOT NULL,
		type       TEXT   NOT NULL,
		author     TEXT   NOT NULL,
		at         TEXT   NOT NULL,
		data       TEXT   NOT NULL,
		PRIMARY KEY (stream, version)
	)`}
}

// timeFormat is fixed-width so that the text column sorts in time order.
const timeFormat = "2006-01-02T15:04:05.000000000Z"

func (Projection) Apply(ctx context.Context, tx *projections.Tx, ev eventstore.Event) error {
	if ev.Type == account.TypeErased {
		return erase(ctx, tx, ev)
	}
	if !strings.HasPrefix(ev.Stream, StreamPrefix) {
		return nil
	}
	e, err := project.Decode(ev.Type, ev.Schema, ev.Data)
	if errors.Is(err, project.ErrUnknownEventType) {
		projections.SkipUnknown(Projection{}.Name(), ev.Type)
		return nil
	}
	if err != nil {
		return fmt.Errorf("timeline: %s v%d: %w", ev.Stream, ev.Version, err)
	}
	_, _, data, err := project.Encode(e)
	if err != nil {
		return fmt.Errorf("timeline: %s v%d: %w", ev.Stream, ev.Version, err)
	}
	// A plain INSERT: if an event ever arrived twice, the primary key would
	// fail the transaction loudly instead of hiding the bug.
	err = tx.Exec(ctx, `INSERT INTO timeline (stream, version, commit_pos, seq_pos, event_id, type, author, at, data)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		ev.Stream, ev.Version, int64(ev.Position.Commit), int64(ev.Position.Seq), ev.ID, ev.Type,
		ev.Metadata.Author, ev.Metadata.Time.UTC().Format(timeFormat), string(data))
	if err != nil {
		return fmt.Errorf("timeline: insert %s v%d: %w", ev.Stream, ev.Version, err)
	}
	return nil
}

// erase blanks the personal fields of the events an erased account wrote
// (only a project's owner writes it, and the privacy store seals those
// fields with the author's key), in the shape a rebuild from the shredded
// log would store them.
func erase(ctx context.Context, tx *projections.Tx, ev eventstore.Event) error {
	e, err := account.Decode(ev.Type, ev.Schema, ev.Data)
	if err != nil {
		return fmt.Errorf("timeline: %s v%d: %w", ev.Stream, ev.Version, err)
	}
	uid := e.AccountID()
	rows, err := tx.Query(ctx, `SELECT stream, version, type, data FROM timeline WHERE author = ?`, uid)
	if err != nil {
		return fmt.Errorf("timeline: erase %s: %w", uid, err)
	}
	type change struct {
		stream  string
		version int64
		data    string
	}
	var changes []change
	for rows.Next() {
		var c change
		var typ, data string
		if err := rows.Scan(&c.stream, &c.version, &typ, &data); err != nil {
			rows.Close()
			return fmt.Errorf("timeline: erase %s: %w", uid, err)
		}
		redacted, changed, err := privacy.Redact(c.stream, []byte(data), true)
		if err != nil || !changed {
			if err != nil {
				rows.Close()
				return fmt.Errorf("timeline: erase %s v%d: %w", c.stream, c.version, err)
			}
			continue
		}
		pe, err := project.DecodeCurrent(typ, redacted)
		if err != nil {
			rows.Close()
			return fmt.Errorf("timeline: erase %s v%d: %w", c.stream, c.version, err)
		}
		_, _, out, err := project.Encode(pe)
		if err != nil {
			rows.Close()
			return fmt.Errorf("timeline: erase %s v%d: %w", c.stream, c.version, err)
		}
		c.data = string(out)
		changes = append(changes, c)
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		return fmt.Errorf("timeline: erase %s: %w", uid, err)
	}
	rows.Close()
	for _, c := range changes {
		if err := tx.Exec(ctx, `UPDATE timeline SET data = ? WHERE stream = ? AND version = ?`, c.data, c.stream, c.version); err != nil {
			return fmt.Errorf("timeline: erase %s v%d: %w", c.stream, c.version, err)
		}
	}
	return nil
}

// Entry is one event on a project's timeline.
type Entry struct {
	Stream   string              `json:"stream"`
	Version  int64               `json:"version"`
	Position eventstore.Position `json:"position"`
	EventID  string              `json:"event_id"`
	Type     string              `json:"type"`
	Author   string              `json:"author"`
	Time     time.Time           `json:"time"`
	Data     json.RawMessage     `json:"data"`
}

// List returns the timeline of project projectID (stream "project-<id>") in
// version order.
func List(ctx context.Context, db *projections.DB, projectID string) ([]Entry, error) {
	rows, err := db.Query(ctx, `SELECT stream, version, commit_pos, seq_pos, event_id, type, author, at, data
		FROM timeline WHERE stream = ? ORDER BY version`, StreamPrefix+projectID)
	if err != nil {
		return nil, fmt.Errorf("timeline of %s: %w", projectID, err)
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		var e Entry
		var c, s int64
		var at, data string
		if err := rows.Scan(&e.Stream, &e.Version, &c, &s, &e.EventID, &e.Type, &e.Author, &at, &data); err != nil {
			return nil, fmt.Errorf("timeline of %s: %w", projectID, err)
		}
		e.Position = eventstore.Position{Commit: uint64(c), Seq: uint64(s)}
		if e.Time, err = time.Parse(timeFormat, at); err != nil {
			return nil, fmt.Errorf("timeline of %s v%d: time %q: %w", projectID, e.Version, at, err)
		}
		e.Data = json.RawMessage(data)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("timeline of %s: %w", projectID, err)
	}
	return out, nil
}
