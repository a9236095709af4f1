package project

import (
	"fmt"

	"draindesign/domain/fault"
)

// ValidationError is bad input from the user: the message is shown as is.
type ValidationError struct{ Message string }

func (e *ValidationError) Error() string    { return e.Message }
func (e *ValidationError) Kind() fault.Kind { return fault.BadInput }

func invalid(format string, a ...any) error {
	return &ValidationError{Message: fmt.Sprintf(format, a...)}
}

// NotFoundError names something that does not exist (or no longer does, or
// that the asker may not see).
type NotFoundError struct{ What, ID string }

func (e *NotFoundError) Error() string    { return fmt.Sprintf("%s %s not found", e.What, e.ID) }
func (e *NotFoundError) Kind() fault.Kind { return fault.NotFound }

// ForbiddenError refuses an action the actor has no right to.
type ForbiddenError struct{ Reason string }

func (e *ForbiddenError) Error() string    { return e.Reason }
func (e *ForbiddenError) Kind() fault.Kind { return fault.Forbidden }

// UserMessage says the same for a project that does not exist and one the
// asker may not see, so nobody learns which projects exist.
func (e *NotFoundError) UserMessage() string {
	if e.What == "project" {
		return "The project could not be loaded: it does not exist or you have no access to it"
	}
	return "No such " + e.What + " in this project"
}

func (e *TooLargeError) Kind() fault.Kind { return fault.TooLarge }

// NothingToMoveError answers an undo with no edit left to undo, or a redo
// with nothing undone to bring back: the project is already where the
// asker wants it, or another tab got there first.
type NothingToMoveError struct{ Move string }

func (e *NothingToMoveError) Error() string    { return "Nothing to " + e.Move }
func (e *NothingToMoveError) Kind() fault.Kind { return fault.Conflict }
