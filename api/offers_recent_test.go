package api

import (
	"context"
	"testing"

	"draindesign/eventstore/memory"
)

// What a country has withdrawn is read once per authTrust, and at once
// again after a change through this instance.
func TestRecentOffers(t *testing.T) {
	ctx := context.Background()
	var n counter
	s, _ := liveServer(t, countingStore{memory.New(), &n.store}, countingDB(t, &n.db))
	read := func() int64 {
		t.Helper()
		before := n.db.Load()
		if _, err := s.withdrawn(ctx, "GB"); err != nil {
			t.Fatal(err)
		}
		return n.db.Load() - before
	}
	if q := read(); q != 1 {
		t.Fatalf("first read: %d queries, want 1", q)
	}
	if q := read(); q != 0 {
		t.Errorf("within authTrust: %d queries, want 0", q)
	}
	s.offers.mu.Lock()
	e := s.offers.m["GB"]
	e.at = e.at.Add(-authTrust)
	s.offers.m["GB"] = e
	s.offers.mu.Unlock()
	if q := read(); q != 1 {
		t.Errorf("after authTrust: %d queries, want 1", q)
	}
	s.offers.dropWhere(nil)
	if q := read(); q != 1 {
		t.Errorf("after a change here: %d queries, want 1", q)
	}
}
