package account

import "draindesign/domain/fault"

func (e *ValidationError) Kind() fault.Kind { return fault.BadInput }

// Details are the per-field messages as the registration form reads them.
func (e *ValidationError) Details() map[string]any {
	out := make(map[string]any, len(e.Fields))
	for f, msgs := range e.Fields {
		out[f] = msgs
	}
	return out
}

func (e *ForbiddenError) Kind() fault.Kind { return fault.Forbidden }

func (e *ForbiddenError) UserMessage() string { return e.Reason }
