package account

import (
	"errors"
	"fmt"
)

// Sentinel errors for state that forbids a command or a login. Callers
// match them with errors.Is; the messages are for logs, not for users.
var (
	ErrNotFound         = errors.New("account: not found")
	ErrDeleted          = errors.New("account: deleted")
	ErrBlocked          = errors.New("account: blocked")
	ErrNotConfirmed     = errors.New("account: e-mail address not confirmed")
	ErrBadCredentials   = errors.New("account: wrong username or password")
	ErrResetTooSoon     = errors.New("account: password reset requested too recently")
	ErrForbidden        = errors.New("account: not allowed")
	ErrAlreadyExists    = errors.New("account: already registered")
	ErrInvalidEventFlow = errors.New("account: event stream does not start with registration")
)

// ForbiddenError says which actor may not take which action on whom. It
// matches ErrForbidden.
type ForbiddenError struct {
	Action string
	Actor  string
	Target string
	Reason string
}

func (e *ForbiddenError) Error() string {
	return fmt.Sprintf("account: %s on %s by %s not allowed: %s", e.Action, e.Target, e.Actor, e.Reason)
}

func (e *ForbiddenError) Is(target error) bool { return target == ErrForbidden }
