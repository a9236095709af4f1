package api

import (
	"errors"
	"net"
	"net/http"

	"draindesign/domain/fault"
	"draindesign/domain/jsonobject"
)

// maxBody bounds every JSON request: a whole saved project with its runs
// fits comfortably; anything larger is refused before it is read.
const maxBody = 4 << 20

// decode reads exactly one JSON object into v, refusing unknown fields,
// wrong types, trailing data and oversized or late bodies with a readable
// message.
func decode(w http.ResponseWriter, r *http.Request, v any) error {
	return bodyError(jsonobject.Decode(http.MaxBytesReader(w, r.Body, maxBody), v, jsonobject.Strict))
}

// bodyError words the failures of reading a body itself: too large, or
// not arriving in time. Other errors pass unchanged.
func bodyError(err error) error {
	var big *http.MaxBytesError
	var nerr net.Error
	switch {
	case errors.As(err, &big):
		return badRequestf("The request body is larger than %d bytes", big.Limit)
	case errors.As(err, &nerr) && nerr.Timeout():
		return &fault.Error{K: fault.Timeout, Message: "The request body did not arrive in time"}
	}
	return err
}
