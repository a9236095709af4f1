package hydraulics

import (
	"errors"
	"testing"
)

func TestLargestFitting(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ n, firstFlood, want int }{
		{10, 4, 3}, {10, 11, 10}, {10, 1, 0}, {0, 1, 0}, {7, 7, 6},
	} {
		calls := 0
		got, err := LargestFitting(tc.n, func(i int) (bool, error) { calls++; return i >= tc.firstFlood, nil })
		if err != nil || got != tc.want {
			t.Errorf("n=%d flood from %d: got %d (%v), want %d", tc.n, tc.firstFlood, got, err, tc.want)
		}
		if calls > 5 {
			t.Errorf("n=%d: %d probes, a binary search needs at most 4", tc.n, calls)
		}
	}
	boom := errors.New("boom")
	if _, err := LargestFitting(5, func(int) (bool, error) { return false, boom }); !errors.Is(err, boom) {
		t.Errorf("error not passed on: %v", err)
	}
}
