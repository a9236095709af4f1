// Package privacy seals the personal fields of events with a per-user key
// before they reach the event store, and opens them again on every read,
// so that deleting the key (crypto-shredding) erases them from the log
// itself. It wraps any store that keeps subject keys
// (eventstore.SubjectKeys: SQLite and PostgreSQL); docs/privacy.md says
// which fields are personal and why.
//
// A sealed field is a JSON string "sealed:v1:<subject>:<base64 of nonce and
// AES-256-GCM ciphertext>". Its nonce is derived from the key, the event
// id, the field and the clear text (a synthetic IV), so a retried append
// writes the same bytes and the store still recognises it. A field whose
// key is gone reads as Erased.
package privacy

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"draindesign/eventstore"
)

// Erased is what a personal field reads once its subject was erased.
const Erased = "erased"

const sealedPrefix = "sealed:v1:"

// rule names the personal fields of the events of streams starting with
// prefix, as JSON paths, and whose they are.
type rule struct {
	prefix string
	// byStream: the subject is the stream name after the prefix (an
	// account's own stream); otherwise the event's author.
	byStream bool
	paths    [][]string
	// keys are the paths' first keys, quoted (init): see mayHold.
	keys [][]byte
}

// rules: see docs/privacy.md, "What is personal". Only the owner writes a
// project, so a project event's author is its owner.
var rules = []rule{
	{prefix: accountPrefix, byStream: true, paths: [][]string{
		{"username"}, {"first_name"}, {"last_name"}, {"email"}, {"company"}, {"telephone"},
		{"address"}, {"city"}, {"postcode"}, {"password_hash"}, {"name"},
	}},
	{prefix: "project-", paths: [][]string{
		{"owner_name"}, {"saved_by_name"}, {"notes"},
		{"details", "name"}, {"details", "location"}, {"details", "reference"}, {"details", "company"},
		{"details", "designer"}, {"details", "telephone"}, {"details", "email"},
	}},
	{prefix: "translation-", paths: [][]string{{"by_name"}}},
}

// accountPrefix starts an account's own stream.
const accountPrefix = "account-"

// mayHold tells whether data may hold one of r's paths: whether the first
// key of one appears in it, quoted. Most events hold none (a run's edits
// and calculations, the bulk of the log), and looking for a few short
// strings costs far less than decoding the object to find out (under `make
// load`, sealing decoded every calculation's summary). The events reaching
// the store are encoded by encoding/json, which writes keys as they are
// (no escapes in their ASCII names), so a key present is always found.
func (r *rule) mayHold(data []byte) bool {
	for _, k := range r.keys {
		if bytes.Contains(data, k) {
			return true
		}
	}
	return false
}

// init fills each rule's keys: the first keys of its paths, quoted, once
// each.
func init() {
	for i := range rules {
		for _, p := range rules[i].paths {
			k := []byte(`"` + p[0] + `"`)
			if !slices.ContainsFunc(rules[i].keys, func(have []byte) bool { return bytes.Equal(have, k) }) {
				rules[i].keys = append(rules[i].keys, k)
			}
		}
	}
}

func ruleFor(stream string) *rule {
	for i := range rules {
		if strings.HasPrefix(stream, rules[i].prefix) {
			return &rules[i]
		}
	}
	return nil
}

// Subject is whose personal fields an event of stream by author holds
// ("" when it holds none).
func Subject(stream, author string) string {
	r := ruleFor(stream)
	switch {
	case r == nil:
		return ""
	case r.byStream:
		return strings.TrimPrefix(stream, r.prefix)
	}
	return author
}

// Store seals on append and opens on read.
type Store struct {
	inner eventstore.Store
	keys  eventstore.SubjectKeys
	cache keyCache
}

var _ eventstore.Store = (*Store)(nil)

// Wrap seals personal fields in inner when it keeps subject keys; any
// other store (KurrentDB) is returned as it is, with ok false.
func Wrap(inner eventstore.Store) (s eventstore.Store, p *Store, ok bool) {
	keys, ok := inner.(eventstore.SubjectKeys)
	if !ok {
		return inner, nil, false
	}
	p = &Store{inner: inner, keys: keys, cache: keyCache{now: time.Now}}
	return p, p, true
}

// Append implements eventstore.Store.
func (s *Store) Append(ctx context.Context, stream string, expected eventstore.ExpectedVersion, events ...eventstore.NewEvent) (eventstore.AppendResult, error) {
	if r := ruleFor(stream); r != nil {
		sealed := make([]eventstore.NewEvent, len(events))
		for i, e := range events {
			data, err := s.seal(ctx, r, Subject(stream, e.Metadata.Author), e.ID, e.Data)
			if err != nil {
				return eventstore.AppendResult{}, fmt.Errorf("append to %s: seal: %w", stream, err)
			}
			e.Data = data
			sealed[i] = e
		}
		events = sealed
	}
	return s.inner.Append(ctx, stream, expected, events...)
}

// ReadStream implements eventstore.Store.
func (s *Store) ReadStream(ctx context.Context, stream string, from int64, limit int) ([]eventstore.Event, error) {
	evs, err := s.inner.ReadStream(ctx, stream, from, limit)
	if err != nil {
		return nil, err
	}
	return s.open(ctx, evs)
}

// ReadAll implements eventstore.Store.
func (s *Store) ReadAll(ctx context.Context, after eventstore.Position, limit int) ([]eventstore.Event, error) {
	evs, err := s.inner.ReadAll(ctx, after, limit)
	if err != nil {
		return nil, err
	}
	return s.open(ctx, evs)
}

// ReadAllOf implements eventstore.TypedReader, through the store beneath's
// when it has one; the events left without data hold nothing to open.
func (s *Store) ReadAllOf(ctx context.Context, after eventstore.Position, limit int, types []string) ([]eventstore.Event, error) {
	evs, err := eventstore.ReadAllOf(ctx, s.inner, after, limit, types)
	if err != nil {
		return nil, err
	}
	return s.open(ctx, evs)
}

// StreamVersion implements eventstore.Store.
func (s *Store) StreamVersion(ctx context.Context, stream string) (int64, error) {
	return s.inner.StreamVersion(ctx, stream)
}

// Unwrap is the store beneath, whose events keep their personal fields
// sealed: for readers that need only streams and positions (the live
// watcher's look at the log's tail), which then look up no keys.
func (s *Store) Unwrap() eventstore.Store { return s.inner }

// Close implements eventstore.Store.
func (s *Store) Close() error { return s.inner.Close() }

// DeleteStream removes a reservation stream (eventstore.SubjectKeys).
func (s *Store) DeleteStream(ctx context.Context, stream string) error {
	return s.keys.DeleteStream(ctx, stream)
}

// Erase makes subject's personal fields unreadable for good: it deletes
// the subject's key, then blanks, event by event, the personal fields of
// the subject that were written in clear before sealing existed. Erasing
// again is harmless.
func (s *Store) Erase(ctx context.Context, subject string) error {
	if subject == "" {
		return errors.New("erase: no subject")
	}
	s.cache.forget(subject)
	if err := s.keys.EraseSubjectKey(ctx, subject); err != nil {
		return err
	}
	// Again: a read that began before the first may have put it back.
	s.cache.forget(subject)
	// Every event that can hold the subject's personal fields: its account
	// stream, and what it wrote (see rules).
	evs, err := s.keys.SubjectEvents(ctx, accountPrefix+subject, subject)
	if err != nil {
		return fmt.Errorf("erase %s: %w", subject, err)
	}
	for _, ev := range evs {
		if ruleFor(ev.Stream) == nil || Subject(ev.Stream, ev.Metadata.Author) != subject {
			continue
		}
		data, changed, err := Redact(ev.Stream, ev.Data, false)
		if err != nil {
			return fmt.Errorf("erase %s: event %s: %w", subject, ev.ID, err)
		}
		if changed {
			if err := s.keys.RedactEvent(ctx, ev.ID, data); err != nil {
				return err
			}
		}
	}
	if c, ok := s.inner.(interface{ Checkpoint(context.Context) error }); ok {
		return c.Checkpoint(ctx)
	}
	return nil
}

// Redact replaces the non-empty personal fields of an event of stream
// with Erased: those in clear, and sealed ones too when sealed is true.
// Read models that copied an erased subject's fields use it to agree with
// what a rebuild from the log would give.
func Redact(stream string, data []byte, sealed bool) (json.RawMessage, bool, error) {
	r := ruleFor(stream)
	if r == nil {
		return data, false, nil
	}
	return transform(r, data, func(path, v string) (string, error) {
		if v == "" || (!sealed && strings.HasPrefix(v, sealedPrefix)) {
			return v, nil
		}
		return Erased, nil
	})
}

// transform applies f to every string at one of r's paths; data comes back
// as it was when nothing changed.
func transform(r *rule, data []byte, f func(path, v string) (string, error)) (json.RawMessage, bool, error) {
	if !r.mayHold(data) {
		return data, false, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		// Not an object: nothing personal can sit at a named field.
		return data, false, nil //nolint:nilerr // a non-object payload has no fields
	}
	changed := false
	for _, p := range r.paths {
		c, err := transformPath(obj, p, strings.Join(p, "."), f)
		if err != nil {
			return nil, false, err
		}
		changed = changed || c
	}
	if !changed {
		return data, false, nil
	}
	out, err := json.Marshal(obj)
	return out, true, err
}

func transformPath(obj map[string]json.RawMessage, path []string, name string, f func(path, v string) (string, error)) (bool, error) {
	raw, ok := obj[path[0]]
	if !ok {
		return false, nil
	}
	if len(path) > 1 {
		var inner map[string]json.RawMessage
		if json.Unmarshal(raw, &inner) != nil || inner == nil {
			return false, nil
		}
		changed, err := transformPath(inner, path[1:], name, f)
		if err != nil || !changed {
			return false, err
		}
		b, err := json.Marshal(inner)
		if err != nil {
			return false, err
		}
		obj[path[0]] = b
		return true, nil
	}
	var v string
	if json.Unmarshal(raw, &v) != nil {
		return false, nil // not a string (null, absent pointer): nothing to seal
	}
	nv, err := f(name, v)
	if err != nil || nv == v {
		return false, err
	}
	b, err := json.Marshal(nv)
	if err != nil {
		return false, err
	}
	obj[path[0]] = b
	return true, nil
}

func (s *Store) seal(ctx context.Context, r *rule, subject, eventID string, data []byte) ([]byte, error) {
	if subject == "" {
		return data, nil
	}
	var key []byte
	erased := false
	// Every non-empty value is sealed, also one that looks sealed already:
	// what reaches Append is always clear text from the domain, and a user
	// typing "sealed:v1:…" must not make the event unreadable.
	out, _, err := transform(r, data, func(path, v string) (string, error) {
		switch {
		case v == "":
			return v, nil
		case erased:
			return Erased, nil
		}
		if key == nil {
			key = s.cache.get(subject)
		}
		if key == nil {
			fresh := make([]byte, 32)
			if _, err := rand.Read(fresh); err != nil {
				return "", err
			}
			k, err := s.keys.SubjectKey(ctx, subject, fresh)
			if errors.Is(err, eventstore.ErrSubjectErased) {
				// Nothing personal is written for an erased subject.
				erased = true
				return Erased, nil
			}
			if err != nil {
				return "", err
			}
			key = k
			s.cache.put(subject, key)
		}
		return sealValue(key, subject, eventID, path, v)
	})
	return out, err
}

func aead(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

func sealValue(key []byte, subject, eventID, path, v string) (string, error) {
	g, err := aead(key)
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(eventID + "\x00" + path + "\x00" + v))
	nonce := mac.Sum(nil)[:g.NonceSize()]
	ct := g.Seal(nil, nonce, []byte(v), []byte(subject+"\x00"+path))
	return sealedPrefix + subject + ":" + base64.RawStdEncoding.EncodeToString(append(nonce, ct...)), nil
}

func openValue(key []byte, subject, path, body string) (string, error) {
	g, err := aead(key)
	if err != nil {
		return "", err
	}
	raw, err := base64.RawStdEncoding.DecodeString(body)
	if err != nil || len(raw) < g.NonceSize() {
		return "", fmt.Errorf("sealed field %s: malformed", path)
	}
	pt, err := g.Open(nil, raw[:g.NonceSize()], raw[g.NonceSize():], []byte(subject+"\x00"+path))
	if err != nil {
		return "", fmt.Errorf("sealed field %s: %w", path, err)
	}
	return string(pt), nil
}

// open replaces sealed fields by their clear text, or Erased when the key
// is gone; keys are looked up once per subject per read.
func (s *Store) open(ctx context.Context, evs []eventstore.Event) ([]eventstore.Event, error) {
	var keys map[string][]byte
	for i := range evs {
		r := ruleFor(evs[i].Stream)
		if r == nil || !bytes.Contains(evs[i].Data, []byte(sealedPrefix)) {
			continue
		}
		data, _, err := transform(r, evs[i].Data, func(path, v string) (string, error) {
			rest, ok := strings.CutPrefix(v, sealedPrefix)
			if !ok {
				return v, nil
			}
			subject, body, ok := strings.Cut(rest, ":")
			if !ok {
				return "", fmt.Errorf("sealed field %s: malformed", path)
			}
			if keys == nil {
				keys = map[string][]byte{}
			}
			key, known := keys[subject]
			if !known {
				key = s.cache.get(subject)
			}
			if !known && key == nil {
				found, err := s.keys.LookupSubjectKeys(ctx, []string{subject})
				if err != nil {
					return "", err
				}
				key = found[subject]
				s.cache.put(subject, key)
			}
			if !known {
				keys[subject] = key
			}
			if key == nil {
				return Erased, nil
			}
			return openValue(key, subject, path, body)
		})
		if err != nil {
			return nil, fmt.Errorf("open %s v%d: %w", evs[i].Stream, evs[i].Version, err)
		}
		evs[i].Data = data
	}
	return evs, nil
}
