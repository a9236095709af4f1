package project

import (
	"bytes"
	"encoding/json"
	"slices"
)

// notInputs are run fields that are identity, naming or output rather than
// design input; they never enter Inputs.
var notInputs = []string{"id", "saveID", "first", "name", "notes", "results", "errors"}

// InputsFrom keeps the design inputs of a run object as the client sends it,
// in canonical JSON so that equal values compare equal byte for byte.
func InputsFrom(run map[string]json.RawMessage) Inputs {
	in := make(Inputs, len(run))
	for k, v := range run {
		if !slices.Contains(notInputs, k) {
			in[k] = canonical(v)
		}
	}
	return in
}

// canonical re-encodes JSON with sorted keys and no spacing. Invalid JSON is
// kept as is: the decoder in front of the domain has refused it already.
func canonical(raw json.RawMessage) json.RawMessage {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return slices.Clone(raw)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return slices.Clone(raw)
	}
	return out
}

// diff returns the fields of next that differ from cur, and those of cur
// missing from next.
func diff(cur, next Inputs) (changed Inputs, removed []string) {
	changed = Inputs{}
	for k, v := range next {
		if old, ok := cur[k]; !ok || !bytes.Equal(old, v) {
			changed[k] = v
		}
	}
	for k := range cur {
		if _, ok := next[k]; !ok {
			removed = append(removed, k)
		}
	}
	slices.Sort(removed)
	return changed, removed
}

func sameSummary(a, b Summary) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !bytes.Equal(canonical(v), canonical(w)) {
			return false
		}
	}
	return true
}
