package api

import (
	"bytes"
	"net/http"
	"unsafe"

	"github.com/tidwall/gjson"

	"draindesign/domain/jsonobject"
)

// decodeSave reads the save call's body into in as decode would, except
// that each run's "results" is validated but not decoded: the domain
// recalculates results and never reads the client's (project.InputsFrom
// leaves them out). The results are most of a save's bytes (a 3000 m
// run's are about 0.9 MB) and encoding/json read them at about 130 MB/s,
// twice over; under `make load` that was a tenth of an instance's CPU.
// gjson validates the whole body about seven times as fast; each run's
// results value is then replaced by null, and the rest is decoded by the
// usual strict decoder, with its messages.
func decodeSave(w http.ResponseWriter, r *http.Request, in *savePayload) error {
	var buf bytes.Buffer
	buf.Grow(int(min(max(r.ContentLength, 0), maxBody)) + bytes.MinRead)
	if _, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, maxBody)); err != nil {
		return bodyError(err)
	}
	return jsonobject.Decode(bytes.NewReader(withoutRunResults(buf.Bytes())), in, jsonobject.Strict)
}

// withoutRunResults is body with the value of "results" in each object of
// project.runs replaced by null. Any body that is not valid JSON, or that
// gjson reads otherwise than expected, comes back unchanged, for the
// decoder to word its error. Replacing a value of a field nobody reads
// changes nothing else that the decoder gives (the decoder matches field
// names without regard to case, gjson with: a "Runs" key is just decoded
// the slow way).
func withoutRunResults(body []byte) []byte {
	if !gjson.ValidBytes(body) {
		return body
	}
	// body read as a string without a copy, so that every Result's Raw is a
	// part of it at its Index (GetBytes copies each result out, a 3000 m
	// run's whole); body is not changed while doc is in use.
	doc := unsafe.String(unsafe.SliceData(body), len(body))
	runs := gjson.Get(doc, "project.runs")
	if !runs.IsArray() {
		return body
	}
	var cut [][2]int // the results values, in order
	removed := 0
	ok := true
	runs.ForEach(func(_, run gjson.Result) bool {
		res := run.Get("results")
		if !res.Exists() {
			return true
		}
		at, end := res.Index, res.Index+len(res.Raw)
		last := 0
		if len(cut) > 0 {
			last = cut[len(cut)-1][1]
		}
		if at <= last || end > len(doc) || doc[at:end] != res.Raw {
			ok = false
			return false
		}
		cut = append(cut, [2]int{at, end})
		removed += end - at - len("null")
		return true
	})
	if !ok || len(cut) == 0 {
		return body
	}
	// The results are most of the body: the copy holds only the rest.
	out := make([]byte, 0, len(body)-removed)
	last := 0
	for _, c := range cut {
		out = append(out, body[last:c[0]]...)
		out = append(out, "null"...)
		last = c[1]
	}
	return append(out, body[last:]...)
}
