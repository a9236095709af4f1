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

// maxSolveSteps bounds the integration steps of one solve. The runs of the
// validation tables and benchmarks take under 1,000 per reach; fuzzing
// found inputs (a 2 mm deep channel fed 57 m³/s at one point) whose
// maximum-discharge search asked for a film of micrometres upstream of the
// point inflow, which the integrator crossed in steps of 20 µm: millions
// of them, with the memory to hold them, for one calculation.
const maxSolveSteps = 100_000

// errTooManySteps is the refusal of a profile that needs more than
// maxSolveSteps.
var errTooManySteps = &InputError{Field: "flow", Message: fmt.Sprintf(
	"the water surface profile needs more than %d integration steps: the flows are out of proportion to the channel", maxSolveSteps)}
