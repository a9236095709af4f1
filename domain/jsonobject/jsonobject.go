// Package jsonobject reads exactly one JSON object into a Go value and says
// what is wrong with one that does not fit, in words a person can act on
// ("Field "channel_length_m" must be a number, not string"). HTTP request
// bodies and stored run inputs are read through it alike, so both speak
// the same messages.
package jsonobject

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"draindesign/domain/fault"
)

// Error is JSON that is not the object expected: malformed, of the wrong
// shape, or holding a field of the wrong type.
type Error struct{ Message string }

func (e *Error) Error() string    { return e.Message }
func (e *Error) Kind() fault.Kind { return fault.BadInput }

// Strictness says what to do with fields the target does not have.
type Strictness bool

const (
	// Lenient ignores unknown fields (a run object carries many the
	// calculation does not read).
	Lenient Strictness = false
	// Strict refuses them: a call's body names only the call's fields.
	Strict Strictness = true
)

// Decode reads exactly one JSON object from r into v. Errors the reader
// itself returns (a size limit, a timeout) come back unchanged, for the
// caller to word; everything else wrong is an *Error.
func Decode(r io.Reader, v any, s Strictness) error {
	src := &watched{r: r}
	dec := json.NewDecoder(src)
	if s == Strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		if src.err != nil {
			return src.err
		}
		return describe(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return &Error{"The request body must hold a single JSON object"}
	}
	return nil
}

// DecodeBytes is Decode over a byte slice that must hold an object.
func DecodeBytes(b []byte, v any, s Strictness) error {
	trimmed := bytes.TrimSpace(b)
	if len(trimmed) > 0 && trimmed[0] != '{' {
		return &Error{"The request body must be a JSON object"}
	}
	return Decode(bytes.NewReader(trimmed), v, s)
}

func describe(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return &Error{"The request body is empty; a JSON object is expected"}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &Error{"The request body is not complete JSON"}
	case errors.As(err, &syn):
		return &Error{fmt.Sprintf("Malformed JSON at byte %d", syn.Offset)}
	case errors.As(err, &typ):
		if typ.Field == "" {
			return &Error{fmt.Sprintf("The request body must be %s, not %s", kindName(typ.Type), typ.Value)}
		}
		return &Error{fmt.Sprintf("Field %q must be %s, not %s", typ.Field, kindName(typ.Type), typ.Value)}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return &Error{"Unknown field " + strings.TrimPrefix(err.Error(), "json: unknown field ")}
	}
	return &Error{fmt.Sprintf("Invalid JSON: %v", err)}
}

// watched remembers the reader's own failure (a size limit, a network
// timeout), which is no fault of the JSON and is the caller's to word.
type watched struct {
	r   io.Reader
	err error
}

func (w *watched) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		w.err = err
	}
	return n, err
}

func kindName(t reflect.Type) string {
	if t == nil {
		return "another type"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Struct, reflect.Map:
		return "a JSON object"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Float64, reflect.Float32, reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint, reflect.Uint64:
		return "a number"
	}
	return "a " + t.Kind().String()
}
