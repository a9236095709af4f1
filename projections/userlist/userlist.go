// Package userlist is the staff user list: every account with the columns
// the staff administration table shows. Project counts come from the
// project list read model at query time.
package userlist

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"draindesign/domain/account"
	"draindesign/eventstore"
	"draindesign/eventstore/privacy"
	"draindesign/projections"
	"draindesign/projections/projectlist"
)

// Projection fills the user_list table.
type Projection struct{}

func (Projection) Name() string { return "user_list" }

// Follows: only account streams change this read model.
func (Projection) Follows(stream string) bool { return strings.HasPrefix(stream, "account-") }

// Reads: the account events (projections.Selecting); the log's other
// events are read without their data.
func (Projection) Reads() []string  { return account.EventTypes() }
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
		if err := tx.Exec(ctx, `UPDATE user_list SET `+q+` WHERE id = ?`, append(args, e.AccountID())...); err != nil {
			return fmt.Errorf("user_list: %s of %s: %w", ev.Type, e.AccountID(), err)
		}
		return nil
	}
	switch e := e.(type) {
	case account.Registered:
		err := tx.Exec(ctx, `INSERT INTO user_list (id, username, full_name, email, company, country, user_group, registered)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, e.UserID, e.Username, fullName(e.FirstName, e.LastName),
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
	case account.Erased:
		// What a rebuild reads from the shredded log: every personal field
		// that held something says "erased" (docs/privacy.md).
		return set(`username = ` + erasedIfSet("username") + `, full_name = ` + erasedIfSet("full_name") +
			`, email = ` + erasedIfSet("email") + `, company = ` + erasedIfSet("company"))
	}
	return nil
}

// fullName is first and last name; an erased account's is just "erased".
func fullName(first, last string) string {
	if first == privacy.Erased && last == privacy.Erased {
		return privacy.Erased
	}
	return strings.TrimSpace(first + " " + last)
}

func erasedIfSet(col string) string {
	return `CASE WHEN ` + col + ` = '' THEN '' ELSE '` + privacy.Erased + `' END`
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

// Page is one page of the staff user list and how many accounts the
// filter matches.
type Page struct {
	Rows  []User `json:"rows"`
	Total int    `json:"total"`
}

// sortColumns are the columns the staff table may sort by.
var sortColumns = map[string]string{
	"username":  "LOWER(username)",
	"full_name": "LOWER(full_name)",
	"company":   "LOWER(company)",
	"country":   "country",
	"group":     "user_group",
	"blocked":   "blocked",
}

// SortColumns lists the column names PageOf sorts by.
func SortColumns() []string {
	return []string{"username", "full_name", "company", "country", "group", "blocked"}
}

// PageOf returns the live accounts the filter matches, sorted by column
// (username when empty; ties by username), limit of them from offset, with
// the project counts of those on the page only.
func PageOf(ctx context.Context, db *projections.DB, f Filter, offset, limit int, column string, desc bool) (Page, error) {
	where := `deleted = 0`
	var args []any
	if s := strings.TrimSpace(f.Search); s != "" {
		where += ` AND (LOWER(username) LIKE ? ESCAPE '\' OR LOWER(full_name) LIKE ? ESCAPE '\' OR LOWER(email) LIKE ? ESCAPE '\' OR LOWER(company) LIKE ? ESCAPE '\')`
		like := "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.ToLower(s)) + "%"
		args = append(args, like, like, like, like)
	}
	if f.HideBlocked {
		where += ` AND blocked = 0`
	}
	var total int
	if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM user_list WHERE `+where, args...).Scan(&total); err != nil {
		return Page{}, fmt.Errorf("user list: count: %w", err)
	}
	order, ok := sortColumns[column]
	if !ok {
		order = sortColumns["username"]
	}
	dir := " ASC"
	if desc {
		dir = " DESC"
	}
	rows, err := db.Query(ctx, `SELECT id, username, full_name, email, company, country, user_group, confirmed, blocked FROM user_list WHERE `+
		where+` ORDER BY `+order+dir+`, LOWER(username), id LIMIT ? OFFSET ?`, append(args, limit, offset)...)
	if err != nil {
		return Page{}, fmt.Errorf("user list: %w", err)
	}
	out, err := scanUsers(rows)
	if err != nil {
		return Page{}, err
	}
	if err := countProjects(ctx, db, out); err != nil {
		return Page{}, err
	}
	return Page{Rows: out, Total: total}, nil
}

// Get finds one account, deleted or not.
func Get(ctx context.Context, db *projections.DB, id string) (User, bool, error) {
	rows, err := db.Query(ctx, `SELECT id, username, full_name, email, company, country, user_group, confirmed, blocked FROM user_list WHERE id = ?`, id)
	if err != nil {
		return User{}, false, fmt.Errorf("user %s: %w", id, err)
	}
	out, err := scanUsers(rows)
	if err != nil || len(out) == 0 {
		return User{}, false, err
	}
	if err := countProjects(ctx, db, out); err != nil {
		return User{}, false, err
	}
	return out[0], true, nil
}

func scanUsers(rows *sql.Rows) ([]User, error) {
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
	return out, nil
}

// countProjects fills in the project counts of users, asking the project
// list for those owners only.
func countProjects(ctx context.Context, db *projections.DB, users []User) error {
	if len(users) == 0 {
		return nil
	}
	ids := make([]string, len(users))
	for i, u := range users {
		ids[i] = u.ID
	}
	counts, err := projectlist.CountsOf(ctx, db, ids)
	if err != nil {
		return err
	}
	for i := range users {
		c := counts[users[i].ID]
		users[i].Projects, users[i].DeletedProjects = c[0], c[1]
	}
	return nil
}

// CountLive is the number of accounts not deleted.
func CountLive(ctx context.Context, db *projections.DB) (int, error) {
	var n int
	if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM user_list WHERE deleted = 0`).Scan(&n); err != nil {
		return 0, fmt.Errorf("user count: %w", err)
	}
	return n, nil
}

// ByCountry counts the accounts not deleted per country.
func ByCountry(ctx context.Context, db *projections.DB) (map[string]int, error) {
	rows, err := db.Query(ctx, `SELECT country, COUNT(*) FROM user_list WHERE deleted = 0 GROUP BY country`)
	if err != nil {
		return nil, fmt.Errorf("users by country: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var c string
		var n int
		if err := rows.Scan(&c, &n); err != nil {
			return nil, fmt.Errorf("users by country: %w", err)
		}
		out[c] = n
	}
	return out, rows.Err()
}
