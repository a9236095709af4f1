package api

import (
	"testing"
	"time"
)

// A value is taken for authTrust from its read; a read begun before a drop
// is not kept after it (it may predate the change the drop stands for).
func TestRecentReads(t *testing.T) {
	var r recentReads[string, int]
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	_, ok, ticket := r.get("a", t0)
	if ok {
		t.Fatal("a value before any read")
	}
	r.keep("a", 1, t0, ticket)
	if v, ok, _ := r.get("a", t0.Add(authTrust/2)); !ok || v != 1 {
		t.Errorf("within authTrust: %d, %v", v, ok)
	}
	if _, ok, _ := r.get("a", t0.Add(authTrust)); ok {
		t.Error("taken once authTrust was up")
	}

	// A read of b races a drop of a: b's value is not kept.
	_, _, ticket = r.get("b", t0)
	r.drop("a")
	r.keep("b", 2, t0, ticket)
	if _, ok, _ := r.get("b", t0); ok {
		t.Error("a read begun before a drop was kept")
	}
	if _, ok, _ := r.get("a", t0); ok {
		t.Error("a dropped value was taken")
	}

	_, _, ticket = r.get("c", t0)
	r.keep("c", 3, t0, ticket)
	r.keep("d", 4, t0, ticket)
	r.dropWhere(func(_ string, v int) bool { return v == 3 })
	if _, ok, _ := r.get("c", t0); ok {
		t.Error("dropWhere left the value it picked")
	}
	if v, ok, _ := r.get("d", t0); !ok || v != 4 {
		t.Errorf("dropWhere took a value it did not pick: %d, %v", v, ok)
	}
}
