package project

import (
	"encoding/json"
	"os"
	"testing"
)

// The readiness rule is shared with the client through one table of cases
// (testdata/readiness.json), which web/src/design/runRules.test.ts reads too.
func TestReadinessTable(t *testing.T) {
	b, err := os.ReadFile("testdata/readiness.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Cases []struct {
			Name   string
			Inputs Inputs
			Ready  bool
		}
	}
	if err := json.Unmarshal(b, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Cases) < 10 {
		t.Fatalf("only %d cases", len(table.Cases))
	}
	for _, c := range table.Cases {
		if got := Readiness(c.Inputs); got != c.Ready {
			t.Errorf("%s: ready %v, want %v", c.Name, got, c.Ready)
		}
	}
}
