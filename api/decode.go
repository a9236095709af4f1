package api

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"

	"draindesign/domain/fault"
)

// maxBody bounds every JSON request: a whole saved project with its runs
// fits comfortably; anything larger is refused before it is read.
const maxBody = 4 << 20

// decode reads exactly one JSON object into v, refusing unknown fields,
// wrong types, trailing data and oversized bodies with a readable message.
func decode(w http.ResponseWriter, r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if err := dec.Decode(&struct{}{}); err != io.EOF {
		return badRequestf("The request body must hold a single JSON object")
	}
	return nil
}

func decodeError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var big *http.MaxBytesError
	var nerr net.Error
	switch {
	case errors.As(err, &nerr) && nerr.Timeout():
		return &fault.Error{K: fault.Timeout, Message: "The request body did not arrive in time"}
	case errors.Is(err, io.EOF):
		return badRequestf("The request body is empty; a JSON object is expected")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return badRequestf("The request body is not complete JSON")
	case errors.As(err, &syn):
		return badRequestf("Malformed JSON at byte %d", syn.Offset)
	case errors.As(err, &typ):
		if typ.Field == "" {
			return badRequestf("The request body must be %s, not %s", kind(typ.Type.Kind().String()), typ.Value)
		}
		return badRequestf("Field %q must be %s, not %s", typ.Field, kind(typ.Type.Kind().String()), typ.Value)
	case errors.As(err, &big):
		return badRequestf("The request body is larger than %d bytes", big.Limit)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return badRequestf("Unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return badRequestf("Invalid JSON: %v", err)
}

func kind(k string) string {
	switch k {
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "struct", "map":
		return "a JSON object"
	case "slice", "array":
		return "a list"
	case "int", "int64", "int32", "uint", "uint64", "float64", "float32":
		return "a number"
	}
	return "a " + k
}
