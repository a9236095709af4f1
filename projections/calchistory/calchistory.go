// Package calchistory is the staff calculation history: one row per
// calculation of a project's run, with its key inputs and outcome.
package calchistory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/projections"
)

// Projection fills calc_history, and calc_run_names to name the runs.
type Projection struct{}

func (Projection) Name() string { return "calc_history" }

// Follows: only project streams change this read model.
func (Projection) Follows(stream string) bool { return strings.HasPrefix(stream, project.StreamPrefix) }

// RefreshedOnRead: only staff read it, and refresh it first, so writers do not wait for it.
func (Projection) RefreshedOnRead() {}
func (Projection) Tables() []string { return []string{"calc_history", "calc_run_names"} }

func (Projection) Schema() []string {
	return []string{`CREATE TABLE IF NOT EXISTS calc_history (
		event_id   TEXT PRIMARY KEY,
		at         BIGINT NOT NULL,
		author     TEXT NOT NULL,
		project_id TEXT NOT NULL,
		run_id     TEXT NOT NULL,
		run_name   TEXT NOT NULL,
		system     TEXT NOT NULL,
		method     TEXT NOT NULL,
		length_m   TEXT NOT NULL,
		area_m2    TEXT NOT NULL,
		rainfall   TEXT NOT NULL,
		slope      TEXT NOT NULL,
		outcome    TEXT NOT NULL,
		message    TEXT NOT NULL
	)`,
		`CREATE INDEX IF NOT EXISTS calc_history_at ON calc_history (at)`,
		`CREATE TABLE IF NOT EXISTS calc_run_names (run_id TEXT PRIMARY KEY, name TEXT NOT NULL)`,
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
		return fmt.Errorf("calc_history: %s v%d: %w", ev.Stream, ev.Version, err)
	}
	switch e := e.(type) {
	case project.RunAdded:
		return name(ctx, tx, e.RunID, e.Name)
	case project.RunDuplicated:
		return name(ctx, tx, e.RunID, e.Name)
	case project.RunRenamed:
		return name(ctx, tx, e.RunID, e.Name)
	case project.RunRestored:
		return name(ctx, tx, e.RunID, e.Name)
	case project.RunCalculated:
		return record(ctx, tx, ev, e.RunID, e.Inputs, outcome(e.Summary), "")
	case project.CalculationFailed:
		return record(ctx, tx, ev, e.RunID, e.Inputs, "failed", e.Error)
	case project.DocumentCreated:
		// Staff see what left the tool beside what was calculated.
		return record(ctx, tx, ev, "", project.Inputs{}, "document", fmt.Sprintf("%s %s (%s)", e.Format, e.Kind, e.Language))
	}
	return nil
}

func name(ctx context.Context, tx *projections.Tx, runID, name string) error {
	err := tx.Exec(ctx, `INSERT INTO calc_run_names (run_id, name) VALUES (?, ?)
		ON CONFLICT (run_id) DO UPDATE SET name = excluded.name`, runID, name)
	if err != nil {
		return fmt.Errorf("calc_history: name run %s: %w", runID, err)
	}
	return nil
}

func outcome(s project.Summary) string {
	var overflowed bool
	if raw, ok := s["overflowed"]; ok && json.Unmarshal(raw, &overflowed) == nil && overflowed {
		return "flooded"
	}
	return "ok"
}

func record(ctx context.Context, tx *projections.Tx, ev eventstore.Event, runID string, in project.Inputs, outcome, msg string) error {
	system := text(in, "channel_group")
	if system == "" {
		var sys struct {
			Slug string `json:"slug"`
		}
		_ = json.Unmarshal(in["selectedSystem"], &sys)
		system = sys.Slug
	}
	method := text(in, "calculation_method")
	if method == "" {
		method = "GVF"
	}
	var rain struct {
		MMPerHr json.Number `json:"rainfall_mm_per_hr"`
	}
	_ = json.Unmarshal(in["rainfall"], &rain)
	// The run's name is looked up by the INSERT itself: a write with no
	// read keeps the read-model transaction one pipeline (projections.Tx).
	err := tx.Exec(ctx, `INSERT INTO calc_history (event_id, at, author, project_id, run_id, run_name, system, method,
		length_m, area_m2, rainfall, slope, outcome, message) VALUES (?, ?, ?, ?, ?,
		COALESCE((SELECT name FROM calc_run_names WHERE run_id = ?), ''), ?, ?, ?, ?, ?, ?, ?, ?)`,
		ev.ID, ev.Metadata.Time.UnixMilli(), ev.Metadata.Author, strings.TrimPrefix(ev.Stream, project.StreamPrefix),
		runID, runID, system, method, text(in, "channel_length_m"), text(in, "drainage_area_m2"),
		rain.MMPerHr.String(), text(in, "ground_slope"), outcome, msg)
	if err != nil {
		return fmt.Errorf("calc_history: record %s: %w", ev.ID, err)
	}
	return nil
}

// text renders an input as plain text: strings unquoted, numbers as written.
func text(in project.Inputs, key string) string {
	raw, ok := in[key]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// Row is one calculation in the history.
type Row struct {
	ID          string    `json:"id"`
	At          time.Time `json:"time"`
	UserID      string    `json:"user_id"`
	Username    string    `json:"user"`
	ProjectID   string    `json:"project_id"`
	ProjectName string    `json:"project"`
	RunID       string    `json:"run_id"`
	RunName     string    `json:"run"`
	System      string    `json:"system"`
	Method      string    `json:"method"`
	LengthM     string    `json:"channel_length_m"`
	AreaM2      string    `json:"drainage_area_m2"`
	Rainfall    string    `json:"rainfall_mm_per_hr"`
	Slope       string    `json:"ground_slope"`
	Outcome     string    `json:"outcome"`
	Message     string    `json:"message,omitempty"`
}

// List returns the newest calculations first, at most limit of them,
// optionally of one user only.
func List(ctx context.Context, db *projections.DB, userID string, limit int) ([]Row, error) {
	q := `SELECT h.event_id, h.at, h.author, COALESCE(u.username, ''), h.project_id, COALESCE(p.name, ''), h.run_id, h.run_name,
		h.system, h.method, h.length_m, h.area_m2, h.rainfall, h.slope, h.outcome, h.message
		FROM calc_history h LEFT JOIN user_list u ON u.id = h.author LEFT JOIN project_list p ON p.id = h.project_id`
	var args []any
	if userID != "" {
		q += ` WHERE h.author = ?`
		args = append(args, userID)
	}
	rows, err := db.Query(ctx, q+` ORDER BY h.at DESC, h.event_id DESC LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("calculation history: %w", err)
	}
	defer rows.Close()
	out := []Row{}
	for rows.Next() {
		var r Row
		var at int64
		if err := rows.Scan(&r.ID, &at, &r.UserID, &r.Username, &r.ProjectID, &r.ProjectName, &r.RunID, &r.RunName,
			&r.System, &r.Method, &r.LengthM, &r.AreaM2, &r.Rainfall, &r.Slope, &r.Outcome, &r.Message); err != nil {
			return nil, fmt.Errorf("calculation history: %w", err)
		}
		r.At = time.UnixMilli(at).UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}
