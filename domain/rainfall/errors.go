package rainfall

import (
	"errors"
	"fmt"
)

// The two refusals of a map point, worded for the designer.
const (
	MsgOutsideUK = "The point is outside the United Kingdom"
	MsgInSea     = "The point is in the sea; choose a place on land"
)

// Sentinels for errors.Is: an *OutsideError is one or the other.
var (
	ErrOutsideUK = errors.New(MsgOutsideUK) //nolint:staticcheck // the product's message, shown verbatim
	ErrInSea     = errors.New(MsgInSea)     //nolint:staticcheck // the product's message, shown verbatim
)

// OutsideError refuses a point the rainfall map cannot answer for: off
// the United Kingdom (abroad, or beyond its waters) or in the sea. Its
// message is meant for the designer as it stands; an HTTP layer maps it to
// 400 or 422.
type OutsideError struct {
	Latitude, Longitude float64
	InSea               bool
}

func (e *OutsideError) Error() string {
	if e.InSea {
		return MsgInSea
	}
	return MsgOutsideUK
}

// Is lets errors.Is(err, ErrInSea) and errors.Is(err, ErrOutsideUK) tell
// the two apart without a type switch.
func (e *OutsideError) Is(target error) bool {
	return (e.InSea && target == ErrInSea) || (!e.InSea && target == ErrOutsideUK)
}

// InputError reports a value of a call outside its accepted range. Field
// is the name the value has in the call's JSON (stormDuration, r, ...).
type InputError struct {
	Field  string
	Reason string
}

func (e *InputError) Error() string { return fmt.Sprintf("rainfall: %s %s", e.Field, e.Reason) }
