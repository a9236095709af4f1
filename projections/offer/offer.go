// Package offer is the read model of what is withdrawn from the offer of
// each country (domain/availability): the product lists of a country's
// users are filtered through it, and each country's stamp (the version of
// its availability stream) tells live connections that their country's
// offer changed.
package offer

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"draindesign/domain/availability"
	"draindesign/eventstore"
	"draindesign/projections"
)

// Projection fills offer_withdrawn and offer_stamps.
type Projection struct{}

func (Projection) Name() string { return "offer" }

// Follows: only availability streams change this read model.
func (Projection) Follows(stream string) bool {
	return strings.HasPrefix(stream, availability.StreamPrefix)
}
func (Projection) Tables() []string { return []string{"offer_withdrawn", "offer_stamps"} }

// Reads: the availability events (projections.Selecting); the log's other
// events are read without their data.
func (Projection) Reads() []string { return availability.EventTypes() }

func (Projection) Schema() []string {
	return []string{`CREATE TABLE IF NOT EXISTS offer_withdrawn (
		country TEXT NOT NULL,
		system  TEXT NOT NULL,
		channel TEXT NOT NULL,
		PRIMARY KEY (country, system, channel)
	)`,
		`CREATE TABLE IF NOT EXISTS offer_stamps (
		country TEXT PRIMARY KEY,
		version BIGINT NOT NULL
	)`,
	}
}

func (Projection) Apply(ctx context.Context, tx *projections.Tx, ev eventstore.Event) error {
	if !strings.HasPrefix(ev.Stream, availability.StreamPrefix) {
		return nil
	}
	e, err := availability.Decode(ev.Type, ev.Schema, ev.Data)
	if errors.Is(err, availability.ErrUnknownEventType) {
		projections.SkipUnknown(Projection{}.Name(), ev.Type)
		return nil
	}
	if err != nil {
		return fmt.Errorf("offer: %s v%d: %w", ev.Stream, ev.Version, err)
	}
	country := strings.TrimPrefix(ev.Stream, availability.StreamPrefix)
	if c, ok := e.(availability.Changed); ok {
		if c.Offered {
			err = tx.Exec(ctx, `DELETE FROM offer_withdrawn WHERE country = ? AND system = ? AND channel = ?`, country, c.System, c.Channel)
		} else {
			err = tx.Exec(ctx, `INSERT INTO offer_withdrawn (country, system, channel) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
				country, c.System, c.Channel)
		}
		if err != nil {
			return fmt.Errorf("offer: %s v%d: %w", ev.Stream, ev.Version, err)
		}
	}
	err = tx.Exec(ctx, `INSERT INTO offer_stamps (country, version) VALUES (?, ?)
		ON CONFLICT (country) DO UPDATE SET version = excluded.version`, country, ev.Version)
	if err != nil {
		return fmt.Errorf("offer: stamp %s: %w", country, err)
	}
	return nil
}

// Withdrawn is what is withdrawn in one country: systems, and channels by
// system.
type Withdrawn struct {
	Systems  map[string]bool
	Channels map[string]map[string]bool
}

// Offers reports whether the system (channel "") or the channel of the
// system is offered.
func (w Withdrawn) Offers(system, channel string) bool {
	if w.Systems[system] {
		return false
	}
	return channel == "" || !w.Channels[system][channel]
}

// Of reads what is withdrawn in a country.
func Of(ctx context.Context, db *projections.DB, country string) (Withdrawn, error) {
	out := Withdrawn{Systems: map[string]bool{}, Channels: map[string]map[string]bool{}}
	rows, err := db.Query(ctx, `SELECT system, channel FROM offer_withdrawn WHERE country = ?`, country)
	if err != nil {
		return out, fmt.Errorf("offer of %s: %w", country, err)
	}
	defer rows.Close()
	for rows.Next() {
		var system, channel string
		if err := rows.Scan(&system, &channel); err != nil {
			return out, fmt.Errorf("offer of %s: %w", country, err)
		}
		if channel == "" {
			out.Systems[system] = true
			continue
		}
		if out.Channels[system] == nil {
			out.Channels[system] = map[string]bool{}
		}
		out.Channels[system][channel] = true
	}
	return out, rows.Err()
}

// All reads what is withdrawn in every country, by country.
func All(ctx context.Context, db *projections.DB) (map[string]Withdrawn, error) {
	rows, err := db.Query(ctx, `SELECT country, system, channel FROM offer_withdrawn`)
	if err != nil {
		return nil, fmt.Errorf("offer: %w", err)
	}
	defer rows.Close()
	out := map[string]Withdrawn{}
	for rows.Next() {
		var country, system, channel string
		if err := rows.Scan(&country, &system, &channel); err != nil {
			return nil, fmt.Errorf("offer: %w", err)
		}
		w, ok := out[country]
		if !ok {
			w = Withdrawn{Systems: map[string]bool{}, Channels: map[string]map[string]bool{}}
			out[country] = w
		}
		if channel == "" {
			w.Systems[system] = true
			continue
		}
		if w.Channels[system] == nil {
			w.Channels[system] = map[string]bool{}
		}
		w.Channels[system][channel] = true
	}
	return out, rows.Err()
}

// Stamp is the version of a country's availability stream as the read
// model has it (0: never changed); it grows with every change.
func Stamp(ctx context.Context, db *projections.DB, country string) (int64, error) {
	var v int64
	err := db.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM offer_stamps WHERE country = ?`, country).Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("offer stamp of %s: %w", country, err)
	}
	return v, nil
}
