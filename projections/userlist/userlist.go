// Package userlist is the staff user list: every account with the columns
// the staff administration table shows. Project counts come from the
// project list read model at query time.
package userlist

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"draindesign/domain/account"
	"draindesign/eventstore"
	"draindesign/projections"
	"draindesign/projections/projectlist"
)

// Projection fills the user_list table.
type Projection struct{}

func (Projection) Name() string     { return "user_list" }
func (Projection) Tables() []string { return []string{"user_list"} }

func (Projection) Schema() []string {
	return []string{`CREATE TABLE IF NOT EXISTS user_list (
		id         TEXT PRIMARY KEY,
		username   TEXT NOT NULL,
		full_name  TEXT NOT NULL,
		email      TEXT NOT NULL,
		company    TEXT NOT NULL,
		country    TEXT NOT NULL,
		user_group TEXT NOT NULL,
		confirmed  INTEGER NOT NULL DEFAULT 0,
		blocked    INTEGER NOT NULL DEFAULT 0,
		deleted    INTEGER NOT NULL DEFAULT 0,
		registered BIGINT NOT NULL
	)`}
}

func (Projection) Apply(ctx context.Context, tx *projections.Tx, ev eventstore.Event) error {
	if !strings.HasPrefix(ev.Stream, "account-") {
		return nil
	}
	e, err := account.Decode(ev.Type, ev.Schema, ev.Data)
	if errors.Is(err, account.ErrUnknownEventType) {
		projections.SkipUnknown(Projection{}.Name(), ev.Type)
		return nil
	}
	if err != nil {
		return fmt.Errorf("user_list: %s v%d: %w", ev.Stream, ev.Version, err)
	}
	set := func(q string, args ...any) error {
		if _, err := tx.Exec(ctx, `UPDATE user_list SET `+q+` WHERE id = ?`, append(args, e.AccountID())...); err != nil {
			return fmt.Errorf("user_list: %s of %s: %w", ev.Type, e.AccountID(), err)
		}
		return nil
	}
	switch e := e.(type) {
	case account.Registered:
		_, err := tx.Exec(ctx, `INSERT INTO user_list (id, username, full_name, email, company, country, user_group, registered)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, e.UserID, e.Username, strings.TrimSpace(e.FirstName+" "+e.LastName),
			e.Email, e.Company, e.Country, string(e.Group), e.At.UnixMilli())
		if err != nil {
			return fmt.Errorf("user_list: register %s: %w", e.UserID, err)
		}
	case account.EmailConfirmed:
		return set(`confirmed = 1`)
	case account.SettingsChanged:
		if e.Company != nil {
			return set(`company = ?`, *e.Company)
		}
	case account.CountryChanged:
		return set(`country = ?`, e.Country)
	case account.Blocked:
		return set(`blocked = 1`)
	case account.Unblocked:
		return set(`blocked = 0`)
	case account.GroupChanged:
		return set(`user_group = ?`, string(e.To))
	case account.Deleted:
		return set(`deleted = 1`)
	}
	return nil
}

// User is one row of the staff user list.
type User struct {
	ID              string `json:"id"`
	Username        string `json:"username"`
	FullName        string `json:"full_name"`
	Email           string `json:"email"`
	Company         string `json:"company"`
	Country         string `json:"country"`
	Group           string `json:"group"`
	Confirmed       bool   `json:"confirmed"`
	Blocked         bool   `json:"blocked"`
	Projects        int    `json:"projects"`
	DeletedProjects int    `json:"deleted_projects"`
}

// Filter narrows the staff list.
type Filter struct {
	Search      string // matched against username, name, e-mail and company
	HideBlocked bool
}

// List returns the live (not deleted) accounts, by username.
func List(ctx context.Context, db *projections.DB, f Filter) ([]User, error) {
	q := `SELECT id, username, full_name, email, company, country, user_group, confirmed, blocked FROM user_list WHERE deleted = 0`
	var args []any
	if s := strings.TrimSpace(f.Search); s != "" {
		q += ` AND (LOWER(username) LIKE ? OR LOWER(full_name) LIKE ? OR LOWER(email) LIKE ? OR LOWER(company) LIKE ?)`
		like := "%" + strings.ToLower(s) + "%"
		args = append(args, like, like, like, like)
	}
	if f.HideBlocked {
		q += ` AND blocked = 0`
	}
	rows, err := db.Query(ctx, q+` ORDER BY LOWER(username)`, args...)
	if err != nil {
		return nil, fmt.Errorf("user list: %w", err)
	}
	defer rows.Close()
	out := []User{}
	for rows.Next() {
		var u User
		var confirmed, blocked int
		if err := rows.Scan(&u.ID, &u.Username, &u.FullName, &u.Email, &u.Company, &u.Country, &u.Group, &confirmed, &blocked); err != nil {
			return nil, fmt.Errorf("user list: %w", err)
		}
		u.Confirmed, u.Blocked = confirmed == 1, blocked == 1
		out = append(out, u)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("user list: %w", err)
	}
	counts, err := projectlist.Counts(ctx, db)
	if err != nil {
		return nil, err
	}
	for i := range out {
		c := counts[out[i].ID]
		out[i].Projects, out[i].DeletedProjects = c[0], c[1]
	}
	return out, nil
}
