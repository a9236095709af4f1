// Package projections keeps the read models up to date with the event store
// and fans committed events out to live clients.
//
// The event log is the only source of truth. Events reach this package in
// one way only: a Relay reads committed events from Store.ReadAll and
// publishes them on a Watermill topic. The Runner treats each message as a
// hint ("the log has grown to here"), not as data: every projection reads the
// store itself from its own checkpoint and applies the events in a database
// transaction that also advances that checkpoint. A lost, duplicated or
// reordered message therefore cannot lose or double-apply an event.
package projections

import (
	"context"

	"draindesign/eventstore"
)

// Projection builds one read model from the event log.
//
// Adding a read model is one small file: a type with these four methods,
// passed to NewRunner. A new projection, or one whose Schema changes, is
// rebuilt from position 0 on the next start.
type Projection interface {
	// Name identifies the projection's checkpoint; it must never change for
	// the life of the read model.
	Name() string
	// Schema returns CREATE TABLE/INDEX IF NOT EXISTS statements valid on
	// both SQLite and PostgreSQL (TEXT, BIGINT, INTEGER for booleans).
	Schema() []string
	// Tables lists every table Schema creates, dropped on rebuild.
	Tables() []string
	// Apply folds one event into the read model inside tx. Its committed
	// effect sees every event of the log exactly once, in log order, and it
	// ignores the ones it does not care about. Returning an error rolls
	// back the read-model rows and the checkpoint together; the event is
	// offered again later. Apply may also run for a batch that another
	// instance committed first and that then rolls back, so it must change
	// nothing outside tx.
	Apply(ctx context.Context, tx *Tx, ev eventstore.Event) error
}

// Following is implemented by a projection that reads only some streams
// (and ignores every event of the others). A writer waiting to read its own
// write (Runner.WaitForStream) waits only for the projections that follow
// the stream it wrote; one that does not implement it is waited for always.
type Following interface {
	// Follows tells whether Apply may change the read model for an event
	// of stream. It must be true for every stream Apply reads.
	Follows(stream string) bool
}

// RefreshedOnRead is implemented by a projection whose readers bring it up
// to date before they read it: the staff screens (calculation audit and
// history, the staff map) and the project timeline, which support replays
// and the designer's history panel reads. A designer's write does not wait
// for it (WaitForStream): under load the writer's call then returns as soon
// as the read models behind the designer's lists show it. A reader calls
// Runner.Refresh (to the head of the log) or Runner.Show (to a stream's
// version) first, so it still sees every write made before its request.
type RefreshedOnRead interface {
	RefreshedOnRead()
}

// Selecting is implemented by a projection that reads only some event
// types of the streams it follows. A writer waits for it only when it
// appended a type the projection reads (WaitForStream with types), and the
// runner reads the log for it with the data of those types alone
// (eventstore.TypedReader): every other event reaches Apply without data.
type Selecting interface {
	// Reads lists the event types Apply may change the read model for.
	// Apply must ignore every other type: its events may come without
	// their data.
	Reads() []string
}

// WaitedFor is implemented by a Selecting projection whose readers refresh
// it (Runner.Refresh) for most of the types it reads. A writer waits for it
// only when it appended one of the types listed here: those a lookup
// relies on at once, without a refresh (a share link's key, a support
// number).
type WaitedFor interface {
	WaitedFor() []string
}
