package postgres

import "context"

// HeadQuery is Head's statement, for the plan test.
const HeadQuery = headQuery

// HoldMainPool takes every connection of the store's main pool and
// returns the function that gives them back.
func HoldMainPool(t interface{ Fatal(...any) }, s *Store) func() {
	var held []interface{ Release() }
	for range s.pool.Config().MaxConns {
		c, err := s.pool.Acquire(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	return func() {
		for _, c := range held {
			c.Release()
		}
	}
}

// LogConns is logConns.
var LogConns = logConns
