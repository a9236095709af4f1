package account

import (
	"fmt"
	"strings"
	"time"
)

// Commands return the events to append (none when the command changes
// nothing) or an error; they never modify the account themselves. Every
// command on a deleted account fails with ErrDeleted.

// ResetThrottle is the least time between two password-reset e-mails for
// one account, so the form cannot be used to flood someone's mailbox.
const ResetThrottle = time.Minute

func (a *Account) alive() error {
	if a == nil || a.ID == "" {
		return ErrNotFound
	}
	if a.Deleted {
		return ErrDeleted
	}
	return nil
}

// ConfirmEmail marks the address confirmed. Confirming twice is a no-op
// (no events, no error): a user clicking the link again should simply be
// let through, not shown an error.
func (a *Account) ConfirmEmail(now time.Time) ([]Event, error) {
	if err := a.alive(); err != nil {
		return nil, err
	}
	if a.Confirmed {
		return nil, nil
	}
	return []Event{EmailConfirmed{UserID: a.ID, At: now.UTC()}}, nil
}

// ChangePassword stores a new hash made by HashPassword, for a logged-in
// user changing their password or a rehash after login (see NeedsRehash).
func (a *Account) ChangePassword(newHash string, now time.Time) ([]Event, error) {
	if err := a.alive(); err != nil {
		return nil, err
	}
	if _, err := parsePHC(newHash); err != nil {
		return nil, err
	}
	return []Event{PasswordChanged{UserID: a.ID, PasswordHash: newHash, At: now.UTC()}}, nil
}

// ResetPassword completes a reset link: the new hash, plus confirmation of
// the address if still pending, since following a link sent to it proves
// the user owns it. Check the token (CheckResetToken) first.
func (a *Account) ResetPassword(newHash string, now time.Time) ([]Event, error) {
	events, err := a.ChangePassword(newHash, now)
	if err != nil {
		return nil, err
	}
	if !a.Confirmed {
		events = append(events, EmailConfirmed{UserID: a.ID, At: now.UTC()})
	}
	return events, nil
}

// RequestReset records that a reset e-mail is to be sent. Blocked accounts
// get none (they could not log in afterwards anyway), and requests closer
// than ResetThrottle are refused with ErrResetTooSoon. The caller answers
// the same success text whatever the outcome, so the form does not reveal
// which addresses have accounts.
func (a *Account) RequestReset(now time.Time) ([]Event, error) {
	if err := a.alive(); err != nil {
		return nil, err
	}
	if a.Blocked {
		return nil, ErrBlocked
	}
	if !a.ResetRequestedAt.IsZero() && now.Sub(a.ResetRequestedAt) < ResetThrottle {
		return nil, ErrResetTooSoon
	}
	return []Event{ResetRequested{UserID: a.ID, At: now.UTC()}}, nil
}

// ChangeSettings validates the given fields and returns one event holding
// those that differ from the current values, or no event at all. Company is
// accepted although the settings dialog shows it read-only: it is only a
// label on documents, and staff may want to correct it through the API.
func (a *Account) ChangeSettings(in SettingsInput, now time.Time) ([]Event, error) {
	if err := a.alive(); err != nil {
		return nil, err
	}
	v := &ValidationError{}
	ev := SettingsChanged{UserID: a.ID, At: now.UTC()}
	changed := false

	if in.DefaultAdvancedMode != nil && *in.DefaultAdvancedMode != a.DefaultAdvancedMode {
		if *in.DefaultAdvancedMode && !a.Flags().HasAdvancedMode {
			v.Add("default_advanced_mode", MsgNoAdvancedMode)
		} else {
			ev.DefaultAdvancedMode, changed = ptr(*in.DefaultAdvancedMode), true
		}
	}
	if in.RainfallUnits != nil {
		if u, ok := ParseRainfallUnits(*in.RainfallUnits); !ok {
			v.Add("rainfall_units", MsgInvalidRainfallUnits)
		} else if u != a.RainfallUnits {
			ev.RainfallUnits, changed = ptr(u), true
		}
	}
	if in.Language != nil {
		l := strings.ToLower(strings.TrimSpace(*in.Language))
		if !ValidLanguage(l) {
			v.Add("language", MsgInvalidLanguage)
		} else if l != a.Language {
			ev.Language, changed = ptr(l), true
		}
	}
	text := func(in *string, f fieldSpec, cur string, dst **string) {
		if in == nil {
			return
		}
		s := strings.TrimSpace(*in)
		before := len(v.Fields[f.key])
		if f == fTelephone {
			checkTelephone(v, s)
		} else {
			requireText(v, f, s)
		}
		if len(v.Fields[f.key]) == before && s != cur {
			*dst, changed = ptr(s), true
		}
	}
	text(in.Company, fCompany, a.Company, &ev.Company)
	text(in.Telephone, fTelephone, a.Telephone, &ev.Telephone)
	text(in.Address, fAddress, a.Address, &ev.Address)
	text(in.City, fCity, a.City, &ev.City)
	text(in.Postcode, fPostcode, a.Postcode, &ev.Postcode)

	if err := v.orNil(); err != nil {
		return nil, err
	}
	if !changed {
		return nil, nil
	}
	return []Event{ev}, nil
}

func ptr[T any](v T) *T { return &v }

// ChangeCountry moves the user to another country, which only groups with
// can_change_country may do themselves (the country picks the market
// version, so customers keep the one they registered with). Field errors
// use the key "country", as in the payload.
func (a *Account) ChangeCountry(iso string, now time.Time) ([]Event, error) {
	if err := a.alive(); err != nil {
		return nil, err
	}
	if !a.Flags().CanChangeCountry {
		return nil, &ForbiddenError{Action: "change country", Actor: a.ID, Target: a.ID,
			Reason: fmt.Sprintf("group %s may not change country", a.Group)}
	}
	iso = NormalizeISO(iso)
	v := &ValidationError{}
	checkCountry(v, iso)
	if err := v.orNil(); err != nil {
		return nil, err
	}
	if iso == a.Country {
		return nil, nil
	}
	return []Event{CountryChanged{UserID: a.ID, Country: iso, At: now.UTC()}}, nil
}

// staffCheck applies the rules shared by every staff action: the target
// exists, the actor reaches the staff area, may manage the target's group,
// and is not acting on itself (which guarantees at least one super
// administrator always remains).
func (a *Account) staffCheck(action string, by Actor, allowed bool) error {
	if err := a.alive(); err != nil {
		return err
	}
	deny := func(reason string) error {
		return &ForbiddenError{Action: action, Actor: by.ID, Target: a.ID, Reason: reason}
	}
	switch {
	case by.ID == "":
		return deny("no actor")
	case by.ID == a.ID:
		return deny("staff actions cannot target oneself")
	case !CanAccessStaff(by.Group):
		return deny(fmt.Sprintf("group %s has no staff access", by.Group))
	case !allowed:
		return deny(fmt.Sprintf("group %s may not do this to a %s account", by.Group, a.Group))
	}
	return nil
}

// Block stops the account from logging in. Blocking a blocked account is a
// no-op.
func (a *Account) Block(by Actor, now time.Time) ([]Event, error) {
	if err := a.staffCheck("block", by, CanBlock(by.Group, a.Group)); err != nil {
		return nil, err
	}
	if a.Blocked {
		return nil, nil
	}
	return []Event{Blocked{UserID: a.ID, By: by.ID, At: now.UTC()}}, nil
}

// Unblock lifts a block. Unblocking an account that is not blocked is a
// no-op.
func (a *Account) Unblock(by Actor, now time.Time) ([]Event, error) {
	if err := a.staffCheck("unblock", by, CanBlock(by.Group, a.Group)); err != nil {
		return nil, err
	}
	if !a.Blocked {
		return nil, nil
	}
	return []Event{Unblocked{UserID: a.ID, By: by.ID, At: now.UTC()}}, nil
}

// ChangeGroup moves the account to group to. Moving it to its own group is
// a no-op; an unknown group is a validation error under "group".
func (a *Account) ChangeGroup(by Actor, to Group, now time.Time) ([]Event, error) {
	if err := a.staffCheck("change group", by, CanManage(by.Group, a.Group)); err != nil {
		return nil, err
	}
	if !to.Valid() {
		return nil, FieldError("group", "Please select a valid group")
	}
	if !CanChangeGroup(by.Group, a.Group, to) {
		return nil, &ForbiddenError{Action: "change group", Actor: by.ID, Target: a.ID,
			Reason: fmt.Sprintf("group %s may not grant %s", by.Group, to)}
	}
	if to == a.Group {
		return nil, nil
	}
	return []Event{GroupChanged{UserID: a.ID, From: a.Group, To: to, By: by.ID, At: now.UTC()}}, nil
}

// Delete closes the account for good.
func (a *Account) Delete(by Actor, now time.Time) ([]Event, error) {
	if err := a.staffCheck("delete", by, CanDelete(by.Group, a.Group)); err != nil {
		return nil, err
	}
	return []Event{Deleted{UserID: a.ID, By: by.ID, At: now.UTC()}}, nil
}

// DeleteOwn closes the user's own account for good, on the user's
// password (a stolen session alone must not delete an account).
func (a *Account) DeleteOwn(password string, now time.Time) ([]Event, error) {
	if a.Deleted {
		return nil, ErrDeleted
	}
	ok, err := VerifyPassword(a.PasswordHash, password)
	if err != nil {
		return nil, fmt.Errorf("account %s: %w", a.ID, err)
	}
	if !ok {
		return nil, FieldError("password", MsgWrongPassword)
	}
	return []Event{Deleted{UserID: a.ID, By: a.ID, At: now.UTC()}}, nil
}

// Erase records the erasure of a deleted account's personal data; erasing
// twice is a no-op, erasing a live account an error.
func (a *Account) Erase(now time.Time) ([]Event, error) {
	switch {
	case !a.Deleted:
		return nil, fmt.Errorf("%w: erase account %s that is not deleted", ErrInvalidEventFlow, a.ID)
	case a.Erased:
		return nil, nil
	}
	return []Event{Erased{UserID: a.ID, At: now.UTC()}}, nil
}
