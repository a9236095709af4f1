// Package appendcheck holds the rules every store applies to an append, so
// that the SQLite and PostgreSQL stores accept, normalise and recognise
// retried appends identically.
package appendcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"draindesign/eventstore"
)

// Prepare validates an append and returns the events as they are to be
// stored: a zero Schema becomes 1, a zero Metadata.Time becomes now, and
// every time is brought to
// the precision and zone the stores keep (microseconds, UTC). The caller's
// slice is not modified.
func Prepare(stream string, expected eventstore.ExpectedVersion, events []eventstore.NewEvent, now time.Time) ([]eventstore.NewEvent, error) {
	if stream == "" {
		return nil, errors.New("append: empty stream name")
	}
	if expected < eventstore.Any {
		return nil, fmt.Errorf("append to %s: invalid expected version %d", stream, expected)
	}
	if len(events) == 0 {
		return nil, fmt.Errorf("append to %s: no events", stream)
	}
	out := make([]eventstore.NewEvent, len(events))
	ids := make(map[string]struct{}, len(events))
	for i, e := range events {
		switch {
		case e.ID == "":
			return nil, fmt.Errorf("append to %s: event %d has no ID", stream, i)
		case e.Type == "":
			return nil, fmt.Errorf("append to %s: event %s has no type", stream, e.ID)
		case !json.Valid(e.Data):
			return nil, fmt.Errorf("append to %s: event %s: data is not valid JSON", stream, e.ID)
		case e.Schema < 0 || e.Schema > math.MaxInt32:
			return nil, fmt.Errorf("append to %s: event %s: invalid schema version %d", stream, e.ID, e.Schema)
		}
		if _, dup := ids[e.ID]; dup {
			return nil, fmt.Errorf("append to %s: event %s twice in one append: %w", stream, e.ID, eventstore.ErrDuplicateEvent)
		}
		ids[e.ID] = struct{}{}
		if e.Schema == 0 {
			e.Schema = 1
		}
		if e.Metadata.Time.IsZero() {
			e.Metadata.Time = now
		}
		e.Metadata.Time = storedTime(e.Metadata.Time)
		out[i] = e
	}
	return out, nil
}

// storedTime converts t to what a store gives back: UTC, whole
// microseconds (PostgreSQL's timestamptz precision).
func storedTime(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// IDs returns the events' IDs in order.
func IDs(events []eventstore.NewEvent) []string {
	ids := make([]string, len(events))
	for i, e := range events {
		ids[i] = e.ID
	}
	return ids
}

// Retry decides, after an append failed on a version conflict or an
// existing event ID, whether it repeats an append that already succeeded.
// events are the prepared events of the failed append and stored the
// events already in the store under any of their IDs.
//
// It reports ok with the original result if every event was stored, the
// same and in the same order, in stream. It returns an error wrapping
// eventstore.ErrDuplicateEvent if some IDs are taken otherwise. If none
// is stored, the append is new and the original failure stands: ok is false
// and the error nil.
func Retry(stream string, events []eventstore.NewEvent, stored []eventstore.Event) (result eventstore.AppendResult, ok bool, err error) {
	if len(stored) == 0 {
		return eventstore.AppendResult{}, false, nil
	}
	byID := make(map[string]eventstore.Event, len(stored))
	for _, s := range stored {
		byID[s.ID] = s
	}
	for _, e := range events {
		s, found := byID[e.ID]
		switch {
		case !found:
			// An append is stored whole or not at all, so a batch mixing new
			// IDs with stored ones reuses IDs of another append.
			return eventstore.AppendResult{}, false, fmt.Errorf("events %v: some IDs are taken: %w", IDs(events), eventstore.ErrDuplicateEvent)
		case !same(stream, e, s):
			return eventstore.AppendResult{}, false, fmt.Errorf("event %s is stored as a different event in %s: %w", e.ID, s.Stream, eventstore.ErrDuplicateEvent)
		}
	}
	first := byID[events[0].ID].Version
	for i, e := range events {
		if byID[e.ID].Version != first+int64(i) {
			return eventstore.AppendResult{}, false, fmt.Errorf("events %v were stored by different appends: %w", IDs(events), eventstore.ErrDuplicateEvent)
		}
	}
	last := byID[events[len(events)-1].ID]
	return eventstore.AppendResult{FirstVersion: first, LastVersion: last.Version, Position: last.Position}, true, nil
}

// same tells whether a stored event is the one a retry carries. Time is
// left out: a retried command may stamp its events anew, and the rest tells
// a retry from a reuse of the ID well enough.
func same(stream string, e eventstore.NewEvent, s eventstore.Event) bool {
	return s.Stream == stream &&
		s.Type == e.Type &&
		s.Schema == e.Schema &&
		bytes.Equal(s.Data, e.Data) &&
		s.Metadata.Author == e.Metadata.Author &&
		s.Metadata.CorrelationID == e.Metadata.CorrelationID &&
		s.Metadata.CausationID == e.Metadata.CausationID
}
