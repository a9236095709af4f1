// Package stafflog is the staff history: what staff did, newest first:
// users blocked, unblocked, moved between groups and deleted, and systems
// and channels withdrawn from or offered again in a country.
package stafflog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/availability"
	"draindesign/eventstore"
	"draindesign/projections"
)

// Actions as the history names them.
const (
	Blocked      = "blocked"
	Unblocked    = "unblocked"
	GroupChanged = "group_changed"
	Deleted      = "deleted"
	Offered      = "offered"
	Withdrawn    = "withdrawn"
)

// Kinds of entries a reader may ask for.
const (
	KindUsers        = "users"
	KindAvailability = "availability"
)

// Projection fills staff_log.
type Projection struct{}

func (Projection) Name() string { return "staff_log" }

// Follows: account and availability streams.
func (Projection) Follows(stream string) bool {
	return strings.HasPrefix(stream, "account-") || strings.HasPrefix(stream, availability.StreamPrefix)
}
func (Projection) Tables() []string { return []string{"staff_log"} }

// Reads: the account and availability events (projections.Selecting); the
// log's other events are read without their data.
func (Projection) Reads() []string {
	return append(account.EventTypes(), availability.EventTypes()...)
}

func (Projection) Schema() []string {
	return []string{`CREATE TABLE IF NOT EXISTS staff_log (
		event_id TEXT PRIMARY KEY,
		at       BIGINT NOT NULL,
		kind     TEXT NOT NULL,
		actor    TEXT NOT NULL,
		action   TEXT NOT NULL,
		target   TEXT NOT NULL,
		subject  TEXT NOT NULL,
		detail   TEXT NOT NULL
	)`,
		`CREATE INDEX IF NOT EXISTS staff_log_at ON staff_log (at, event_id)`,
		`CREATE INDEX IF NOT EXISTS staff_log_kind ON staff_log (kind, at)`,
	}
}

// entry is one row to write: target is a user id or a country, subject a
// system or channel, detail the group move.
type entry struct {
	at                      time.Time
	kind, actor, action     string
	target, subject, detail string
}

func (Projection) Apply(ctx context.Context, tx *projections.Tx, ev eventstore.Event) error {
	var en *entry
	var err error
	switch {
	case strings.HasPrefix(ev.Stream, "account-"):
		en, err = accountEntry(ev)
	case strings.HasPrefix(ev.Stream, availability.StreamPrefix):
		en, err = availabilityEntry(ev)
	}
	if err != nil || en == nil {
		return err
	}
	err = tx.Exec(ctx, `INSERT INTO staff_log (event_id, at, kind, actor, action, target, subject, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		ev.ID, en.at.UnixMilli(), en.kind, en.actor, en.action, en.target, en.subject, en.detail)
	if err != nil {
		return fmt.Errorf("staff_log: %s v%d: %w", ev.Stream, ev.Version, err)
	}
	return nil
}

func accountEntry(ev eventstore.Event) (*entry, error) {
	e, err := account.Decode(ev.Type, ev.Schema, ev.Data)
	if errors.Is(err, account.ErrUnknownEventType) {
		projections.SkipUnknown(Projection{}.Name(), ev.Type)
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("staff_log: %s v%d: %w", ev.Stream, ev.Version, err)
	}
	switch e := e.(type) {
	case account.Blocked:
		return &entry{at: e.At, kind: KindUsers, actor: e.By, action: Blocked, target: e.UserID}, nil
	case account.Unblocked:
		return &entry{at: e.At, kind: KindUsers, actor: e.By, action: Unblocked, target: e.UserID}, nil
	case account.GroupChanged:
		return &entry{at: e.At, kind: KindUsers, actor: e.By, action: GroupChanged, target: e.UserID,
			detail: string(e.From) + ">" + string(e.To)}, nil
	case account.Deleted:
		return &entry{at: e.At, kind: KindUsers, actor: e.By, action: Deleted, target: e.UserID}, nil
	}
	return nil, nil
}

func availabilityEntry(ev eventstore.Event) (*entry, error) {
	e, err := availability.Decode(ev.Type, ev.Schema, ev.Data)
	if errors.Is(err, availability.ErrUnknownEventType) {
		projections.SkipUnknown(Projection{}.Name(), ev.Type)
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("staff_log: %s v%d: %w", ev.Stream, ev.Version, err)
	}
	c, ok := e.(availability.Changed)
	if !ok {
		return nil, nil
	}
	action := Withdrawn
	if c.Offered {
		action = Offered
	}
	return &entry{at: c.At, kind: KindAvailability, actor: c.By, action: action, target: c.Country,
		subject: availability.Key{System: c.System, Channel: c.Channel}.String()}, nil
}

// Entry is one line of the staff history. Target is a user (TargetName
// their username) or a country; Subject the system or system/channel of
// an availability change; Detail "from>to" of a group change.
type Entry struct {
	ID         string    `json:"id"`
	At         time.Time `json:"time"`
	Kind       string    `json:"kind"`
	ActorID    string    `json:"actor_id"`
	Actor      string    `json:"actor"`
	Action     string    `json:"action"`
	Target     string    `json:"target"`
	TargetName string    `json:"target_name"`
	Subject    string    `json:"subject"`
	Detail     string    `json:"detail"`
}

// List returns the newest entries, of one kind when kind is given, limit
// of them from offset.
func List(ctx context.Context, db *projections.DB, kind string, offset, limit int) ([]Entry, error) {
	q := `SELECT l.event_id, l.at, l.kind, l.actor, COALESCE(a.username, ''), l.action, l.target, COALESCE(t.username, ''), l.subject, l.detail
		FROM staff_log l LEFT JOIN user_list a ON a.id = l.actor LEFT JOIN user_list t ON t.id = l.target`
	var args []any
	if kind != "" {
		q += ` WHERE l.kind = ?`
		args = append(args, kind)
	}
	rows, err := db.Query(ctx, q+` ORDER BY l.at DESC, l.event_id DESC LIMIT ? OFFSET ?`, append(args, limit, offset)...)
	if err != nil {
		return nil, fmt.Errorf("staff history: %w", err)
	}
	defer rows.Close()
	out := []Entry{}
	for rows.Next() {
		var e Entry
		var at int64
		if err := rows.Scan(&e.ID, &at, &e.Kind, &e.ActorID, &e.Actor, &e.Action, &e.Target, &e.TargetName, &e.Subject, &e.Detail); err != nil {
			return nil, fmt.Errorf("staff history: %w", err)
		}
		e.At = time.UnixMilli(at).UTC()
		out = append(out, e)
	}
	return out, rows.Err()
}
