package jsonobject

import (
	"errors"
	"io"
	"strings"
	"testing"
)

type target struct {
	Name   string  `json:"name"`
	Length float64 `json:"length"`
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name, body string
		strict     Strictness
		want       string // part of the message; "" for success
	}{
		{"fits", `{"name": "Run 1", "length": 20}`, Strict, ""},
		{"unknown field, lenient", `{"name": "Run 1", "colour": "red"}`, Lenient, ""},
		{"unknown field, strict", `{"name": "Run 1", "colour": "red"}`, Strict, `Unknown field "colour"`},
		{"empty", ``, Strict, "empty"},
		{"incomplete", `{"name": `, Strict, "not complete JSON"},
		{"malformed", `{"name": nope}`, Strict, "Malformed JSON at byte"},
		{"wrong type", `{"length": "abc"}`, Lenient, `Field "length" must be a number, not string`},
		{"not an object", `[1, 2]`, Strict, "must be a JSON object"},
		{"trailing data", `{} {}`, Strict, "single JSON object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var v target
			err := DecodeBytes([]byte(tc.body), &v, tc.strict)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("error %v", err)
				}
				return
			}
			var bad *Error
			if !errors.As(err, &bad) || !strings.Contains(bad.Message, tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// A failing reader is the caller's to word: its error comes back as it is.
func TestReaderErrorsPassThrough(t *testing.T) {
	cut := errors.New("cut off")
	err := Decode(io.MultiReader(strings.NewReader(`{"name": "Ru`), failing{cut}), &target{}, Strict)
	if !errors.Is(err, cut) {
		t.Fatalf("error %v, want the reader's own", err)
	}
}

type failing struct{ err error }

func (f failing) Read([]byte) (int, error) { return 0, f.err }

// Whatever the bytes, Decode never panics, and every refusal is a worded
// *Error (a bare encoding/json error would reach users as a server fault).
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"name":"a","length":1}`, `{`, `[]`, `{"length":"x"}`, `{} {}`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v target
		if err := DecodeBytes(b, &v, Strict); err != nil {
			var bad *Error
			if !errors.As(err, &bad) || bad.Message == "" {
				t.Fatalf("error %v is not a worded *Error", err)
			}
		}
	})
}
