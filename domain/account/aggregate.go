package account

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Account is one user's state, rebuilt from the account stream. Read its
// fields freely; change it only through the command methods, whose events
// the caller appends and then applies.
type Account struct {
	ID            string
	Username      string
	FirstName     string
	LastName      string
	Email         string
	Company       string
	Telephone     string
	Country       string
	Address       string
	City          string
	Postcode      string
	PasswordHash  string
	Group         Group
	Language      string
	RainfallUnits string
	// DefaultAdvancedMode is the stored preference; View reports it only
	// while the group still grants advanced mode.
	DefaultAdvancedMode bool

	Confirmed bool
	Blocked   bool
	Deleted   bool
	// Erased: the personal data of a deleted account was erased.
	Erased bool

	RegisteredAt     time.Time
	ConfirmedAt      time.Time
	PasswordSetAt    time.Time
	ResetRequestedAt time.Time
	DeletedAt        time.Time

	// Tokens are the personal API tokens, live and revoked, oldest first.
	Tokens []APIToken

	// Version is the number of events applied: the stream version to pass
	// as the expected version when appending the next command's events.
	Version int64
}

// FromEvents rebuilds an account from its stream in order. An empty stream
// is ErrNotFound.
func FromEvents(events []Event) (*Account, error) {
	if len(events) == 0 {
		return nil, ErrNotFound
	}
	if _, ok := asRegistered(events[0]); !ok {
		return nil, fmt.Errorf("%w: first event is %s", ErrInvalidEventFlow, events[0].EventType())
	}
	a := &Account{}
	for _, e := range events {
		a.Apply(e)
	}
	return a, nil
}

func asRegistered(e Event) (Registered, bool) {
	switch r := e.(type) {
	case Registered:
		return r, true
	case *Registered:
		return *r, r != nil
	}
	return Registered{}, false
}

// Apply folds one event into the state. It accepts events by value or by
// pointer and never fails: events are facts, already validated when made.
func (a *Account) Apply(e Event) {
	a.Version++
	switch e := deref(e).(type) {
	case Registered:
		*a = Account{
			ID: e.UserID, Username: e.Username, FirstName: e.FirstName, LastName: e.LastName,
			Email: e.Email, Company: e.Company, Telephone: e.Telephone, Country: e.Country,
			Address: e.Address, City: e.City, Postcode: e.Postcode, PasswordHash: e.PasswordHash,
			Group: e.Group, Language: e.Language, RainfallUnits: e.RainfallUnits,
			RegisteredAt: e.At, PasswordSetAt: e.At, Version: a.Version,
		}
		// Events written before these fields had defaults carry blanks.
		if a.Language == "" {
			a.Language = DefaultLanguage
		}
		if a.RainfallUnits == "" {
			a.RainfallUnits = DefaultRainfallUnits
		}
		if a.Group == "" {
			a.Group = GroupStandard
		}
	case EmailConfirmed:
		a.Confirmed, a.ConfirmedAt = true, e.At
	case PasswordChanged:
		a.PasswordHash, a.PasswordSetAt = e.PasswordHash, e.At
	case ResetRequested:
		a.ResetRequestedAt = e.At
	case SettingsChanged:
		setIf(&a.DefaultAdvancedMode, e.DefaultAdvancedMode)
		setIf(&a.RainfallUnits, e.RainfallUnits)
		setIf(&a.Language, e.Language)
		setIf(&a.Company, e.Company)
		setIf(&a.Telephone, e.Telephone)
		setIf(&a.Address, e.Address)
		setIf(&a.City, e.City)
		setIf(&a.Postcode, e.Postcode)
	case CountryChanged:
		a.Country = e.Country
	case Blocked:
		a.Blocked = true
	case Unblocked:
		a.Blocked = false
	case GroupChanged:
		a.Group = e.To
	case Deleted:
		a.Deleted, a.DeletedAt = true, e.At
	case Erased:
		a.Erased = true
	case APITokenCreated:
		a.Tokens = append(a.Tokens, APIToken{ID: e.TokenID, Name: e.Name, Hash: e.Hash, CreatedAt: e.At})
	case APITokenRevoked:
		for i := range a.Tokens {
			if a.Tokens[i].ID == e.TokenID && a.Tokens[i].Live() {
				a.Tokens[i].RevokedAt = e.At
			}
		}
	}
}

func setIf[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// deref turns pointer events into values so Apply needs one case each.
func deref(e Event) Event {
	switch p := e.(type) {
	case *Registered:
		return *p
	case *EmailConfirmed:
		return *p
	case *PasswordChanged:
		return *p
	case *ResetRequested:
		return *p
	case *SettingsChanged:
		return *p
	case *CountryChanged:
		return *p
	case *Blocked:
		return *p
	case *Unblocked:
		return *p
	case *GroupChanged:
		return *p
	case *Deleted:
		return *p
	case *APITokenCreated:
		return *p
	case *APITokenRevoked:
		return *p
	case *Erased:
		return *p
	}
	return e
}

// Flags are the rights of the account's group.
func (a *Account) Flags() Flags { return FlagsFor(a.Group) }

// FullName is first and last name, for the staff area.
func (a *Account) FullName() string {
	return strings.TrimSpace(a.FirstName + " " + a.LastName)
}

// CanLogIn says why the account may not log in, or nil. The order matters
// for what the user is told: a deleted account is gone whatever else holds,
// and a blocked one should not be nudged to confirm its address. Check the
// password first so these reasons are only revealed to the account holder.
func (a *Account) CanLogIn() error {
	switch {
	case a.Deleted:
		return ErrDeleted
	case a.Blocked:
		return ErrBlocked
	case !a.Confirmed:
		return ErrNotConfirmed
	}
	return nil
}

// Authenticate checks the password and then CanLogIn. A wrong password is
// ErrBadCredentials; other errors mean a corrupt stored hash.
func (a *Account) Authenticate(password string) error {
	ok, err := VerifyPassword(a.PasswordHash, password)
	if err != nil {
		return fmt.Errorf("account %s: %w", a.ID, err)
	}
	if !ok {
		return ErrBadCredentials
	}
	return a.CanLogIn()
}

// Actor is who takes a staff action: the acting user's id and group.
type Actor struct {
	ID    string
	Group Group
}

// Actor describes this account as the taker of a staff action.
func (a *Account) Actor() Actor { return Actor{ID: a.ID, Group: a.Group} }

// confirmFingerprint changes when the address is confirmed (or changes), so
// a confirmation link works once.
func (a *Account) confirmFingerprint() string {
	return fmt.Sprintf("%t\x00%s", a.Confirmed, a.Email)
}

// resetFingerprint changes when the password does, so a reset link works
// once and dies as soon as the password is changed by any route.
func (a *Account) resetFingerprint() string {
	return a.PasswordHash + "\x00" + a.Email
}

// ConfirmationToken makes the token for the confirmation link.
func (a *Account) ConfirmationToken(secret []byte, now time.Time) string {
	return MakeToken(secret, PurposeConfirmEmail, a.ID, a.confirmFingerprint(), now.Add(ConfirmationTokenLifetime))
}

// CheckConfirmationToken verifies a confirmation link's token for this
// account. ErrTokenUsed here means the address is already confirmed.
func (a *Account) CheckConfirmationToken(secret []byte, token string, now time.Time) error {
	return a.checkToken(secret, PurposeConfirmEmail, token, a.confirmFingerprint(), now)
}

// ResetToken makes the token for the password-reset link.
func (a *Account) ResetToken(secret []byte, now time.Time) string {
	return MakeToken(secret, PurposeResetPassword, a.ID, a.resetFingerprint(), now.Add(ResetTokenLifetime))
}

// CheckResetToken verifies a reset link's token for this account.
func (a *Account) CheckResetToken(secret []byte, token string, now time.Time) error {
	return a.checkToken(secret, PurposeResetPassword, token, a.resetFingerprint(), now)
}

func (a *Account) checkToken(secret []byte, purpose, token, fp string, now time.Time) error {
	uid, err := TokenUserID(token)
	if err != nil {
		return err
	}
	if uid != a.ID {
		// A token for someone else, e.g. uid and token mixed up in the URL.
		return ErrTokenBadSignature
	}
	_, err = CheckToken(secret, purpose, token, fp, now)
	return err
}

// SetVersion places the account at a stream version: loading skips events
// of types this build does not know, which still count in the stream.
func (a *Account) SetVersion(v int64) { a.Version = v }

// StreamVersion is the stream version the account stands at.
func (a *Account) StreamVersion() int64 { return a.Version }

// Clone copies the account so that applying events to the copy leaves a
// unchanged (a cached account and the copies handed out change apart).
func (a *Account) Clone() *Account {
	c := *a
	c.Tokens = slices.Clone(a.Tokens)
	return &c
}
