package storage

import "fmt"

// InputError reports a value of the controlled-discharge call that cannot
// be used. Field is its name in the call's JSON ("channel_length_m",
// "rainfall.fiveMinuteRate"); the message is meant for the designer as it
// stands, and an HTTP layer answers it with 400.
type InputError struct {
	Field  string
	Reason string
}

func (e *InputError) Error() string { return fmt.Sprintf("%s %s", e.Field, e.Reason) }

func inputf(field, format string, a ...any) error {
	return &InputError{Field: field, Reason: fmt.Sprintf(format, a...)}
}
