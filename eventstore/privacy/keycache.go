package privacy

import (
	"sync"
	"time"
)

// KeyCacheMaxAge bounds how long a Store reuses a subject key it looked up
// or made, instead of asking the key table again: under `make load` every
// read of a new project event looked its author's key up, a query each.
// It is also how long, at most, another instance may still open a subject's
// sealed fields after an erasure deleted the key (the erasing instance
// forgets the key at once); docs/privacy.md.
const KeyCacheMaxAge = 30 * time.Second

// keyCacheEntries bounds the cache: thousands of active designers' keys.
const keyCacheEntries = 20_000

// keyCache holds subject keys. Only keys are kept, never their absence: a
// subject with no key yet may get one from another instance's next seal.
type keyCache struct {
	mu  sync.Mutex
	m   map[string]cachedKey
	now func() time.Time
}

type cachedKey struct {
	key []byte
	at  time.Time
}

func (c *keyCache) get(subject string) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[subject]
	if !ok {
		return nil
	}
	if c.now().Sub(e.at) > KeyCacheMaxAge {
		delete(c.m, subject)
		return nil
	}
	return e.key
}

func (c *keyCache) put(subject string, key []byte) {
	if key == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]cachedKey{}
	}
	if _, ok := c.m[subject]; !ok && len(c.m) >= keyCacheEntries {
		clear(c.m)
	}
	c.m[subject] = cachedKey{key: key, at: c.now()}
}

func (c *keyCache) forget(subject string) {
	c.mu.Lock()
	delete(c.m, subject)
	c.mu.Unlock()
}
