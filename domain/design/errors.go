package design

import (
	"fmt"
	"math"
	"strconv"
)

// Messages the product shows as they are (design-tool.md section 8).
const (
	MsgNoChannel          = "No channel could be designed to fulfil the current parameters"
	MsgSelectChannel      = "Please select a channel first."
	MsgLengthMismatch     = "The channels selected don't match the specified run length."
	MsgAreaTooLarge       = "Drainage area is too large for the channel length"
	MsgDistanceTooBig     = "Distance from discharge too big"
	MsgNoAccessories      = "There are no accessories compatible with the chosen position."
	MsgNoTrashBoxes       = "There are no trash boxes for the loading rating and channel type"
	MsgNoEndCapOutlets    = "There are no end-cap outlets for the channel"
	MsgNoSystem           = "Please select a drainage system"
	MsgNoRainfall         = "Rainfall intensity must be above 0"
	MsgNoLoading          = "Please select a loading class"
	MsgNoGrating          = "Please select a grating"
	MsgNoArea             = "Drainage area must be above 0"
	MsgNoLength           = "Channel length must be above 0"
	MsgConcreteSize       = "The concrete channel width and depth must be above 0"
	MsgSteppedControlled  = "Stepped channels are not allowed with controlled discharge"
	MsgSteppedBuiltInFall = "Stepped channels are not allowed with a built-in fall"
	MsgSteppedMaterial    = "Stepped channels are not allowed for steel or concrete channels"
	MsgUphill             = "The upper elevation is below the lower elevation: the run would drain uphill. Swap the elevations"
	MsgChooseTrashBox     = "Please choose a trash box for the outflow"
	MsgChooseEndCap       = "Please choose an end cap with outlet"
)

// ValidationError is a request the calculation refuses before it starts:
// one of the rules of design-tool.md section 5. Message is the text the
// client shows; Field names the run field at fault.
type ValidationError struct {
	Field   string
	Message string
}

func (e *ValidationError) Error() string { return e.Message }

func invalid(field, format string, args ...any) error {
	return &ValidationError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// LengthMismatchError is an advanced run whose channels do not add up to
// the run length (the client's lengthDoNotMatch, reported short or long).
type LengthMismatchError struct {
	ChannelsM float64
	RunM      float64
}

// Short reports whether the channels fall short of the run.
func (e *LengthMismatchError) Short() bool { return e.ChannelsM < e.RunM }

// DifferenceM is the mismatch in metres.
func (e *LengthMismatchError) DifferenceM() float64 { return round(math.Abs(e.ChannelsM-e.RunM), 3) }

func (e *LengthMismatchError) Error() string {
	word := "long"
	if e.Short() {
		word = "short"
	}
	return fmt.Sprintf("%s The channels are %s m %s.", MsgLengthMismatch, num(e.DifferenceM()), word)
}

// CalculationError is a valid request for which no design could be made:
// no channel carries the flow, or the catalogue holds no article the
// discharge needs. A project records it as a failed calculation.
type CalculationError struct {
	Message string
	Err     error
}

func (e *CalculationError) Error() string { return e.Message }
func (e *CalculationError) Unwrap() error { return e.Err }

func failed(msg string, err error) error { return &CalculationError{Message: msg, Err: err} }

// num writes a number for a message: at most two decimals, no trailing
// zeros.
func num(v float64) string {
	return strconv.FormatFloat(round(v, 2), 'f', -1, 64)
}

func round(v float64, decimals int) float64 {
	p := math.Pow(10, float64(decimals))
	return math.Round(v*p) / p
}
