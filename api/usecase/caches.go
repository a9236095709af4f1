package usecase

import (
	"context"
	"sync"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/eventstore/aggregate"
)

// Caches hold the accounts and projects this instance loaded recently
// (aggregate.Cache): every request loads its user's account, and every
// edit, calculation and save its project, so each load then reads only
// the events since the last. The use cases of one server share them, so
// that an erasure empties them.
type Caches struct {
	accounts *aggregate.Cache[*account.Account]
	projects *aggregate.Cache[*project.Project]

	// Vouching (WatchErasures): until blockedUntil nothing is vouched for;
	// an erasure blocks it for blockFor.
	mu           sync.Mutex
	blockedUntil time.Time
	blockFor     time.Duration
	now          func() time.Time
}

// CacheMaxAge bounds how long an instance serves an aggregate from its
// copy before loading the whole stream again: how long, at most, another
// instance may still hold in memory, in clear, personal data that an
// erasure removed from the log (docs/privacy.md).
const CacheMaxAge = 30 * time.Second

// cacheEntries bounds each cache: a few thousand designers' projects and
// accounts, a few kilobytes each.
const cacheEntries = 20_000

// NewCaches makes empty caches for one server.
func NewCaches() *Caches { return newCaches(CacheMaxAge, erasureBlock) }

func newCaches(maxAge, blockFor time.Duration) *Caches {
	return &Caches{now: time.Now, blockFor: blockFor,
		// An erased account is loaded whole each time, so that what the
		// erasure removed is not served from a copy.
		accounts: aggregate.NewCache((*account.Account).Clone, func(a *account.Account) bool { return !a.Erased }, maxAge, cacheEntries),
		projects: aggregate.NewCache((*project.Project).Clone, nil, maxAge, cacheEntries),
	}
}

func (c *Caches) accountCache() *aggregate.Cache[*account.Account] {
	if c == nil {
		return nil
	}
	return c.accounts
}

func (c *Caches) projectCache() *aggregate.Cache[*project.Project] {
	if c == nil {
		return nil
	}
	return c.projects
}

// erased forgets what an erasure of the account changed in the log: the
// account, and every project, since the account's name and details may
// be in any project it saved or shared.
func (c *Caches) erased(accountID string) {
	if c == nil {
		return
	}
	c.accounts.Forget(accountID)
	c.projects.Clear()
	c.block()
}

// erasureBlock is how long after an erasure nothing is vouched for: a copy
// loaded meanwhile may have opened a sealed field with a key this instance
// cached before the erasure (privacy.KeyCacheMaxAge, 30 s), so it must
// age out by CacheMaxAge as before.
const erasureBlock = 30*time.Second + CacheMaxAge

// block stops vouching for blockFor.
func (c *Caches) block() {
	c.mu.Lock()
	c.blockedUntil = c.now().Add(c.blockFor)
	c.mu.Unlock()
}

// vouch tells both caches that no stored event changed in place up to at,
// unless an erasure blocks it.
func (c *Caches) vouch(at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.now().Before(c.blockedUntil) {
		return
	}
	c.accounts.Vouch(at)
	c.projects.Vouch(at)
}

// erasurePage is the page size of the erasure watch's log reads.
const erasurePage = 500

// WatchErasures keeps the cached copies past CacheMaxAge for as long as
// the log shows no erasure, until ctx ends. Without it each copy is
// loaded whole again every CacheMaxAge, so that no instance keeps in
// memory for longer what an erasure on another instance removed from the
// log; under `make load` those reloads of ever longer project streams
// grew to a fifth of an instance's CPU a minute into the run.
//
// Every every, it reads the log's tail (types and positions, no data).
// An account.deleted, which an erasure appends before it changes any
// stored event, or an account.erased, empties both caches and stops
// vouching for erasureBlock. A tick that read up to the log's head
// (eventstore.HeadReader: nothing committed is held back) vouches that no
// stored event changed before the tick began; one that could not read, or
// found events held back, vouches for nothing, and the copies age as
// before. So does a store that cannot tell its head, and the first
// erasureBlock after the start, in case an erasure was under way then.
func (c *Caches) WatchErasures(ctx context.Context, store eventstore.Store, every time.Duration) {
	store = eventstore.Bare(store)
	head, ok := store.(eventstore.HeadReader)
	if c == nil || !ok {
		return
	}
	c.block()
	var pos eventstore.Position
	started := false
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if !started {
			if p, err := head.Head(ctx); err == nil {
				pos, started = p, true
			}
		} else {
			c.watchTick(ctx, store, head, &pos)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// watchTick is one look at the log's tail from pos.
func (c *Caches) watchTick(ctx context.Context, store eventstore.Store, head eventstore.HeadReader, pos *eventstore.Position) {
	at := c.now()
	end, err := head.Head(ctx)
	if err != nil {
		return
	}
	for {
		evs, err := eventstore.ReadAllOf(ctx, store, *pos, erasurePage, []string{})
		if err != nil {
			return
		}
		for _, e := range evs {
			if e.Type == account.TypeDeleted || e.Type == account.TypeErased {
				c.accounts.Clear()
				c.projects.Clear()
				c.block()
			}
		}
		if len(evs) > 0 {
			*pos = evs[len(evs)-1].Position
		}
		if len(evs) < erasurePage {
			break
		}
	}
	if !pos.Less(end) {
		c.vouch(at)
	}
}
