package projections

import (
	"slices"
	"sync"

	"draindesign/eventstore"
)

// appendedAt remembers where this instance's recent appends landed, by
// stream: a writer waiting for the read models to show its event
// (WaitForStream) then need not read the event back to learn its position
// (`make load`: a fifth of the store reads left after the caches).
type appendedAt struct {
	mu sync.Mutex
	m  map[string]appendedEvent
}

type appendedEvent struct {
	version int64
	pos     eventstore.Position
}

// maxAppendedStreams bounds what appendedAt keeps: when full it starts
// again, and a writer whose append was forgotten reads its event back.
const maxAppendedStreams = 10_000

// Appended tells the runner where an append of this instance landed (the
// repositories' Appended hook), and wakes every read model's follower to
// catch up to it: the bus announces every event
// too, but only once the relay has read and published it, and under `make
// load` that lagged ever further behind (every read model a writer did
// not wait for was thousands of commits behind within seconds, and growing).
// A result without a position (a store that cannot tell) is ignored.
// types are those of the events appended (none: any).
func (r *Runner) Appended(stream string, res eventstore.AppendResult, types []string) {
	if res.Position == (eventstore.Position{}) {
		return
	}
	// Every follower, those of other streams too: the log is one line, and
	// one that fell behind on events it ignores would make its next
	// writer's wait read through all of them. A follower of a read model
	// that reads none of the types comes at its idle pace.
	for _, ps := range r.projs {
		ps.announce(res.Position, len(types) == 0 || slices.ContainsFunc(types, ps.selects))
	}
	a := &r.appended
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.m == nil || len(a.m) >= maxAppendedStreams {
		a.m = make(map[string]appendedEvent)
	}
	if cur, ok := a.m[stream]; ok && cur.version > res.LastVersion {
		return
	}
	a.m[stream] = appendedEvent{version: res.LastVersion, pos: res.Position}
}

// positionOf is the position of the event at version of stream, if this
// instance appended it lately.
func (r *Runner) positionOf(stream string, version int64) (eventstore.Position, bool) {
	a := &r.appended
	a.mu.Lock()
	defer a.mu.Unlock()
	e, ok := a.m[stream]
	return e.pos, ok && e.version == version
}
