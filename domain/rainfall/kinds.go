package rainfall

import "draindesign/domain/fault"

// Worded for the designer: outside the UK, or in the sea.
func (e *OutsideError) Kind() fault.Kind { return fault.BadInput }

func (e *InputError) Kind() fault.Kind        { return fault.BadInput }
func (e *InputError) Details() map[string]any { return map[string]any{"field": e.Field} }
func (e *InputError) UserMessage() string     { return e.Field + " " + e.Reason }
