package usecase

import (
	"time"

	"draindesign/domain/account"
	"draindesign/domain/project"
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
func NewCaches() *Caches {
	return &Caches{
		// An erased account is loaded whole each time, so that what the
		// erasure removed is not served from a copy.
		accounts: aggregate.NewCache((*account.Account).Clone, func(a *account.Account) bool { return !a.Erased }, CacheMaxAge, cacheEntries),
		projects: aggregate.NewCache((*project.Project).Clone, nil, CacheMaxAge, cacheEntries),
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
}
