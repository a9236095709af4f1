package api

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// A session this instance read is taken as read for authTrust, without a
// query; after that it is read again. Ending it here (one session, or all
// of a user's) counts at once; ending it elsewhere, once authTrust is up.
func TestSessionsTrustedForAuthTrust(t *testing.T) {
	ctx := context.Background()
	var queries atomic.Int64
	db := countingDB(t, &queries)
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	here := &sessions{db: db, now: func() time.Time { return now }}
	elsewhere := &sessions{db: db, now: func() time.Time { return now }} // another instance
	if err := here.setup(ctx); err != nil {
		t.Fatal(err)
	}
	user := func(token string) (string, int64) {
		t.Helper()
		before := queries.Load()
		id, err := here.user(ctx, token)
		if err != nil && !errors.Is(err, errNoSession) {
			t.Fatal(err)
		}
		return id, queries.Load() - before
	}
	ann, err := here.create(ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	if id, q := user(ann); id != "ann" || q != 1 {
		t.Fatalf("first look: %q with %d queries, want ann with 1", id, q)
	}
	now = now.Add(authTrust / 2)
	if id, q := user(ann); id != "ann" || q != 0 {
		t.Errorf("within authTrust: %q with %d queries, want ann with none", id, q)
	}

	// Ended on the other instance: seen once authTrust is up.
	if err := elsewhere.end(ctx, ann); err != nil {
		t.Fatal(err)
	}
	if id, _ := user(ann); id != "ann" {
		t.Errorf("ended elsewhere, within authTrust: %q, want still ann", id)
	}
	now = now.Add(authTrust)
	if id, q := user(ann); id != "" || q != 1 {
		t.Errorf("ended elsewhere, after authTrust: %q with %d queries, want none with 1", id, q)
	}

	// Ended here: at once, for one session and for all of a user's.
	bob1, _ := here.create(ctx, "bob")
	bob2, _ := here.create(ctx, "bob")
	for _, tok := range []string{bob1, bob2} {
		if id, _ := user(tok); id != "bob" {
			t.Fatalf("bob's session: %q", id)
		}
	}
	if err := here.end(ctx, bob1); err != nil {
		t.Fatal(err)
	}
	if id, _ := user(bob1); id != "" {
		t.Errorf("ended here: %q, want no session", id)
	}
	if id, q := user(bob2); id != "bob" || q != 0 {
		t.Errorf("bob's other session: %q with %d queries, want bob with none", id, q)
	}
	if err := here.EndAll(ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	if id, _ := user(bob2); id != "" {
		t.Errorf("all of bob's ended here: %q, want no session", id)
	}

	// An expired session is not trusted, however recently read.
	carol, _ := here.create(ctx, "carol")
	// (Created at a half second: expiry is kept in whole seconds, the
	// last of which begins 0.5 s before sessionTTL is up.)
	now = now.Add(sessionTTL - 600*time.Millisecond)
	if id, _ := user(carol); id != "carol" {
		t.Fatalf("carol's session: %q", id)
	}
	now = now.Add(authTrust / 2)
	if id, _ := user(carol); id != "" {
		t.Errorf("expired: %q, want no session", id)
	}
}

// recheck reads the sessions in use together, and user then takes each
// still live without a query for another authTrust; a session not in use
// is not asked, and one ended elsewhere is not kept, so it shows ended
// once authTrust from its last read is up.
func TestSessionsRecheck(t *testing.T) {
	ctx := context.Background()
	var queries atomic.Int64
	db := countingDB(t, &queries)
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	here := &sessions{db: db, now: func() time.Time { return now }}
	elsewhere := &sessions{db: db, now: func() time.Time { return now }}
	if err := here.setup(ctx); err != nil {
		t.Fatal(err)
	}
	ann, _ := here.create(ctx, "ann")
	bob, _ := here.create(ctx, "bob")
	user := func(token, want string, wantQueries int64) {
		t.Helper()
		before := queries.Load()
		id, err := here.user(ctx, token)
		if err != nil && !errors.Is(err, errNoSession) {
			t.Fatal(err)
		}
		if q := queries.Load() - before; id != want || q != wantQueries {
			t.Errorf("at %s: %q with %d queries, want %q with %d", now.Format("05.000"), id, q, want, wantQueries)
		}
	}
	recheck := func(wantQueries int64) {
		t.Helper()
		before := queries.Load()
		if err := here.recheck(ctx, 500*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if q := queries.Load() - before; q != wantQueries {
			t.Errorf("recheck at %s: %d queries, want %d", now.Format("05.000"), q, wantQueries)
		}
	}
	user(ann, "ann", 1)
	user(bob, "bob", 1)
	now = now.Add(600 * time.Millisecond)
	user(ann, "ann", 0)
	now = now.Add(200 * time.Millisecond)
	recheck(1)
	now = now.Add(700 * time.Millisecond) // 1.5 s after the first reads
	user(ann, "ann", 0)
	user(bob, "bob", 1)

	if err := elsewhere.end(ctx, ann); err != nil {
		t.Fatal(err)
	}
	now = now.Add(100 * time.Millisecond)
	recheck(1)
	now = now.Add(250 * time.Millisecond) // 1.05 s after ann's last read
	user(ann, "", 1)

	now = now.Add(time.Minute)
	recheck(0) // nothing in use
}
