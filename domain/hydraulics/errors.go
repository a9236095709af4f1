package hydraulics

import (
	"errors"
	"fmt"
)

// InputError reports input the engine refuses. Field names the offending
// input in the engine's own terms so that the caller can map it back to the
// run's fields.
type InputError struct {
	Field   string
	Message string
}

func (e *InputError) Error() string {
	if e.Field == "" {
		return "hydraulics: " + e.Message
	}
	return "hydraulics: " + e.Field + ": " + e.Message
}

func inputErr(field, format string, args ...any) error {
	return &InputError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// ErrNoChannel is returned by the selection functions when no candidate
// carries the flow without flooding. Its text is the product's message.
var ErrNoChannel = errors.New("No channel could be designed to fulfil the current parameters") //nolint:staticcheck // the product's message, shown verbatim

// ErrNumerical reports a result that would have contained NaN or Inf. It
// should never happen for validated input; it exists so that a defect shows as
// an error rather than as a silently wrong number.
var ErrNumerical = errors.New("hydraulics: numerical failure")
