package api

import (
	"sync"
	"time"
)

// recentReads keeps values this instance read from its database, each
// taken as read for authTrust from when it was read: the sessions behind
// requests and the countries' withdrawn products, which every call asked
// again. A drop (the value changed through this instance) counts at once:
// a read begun before it is not kept after it, as it may predate the
// change.
type recentReads[K comparable, V any] struct {
	mu    sync.Mutex
	m     map[K]recentRead[V]
	drops uint64 // counts drops; a read's ticket is the count when it began
}

type recentRead[V any] struct {
	v    V
	at   time.Time
	used time.Time // when get last asked for it, or it was kept
}

// maxRecentReads bounds each recentReads; when full it starts again.
const maxRecentReads = 10_000

// get is the value of k if read within authTrust of now, and the ticket a
// read made now passes to keep.
func (r *recentReads[K, V]) get(k K, now time.Time) (v V, ok bool, ticket uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, found := r.m[k]
	if found {
		e.used = now
		r.m[k] = e
	}
	if !found || now.Sub(e.at) >= authTrust || now.Before(e.at) {
		return v, false, r.drops
	}
	return e.v, true, r.drops
}

// usedSince lists the keys get asked for at or after since (or kept since),
// and the ticket a read of them made now passes to keep.
func (r *recentReads[K, V]) usedSince(since time.Time) (keys []K, ticket uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, e := range r.m {
		if !e.used.Before(since) {
			keys = append(keys, k)
		}
	}
	return keys, r.drops
}

// keep remembers v, read at at, unless something was dropped since the
// read's ticket was taken.
func (r *recentReads[K, V]) keep(k K, v V, at time.Time, ticket uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.drops != ticket {
		return
	}
	if r.m == nil || len(r.m) >= maxRecentReads {
		r.m = make(map[K]recentRead[V])
	}
	used := at
	if e, ok := r.m[k]; ok && e.used.After(used) {
		used = e.used
	}
	r.m[k] = recentRead[V]{v: v, at: at, used: used}
}

// drop forgets k.
func (r *recentReads[K, V]) drop(k K) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.drops++
	delete(r.m, k)
}

// dropWhere forgets every value match picks (nil: all).
func (r *recentReads[K, V]) dropWhere(match func(K, V) bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.drops++
	for k, e := range r.m {
		if match == nil || match(k, e.v) {
			delete(r.m, k)
		}
	}
}
