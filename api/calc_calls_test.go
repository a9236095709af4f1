package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
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
