package aggregate

import "time"

// SetClock makes the cache read the time from now, for tests of its ages.
func (c *Cache[A]) SetClock(now func() time.Time) { c.now = now }
