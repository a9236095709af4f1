package design

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"draindesign/domain/catalogue"
	"draindesign/domain/hydraulics"
)

// The answer the HTTP call writes (AppendJSON) is json.Marshal's, byte for
// byte: the same shape and the slices to their decimals; it reads back to
// the engine's results, the slices within their rounding and everything
// else exactly.
func TestAnswerAppendJSON(t *testing.T) {
	t.Parallel()
	bodies := map[string]string{"example": exampleBody, "standard": standardBody}
	for _, bb := range benchBodies {
		bodies[bb.name] = bb.body
	}
	for name, b := range bodies {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r, err := DecodeRequest([]byte(b))
			if err != nil {
				t.Fatal(err)
			}
			ans, err := Calculate(catalogue.Default(), r)
			if err != nil {
				t.Fatal(err)
			}
			checkAnswerJSON(t, ans)
		})
	}
}

// checkAnswerJSON checks AppendJSON of ans against json.Marshal and the
// engine's numbers.
func checkAnswerJSON(t *testing.T, ans *Answer) {
	t.Helper()
	got, err := ans.AppendJSON([]byte("prefix"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(ans)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, append([]byte("prefix"), want...)) {
		t.Fatalf("AppendJSON\n%.500s\njson.Marshal\n%.500s", got, want)
	}
	got = got[len("prefix"):]
	if !json.Valid(got) {
		t.Fatal("not JSON")
	}
	var back Answer
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Results.Segments) != len(ans.Results.Segments) {
		t.Fatalf("%d segments read back, want %d", len(back.Results.Segments), len(ans.Results.Segments))
	}
	for i, s := range ans.Results.Segments {
		checkSlicesBack(t, s.Slices, back.Results.Segments[i].Slices)
	}
	// Without the slices, the rest reads back to the same encoding.
	if withoutSlices(t, &back) != withoutSlices(t, ans) {
		t.Error("the answer without its slices does not read back the same")
	}
}

// checkSlicesBack compares slices read back with the engine's: each number
// within half its last decimal (0.1 µm for levels, the fourth decimal for
// the rest).
func checkSlicesBack(t *testing.T, want, got hydraulics.Slices) {
	t.Helper()
	if len(got) != len(want) || (got == nil) != (want == nil) {
		t.Fatalf("%d slices read back, want %d", len(got), len(want))
	}
	near := func(a, b, unit float64) bool { return math.Abs(a-b) <= unit/2+1e-12*math.Abs(a) }
	for j, w := range want {
		g := got[j]
		if !near(w.DistanceM, g.DistanceM, 1e-4) || !near(w.FlowLS, g.FlowLS, 1e-4) || !near(w.DepthMM, g.DepthMM, 1e-4) ||
			!near(w.InvertLevelM, g.InvertLevelM, 1e-7) || !near(w.TopLevelM, g.TopLevelM, 1e-7) ||
			!near(w.VelocityMS, g.VelocityMS, 1e-4) || !near(w.Froude, g.Froude, 1e-4) || w.Supercritical != g.Supercritical {
			t.Fatalf("slice %d reads back as %+v, want %+v", j, g, w)
		}
	}
}

func withoutSlices(t *testing.T, a *Answer) string {
	t.Helper()
	res := *a.Results
	res.Segments = append([]Segment(nil), res.Segments...)
	for i := range res.Segments {
		res.Segments[i].Slices = nil
	}
	b, err := json.Marshal(&res)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A shared calculation's answer is json.Marshal's too.
func TestSharedAnswerAppendJSON(t *testing.T) {
	t.Parallel()
	main := body(t, exampleBody, m{"id": "run-a", "outflowTrashbox": "run-b"})
	second := body(t, standardBody, m{"id": "run-b", "channel_length_m": 30, "drainage_area_m2": 300,
		"accessories": []m{{"type": "trash-box", "distance_m": 10}}})
	raw, _ := json.Marshal(m{"main": main, "second": second})
	sr, err := DecodeSharedRequest(raw)
	if err != nil {
		t.Fatal(err)
	}
	ans, err := CalculateShared(catalogue.Default(), sr)
	if err != nil {
		t.Fatal(err)
	}
	checkAnswerJSON(t, ans.Main)
	checkAnswerJSON(t, ans.Second)
	for _, a := range []*SharedAnswer{ans, {Main: ans.Main}, nil} {
		got, err := a.AppendJSON(nil)
		want, _ := json.Marshal(a)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("AppendJSON %.200s (%v), json.Marshal %.200s", got, err, want)
		}
	}
}

// The splice of the slices into the rest of the answer is not misled by
// text in the answer's strings, nor by segments without slices; an answer
// without results or segments is json.Marshal's.
func TestAnswerAppendJSONEdges(t *testing.T) {
	t.Parallel()
	ans := mustAnswer(t, exampleBody)
	seg := ans.Results.Segments[0]
	tricky := seg
	tricky.Description = `"slices":null, "slices":[] <&>`
	tricky.Slices = seg.Slices[:2]
	empty := seg
	empty.Slices = hydraulics.Slices{}
	none := seg
	none.Slices = nil
	res := *ans.Results
	res.Segments = []Segment{none, tricky, seg, empty, none}
	res.Warnings = append(res.Warnings, `"slices":null`)
	checkAnswerJSON(t, &Answer{Results: &res})

	noSegments := *ans.Results
	noSegments.Segments = nil
	for _, a := range []*Answer{nil, {}, {Results: &noSegments}} {
		got, err := a.AppendJSON(nil)
		want, _ := json.Marshal(a)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("AppendJSON %.200s (%v), json.Marshal %.200s", got, err, want)
		}
	}

	// A number without a JSON form fails the encoding, as json.Marshal's.
	bad := seg
	bad.Slices = append(hydraulics.Slices(nil), seg.Slices...)
	bad.Slices[1].DepthMM = math.NaN()
	res.Segments = []Segment{seg, bad}
	if _, err := (&Answer{Results: &res}).AppendJSON(nil); err == nil {
		t.Error("a NaN depth encoded")
	}
}

func mustAnswer(t *testing.T, b string) *Answer {
	t.Helper()
	r, err := DecodeRequest([]byte(b))
	if err != nil {
		t.Fatal(err)
	}
	ans, err := Calculate(catalogue.Default(), r)
	if err != nil {
		t.Fatal(err)
	}
	return ans
}
