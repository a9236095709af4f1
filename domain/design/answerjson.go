package design

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"draindesign/domain/hydraulics"
)

// The answer's JSON is json.Marshal's, written faster. The profile slices
// encode themselves (hydraulics.Slices), but encoding/json re-reads every
// byte a MarshalJSON method returns to check and compact it, which for a
// 3000 m run's 6,000 slices costs as much as formatting them did. So the
// answer is marshalled without its slices, each segment's "slices":null
// then replaced by the slices appended directly.

// slicesNull is how a segment without slices encodes. Only a segment has
// a "slices" key, and the text cannot occur inside a JSON string (its
// quotes would be escaped).
var slicesNull = []byte(`"slices":null`)

// AppendJSON appends the answer as json.Marshal encodes it.
func (a *Answer) AppendJSON(dst []byte) ([]byte, error) {
	if a == nil || a.Results == nil || len(a.Results.Segments) == 0 {
		return appendMarshal(dst, a)
	}
	segs := a.Results.Segments
	res := *a.Results
	res.Segments = make([]Segment, len(segs))
	for i := range segs {
		res.Segments[i] = segs[i]
		res.Segments[i].Slices = nil
	}
	rest, err := json.Marshal(Answer{Results: &res})
	if err != nil {
		return nil, fmt.Errorf("design: answer: %w", err)
	}
	if bytes.Count(rest, slicesNull) != len(segs) {
		// Some other part of the answer came to have a "slices" key: the
		// splice below would put the profile in the wrong place.
		return appendMarshal(dst, a)
	}
	n := 0
	for _, s := range segs {
		n += len(s.Slices)
	}
	dst = slices.Grow(dst, len(rest)+hydraulics.SliceJSONBytes*n)
	for _, s := range segs {
		at := bytes.Index(rest, slicesNull) + len(`"slices":`)
		dst = append(dst, rest[:at]...)
		if dst, err = s.Slices.AppendJSON(dst); err != nil {
			return nil, fmt.Errorf("design: answer: %w", err)
		}
		rest = rest[at+len("null"):]
	}
	return append(dst, rest...), nil
}

// AppendJSON appends the shared answer as json.Marshal encodes it.
func (a *SharedAnswer) AppendJSON(dst []byte) ([]byte, error) {
	if a == nil {
		return append(dst, "null"...), nil
	}
	dst = append(dst, `{"main":`...)
	dst, err := a.Main.AppendJSON(dst)
	if err != nil {
		return nil, err
	}
	dst = append(dst, `,"second":`...)
	if dst, err = a.Second.AppendJSON(dst); err != nil {
		return nil, err
	}
	return append(dst, '}'), nil
}

func appendMarshal(dst []byte, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("design: answer: %w", err)
	}
	return append(dst, b...), nil
}
