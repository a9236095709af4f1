// Package calcaudit is the staff calculation history as the staff screen
// audits it: one row per calculation of a project's run (successful or
// failed), with the inputs and outcome staff filter and read, indexed for
// filtering and paging over hundreds of thousands of rows. The older
// calc_history read model (package calchistory) stays as it was: stored
// read models are part of the fixture contract.
//
// The full inputs and results of one calculation are not copied here: the
// row keeps the project stream and version of its event, and the timeline
// read model, which holds every project event, answers for it.
package calcaudit

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/projections"
)

// Outcomes of a calculation, as the history shows and filters them.
const (
	Calculated    = "calculated"
	Flooded       = "flooded"
	SuperCritical = "supercritical"
	Failed        = "failed"
)

// Outcomes lists the outcomes a filter may name.
func Outcomes() []string { return []string{Calculated, Flooded, SuperCritical, Failed} }

// Projection fills calc_audit, and calc_audit_runs to name the runs.
type Projection struct{}

func (Projection) Name() string { return "calc_audit" }

// Follows: only project streams change this read model.
func (Projection) Follows(stream string) bool { return strings.HasPrefix(stream, project.StreamPrefix) }

// RefreshedOnRead: only staff read it, and refresh it first, so writers do not wait for it.
func (Projection) RefreshedOnRead() {}
func (Projection) Tables() []string { return []string{"calc_audit", "calc_audit_runs"} }

func (Projection) Schema() []string {
	return []string{`CREATE TABLE IF NOT EXISTS calc_audit (
		event_id     TEXT PRIMARY KEY,
		at           BIGINT NOT NULL,
		author       TEXT NOT NULL,
		project_id   TEXT NOT NULL,
		version      BIGINT NOT NULL,
		run_id       TEXT NOT NULL,
		run_name     TEXT NOT NULL,
		system       TEXT NOT NULL,
		method       TEXT NOT NULL,
		length_m     TEXT NOT NULL,
		area_m2      TEXT NOT NULL,
		intensity    TEXT NOT NULL,
		discharge    TEXT NOT NULL,
		outcome      TEXT NOT NULL,
		message      TEXT NOT NULL,
		duration_us  BIGINT NOT NULL
	)`,
		// Every filter narrows by one column and pages newest first: each
		// gets an index that ends in the time, so that a page is an index
		// range read, not a sort.
		`CREATE INDEX IF NOT EXISTS calc_audit_at ON calc_audit (at, event_id)`,
		`CREATE INDEX IF NOT EXISTS calc_audit_author ON calc_audit (author, at)`,
		`CREATE INDEX IF NOT EXISTS calc_audit_project ON calc_audit (project_id, at)`,
		`CREATE INDEX IF NOT EXISTS calc_audit_system ON calc_audit (system, at)`,
		`CREATE INDEX IF NOT EXISTS calc_audit_outcome ON calc_audit (outcome, at)`,
		`CREATE TABLE IF NOT EXISTS calc_audit_runs (run_id TEXT PRIMARY KEY, name TEXT NOT NULL)`,
	}
}

func (Projection) Apply(ctx context.Context, tx *projections.Tx, ev eventstore.Event) error {
	if !strings.HasPrefix(ev.Stream, project.StreamPrefix) {
		return nil
	}
	e, err := project.Decode(ev.Type, ev.Schema, ev.Data)
	if errors.Is(err, project.ErrUnknownEventType) {
		projections.SkipUnknown(Projection{}.Name(), ev.Type)
		return nil
	}
	if err != nil {
		return fmt.Errorf("calc_audit: %s v%d: %w", ev.Stream, ev.Version, err)
	}
	switch e := e.(type) {
	case project.RunAdded:
		return nameRun(ctx, tx, e.RunID, e.Name)
	case project.RunDuplicated:
		return nameRun(ctx, tx, e.RunID, e.Name)
	case project.RunRenamed:
		return nameRun(ctx, tx, e.RunID, e.Name)
	case project.RunCalculated:
		return record(ctx, tx, ev, e.RunID, e.Inputs, e.Summary, outcomeOf(e.Summary), "", e.DurationMS)
	case project.CalculationFailed:
		return record(ctx, tx, ev, e.RunID, e.Inputs, nil, Failed, e.Error, e.DurationMS)
	}
	return nil
}

func nameRun(ctx context.Context, tx *projections.Tx, runID, name string) error {
	err := tx.Exec(ctx, `INSERT INTO calc_audit_runs (run_id, name) VALUES (?, ?)
		ON CONFLICT (run_id) DO UPDATE SET name = excluded.name`, runID, name)
	if err != nil {
		return fmt.Errorf("calc_audit: name run %s: %w", runID, err)
	}
	return nil
}

// outcomeOf names a successful calculation's result: flooding outweighs
// super-critical flow, which outweighs a plain result.
func outcomeOf(s project.Summary) string {
	switch {
	case flag(s, "overflowed"):
		return Flooded
	case flag(s, "went_super_critical"):
		return SuperCritical
	}
	return Calculated
}

func flag(s project.Summary, key string) bool {
	var b bool
	return json.Unmarshal(s[key], &b) == nil && b
}

func record(ctx context.Context, tx *projections.Tx, ev eventstore.Event, runID string, in project.Inputs, sum project.Summary,
	outcome, msg string, durationMS float64) error {
	// The run's name is looked up by the INSERT itself: a write with no
	// read keeps the read-model transaction one pipeline (projections.Tx).
	err := tx.Exec(ctx, `INSERT INTO calc_audit (event_id, at, author, project_id, version, run_id, run_name, system, method,
		length_m, area_m2, intensity, discharge, outcome, message, duration_us) VALUES (?, ?, ?, ?, ?, ?,
		COALESCE((SELECT name FROM calc_audit_runs WHERE run_id = ?), ''), ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		ev.ID, ev.Metadata.Time.UnixMilli(), ev.Metadata.Author, strings.TrimPrefix(ev.Stream, project.StreamPrefix), ev.Version,
		runID, runID, System(in), Method(in), number(in["channel_length_m"]), number(in["drainage_area_m2"]),
		Intensity(in), Discharge(sum), outcome, msg, int64(math.Round(durationMS*1000)))
	if err != nil {
		return fmt.Errorf("calc_audit: record %s: %w", ev.ID, err)
	}
	return nil
}

// System is the run's system slug: the channel group, or the selected
// system of an older client.
func System(in project.Inputs) string {
	if s := text(in["channel_group"]); s != "" {
		return s
	}
	var sys struct {
		Slug string `json:"slug"`
	}
	_ = json.Unmarshal(in["selectedSystem"], &sys)
	return sys.Slug
}

// Method is the calculation method, GVF when the run names none (the
// engine's default).
func Method(in project.Inputs) string {
	if m := text(in["calculation_method"]); m != "" {
		return m
	}
	return "GVF"
}

// Intensity is the design rainfall intensity in mm/h, as entered.
func Intensity(in project.Inputs) string {
	var rain struct {
		MMPerHr json.RawMessage `json:"rainfall_mm_per_hr"`
	}
	_ = json.Unmarshal(in["rainfall"], &rain)
	return number(rain.MMPerHr)
}

// Discharge is the design flow the run carries to its outlet (l/s), three
// decimals; "" for a failed calculation.
func Discharge(sum project.Summary) string {
	for _, key := range []string{"flow", "channel_discharge"} {
		var f float64
		if json.Unmarshal(sum[key], &f) == nil && f > 0 {
			return strconv.FormatFloat(math.Round(f*1000)/1000, 'f', -1, 64)
		}
	}
	return ""
}

func text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}

// number renders a JSON number as written, or a numeric string; anything
// else is "".
func number(raw json.RawMessage) string {
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	if s := text(raw); s != "" {
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return s
		}
	}
	return ""
}

// Row is one calculation in the history.
type Row struct {
	ID          string    `json:"id"`
	At          time.Time `json:"time"`
	UserID      string    `json:"user_id"`
	Username    string    `json:"user"`
	ProjectID   string    `json:"project_id"`
	ProjectName string    `json:"project"`
	Version     int64     `json:"version"`
	RunID       string    `json:"run_id"`
	RunName     string    `json:"run"`
	System      string    `json:"system"`
	Method      string    `json:"method"`
	LengthM     string    `json:"length_m"`
	AreaM2      string    `json:"area_m2"`
	Intensity   string    `json:"intensity_mm_h"`
	Discharge   string    `json:"discharge_l_s"`
	Outcome     string    `json:"outcome"`
	Message     string    `json:"message"`
	// DurationMS is null when the calculation's time was not recorded.
	DurationMS *float64 `json:"duration_ms"`
}

// Filter narrows the history. Empty fields do not filter.
type Filter struct {
	// User is a user id or a username (case-insensitive, whole).
	User string
	// Project is a project id, or part of a project's name.
	Project string
	System  string
	Outcome string
	// From and To bound the time, From included, To excluded.
	From, To time.Time
}

// Page is one page of the history and how many rows the filter matches.
type Page struct {
	Rows  []Row `json:"rows"`
	Total int   `json:"total"`
}

// where builds the filter's condition on calc_audit h. A user given by
// name is looked up in the user list first, and a project by name in the
// project list, so that the history itself is read through its indexes.
func (f Filter) where(ctx context.Context, db *projections.DB) (string, []any, error) {
	conds := []string{"1 = 1"}
	var args []any
	if u := strings.TrimSpace(f.User); u != "" {
		ids, err := userIDs(ctx, db, u)
		if err != nil {
			return "", nil, err
		}
		if len(ids) == 0 {
			// Nobody of that name: the author may still be an id the user
			// list does not know.
			ids = []any{u}
		}
		conds = append(conds, `h.author IN (?`+strings.Repeat(", ?", len(ids)-1)+`)`)
		args = append(args, ids...)
	}
	if p := strings.TrimSpace(f.Project); p != "" {
		conds = append(conds, `h.project_id IN (SELECT ? UNION SELECT id FROM project_list WHERE LOWER(name) LIKE ? ESCAPE '\')`)
		args = append(args, p, "%"+likeEscape(strings.ToLower(p))+"%")
	}
	if s := strings.TrimSpace(f.System); s != "" {
		conds = append(conds, `h.system = ?`)
		args = append(args, s)
	}
	if o := strings.TrimSpace(f.Outcome); o != "" {
		conds = append(conds, `h.outcome = ?`)
		args = append(args, o)
	}
	if !f.From.IsZero() {
		conds = append(conds, `h.at >= ?`)
		args = append(args, f.From.UnixMilli())
	}
	if !f.To.IsZero() {
		conds = append(conds, `h.at < ?`)
		args = append(args, f.To.UnixMilli())
	}
	return strings.Join(conds, " AND "), args, nil
}

// userIDs finds the accounts a user filter names: by id, or by username
// in any case.
func userIDs(ctx context.Context, db *projections.DB, user string) ([]any, error) {
	rows, err := db.Query(ctx, `SELECT id FROM user_list WHERE id = ? OR LOWER(username) = ?`, user, strings.ToLower(user))
	if err != nil {
		return nil, fmt.Errorf("calculation history: user %q: %w", user, err)
	}
	defer rows.Close()
	var out []any
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("calculation history: user %q: %w", user, err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// likeEscape makes s match itself inside a LIKE pattern with ESCAPE '\'.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// selectRows reads the rows of a page of calc_audit (the inner query, with
// its own WHERE, ORDER BY and LIMIT): the names are joined to that page
// only, not to the rows an offset skips.
const selectRows = `SELECT h.event_id, h.at, h.author, COALESCE(u.username, ''), h.project_id, COALESCE(p.name, ''), h.version,
	h.run_id, h.run_name, h.system, h.method, h.length_m, h.area_m2, h.intensity, h.discharge, h.outcome, h.message, h.duration_us
	FROM (%s) h LEFT JOIN user_list u ON u.id = h.author LEFT JOIN project_list p ON p.id = h.project_id`

func pageQuery(where, order, limit string) string {
	return fmt.Sprintf(selectRows, `SELECT * FROM calc_audit h WHERE `+where+order+limit) + order
}

// List returns the page of the filter's rows starting at offset, newest
// first (oldest first with ascending), with the number of rows matched.
func List(ctx context.Context, db *projections.DB, f Filter, offset, limit int, ascending bool) (Page, error) {
	where, args, err := f.where(ctx, db)
	if err != nil {
		return Page{}, err
	}
	var total int
	if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM calc_audit h WHERE `+where, args...).Scan(&total); err != nil {
		return Page{}, fmt.Errorf("calculation history: count: %w", err)
	}
	order := ` ORDER BY h.at DESC, h.event_id DESC`
	if ascending {
		order = ` ORDER BY h.at, h.event_id`
	}
	rows := []Row{}
	err = each(ctx, db, pageQuery(where, order, ` LIMIT ? OFFSET ?`), append(args, limit, offset), func(r Row) error {
		rows = append(rows, r)
		return nil
	})
	return Page{Rows: rows, Total: total}, err
}

// Each calls fn with every row the filter matches, newest first, at most
// max of them: the CSV export streams through it.
func Each(ctx context.Context, db *projections.DB, f Filter, max int, fn func(Row) error) error {
	where, args, err := f.where(ctx, db)
	if err != nil {
		return err
	}
	return each(ctx, db, pageQuery(where, ` ORDER BY h.at DESC, h.event_id DESC`, ` LIMIT ?`), append(args, max), fn)
}

// One finds a calculation by its event id.
func One(ctx context.Context, db *projections.DB, id string) (Row, bool, error) {
	var out Row
	found := false
	err := each(ctx, db, pageQuery(`h.event_id = ?`, "", ""), []any{id}, func(r Row) error {
		out, found = r, true
		return nil
	})
	return out, found, err
}

func each(ctx context.Context, db *projections.DB, q string, args []any, fn func(Row) error) error {
	rows, err := db.Query(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("calculation history: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r Row
		var at, us int64
		if err := rows.Scan(&r.ID, &at, &r.UserID, &r.Username, &r.ProjectID, &r.ProjectName, &r.Version, &r.RunID, &r.RunName,
			&r.System, &r.Method, &r.LengthM, &r.AreaM2, &r.Intensity, &r.Discharge, &r.Outcome, &r.Message, &us); err != nil {
			return fmt.Errorf("calculation history: %w", err)
		}
		r.At = time.UnixMilli(at).UTC()
		if us > 0 {
			ms := float64(us) / 1000
			r.DurationMS = &ms
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("calculation history: %w", err)
	}
	return nil
}

// Counts are the history's totals since a moment, for the staff home.
type Counts struct {
	Calculations int `json:"calculations"`
	Failures     int `json:"failures"`
}

// CountSince counts the calculations and the failed ones from since on.
func CountSince(ctx context.Context, db *projections.DB, since time.Time) (Counts, error) {
	var c Counts
	err := db.QueryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN outcome = ? THEN 1 ELSE 0 END), 0) FROM calc_audit WHERE at >= ?`,
		Failed, since.UnixMilli()).Scan(&c.Calculations, &c.Failures)
	if err != nil {
		return c, fmt.Errorf("calculation counts: %w", err)
	}
	return c, nil
}

// Systems lists the systems that appear in the history, for the filter.
func Systems(ctx context.Context, db *projections.DB) ([]string, error) {
	rows, err := db.Query(ctx, `SELECT DISTINCT system FROM calc_audit WHERE system <> '' ORDER BY system`)
	if err != nil {
		return nil, fmt.Errorf("calculation systems: %w", err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("calculation systems: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// Detail is one calculation exactly as it was made: the run's inputs and
// the results (or the failure's message), as its event recorded them.
type Detail struct {
	Row
	Inputs  project.Inputs  `json:"inputs"`
	Results project.Summary `json:"results"`
	Error   string          `json:"error,omitempty"`
}

// DetailOf finds a calculation and reads its event from the timeline read
// model by project stream and version (its primary key).
func DetailOf(ctx context.Context, db *projections.DB, id string) (Detail, bool, error) {
	row, ok, err := One(ctx, db, id)
	if err != nil || !ok {
		return Detail{}, ok, err
	}
	var data string
	err = db.QueryRow(ctx, `SELECT data FROM timeline WHERE stream = ? AND version = ?`,
		project.StreamPrefix+row.ProjectID, row.Version).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return Detail{}, false, nil
	}
	if err != nil {
		return Detail{}, false, fmt.Errorf("calculation %s: %w", id, err)
	}
	// The timeline keeps each event in its type's current shape.
	var ev struct {
		Inputs  project.Inputs  `json:"inputs"`
		Summary project.Summary `json:"summary"`
		Error   string          `json:"error"`
	}
	if err := json.Unmarshal([]byte(data), &ev); err != nil {
		return Detail{}, false, fmt.Errorf("calculation %s: %w", id, err)
	}
	return Detail{Row: row, Inputs: ev.Inputs, Results: ev.Summary, Error: ev.Error}, true, nil
}
