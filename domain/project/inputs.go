package project

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
)

// notInputs are run fields that are identity, naming or output rather than
// design input; they never enter Inputs.
var notInputs = []string{"id", "saveID", "linkID", "first", "name", "notes", "results", "errors"}

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
	if t, ok := plainScalar(raw); ok {
		return slices.Clone(t)
	}
	return canonicalDecoded(raw)
}

// canonicalDecoded is canonical through the decoder, for any value.
func canonicalDecoded(raw json.RawMessage) json.RawMessage {
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

// DefaultRainfallMMH is a run's rainfall intensity when neither the run nor
// the project sets one (design-tool.md section 9).
const DefaultRainfallMMH = 50.0

// Effective is a run's inputs as a calculation takes them, the way the
// design form shows them: emptied (null) fields dropped, and the defaults of
// design-tool.md section 3 filled in where a field is missing (the client's
// runDefaults): GVF, a uniform catchment, a level slope given as a slope,
// permeability 1 (concrete pavement), not stepped, free outflow, and the
// project's default rainfall (above 0) or else 50 mm/h.
func Effective(in Inputs, s Settings) Inputs {
	rain := DefaultRainfallMMH
	if d := s.DefaultRainfall; d != nil && *d > 0 {
		rain = *d
	}
	rainfall, _ := json.Marshal(map[string]float64{"rainfall_mm_per_hr": rain})
	out := Inputs{
		"location":            json.RawMessage(`""`),
		"catchmentShape":      json.RawMessage(`"uniform"`),
		"calculation_method":  json.RawMessage(`"GVF"`),
		"slopeSetting":        json.RawMessage(`"slope"`),
		"ground_slope":        json.RawMessage(`0`),
		"permeability":        json.RawMessage(`1`),
		"permeabilitySurface": json.RawMessage(`"concretePavement"`),
		"stepped":             json.RawMessage(`false`),
		"rainfall":            rainfall,
		"dischargeSetting":    json.RawMessage(`"free-outflow"`),
	}
	for k, v := range in {
		if !bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			out[k] = slices.Clone(v)
		}
	}
	return out
}

// relinked rewrites the links between the runs of a save to the ids the
// runs are saved under (ids, in order): a run's outflow into another run's
// trash box (outflowTrashbox) and its inflows' sources. A run is named in
// the links by its link id, or its save id; a named run is then known by
// its new id (the verifier tells the runs apart by it), while a run named
// by neither stays without one, so that links the save cannot resolve are
// still found out. Links to runs the save does not hold, and a trash box
// chosen by its discharge (a number), are left as they are.
func relinked(runs []SavedRun, ids []string) []SavedRun {
	renamed := map[string]string{}
	for i, r := range runs {
		if name := r.name(); name != "" && name != ids[i] {
			renamed[name] = ids[i]
		}
	}
	out := slices.Clone(runs)
	for i := range out {
		if out[i].name() != "" {
			out[i].ID = ids[i]
		}
		out[i].LinkID = ""
		if len(renamed) == 0 {
			continue
		}
		in := maps.Clone(out[i].Inputs)
		if to, ok := renamedID(in["outflowTrashbox"], renamed); ok {
			in["outflowTrashbox"] = to
		}
		if inflows, ok := relinkedInflows(in["inflows"], renamed); ok {
			in["inflows"] = inflows
		}
		out[i].Inputs = in
	}
	return out
}

// renamedID is a JSON string naming a renamed run, as its new id.
func renamedID(v json.RawMessage, renamed map[string]string) (json.RawMessage, bool) {
	var id string
	if len(v) == 0 || json.Unmarshal(v, &id) != nil {
		return nil, false
	}
	to, ok := renamed[id]
	if !ok {
		return nil, false
	}
	b, _ := json.Marshal(to)
	return b, true
}

func relinkedInflows(v json.RawMessage, renamed map[string]string) (json.RawMessage, bool) {
	var inflows []map[string]json.RawMessage
	if len(v) == 0 || json.Unmarshal(v, &inflows) != nil {
		return nil, false
	}
	changed := false
	for _, inflow := range inflows {
		if to, ok := renamedID(inflow["source"], renamed); ok {
			inflow["source"] = to
			changed = true
		}
	}
	if !changed {
		return nil, false
	}
	b, err := json.Marshal(inflows)
	if err != nil {
		return nil, false
	}
	return canonical(b), true
}

// name is the id the save's other runs name the run by.
func (r SavedRun) name() string {
	if r.LinkID != "" {
		return r.LinkID
	}
	return r.ID
}
