package project

import "fmt"

// ValidationError is bad input from the user: the message is shown as is.
type ValidationError struct{ Message string }

func (e *ValidationError) Error() string { return e.Message }

func invalid(format string, a ...any) error {
	return &ValidationError{Message: fmt.Sprintf(format, a...)}
}

// NotFoundError names something that does not exist (or no longer does).
type NotFoundError struct{ What, ID string }

func (e *NotFoundError) Error() string { return fmt.Sprintf("%s %s not found", e.What, e.ID) }

// ForbiddenError refuses an action the actor has no right to.
type ForbiddenError struct{ Reason string }

func (e *ForbiddenError) Error() string { return e.Reason }
