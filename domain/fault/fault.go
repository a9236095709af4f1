// Package fault gives domain and application errors a kind (bad input, not
// found, conflict, forbidden, limit...), so the HTTP layer can map any error
// to a status in one small function without knowing every error type. In
// the spirit of wild-workouts' slug errors: the error keeps its own type and
// message; the kind is what it says about the caller's next step.
package fault

import (
	"errors"
	"fmt"
	"time"
)

// Kind is what an error means for the caller.
type Kind int

const (
	// Internal is everything not marked otherwise: a server fault.
	Internal Kind = iota
	// BadInput is input the caller must fix.
	BadInput
	// TooLarge is input over a size bound.
	TooLarge
	// Unauthenticated asks the caller to sign in (again).
	Unauthenticated
	// Forbidden refuses an action the caller may know exists.
	Forbidden
	// NotFound is a thing that does not exist, or that the caller may not
	// know exists: both answer alike.
	NotFound
	// Conflict is a write that lost a race or decided on stale state.
	Conflict
	// Limit is a rate or concurrency limit; RetryAfter may say when to retry.
	Limit
	// Timeout is a request that did not arrive in time.
	Timeout
	// Unavailable is a service the server needs (its database) out for a
	// moment, as in a restart: the same request may succeed shortly;
	// RetryAfter may say when.
	Unavailable
)

func (k Kind) String() string {
	switch k {
	case BadInput:
		return "bad input"
	case TooLarge:
		return "too large"
	case Unauthenticated:
		return "unauthenticated"
	case Forbidden:
		return "forbidden"
	case NotFound:
		return "not found"
	case Conflict:
		return "conflict"
	case Limit:
		return "limit"
	case Timeout:
		return "timeout"
	case Unavailable:
		return "unavailable"
	}
	return "internal"
}

// Kinded is implemented by every error that knows its kind.
type Kinded interface {
	error
	Kind() Kind
}

// Detailed errors add fields to the answer beside "error" (the field at
// fault, the run of a shared calculation...).
type Detailed interface {
	Details() map[string]any
}

// Error is a ready-made kinded error with a message for the user.
type Error struct {
	K          Kind
	Message    string
	Fields     map[string]any
	RetryAfter time.Duration
	Err        error
}

func (e *Error) Error() string {
	if e.Err != nil && e.Message == "" {
		return e.Err.Error()
	}
	return e.Message
}
func (e *Error) Kind() Kind              { return e.K }
func (e *Error) Unwrap() error           { return e.Err }
func (e *Error) Details() map[string]any { return e.Fields }

// New makes an error of kind k with a formatted message.
func New(k Kind, format string, a ...any) *Error {
	return &Error{K: k, Message: fmt.Sprintf(format, a...)}
}

// Of is the kind of err: that of the first kinded error in its chain, or
// Internal.
func Of(err error) Kind {
	var k Kinded
	if errors.As(err, &k) {
		return k.Kind()
	}
	return Internal
}

// Worded errors have a text for users that differs from their Error(),
// which is written for logs.
type Worded interface {
	UserMessage() string
}

// Message is the user-facing text of the first kinded error in err's chain.
func Message(err error) string {
	var k Kinded
	if !errors.As(err, &k) {
		return ""
	}
	if w, ok := k.(Worded); ok {
		return w.UserMessage()
	}
	return k.Error()
}

// DetailsOf merges the details of every detailed error in err's chain,
// outer errors winning.
func DetailsOf(err error) map[string]any {
	out := map[string]any{}
	for e := err; e != nil; e = errors.Unwrap(e) {
		if d, ok := e.(Detailed); ok {
			for k, v := range d.Details() {
				if _, taken := out[k]; !taken {
					out[k] = v
				}
			}
		}
	}
	return out
}

// RetryAfter is how long a Limit or Unavailable error asks the caller to
// wait (0: unsaid).
func RetryAfter(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}
