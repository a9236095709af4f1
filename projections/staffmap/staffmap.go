// Package staffmap is the read model behind the staff map: each project's
// country and whether it was ever calculated, and for the runs whose
// rainfall came from the UK rainfall map, the place it was taken at.
// Users by country come from the user list.
package staffmap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/projections"
)

// Projection fills map_projects and map_places.
type Projection struct{}

func (Projection) Name() string { return "staff_map" }

// Follows: only project streams change this read model.
func (Projection) Follows(stream string) bool { return strings.HasPrefix(stream, project.StreamPrefix) }

// RefreshedOnRead: only staff read it, and refresh it first, so writers do not wait for it.
func (Projection) RefreshedOnRead() {}
func (Projection) Tables() []string { return []string{"map_projects", "map_places"} }

func (Projection) Schema() []string {
	return []string{`CREATE TABLE IF NOT EXISTS map_projects (
		project_id TEXT PRIMARY KEY,
		country    TEXT NOT NULL,
		calculated INTEGER NOT NULL DEFAULT 0,
		deleted    INTEGER NOT NULL DEFAULT 0
	)`,
		// The place of a run's rainfall, in hundredths of a degree: a
		// kilometre or so, as much as the map needs.
		`CREATE TABLE IF NOT EXISTS map_places (
		project_id TEXT NOT NULL,
		run_id     TEXT NOT NULL,
		lat_e2     BIGINT NOT NULL,
		lng_e2     BIGINT NOT NULL,
		town       TEXT NOT NULL,
		PRIMARY KEY (project_id, run_id)
	)`,
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
		return fmt.Errorf("staff_map: %s v%d: %w", ev.Stream, ev.Version, err)
	}
	id := strings.TrimPrefix(ev.Stream, project.StreamPrefix)
	exec := func(q string, args ...any) error {
		if err := tx.Exec(ctx, q, args...); err != nil {
			return fmt.Errorf("staff_map: %s of %s: %w", ev.Type, id, err)
		}
		return nil
	}
	switch e := e.(type) {
	case project.Created:
		return exec(`INSERT INTO map_projects (project_id, country) VALUES (?, ?)`, id, e.Country)
	case project.RunCalculated:
		if err := exec(`UPDATE map_projects SET calculated = 1 WHERE project_id = ?`, id); err != nil {
			return err
		}
		lat, lng, town, ok := Place(e.Inputs)
		if !ok {
			return exec(`DELETE FROM map_places WHERE project_id = ? AND run_id = ?`, id, e.RunID)
		}
		return exec(`INSERT INTO map_places (project_id, run_id, lat_e2, lng_e2, town) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (project_id, run_id) DO UPDATE SET lat_e2 = excluded.lat_e2, lng_e2 = excluded.lng_e2, town = excluded.town`,
			id, e.RunID, lat, lng, town)
	case project.RunRemoved:
		return exec(`DELETE FROM map_places WHERE project_id = ? AND run_id = ?`, id, e.RunID)
	case project.Deleted:
		return exec(`UPDATE map_projects SET deleted = 1 WHERE project_id = ?`, id)
	}
	return nil
}

// Place is where a run's rainfall was taken on the UK rainfall map, in
// hundredths of a degree, with the town the map named; ok is false for a
// rainfall entered by hand.
func Place(in project.Inputs) (latE2, lngE2 int64, town string, ok bool) {
	var rain struct {
		LatLng *struct {
			Lat *float64 `json:"lat"`
			Lng *float64 `json:"lng"`
		} `json:"latlng"`
		Town string `json:"town"`
	}
	if json.Unmarshal(in["rainfall"], &rain) != nil || rain.LatLng == nil || rain.LatLng.Lat == nil || rain.LatLng.Lng == nil {
		return 0, 0, "", false
	}
	lat, lng := *rain.LatLng.Lat, *rain.LatLng.Lng
	if math.IsNaN(lat) || math.IsNaN(lng) || math.Abs(lat) > 90 || math.Abs(lng) > 180 {
		return 0, 0, "", false
	}
	return int64(math.Round(lat * 100)), int64(math.Round(lng * 100)), rain.Town, true
}

// CalculatedByCountry counts the calculated projects not deleted, by the
// country they were designed for.
func CalculatedByCountry(ctx context.Context, db *projections.DB) (map[string]int, error) {
	rows, err := db.Query(ctx, `SELECT country, COUNT(*) FROM map_projects WHERE calculated = 1 AND deleted = 0 GROUP BY country`)
	if err != nil {
		return nil, fmt.Errorf("projects by country: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var c string
		var n int
		if err := rows.Scan(&c, &n); err != nil {
			return nil, fmt.Errorf("projects by country: %w", err)
		}
		out[c] = n
	}
	return out, rows.Err()
}

// PlaceCount is one spot on the UK map: the runs calculated with rainfall
// from within a tenth of a degree, their projects, and a town they named.
type PlaceCount struct {
	Lat      float64 `json:"lat"`
	Lng      float64 `json:"lng"`
	Town     string  `json:"town"`
	Projects int     `json:"projects"`
	Runs     int     `json:"runs"`
}

// Places groups the UK runs' rainfall places of projects not deleted into
// cells of a tenth of a degree.
func Places(ctx context.Context, db *projections.DB) ([]PlaceCount, error) {
	rows, err := db.Query(ctx, `SELECT SUM(pl.lat_e2), SUM(pl.lng_e2), MAX(pl.town), COUNT(DISTINCT pl.project_id), COUNT(*)
		FROM map_places pl JOIN map_projects p ON p.project_id = pl.project_id
		WHERE p.deleted = 0
		GROUP BY pl.lat_e2 / 10, pl.lng_e2 / 10 ORDER BY COUNT(*) DESC LIMIT 2000`)
	if err != nil {
		return nil, fmt.Errorf("map places: %w", err)
	}
	defer rows.Close()
	out := []PlaceCount{}
	for rows.Next() {
		var p PlaceCount
		var lat, lng int64
		if err := rows.Scan(&lat, &lng, &p.Town, &p.Projects, &p.Runs); err != nil {
			return nil, fmt.Errorf("map places: %w", err)
		}
		// The middle of the cell's runs.
		p.Lat = math.Round(float64(lat)/float64(p.Runs)) / 100
		p.Lng = math.Round(float64(lng)/float64(p.Runs)) / 100
		out = append(out, p)
	}
	return out, rows.Err()
}
