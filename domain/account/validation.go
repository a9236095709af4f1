package account

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ValidationError maps payload field names to their messages, the shape
// Django REST framework answers with, so the web client shows each message
// under its field. It marshals to exactly that map.
type ValidationError struct {
	Fields map[string][]string
}

func (e *ValidationError) Error() string {
	keys := slices.Sorted(maps.Keys(e.Fields))
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+": "+strings.Join(e.Fields[k], "; "))
	}
	return "account: invalid input: " + strings.Join(parts, ", ")
}

// MarshalJSON writes {"field": ["message", ...], ...}.
func (e *ValidationError) MarshalJSON() ([]byte, error) { return json.Marshal(e.Fields) }

// Add appends a message for field.
func (e *ValidationError) Add(field, msg string) {
	if e.Fields == nil {
		e.Fields = map[string][]string{}
	}
	e.Fields[field] = append(e.Fields[field], msg)
}

// orNil keeps "no problems" a true nil error rather than a typed nil.
func (e *ValidationError) orNil() error {
	if e == nil || len(e.Fields) == 0 {
		return nil
	}
	return e
}

// FieldError builds a one-field ValidationError, for checks only the caller
// can make (a username already taken, say).
func FieldError(field, msg string) *ValidationError {
	v := &ValidationError{}
	v.Add(field, msg)
	return v
}

// Messages shared with the web client's expectations (spec section 5) and
// with callers that add their own field errors.
const (
	MsgPasswordsDoNotMatch = "Passwords do not match"
	MsgUsernameChars       = "A username may contain only letters, numbers, and @/./+/-/_ characters"
	MsgInvalidEmail        = "Please enter a valid email address"
	MsgInvalidCountry      = "Please select a valid country"
	MsgInvalidTelephone    = "Please enter a valid telephone number"
	MsgUsernameTaken       = "A user with that username already exists."
	MsgEmailTaken          = "A user with that email address already exists."
	MsgWrongPassword       = "The password is not correct"
)

// Password length limits. Eight characters is the NIST SP 800-63B minimum
// for user-chosen secrets and Django's default; no composition rules,
// because they push users to predictable patterns. The upper bound only
// stops megabyte "passwords" reaching the hasher.
const (
	MinPasswordLength = 8
	MaxPasswordLength = 1024
)

// MaxUsernameLength matches Django's username field, which the web client
// was written against.
const MaxUsernameLength = 150

// fieldSpec describes a registration field: the payload key, the label used
// in messages and the longest value accepted.
type fieldSpec struct {
	key, label string
	max        int
}

var (
	fUsername     = fieldSpec{"username", "username", MaxUsernameLength}
	fFirstName    = fieldSpec{"firstName", "first name", 150}
	fLastName     = fieldSpec{"lastName", "last name", 150}
	fEmail        = fieldSpec{"email", "email address", 254}
	fCompany      = fieldSpec{"company", "company", 200}
	fTelephone    = fieldSpec{"telephone", "telephone number", 30}
	fCountry      = fieldSpec{"country", "country", 2}
	fAddress      = fieldSpec{"address", "address", 255}
	fCity         = fieldSpec{"city", "city", 100}
	fPostcode     = fieldSpec{"postcode", "postcode", 20}
	fPassword     = fieldSpec{"password", "password", MaxPasswordLength}
	fConfirmation = fieldSpec{"passwordConfirmation", "password confirmation", MaxPasswordLength}
)

// PleaseEnter is the message for a blank field: "Please enter a/an {label}".
func PleaseEnter(label string) string { return "Please enter " + WithArticle(label) }

// PleaseSelect is the message for a missing choice.
func PleaseSelect(label string) string { return "Please select " + WithArticle(label) }

// WithArticle prefixes label with "a" or "an" by how it is pronounced, not
// merely by its first letter: "an hour", "a user", "a European".
func WithArticle(label string) string {
	word := strings.ToLower(strings.Fields(label + " x")[0])
	for _, p := range []string{"hour", "honest", "honour", "heir"} {
		if strings.HasPrefix(word, p) {
			return "an " + label
		}
	}
	for _, p := range []string{"unic", "unif", "unio", "uniq", "unit", "univ", "use", "usu", "uti", "eu", "ewe", "one", "once"} {
		if strings.HasPrefix(word, p) {
			return "a " + label
		}
	}
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an " + label
	}
	return "a " + label
}

func tooLong(max int) string {
	return fmt.Sprintf("Ensure this field has no more than %d characters.", max)
}

// requireText checks a required free-text field, already trimmed.
func requireText(v *ValidationError, f fieldSpec, value string) {
	switch {
	case value == "":
		v.Add(f.key, PleaseEnter(f.label))
	case utf8.RuneCountInString(value) > f.max:
		v.Add(f.key, tooLong(f.max))
	case strings.ContainsFunc(value, unicode.IsControl):
		v.Add(f.key, "Please remove control characters from the "+f.label)
	}
}

// ValidUsername reports whether s uses only letters, digits and @ . + - _
// (Django's rule, Unicode letters included).
func ValidUsername(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("@.+-_", r) {
			return false
		}
	}
	return true
}

func checkUsername(v *ValidationError, s string) {
	switch {
	case s == "":
		v.Add(fUsername.key, PleaseEnter(fUsername.label))
	case utf8.RuneCountInString(s) > MaxUsernameLength:
		v.Add(fUsername.key, tooLong(MaxUsernameLength))
	case !ValidUsername(s):
		v.Add(fUsername.key, MsgUsernameChars)
	}
}

// emailPattern is the WHATWG rule browsers apply to <input type=email>, so
// the server accepts exactly what the registration form lets through.
var emailPattern = regexp.MustCompile("^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@" +
	`[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$`)

// ValidEmail accepts a bare address (no display name) by the browser rule,
// and additionally wants a dot in the domain: a dotless domain is legal but
// never a mailbox a customer can be reached at.
func ValidEmail(s string) bool {
	if len(s) > fEmail.max || !emailPattern.MatchString(s) {
		return false
	}
	return strings.Contains(s[strings.LastIndexByte(s, '@'):], ".")
}

func checkEmail(v *ValidationError, s string) {
	switch {
	case s == "":
		v.Add(fEmail.key, PleaseEnter(fEmail.label))
	case !ValidEmail(s):
		v.Add(fEmail.key, MsgInvalidEmail)
	}
}

// ValidTelephone allows the digits and punctuation people write numbers
// with; the field is free text to the provider, not dialled.
func ValidTelephone(s string) bool {
	digits := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case strings.ContainsRune(" +-()/.", r):
		default:
			return false
		}
	}
	return digits >= 3
}

func checkTelephone(v *ValidationError, s string) {
	switch {
	case s == "":
	case utf8.RuneCountInString(s) > fTelephone.max:
		v.Add(fTelephone.key, tooLong(fTelephone.max))
	case !ValidTelephone(s):
		v.Add(fTelephone.key, MsgInvalidTelephone)
	}
}

func checkCountry(v *ValidationError, iso string) {
	switch {
	case iso == "":
		v.Add(fCountry.key, PleaseSelect(fCountry.label))
	default:
		if _, ok := CountryByISO(iso); !ok {
			v.Add(fCountry.key, MsgInvalidCountry)
		}
	}
}

// checkNewPassword validates a new password and its confirmation under the
// given payload keys (registration and reset use different ones).
func checkNewPassword(v *ValidationError, pw, confirm, pwKey, confirmKey string) {
	n := utf8.RuneCountInString(pw)
	switch {
	case pw == "":
		v.Add(pwKey, PleaseEnter(fPassword.label))
	case n < MinPasswordLength:
		v.Add(pwKey, fmt.Sprintf("This password is too short. It must contain at least %d characters.", MinPasswordLength))
	case n > MaxPasswordLength:
		v.Add(pwKey, fmt.Sprintf("This password is too long. It must contain at most %d characters.", MaxPasswordLength))
	case strings.TrimSpace(pw) == "":
		v.Add(pwKey, "This password cannot be only spaces.")
	}
	switch {
	case confirm == "":
		v.Add(confirmKey, PleaseEnter(fConfirmation.label))
	case pw != "" && pw != confirm:
		v.Add(confirmKey, MsgPasswordsDoNotMatch)
	}
}

// ValidateNewPassword checks a password chosen outside registration (the
// reset confirmation's new_password1 / new_password2).
func ValidateNewPassword(pw1, pw2 string) error {
	v := &ValidationError{}
	checkNewPassword(v, pw1, pw2, "new_password1", "new_password2")
	return v.orNil()
}
