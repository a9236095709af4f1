package api

import (
	"context"
	"errors"

	"draindesign/domain/account"
	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/eventstore/aggregate"
	"draindesign/projections/projectlist"
)

// follow sends the project's view whenever its stream has grown past the
// version the client holds, until ctx ends or the viewer loses access. p is
// the project as loaded when subscribing.
//
// The store is the truth: a feed event (or a poke from the watcher, when
// the log's tail shows the stream or the viewer's account changed) only
// says "read the stream again". Reading everything committed
// past the last version at once is what coalesces a save's many events into
// one message, and it makes a dropped feed subscription or a version gap
// harmless.
func (c *liveConn) follow(ctx context.Context, sub *liveSub, p *project.Project, from int64) {
	defer c.dropSub(sub)
	stream := project.Stream(sub.id)
	feed, unsubscribe := c.s.liveFeed(stream)
	defer func() { unsubscribe() }()
	sent := from
	// seen is the version the feed or a poke announced (0 after a poke
	// without one, or a new subscription: the store is read then).
	var seen int64
	for {
		// Anything committed before the feed subscription started is read
		// here, on the first pass.
		if err := c.s.catchUp(ctx, sub.id, p, seen); err != nil {
			if ctx.Err() != nil {
				return
			}
			c.s.log.Warn("live: read project", "project", sub.id, "err", err)
			if errors.Is(err, aggregate.ErrCorrupt) {
				sendCtx(ctx, c.out, liveError{Type: "error", Project: sub.id, Code: errServer, Error: msgServerError})
				return
			}
			// A passing store failure: the next poke tries again.
		} else {
			v := c.viewerFor(sub)
			if !p.CanRead(v) {
				reason := closedNoAccess
				if p.Deleted {
					reason = closedDeleted
				}
				sendCtx(ctx, c.out, liveClosed{Type: "closed", Project: sub.id, Reason: reason})
				return
			}
			if p.Version > sent {
				msg, err := c.s.liveViews.message(sub.id, p, v)
				if err != nil {
					c.s.log.Error("live: encode project view", "project", sub.id, "err", err)
					sendCtx(ctx, c.out, liveError{Type: "error", Project: sub.id, Code: errServer, Error: msgServerError})
					return
				}
				if !sendCtx(ctx, c.out, msg) {
					return
				}
				sent = p.Version
			}
		}
		// Wait for something that may have changed the project or the
		// viewer's rights.
		seen = 0
		for waiting := true; waiting; {
			select {
			case <-ctx.Done():
				return
			case <-sub.poke:
				switch v, ok := sub.poked(); {
				case !ok:
				case v == 0:
					seen, waiting = 0, false
				case v > p.Version:
					// The cache may hold the project at v already.
					seen, waiting = max(seen, v), false
				}
			case ev, ok := <-feed:
				switch {
				case !ok:
					// Dropped for lagging, or a gap: subscribe again and
					// let the store fill in.
					unsubscribe()
					feed, unsubscribe = c.s.liveFeed(stream)
					seen, waiting = 0, false
				case ev.Version > p.Version:
					seen, waiting = max(seen, ev.Version), false
				}
			}
		}
	}
}

// liveFeed subscribes to the stream's committed events on this instance; a
// server without a feed relies on the connection's ticker alone.
func (s *Server) liveFeed(stream string) (<-chan eventstore.Event, func()) {
	if s.cfg.Feed == nil {
		return nil, func() {}
	}
	return s.cfg.Feed.Subscribe(stream)
}

// catchUp applies to p every event of its stream after p.Version, through
// the one project repository: an event of a type this build does not know
// still takes up its version, and is skipped and counted.
//
// seen (0: none) is a version the stream is known to have reached.
func (s *Server) catchUp(ctx context.Context, id string, p *project.Project, seen int64) error {
	return s.projects.CatchUp(ctx, id, p, seen)
}

// liveViewer re-reads the session and its account: ok is false when the
// session no longer exists or has expired, or the account may no longer log
// in (blocked or deleted accounts have their sessions ended as well).
func (s *Server) liveViewer(ctx context.Context, token string) (project.Viewer, bool, error) {
	a, ok, err := s.liveAccount(ctx, token, nil)
	if !ok || err != nil {
		return project.Viewer{}, ok, err
	}
	return viewerOf(a, ""), true, nil
}

// liveAccount is the account behind a live connection's session; ok is
// false when the session or the account's right to log in is gone. last,
// when not nil, is the account as the connection's previous check found it:
// if the session still names it, it is only caught up with the events
// since (and returned), not rebuilt from its whole stream every second.
func (s *Server) liveAccount(ctx context.Context, token string, last *account.Account) (*account.Account, bool, error) {
	if token == "" {
		return nil, false, nil
	}
	id, err := s.sessions.user(ctx, token)
	if errors.Is(err, errNoSession) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return s.liveAccountOf(ctx, id, last)
}

// liveAccountOf is liveAccount once the session named the account id.
func (s *Server) liveAccountOf(ctx context.Context, id string, last *account.Account) (*account.Account, bool, error) {
	a := last
	var err error
	if a != nil && a.ID == id {
		err = s.accounts.CatchUp(ctx, a)
	} else {
		a, err = s.accounts.Load(ctx, id)
	}
	if errors.Is(err, account.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if a.CanLogIn() != nil {
		return nil, false, nil
	}
	return a, true, nil
}

// projectByShareID finds the project a share link names. The read model may
// still list a link that was withdrawn a moment ago; CanRead on the project
// itself is what decides.
func (s *Server) projectByShareID(ctx context.Context, shareID string) (string, bool, error) {
	return projectlist.ByShareID(ctx, s.cfg.DB, shareID)
}
