package privacy

import (
	"encoding/json"
	"testing"
)

// Every personal path of every rule is found by mayHold, the shortcut that
// lets transform skip events holding none: a path it missed would leave
// that field in clear text in the log.
func TestMayHoldFindsEveryPersonalPath(t *testing.T) {
	for _, r := range rules {
		for _, p := range r.paths {
			var v any = "Ann"
			for i := len(p) - 1; i >= 0; i-- {
				v = map[string]any{p[i]: v, "other": 1}
			}
			data, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if !r.mayHold(data) {
				t.Errorf("%s rule: mayHold(%s) = false, want true for path %v", r.prefix, data, p)
			}
			sealed, changed, err := transform(&r, data, func(_, v string) (string, error) { return "x" + v, nil })
			if err != nil || !changed {
				t.Errorf("%s rule: transform(%s) = %s, %v, %v; want the field changed", r.prefix, data, sealed, changed, err)
			}
		}
		if r.mayHold([]byte(`{"run_id":"r","summary":{"length_m":20,"x":[1,2]}}`)) {
			t.Errorf("%s rule: mayHold is true for an event without any personal key", r.prefix)
		}
	}
}
