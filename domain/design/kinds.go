package design

import "draindesign/domain/fault"

// What each error of the design package means for the caller.

func (e *ValidationError) Kind() fault.Kind { return fault.BadInput }
func (e *ValidationError) Details() map[string]any {
	if e.Field == "" {
		return nil
	}
	return map[string]any{"field": e.Field}
}

func (e *LengthMismatchError) Kind() fault.Kind { return fault.BadInput }

// Details: the client sets its lengthsNotMatching flag from lengthDoNotMatch.
func (e *LengthMismatchError) Details() map[string]any {
	return map[string]any{"lengthDoNotMatch": true, "short": e.Short(), "difference_m": e.DifferenceM()}
}

// A calculation that could not be made is the designer's to change.
func (e *CalculationError) Kind() fault.Kind { return fault.BadInput }
func (e *DecodeError) Kind() fault.Kind      { return fault.BadInput }

// Details name the run of a shared calculation an error belongs to.
func (e *SharedRunError) Details() map[string]any { return map[string]any{"run": e.Run} }
