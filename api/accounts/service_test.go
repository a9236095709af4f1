package accounts_test

import (
	"testing"
	"time"

	"draindesign/api/accounts"
	"draindesign/domain/account"
	"draindesign/eventstore"
	"draindesign/eventstore/memory"
	"draindesign/projections"
)

// An account whose stream holds an event of a type this code does not know
// loads as if the event were absent, at the stream's version, so commands
// keep appending; the skip is counted.
func TestLoadSkipsUnknownEventTypes(t *testing.T) {
	ctx := t.Context()
	store := memory.New()
	at := time.Date(2025, 3, 3, 9, 0, 0, 0, time.UTC)
	svc := &accounts.Service{Store: store, Now: func() time.Time { return at }}
	const unknown = "account.teleported_in_load_test"
	before := projections.UnknownCount("account", unknown)

	var evs []eventstore.NewEvent
	for i, e := range []account.Event{
		account.Registered{UserID: "u1", Username: "ann", Email: "ann@example.com", Country: "GB", Group: account.GroupStandard, At: at},
		nil, // the unknown event
		account.EmailConfirmed{UserID: "u1", At: at},
	} {
		if e == nil {
			evs = append(evs, eventstore.NewEvent{ID: "unknown-1", Type: unknown, Data: []byte(`{"user_id":"u1"}`)})
			continue
		}
		typ, schema, data, err := account.Encode(e)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, eventstore.NewEvent{ID: string(rune('a' + i)), Type: typ, Schema: schema, Data: data})
	}
	if _, err := store.Append(ctx, account.Stream("u1"), eventstore.NoStream, evs...); err != nil {
		t.Fatal(err)
	}

	a, err := svc.Load(ctx, "u1")
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if a.Version != 3 || !a.Confirmed || a.Username != "ann" {
		t.Errorf("loaded version %d, confirmed %v, username %q; want version 3, confirmed, ann", a.Version, a.Confirmed, a.Username)
	}
	a, err = svc.Execute(ctx, "u1", "root", func(a *account.Account) ([]account.Event, error) {
		return a.Block(account.Actor{ID: "root", Group: account.GroupAdmin}, at)
	})
	if err != nil {
		t.Fatalf("command after an unknown event: %v", err)
	}
	if a.Version != 4 || !a.Blocked {
		t.Errorf("after blocking: version %d, blocked %v; want 4, true", a.Version, a.Blocked)
	}
	if n := projections.UnknownCount("account", unknown) - before; n != 2 {
		t.Errorf("counted %v skips, want 2 (one per load)", n)
	}
}
