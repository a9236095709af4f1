package main

import (
	"testing"
)

func TestLiveHeader(t *testing.T) {
	for _, tc := range []struct {
		in      string
		typ     string
		version int64
		bad     bool
	}{
		{`{"type":"project","project":"p1","version":12,"view":{"runs":[{"x":1}]}}`, "project", 12, false},
		// The view is not read: a truncated one does not matter.
		{`{"type":"project","project":"p1","version":7,"view":{"runs":[`, "project", 7, false},
		{`{"project":"p1","view":{"a":[1,2,{"b":"}"}]},"version":3,"type":"project"}`, "project", 3, false},
		{`{"type":"closed","project":"p1","reason":"deleted"}`, "closed", 0, false},
		{`[1,2]`, "", 0, true},
		{`{"version":3}`, "", 3, true},
		{`not json`, "", 0, true},
	} {
		var typ string
		var version int64
		err := liveHeader([]byte(tc.in), &typ, &version)
		if (err != nil) != tc.bad || typ != tc.typ || version != tc.version {
			t.Errorf("liveHeader(%s) = %q, %d, %v; want %q, %d, error %v", tc.in, typ, version, err, tc.typ, tc.version, tc.bad)
		}
	}
}
