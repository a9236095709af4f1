package privacy_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"draindesign/eventstore"
	"draindesign/eventstore/eventstoretest"
	"draindesign/eventstore/pgtest"
	"draindesign/eventstore/postgres"
	"draindesign/eventstore/privacy"
	"draindesign/eventstore/sqlite"
)

type backend struct {
	name    string
	storage func(t *testing.T) string
	open    func(t *testing.T, where string) eventstore.Store
}

func backends() []backend {
	return []backend{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "events.db") },
			func(t *testing.T, path string) eventstore.Store {
				s, err := sqlite.Open(t.Context(), path)
				if err != nil {
					t.Fatal(err)
				}
				return s
			}},
		{"postgres", func(t *testing.T) string { return pgtest.NewDatabase(t) },
			func(t *testing.T, url string) eventstore.Store {
				s, err := postgres.Open(t.Context(), url)
				if err != nil {
					t.Fatal(err)
				}
				return s
			}},
	}
}

// The sealing store is an event store like any other: it passes the
// conformance suite on both stores.
func TestConformance(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			eventstoretest.Factory{
				Storage: b.storage,
				Open: func(t *testing.T, where string) eventstore.Store {
					s, _, ok := privacy.Wrap(b.open(t, where))
					if !ok {
						t.Fatal("store keeps no subject keys")
					}
					return s
				},
			}.Run(t)
		})
	}
}

func ev(id, author string, data any) eventstore.NewEvent {
	b, _ := json.Marshal(data)
	return eventstore.NewEvent{ID: id, Type: "test.event", Data: b, Metadata: eventstore.Metadata{Author: author}}
}

func field(t *testing.T, data json.RawMessage, path ...string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	for _, p := range path {
		v = v.(map[string]any)[p]
	}
	s, _ := v.(string)
	return s
}

// Personal fields are sealed in the store and read in clear through the
// layer; erasing the subject makes them read "erased", blanks what was
// written in clear before sealing, leaves other subjects and other fields
// alone, and nothing personal is sealed for the subject again.
func TestSealOpenErase(t *testing.T) {
	ctx := context.Background()
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			where := b.storage(t)
			raw := b.open(t, where)
			defer raw.Close()
			store, p, _ := privacy.Wrap(raw)

			// Written before sealing: straight into the inner store.
			if _, err := raw.Append(ctx, "account-old", eventstore.NoStream, ev("e0", "old",
				map[string]any{"user_id": "old", "email": "old@example.com", "first_name": "Olga", "group": "standard"})); err != nil {
				t.Fatal(err)
			}
			writes := []struct {
				stream string
				event  eventstore.NewEvent
			}{
				{"account-ann", ev("e1", "ann", map[string]any{"user_id": "ann", "email": "ann@example.com", "first_name": "Ann", "telephone": "", "group": "standard"})},
				{"account-bob", ev("e2", "bob", map[string]any{"user_id": "bob", "email": "bob@example.com", "first_name": "Bob", "company": "sealed:v1:x:typed by the user"})},
				{"project-p1", ev("e3", "ann", map[string]any{"details": map[string]any{"name": "Ann's yard", "email": "ann@example.com", "date": "2026-01-02"}, "notes": "Call Ann"})},
				{"project-p1", ev("e4", "ann", map[string]any{"run_id": "r1", "name": "Run 1", "inputs": map[string]any{"channel_length_m": 10}})},
				{"translation-de", ev("e5", "ann", map[string]any{"key": "k", "new": "Text", "by_name": "Ann Example"})},
				{"stock-x", ev("e6", "ann", map[string]any{"email": "not a personal stream"})},
			}
			for _, w := range writes {
				if _, err := store.Append(ctx, w.stream, eventstore.Any, w.event); err != nil {
					t.Fatal(err)
				}
				// A retried append writes the same bytes and is recognised.
				if _, err := store.Append(ctx, w.stream, eventstore.Any, w.event); err != nil {
					t.Fatalf("retry of %s: %v", w.event.ID, err)
				}
			}

			rawAll, err := raw.ReadAll(ctx, eventstore.Position{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range rawAll {
				text := string(e.Data)
				switch e.ID {
				case "e1", "e3", "e5":
					if strings.Contains(text, "ann@example.com") || strings.Contains(text, "Ann") {
						t.Errorf("%s stored in clear: %s", e.ID, text)
					}
				case "e6":
					if !strings.Contains(text, "not a personal stream") {
						t.Errorf("%s of a stream without personal fields changed: %s", e.ID, text)
					}
				}
			}

			tests := []struct {
				stream string
				path   []string
				before string
				after  string
			}{
				{"account-ann", []string{"email"}, "ann@example.com", privacy.Erased},
				{"account-ann", []string{"first_name"}, "Ann", privacy.Erased},
				{"account-ann", []string{"telephone"}, "", ""},
				{"account-ann", []string{"group"}, "standard", "standard"},
				{"account-bob", []string{"email"}, "bob@example.com", "bob@example.com"},
				{"account-bob", []string{"company"}, "sealed:v1:x:typed by the user", "sealed:v1:x:typed by the user"},
				{"project-p1", []string{"details", "name"}, "Ann's yard", privacy.Erased},
				{"project-p1", []string{"details", "date"}, "2026-01-02", "2026-01-02"},
				{"project-p1", []string{"notes"}, "Call Ann", privacy.Erased},
				{"translation-de", []string{"by_name"}, "Ann Example", privacy.Erased},
				{"translation-de", []string{"new"}, "Text", "Text"},
				{"account-old", []string{"email"}, "old@example.com", privacy.Erased},
				{"account-old", []string{"group"}, "standard", "standard"},
			}
			read := func(stream string) json.RawMessage {
				evs, err := store.ReadStream(ctx, stream, 1, 1)
				if err != nil || len(evs) != 1 {
					t.Fatalf("read %s: %v %v", stream, evs, err)
				}
				return evs[0].Data
			}
			for _, tc := range tests {
				if got := field(t, read(tc.stream), tc.path...); got != tc.before {
					t.Errorf("before erasure %s %v = %q, want %q", tc.stream, tc.path, got, tc.before)
				}
			}
			if run := field(t, mustStream(t, store, "project-p1")[1].Data, "name"); run != "Run 1" {
				t.Errorf("run name %q: not personal, kept", run)
			}

			for _, subject := range []string{"ann", "old"} {
				if err := p.Erase(ctx, subject); err != nil {
					t.Fatal(err)
				}
			}
			if err := p.Erase(ctx, "ann"); err != nil {
				t.Fatalf("erasing again: %v", err)
			}
			for _, tc := range tests {
				if got := field(t, read(tc.stream), tc.path...); got != tc.after {
					t.Errorf("after erasure %s %v = %q, want %q", tc.stream, tc.path, got, tc.after)
				}
			}
			rawOld, _ := raw.ReadStream(ctx, "account-old", 1, 0)
			if strings.Contains(string(rawOld[0].Data), "old@example.com") || strings.Contains(string(rawOld[0].Data), "Olga") {
				t.Errorf("clear fields of an erased subject left in the store: %s", rawOld[0].Data)
			}
			// Nothing personal is written for an erased subject again.
			if _, err := store.Append(ctx, "account-ann", eventstore.Any, ev("e7", "ann", map[string]any{"user_id": "ann", "email": "new@example.com"})); err != nil {
				t.Fatal(err)
			}
			evs := mustStream(t, raw, "account-ann")
			if got := field(t, evs[len(evs)-1].Data, "email"); got != privacy.Erased {
				t.Errorf("appended for an erased subject: %q", got)
			}

			// Reservation streams go for good.
			if err := p.DeleteStream(ctx, "account-bob"); err != nil {
				t.Fatal(err)
			}
			if v, err := store.StreamVersion(ctx, "account-bob"); err != nil || v != 0 {
				t.Errorf("deleted stream at version %d (%v)", v, err)
			}
		})
	}
}

func mustStream(t *testing.T, s eventstore.Store, stream string) []eventstore.Event {
	t.Helper()
	evs, err := s.ReadStream(context.Background(), stream, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// Redact blanks exactly the personal fields that hold something.
func TestRedact(t *testing.T) {
	tests := []struct {
		name, stream, in, want string
		sealed, changed        bool
	}{
		{"clear account fields", "account-a", `{"email":"a@b.c","group":"standard","telephone":""}`, `{"email":"erased","group":"standard","telephone":""}`, false, true},
		{"sealed fields kept unless asked", "account-a", `{"email":"sealed:v1:a:xyz"}`, `{"email":"sealed:v1:a:xyz"}`, false, false},
		{"sealed fields blanked when asked", "account-a", `{"email":"sealed:v1:a:xyz"}`, `{"email":"erased"}`, true, true},
		{"nested project details", "project-p", `{"details":{"designer":"Ann","date":"x"}}`, `{"details":{"date":"x","designer":"erased"}}`, false, true},
		{"no personal stream", "stock-x", `{"email":"a@b.c"}`, `{"email":"a@b.c"}`, false, false},
		{"not an object", "account-a", `[1,2]`, `[1,2]`, false, false},
		// A run's edits and calculations hold no personal key: passed
		// over without being decoded (mayHold).
		{"no personal key", "project-p", `{"run_id":"r","summary":{"length_m":20}}`, `{"run_id":"r","summary":{"length_m":20}}`, false, false},
		{"a personal key's name as a value only", "project-p", `{"run_id":"notes"}`, `{"run_id":"notes"}`, false, false},
		{"a personal key's name below the top", "project-p", `{"inputs":{"notes":"x"}}`, `{"inputs":{"notes":"x"}}`, false, false},
		{"spaces around a personal key", "project-p", `{ "run_id" : "r" , "notes" : "site gate" }`, `{"notes":"erased","run_id":"r"}`, false, true},
		{"saver's name", "project-p", `{"saved_by_name":"Ann","save_id":"p"}`, `{"save_id":"p","saved_by_name":"erased"}`, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, changed, err := privacy.Redact(tc.stream, []byte(tc.in), tc.sealed)
			if err != nil || changed != tc.changed || string(out) != tc.want {
				t.Errorf("Redact = %s, %v, %v; want %s, %v", out, changed, err, tc.want, tc.changed)
			}
		})
	}
}

// countingKeys counts key look-ups of the store beneath the sealing one.
type countingKeys struct {
	eventstore.Store
	eventstore.SubjectKeys
	lookups int
}

func (c *countingKeys) LookupSubjectKeys(ctx context.Context, subjects []string) (map[string][]byte, error) {
	c.lookups++
	return c.SubjectKeys.LookupSubjectKeys(ctx, subjects)
}

// A key looked up or made once is reused: reading a subject's sealed
// events again asks the key table nothing. After an erasure on this store
// the fields read as erased at once.
func TestKeysAreReusedAndForgottenOnErasure(t *testing.T) {
	ctx := t.Context()
	inner, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "events.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inner.Close() })
	keys := &countingKeys{Store: inner, SubjectKeys: inner}
	s, p, ok := privacy.Wrap(keys)
	if !ok {
		t.Fatal("no subject keys")
	}
	details := map[string]any{"details": map[string]any{"name": "Ann's yard", "email": "ann@example.com"}}
	for i, id := range []string{"k1", "k2", "k3"} {
		if _, err := s.Append(ctx, "project-p1", eventstore.Exactly(int64(i)), ev(id, "ann", details)); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		evs, err := s.ReadStream(ctx, "project-p1", 1, 0)
		if err != nil || len(evs) != 3 || !strings.Contains(string(evs[2].Data), "ann@example.com") {
			t.Fatalf("read: %v %v", evs, err)
		}
	}
	if keys.lookups != 0 {
		t.Errorf("%d key look-ups for a subject whose key this store made", keys.lookups)
	}
	if err := p.Erase(ctx, "ann"); err != nil {
		t.Fatal(err)
	}
	evs, err := s.ReadStream(ctx, "project-p1", 1, 0)
	if err != nil || strings.Contains(string(evs[0].Data), "ann@example.com") || !strings.Contains(string(evs[0].Data), privacy.Erased) {
		t.Errorf("after erasure: %s %v", evs[0].Data, err)
	}
	if keys.lookups != 1 {
		t.Errorf("%d key look-ups after the erasure, want 1", keys.lookups)
	}
}
