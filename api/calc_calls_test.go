package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"draindesign/domain/catalogue"
	"draindesign/domain/design"
	"draindesign/domain/hydraulics"
)

// The design's and the catalogue's errors are the client's to fix: each
// answers 400 with its message and the fields the client reads; a
// numerical failure is a server fault.
func TestCalculationErrorAnswers(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	cases := []struct {
		name   string
		err    error
		status int
		want   map[string]any
	}{
		{"validation", &design.ValidationError{Field: "rainfall", Message: design.MsgNoRainfall}, 400,
			map[string]any{"error": design.MsgNoRainfall, "field": "rainfall"}},
		{"validation of a shared run", &design.SharedRunError{Run: "second", Err: &design.ValidationError{Message: design.MsgNoArea}}, 400,
			map[string]any{"error": design.MsgNoArea, "run": "second"}},
		{"length mismatch", &design.LengthMismatchError{ChannelsM: 19, RunM: 20.5}, 400,
			map[string]any{"error": "The channels selected don't match the specified run length. The channels are 1.5 m short.",
				"lengthDoNotMatch": true, "short": true, "difference_m": 1.5}},
		{"no channel", fmt.Errorf("wrapped: %w", &design.CalculationError{Message: design.MsgNoChannel, Err: hydraulics.ErrNoChannel}), 400,
			map[string]any{"error": design.MsgNoChannel}},
		{"decode", &design.DecodeError{Message: "Malformed JSON at byte 3"}, 400, map[string]any{"error": "Malformed JSON at byte 3"}},
		{"catalogue key", &catalogue.NotFoundError{Kind: "system", Key: "marble"}, 400, map[string]any{"error": `unknown system "marble"`}},
		{"catalogue request", &catalogue.RequestError{Reason: "run length must be above 0"}, 400, map[string]any{"error": "run length must be above 0"}},
		{"numerical", hydraulics.ErrNumerical, 500, map[string]any{"error": msgServerError}},
	}
	for _, tc := range cases {
		w := httptest.NewRecorder()
		writeError(w, httptest.NewRequest("POST", "/api/drainage/calculate/", nil), log, tc.err)
		var got map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if w.Code != tc.status || fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: %d %v, want %d %v", tc.name, w.Code, got, tc.status, tc.want)
		}
	}
}

// Only calculations that were made are recorded in a project.
func TestRecordable(t *testing.T) {
	for err, want := range map[error]bool{
		nil:                                    true,
		&design.CalculationError{Message: "x"}: true,
		hydraulics.ErrNumerical:                true,
		&design.ValidationError{Message: "x"}:  false,
		&design.LengthMismatchError{}:          false,
		&design.DecodeError{Message: "x"}:      false,
		&design.SharedRunError{Run: "main", Err: &design.ValidationError{}}: false,
	} {
		if got := recordable(err); got != want {
			t.Errorf("%T: recordable %v", err, got)
		}
	}
	if got := failureText(errors.New("boom")); got != "The calculation failed: "+msgServerError {
		t.Errorf("failure text %q", got)
	}
}

// A calculation's answer is written as writeJSON would write it (the
// bytes json.Encoder gives, with its newline) though by the answer's own
// encoder and into a buffer kept between calls: a shorter answer after a
// longer one carries nothing of it. Its length is announced
// (Content-Length). An answer that cannot be encoded is a server fault, not
// an empty success.
func TestWriteAnswer(t *testing.T) {
	s := &Server{log: slog.New(slog.DiscardHandler)}
	calc := func(body string) *design.Answer {
		req, err := design.DecodeRequest([]byte(body))
		if err != nil {
			t.Fatal(err)
		}
		ans, err := design.Calculate(catalogue.Default(), req)
		if err != nil {
			t.Fatal(err)
		}
		return ans
	}
	long := calc(`{"advanced":true,"channel_group":"concrete","concreteChannel":{"width":500,"depth":800,"roughness":0.013},
		"channel_length_m":500,"drainage_area_m2":9000,"rainfall":{"rainfall_mm_per_hr":50},"ground_slope":0.5}`)
	short := calc(`{"advanced":true,"channel_group":"concrete","concreteChannel":{"width":100,"depth":300,"roughness":0.011},
		"channel_length_m":20,"drainage_area_m2":144,"rainfall":{"rainfall_mm_per_hr":50}}`)
	for _, ans := range []jsonAppender{long, short, &design.SharedAnswer{Main: short, Second: long}, short} {
		w := httptest.NewRecorder()
		s.writeAnswer(w, httptest.NewRequest("POST", "/api/drainage/calculate/", nil), ans)
		ref := httptest.NewRecorder()
		writeJSON(ref, http.StatusOK, ans)
		if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "application/json" || !bytes.Equal(w.Body.Bytes(), ref.Body.Bytes()) {
			t.Fatalf("%d %q\n%.300s\nwant\n%.300s", w.Code, w.Header().Get("Content-Type"), w.Body.Bytes(), ref.Body.Bytes())
		}
		if got, want := w.Header().Get("Content-Length"), strconv.Itoa(w.Body.Len()); got != want {
			t.Errorf("Content-Length %q, want %q", got, want)
		}
	}

	w := httptest.NewRecorder()
	s.writeAnswer(w, httptest.NewRequest("POST", "/api/drainage/calculate/", nil), failingAnswer{})
	if w.Code != http.StatusInternalServerError || !bytes.Contains(w.Body.Bytes(), []byte(msgServerError)) {
		t.Errorf("failed encoding: %d %s", w.Code, w.Body.Bytes())
	}
}

type failingAnswer struct{}

func (failingAnswer) AppendJSON([]byte) ([]byte, error) {
	return nil, &json.UnsupportedValueError{Str: "NaN"}
}
