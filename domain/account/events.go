package account

import "time"

// Stable event type names. They are written to the event store and must
// never change; add a new type instead of altering one.
const (
	TypeRegistered      = "account.registered"
	TypeEmailConfirmed  = "account.email_confirmed"
	TypePasswordChanged = "account.password_changed"
	TypeResetRequested  = "account.reset_requested"
	TypeSettingsChanged = "account.settings_changed"
	TypeCountryChanged  = "account.country_changed"
	TypeBlocked         = "account.blocked"
	TypeUnblocked       = "account.unblocked"
	TypeGroupChanged    = "account.group_changed"
	TypeDeleted         = "account.deleted"
	TypeAPITokenCreated = "account.api_token_created"
	TypeAPITokenRevoked = "account.api_token_revoked"
	TypeErased          = "account.erased"
)

// Stream is the name of the event stream holding one user's account.
func Stream(userID string) string { return "account-" + userID }

// Event is one fact about an account. Every event names its user so that
// projections reading the global log need not parse stream names.
type Event interface {
	EventType() string
	AccountID() string
}

// Registered opens an account stream.
type Registered struct {
	UserID        string    `json:"user_id"`
	Username      string    `json:"username"`
	FirstName     string    `json:"first_name"`
	LastName      string    `json:"last_name"`
	Email         string    `json:"email"`
	Company       string    `json:"company"`
	Telephone     string    `json:"telephone,omitempty"`
	Country       string    `json:"country"` // ISO 3166-1 alpha-2
	Address       string    `json:"address"`
	City          string    `json:"city"`
	Postcode      string    `json:"postcode"`
	PasswordHash  string    `json:"password_hash"`
	Group         Group     `json:"group"`
	Language      string    `json:"language"`
	RainfallUnits string    `json:"rainfall_units"`
	At            time.Time `json:"at"`
}

// EmailConfirmed records that the user followed the confirmation link (or
// proved ownership of the address through a password reset).
type EmailConfirmed struct {
	UserID string    `json:"user_id"`
	At     time.Time `json:"at"`
}

// PasswordChanged carries the new hash; the old one is never needed again.
type PasswordChanged struct {
	UserID       string    `json:"user_id"`
	PasswordHash string    `json:"password_hash"`
	At           time.Time `json:"at"`
}

// ResetRequested records a password-reset e-mail being sent, which lets the
// aggregate throttle repeated requests.
type ResetRequested struct {
	UserID string    `json:"user_id"`
	At     time.Time `json:"at"`
}

// SettingsChanged holds only the fields that changed; nil means untouched.
type SettingsChanged struct {
	UserID              string    `json:"user_id"`
	DefaultAdvancedMode *bool     `json:"default_advanced_mode,omitempty"`
	RainfallUnits       *string   `json:"rainfall_units,omitempty"`
	Language            *string   `json:"language,omitempty"`
	Company             *string   `json:"company,omitempty"`
	Telephone           *string   `json:"telephone,omitempty"`
	Address             *string   `json:"address,omitempty"`
	City                *string   `json:"city,omitempty"`
	Postcode            *string   `json:"postcode,omitempty"`
	At                  time.Time `json:"at"`
}

// CountryChanged moves the user to another market (it decides the UK or
// European product range and the web links shown).
type CountryChanged struct {
	UserID  string    `json:"user_id"`
	Country string    `json:"country"`
	At      time.Time `json:"at"`
}

// Blocked stops the user from logging in. By is the staff member's user id.
type Blocked struct {
	UserID string    `json:"user_id"`
	By     string    `json:"by"`
	At     time.Time `json:"at"`
}

// Unblocked lifts a block.
type Unblocked struct {
	UserID string    `json:"user_id"`
	By     string    `json:"by"`
	At     time.Time `json:"at"`
}

// GroupChanged moves the user to another permission group. From is kept so
// the audit trail reads without replaying the stream.
type GroupChanged struct {
	UserID string    `json:"user_id"`
	From   Group     `json:"from"`
	To     Group     `json:"to"`
	By     string    `json:"by"`
	At     time.Time `json:"at"`
}

// Deleted closes the account for good; the stream accepts no further
// commands.
type Deleted struct {
	UserID string    `json:"user_id"`
	By     string    `json:"by"`
	At     time.Time `json:"at"`
}

// Erased records that a deleted account's personal data was erased: its
// data key is gone, so the personal fields of its events read "erased"
// (docs/privacy.md). Read models that copied those fields blank them here.
type Erased struct {
	UserID string    `json:"user_id"`
	At     time.Time `json:"at"`
}

// APITokenCreated gives the user a personal API token. Only the token's
// hash is recorded: the token itself is shown to the user once and never
// stored.
type APITokenCreated struct {
	UserID  string    `json:"user_id"`
	TokenID string    `json:"token_id"`
	Name    string    `json:"name"`
	Hash    string    `json:"hash"`
	At      time.Time `json:"at"`
}

// APITokenRevoked stops a token from opening the API, for good.
type APITokenRevoked struct {
	UserID  string    `json:"user_id"`
	TokenID string    `json:"token_id"`
	At      time.Time `json:"at"`
}

func (Registered) EventType() string      { return TypeRegistered }
func (EmailConfirmed) EventType() string  { return TypeEmailConfirmed }
func (PasswordChanged) EventType() string { return TypePasswordChanged }
func (ResetRequested) EventType() string  { return TypeResetRequested }
func (SettingsChanged) EventType() string { return TypeSettingsChanged }
func (CountryChanged) EventType() string  { return TypeCountryChanged }
func (Blocked) EventType() string         { return TypeBlocked }
func (Unblocked) EventType() string       { return TypeUnblocked }
func (GroupChanged) EventType() string    { return TypeGroupChanged }
func (Deleted) EventType() string         { return TypeDeleted }
func (APITokenCreated) EventType() string { return TypeAPITokenCreated }
func (APITokenRevoked) EventType() string { return TypeAPITokenRevoked }
func (Erased) EventType() string          { return TypeErased }

func (e Registered) AccountID() string      { return e.UserID }
func (e EmailConfirmed) AccountID() string  { return e.UserID }
func (e PasswordChanged) AccountID() string { return e.UserID }
func (e ResetRequested) AccountID() string  { return e.UserID }
func (e SettingsChanged) AccountID() string { return e.UserID }
func (e CountryChanged) AccountID() string  { return e.UserID }
func (e Blocked) AccountID() string         { return e.UserID }
func (e Unblocked) AccountID() string       { return e.UserID }
func (e GroupChanged) AccountID() string    { return e.UserID }
func (e Deleted) AccountID() string         { return e.UserID }
func (e APITokenCreated) AccountID() string { return e.UserID }
func (e APITokenRevoked) AccountID() string { return e.UserID }
func (e Erased) AccountID() string          { return e.UserID }
