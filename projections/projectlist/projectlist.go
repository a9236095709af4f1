// Package projectlist is the read model of projects as lists show them: the
// owner's load dialog, the projects shared with the provider, and the staff
// view of a user's projects including deleted ones.
package projectlist

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/eventstore/privacy"
	"draindesign/projections"
)

// Projection fills the project_list table.
type Projection struct{}

func (Projection) Name() string { return "project_list" }

// Follows: project streams, and account streams for an erasure.
func (Projection) Follows(stream string) bool {
	return strings.HasPrefix(stream, project.StreamPrefix) || strings.HasPrefix(stream, "account-")
}
func (Projection) Tables() []string { return []string{"project_list"} }

// reads are the event types that change the list. A run's edits and
// calculations are not among them: a designer's edit does not wait for this
// read model, and the runner reads the log for it without their data
// (projections.Selecting).
var reads = []string{
	project.Created{}.EventType(),
	project.DetailsChanged{}.EventType(),
	project.RunAdded{}.EventType(),
	project.RunDuplicated{}.EventType(),
	project.RunRemoved{}.EventType(),
	project.Restored{}.EventType(),
	project.Saved{}.EventType(),
	project.SharedByLink{}.EventType(),
	project.SharingStopped{}.EventType(),
	project.Deleted{}.EventType(),
	account.TypeErased,
}

// Reads: the types above; Apply ignores every other.
func (Projection) Reads() []string { return reads }

// WaitedFor: the types a lookup finds at once (a project by its support
// number or share link, an erasure). The lists (the owner's, the shared
// projects, staff's) refresh the read model before reading
// (projections.Runner.Refresh), so a save, a rename or a deletion does not
// wait for it: under `make load` a save waited 0.3 to 0.5 s for its turn
// to catch the list up behind the other savers.
func (Projection) WaitedFor() []string {
	return []string{project.Created{}.EventType(), project.SharedByLink{}.EventType(), project.SharingStopped{}.EventType(), account.TypeErased}
}

func (Projection) Schema() []string {
	return []string{`CREATE TABLE IF NOT EXISTS project_list (
		id           TEXT PRIMARY KEY,
		support_id   BIGINT NOT NULL,
		owner        TEXT NOT NULL,
		owner_name   TEXT NOT NULL,
		country      TEXT NOT NULL,
		name         TEXT NOT NULL DEFAULT '',
		location     TEXT NOT NULL DEFAULT '',
		reference    TEXT NOT NULL DEFAULT '',
		date         TEXT NOT NULL DEFAULT '',
		created_at   BIGINT NOT NULL,
		saved        INTEGER NOT NULL DEFAULT 0,
		saved_at     BIGINT NOT NULL DEFAULT 0,
		saved_by     TEXT NOT NULL DEFAULT '',
		saved_by_name TEXT NOT NULL DEFAULT '',
		runs         INTEGER NOT NULL DEFAULT 0,
		shared       INTEGER NOT NULL DEFAULT 0,
		share_id     TEXT NOT NULL DEFAULT '',
		deleted_at   BIGINT NOT NULL DEFAULT 0
	)`,
		`CREATE INDEX IF NOT EXISTS project_list_owner ON project_list (owner, created_at)`,
		`CREATE INDEX IF NOT EXISTS project_list_share ON project_list (share_id)`,
		`CREATE INDEX IF NOT EXISTS project_list_support ON project_list (support_id)`,
	}
}

func (Projection) Apply(ctx context.Context, tx *projections.Tx, ev eventstore.Event) error {
	if !slices.Contains(reads, ev.Type) {
		return nil
	}
	if ev.Type == account.TypeErased {
		return erase(ctx, tx, ev)
	}
	if !strings.HasPrefix(ev.Stream, project.StreamPrefix) {
		return nil
	}
	e, err := project.Decode(ev.Type, ev.Schema, ev.Data)
	if errors.Is(err, project.ErrUnknownEventType) {
		projections.SkipUnknown(Projection{}.Name(), ev.Type)
		return nil
	}
	if err != nil {
		return fmt.Errorf("project_list: %s v%d: %w", ev.Stream, ev.Version, err)
	}
	id := strings.TrimPrefix(ev.Stream, project.StreamPrefix)
	exec := func(q string, args ...any) error {
		if err := tx.Exec(ctx, q, args...); err != nil {
			return fmt.Errorf("project_list: %s of %s: %w", ev.Type, id, err)
		}
		return nil
	}
	switch e := e.(type) {
	case project.Created:
		// The support id is the creating event's place in the log: digits,
		// unique, and the same after every rebuild.
		return exec(`INSERT INTO project_list (id, support_id, owner, owner_name, country, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			id, int64(ev.Position.Seq), e.Owner, e.OwnerName, e.Country, e.At.UnixMilli())
	case project.DetailsChanged:
		return exec(`UPDATE project_list SET name = ?, location = ?, reference = ?, date = ? WHERE id = ?`,
			e.Details.Name, e.Details.Location, e.Details.Reference, e.Details.Date, id)
	case project.RunAdded, project.RunDuplicated:
		return exec(`UPDATE project_list SET runs = runs + 1 WHERE id = ?`, id)
	case project.RunRemoved:
		return exec(`UPDATE project_list SET runs = runs - 1 WHERE id = ?`, id)
	case project.Restored:
		// A restore ends with the whole run list and details; the runs it
		// brought back came before it in the same commit.
		return exec(`UPDATE project_list SET name = ?, location = ?, reference = ?, date = ?, runs = ? WHERE id = ?`,
			e.Details.Name, e.Details.Location, e.Details.Reference, e.Details.Date, len(e.RunIDs), id)
	case project.Saved:
		return exec(`UPDATE project_list SET saved = 1, saved_at = ?, saved_by = ?, saved_by_name = ?, shared = ? WHERE id = ?`,
			e.At.UnixMilli(), e.SavedBy, e.SavedByName, boolInt(e.ShareWithProvider), id)
	case project.SharedByLink:
		return exec(`UPDATE project_list SET share_id = ? WHERE id = ?`, e.ShareID, id)
	case project.SharingStopped:
		return exec(`UPDATE project_list SET share_id = '' WHERE id = ? AND share_id = ?`, id, e.ShareID)
	case project.Deleted:
		return exec(`UPDATE project_list SET deleted_at = ? WHERE id = ?`, e.At.UnixMilli(), id)
	}
	return nil
}

// erase blanks what the list copied of an erased account, as a rebuild
// from the shredded log would: only its owner writes a project, so the
// owner's name and the project's descriptive fields were sealed with the
// owner's key, and a save's saver name with the saver's (docs/privacy.md).
func erase(ctx context.Context, tx *projections.Tx, ev eventstore.Event) error {
	e, err := account.Decode(ev.Type, ev.Schema, ev.Data)
	if err != nil {
		return fmt.Errorf("project_list: %s v%d: %w", ev.Stream, ev.Version, err)
	}
	uid := e.AccountID()
	if err := tx.Exec(ctx, `UPDATE project_list SET owner_name = `+erasedIfSet("owner_name")+`, name = `+erasedIfSet("name")+
		`, location = `+erasedIfSet("location")+`, reference = `+erasedIfSet("reference")+` WHERE owner = ?`, uid); err != nil {
		return fmt.Errorf("project_list: erase %s: %w", uid, err)
	}
	if err := tx.Exec(ctx, `UPDATE project_list SET saved_by_name = `+erasedIfSet("saved_by_name")+` WHERE saved_by = ?`, uid); err != nil {
		return fmt.Errorf("project_list: erase %s: %w", uid, err)
	}
	return nil
}

func erasedIfSet(col string) string {
	return `CASE WHEN ` + col + ` = '' THEN '' ELSE '` + privacy.Erased + `' END`
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Item is one project in a list. JSON names follow the spec's project list
// item; the staff and shared lists add their columns.
type Item struct {
	ID        string     `json:"id"`
	SupportID int64      `json:"support_id"`
	Name      string     `json:"name"`
	Location  string     `json:"location"`
	Reference string     `json:"reference"`
	Date      string     `json:"date"`
	Country   string     `json:"country"`
	Owner     string     `json:"owner"`
	CreatedBy string     `json:"created_by"`
	CreatedAt time.Time  `json:"created_at"`
	SavedAt   *time.Time `json:"last_saved,omitempty"`
	SavedBy   string     `json:"saved_by"`
	IsEmpty   bool       `json:"is_empty"`
	Shared    bool       `json:"shared_with_provider"`
	ShareID   string     `json:"-"`
	DeletedAt *time.Time `json:"deleted_at,omitempty"`
}

const columns = `id, support_id, name, location, reference, date, country, owner, owner_name, created_at,
	saved_at, saved_by_name, runs, shared, share_id, deleted_at`

func scan(rows interface{ Scan(...any) error }) (Item, error) {
	var it Item
	var created, savedAt, deletedAt int64
	var runs, shared int
	err := rows.Scan(&it.ID, &it.SupportID, &it.Name, &it.Location, &it.Reference, &it.Date, &it.Country,
		&it.Owner, &it.CreatedBy, &created, &savedAt, &it.SavedBy, &runs, &shared, &it.ShareID, &deletedAt)
	if err != nil {
		return it, err
	}
	it.CreatedAt = time.UnixMilli(created).UTC()
	it.IsEmpty, it.Shared = runs == 0, shared == 1
	it.SavedAt, it.DeletedAt = timeOrNil(savedAt), timeOrNil(deletedAt)
	return it, nil
}

func timeOrNil(ms int64) *time.Time {
	if ms == 0 {
		return nil
	}
	t := time.UnixMilli(ms).UTC()
	return &t
}

func query(ctx context.Context, db *projections.DB, where string, args ...any) ([]Item, error) {
	rows, err := db.Query(ctx, `SELECT `+columns+` FROM project_list WHERE `+where+` ORDER BY created_at DESC, id`, args...)
	if err != nil {
		return nil, fmt.Errorf("project list: %w", err)
	}
	defer rows.Close()
	out := []Item{}
	for rows.Next() {
		it, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("project list: %w", err)
		}
		out = append(out, it)
	}
	return out, rows.Err()
}

// Owned lists a user's saved, undeleted projects, newest first.
func Owned(ctx context.Context, db *projections.DB, owner string) ([]Item, error) {
	return query(ctx, db, `owner = ? AND saved = 1 AND deleted_at = 0`, owner)
}

// SharedWithProvider lists the projects shared with the provider, optionally
// of one creator only.
func SharedWithProvider(ctx context.Context, db *projections.DB, creator string) ([]Item, error) {
	if creator != "" {
		return query(ctx, db, `shared = 1 AND deleted_at = 0 AND owner = ?`, creator)
	}
	return query(ctx, db, `shared = 1 AND deleted_at = 0`)
}

// AllOf lists every project of a user, deleted ones included, for staff.
func AllOf(ctx context.Context, db *projections.DB, owner string) ([]Item, error) {
	return query(ctx, db, `owner = ?`, owner)
}

// ByShareID finds the project a share link points to.
func ByShareID(ctx context.Context, db *projections.DB, shareID string) (string, bool, error) {
	return one(ctx, db, `share_id = ? AND share_id <> '' AND deleted_at = 0`, shareID)
}

// BySupportID finds a project by its support number.
func BySupportID(ctx context.Context, db *projections.DB, supportID int64) (string, bool, error) {
	return one(ctx, db, `support_id = ?`, supportID)
}

func one(ctx context.Context, db *projections.DB, where string, arg any) (string, bool, error) {
	items, err := query(ctx, db, where, arg)
	if err != nil || len(items) == 0 {
		return "", false, err
	}
	return items[0].ID, true, nil
}

// Counts is how many projects each owner has (live and deleted).
func Counts(ctx context.Context, db *projections.DB) (map[string][2]int, error) {
	rows, err := db.Query(ctx, `SELECT owner, SUM(CASE WHEN deleted_at = 0 THEN 1 ELSE 0 END), SUM(CASE WHEN deleted_at = 0 THEN 0 ELSE 1 END)
		FROM project_list WHERE saved = 1 GROUP BY owner`)
	if err != nil {
		return nil, fmt.Errorf("project counts: %w", err)
	}
	defer rows.Close()
	out := map[string][2]int{}
	for rows.Next() {
		var owner string
		var live, deleted int
		if err := rows.Scan(&owner, &live, &deleted); err != nil {
			return nil, fmt.Errorf("project counts: %w", err)
		}
		out[owner] = [2]int{live, deleted}
	}
	return out, rows.Err()
}

// CountsOf is how many saved projects each of owners has (live and
// deleted); owners with none are absent.
func CountsOf(ctx context.Context, db *projections.DB, owners []string) (map[string][2]int, error) {
	out := map[string][2]int{}
	if len(owners) == 0 {
		return out, nil
	}
	args := make([]any, len(owners))
	for i, o := range owners {
		args[i] = o
	}
	rows, err := db.Query(ctx, `SELECT owner, SUM(CASE WHEN deleted_at = 0 THEN 1 ELSE 0 END), SUM(CASE WHEN deleted_at = 0 THEN 0 ELSE 1 END)
		FROM project_list WHERE saved = 1 AND owner IN (?`+strings.Repeat(", ?", len(owners)-1)+`) GROUP BY owner`, args...)
	if err != nil {
		return nil, fmt.Errorf("project counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var owner string
		var live, deleted int
		if err := rows.Scan(&owner, &live, &deleted); err != nil {
			return nil, fmt.Errorf("project counts: %w", err)
		}
		out[owner] = [2]int{live, deleted}
	}
	return out, rows.Err()
}

// CountSaved is the number of saved projects not deleted.
func CountSaved(ctx context.Context, db *projections.DB) (int, error) {
	var n int
	if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM project_list WHERE saved = 1 AND deleted_at = 0`).Scan(&n); err != nil {
		return 0, fmt.Errorf("project count: %w", err)
	}
	return n, nil
}
