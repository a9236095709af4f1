package storage

import "draindesign/domain/fault"

func (e *InputError) Kind() fault.Kind        { return fault.BadInput }
func (e *InputError) Details() map[string]any { return map[string]any{"field": e.Field} }
