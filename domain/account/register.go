package account

import (
	"strings"
	"time"

	"github.com/google/uuid"
)

// RegisterInput is the POST /drainage/register/ payload. The JSON keys are
// the ones the web client sends and the keys of any ValidationError.
type RegisterInput struct {
	Username             string `json:"username"`
	Password             string `json:"password"`
	PasswordConfirmation string `json:"passwordConfirmation"`
	FirstName            string `json:"firstName"`
	LastName             string `json:"lastName"`
	Email                string `json:"email"`
	Company              string `json:"company"`
	Telephone            string `json:"telephone"`
	Country              string `json:"country"`
	Address              string `json:"address"`
	City                 string `json:"city"`
	Postcode             string `json:"postcode"`

	// ID is the new user's id. Left empty, Register makes a random UUID;
	// set it to make a retried request land on the same stream.
	ID string `json:"-"`
}

// Normalized trims surrounding space from every text field (passwords
// excepted: spaces are characters there) and upper-cases the country code.
func (in RegisterInput) Normalized() RegisterInput {
	t := strings.TrimSpace
	in.Username, in.FirstName, in.LastName = t(in.Username), t(in.FirstName), t(in.LastName)
	in.Email, in.Company, in.Telephone = t(in.Email), t(in.Company), t(in.Telephone)
	in.Address, in.City, in.Postcode = t(in.Address), t(in.City), t(in.Postcode)
	in.Country = NormalizeISO(in.Country)
	return in
}

// Validate checks the whole form and reports every field's problems at
// once. Call it before hashing the password: hashing is the expensive part
// of registration and should not be spent on a form that will be refused.
// It does not check that the username or e-mail address is free; that needs
// the other accounts (see UsernameKey, EmailKey, MsgUsernameTaken).
func (in RegisterInput) Validate() error {
	in = in.Normalized()
	v := &ValidationError{}
	checkUsername(v, in.Username)
	checkNewPassword(v, in.Password, in.PasswordConfirmation, fPassword.key, fConfirmation.key)
	requireText(v, fFirstName, in.FirstName)
	requireText(v, fLastName, in.LastName)
	checkEmail(v, in.Email)
	requireText(v, fCompany, in.Company)
	checkTelephone(v, in.Telephone)
	checkCountry(v, in.Country)
	requireText(v, fAddress, in.Address)
	requireText(v, fCity, in.City)
	requireText(v, fPostcode, in.Postcode)
	return v.orNil()
}

// Register validates the form and returns the event opening the new
// account's stream. hash is HashPassword(in.Password), made by the caller
// between Validate and Register. New accounts are standard users with
// English and mm/h, awaiting e-mail confirmation.
func Register(in RegisterInput, hash string, now time.Time) ([]Event, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if _, err := parsePHC(hash); err != nil {
		return nil, err
	}
	in = in.Normalized()
	id := in.ID
	if id == "" {
		id = uuid.NewString()
	}
	return []Event{Registered{
		UserID: id, Username: in.Username, FirstName: in.FirstName, LastName: in.LastName,
		Email: in.Email, Company: in.Company, Telephone: in.Telephone, Country: in.Country,
		Address: in.Address, City: in.City, Postcode: in.Postcode, PasswordHash: hash,
		Group: GroupStandard, Language: DefaultLanguage, RainfallUnits: DefaultRainfallUnits,
		At: now.UTC(),
	}}, nil
}

// UsernameKey is the form under which usernames are unique: case-folded,
// so "Anna" and "anna" cannot both register and be confused at login.
func UsernameKey(username string) string { return strings.ToLower(strings.TrimSpace(username)) }

// EmailKey is the form under which e-mail addresses are unique. The whole
// address is case-folded: mailbox names are case-sensitive in theory but
// never in practice, and a reset request must find exactly one account.
func EmailKey(email string) string { return strings.ToLower(strings.TrimSpace(email)) }
