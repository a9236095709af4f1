package postgres

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

// HeadQuery is Head's statement, for the plan test.
const HeadQuery = headQuery

// HoldMainPool takes every connection of the store's main pool and
// returns the function that gives them back (once, however often called).
func HoldMainPool(t interface{ Fatal(...any) }, s *Store) func() { return hold(t, s.pool) }

// HoldLowPool does the same with the low-priority appends' pool.
func HoldLowPool(t interface{ Fatal(...any) }, s *Store) func() { return hold(t, s.lowPool) }

func hold(t interface{ Fatal(...any) }, pool *pgxpool.Pool) func() {
	var held []interface{ Release() }
	for range pool.Config().MaxConns {
		c, err := pool.Acquire(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	return func() {
		for _, c := range held {
			c.Release()
		}
		held = nil
	}
}

// LowConns is lowConns.
var LowConns = lowConns

// LogConns is logConns.
var LogConns = logConns
