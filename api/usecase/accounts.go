package usecase

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/fault"
	"draindesign/eventstore"
	"draindesign/eventstore/aggregate"
	"draindesign/projections"

	"github.com/google/uuid"
)

// Sessions ends sessions when an account may no longer use them.
type Sessions interface {
	EndAll(ctx context.Context, userID string) error
}

// Accounts are the use cases of accounts.
type Accounts struct {
	repo     *aggregate.Repository[*account.Account, account.Event]
	store    eventstore.Store
	sessions Sessions
	secret   []byte
	now      func() time.Time
	// runner, when set, lets a staff action wait until this instance's
	// read models show it, so the staff list asked for next has it.
	runner *projections.Runner
	hash   func(string) (string, error)

	eraser Eraser
	db     *projections.DB
	caches *Caches
}

// NewAccounts builds the account use cases. secret signs the mailed
// confirmation and reset links.
func NewAccounts(cfg Config, sessions Sessions, secret []byte) *Accounts {
	cfg = cfg.withDefaults()
	return &Accounts{
		repo: &aggregate.Repository[*account.Account, account.Event]{
			Store: cfg.Store, Codec: accountCodec{}, Stream: account.Stream,
			New:      func() *account.Account { return &account.Account{} },
			Missing:  func(string) error { return account.ErrNotFound },
			Appended: cfg.Appended, Skipped: cfg.skipped("account"), NewID: NewID, Now: cfg.Now,
			Cache: cfg.Caches.accountCache(),
		},
		store: cfg.Store, sessions: sessions, secret: secret, now: cfg.Now, runner: cfg.Runner,
		hash: cfg.HashPassword,

		eraser: cfg.Eraser, db: cfg.DB, caches: cfg.Caches,
	}
}

func (u *Accounts) clock() time.Time { return u.now().UTC() }

// Load rebuilds an account; account.ErrNotFound if there is none.
func (u *Accounts) Load(ctx context.Context, id string) (*account.Account, error) {
	return u.LoadRecent(ctx, id, 0)
}

// LoadRecent is Load content with the account as this instance found it
// within the last within (aggregate.Repository.LoadRecent; 0: Load).
func (u *Accounts) LoadRecent(ctx context.Context, id string, within time.Duration) (*account.Account, error) {
	if id == "" {
		return nil, account.ErrNotFound
	}
	a, err := u.repo.LoadRecent(ctx, id, within)
	if err != nil {
		return nil, err
	}
	if a.ID == "" {
		return nil, fmt.Errorf("load account %s: %w", id, account.ErrInvalidEventFlow)
	}
	return a, nil
}

// Recheck finds current, in one read, the cached accounts LoadRecent was
// asked for within the last active (aggregate.Repository.Recheck).
func (u *Accounts) Recheck(ctx context.Context, active time.Duration) error {
	return u.repo.Recheck(ctx, active)
}

// CatchUp brings a, loaded earlier, up to date with its stream: a live
// connection re-checks its account every second this way, reading only the
// events since, not the whole stream (and decrypting none it has seen).
func (u *Accounts) CatchUp(ctx context.Context, a *account.Account) error {
	return u.repo.CatchUp(ctx, a.ID, a)
}

func (u *Accounts) update(ctx context.Context, by Actor, id string, decide func(*account.Account) ([]account.Event, error)) (*account.Account, error) {
	if id == "" {
		return nil, account.ErrNotFound
	}
	return u.repo.Update(ctx, id, -1, by.meta(), nil, decide)
}

// Reservations make uniqueness across streams a matter of one stream's
// expected version: claiming a name is appending to its stream.
const (
	typeClaimed  = "reservation.claimed"
	typeReleased = "reservation.released"
)

type reservation struct {
	UserID string `json:"user_id"`
}

// Reservation streams are named by a SHA-256 of the name or address, so
// the log holds neither in clear; erasure deletes them (docs/privacy.md).
// Reservations made before were named by the key itself: they are still
// honoured, read after the hashed ones.
func usernameStream(name string) string {
	return "username-" + reservationKey(account.UsernameKey(name))
}
func emailStream(email string) string { return "email-" + reservationKey(account.EmailKey(email)) }

func legacyUsernameStream(name string) string { return "username-" + account.UsernameKey(name) }
func legacyEmailStream(email string) string   { return "email-" + account.EmailKey(email) }

func reservationKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return "sha256-" + hex.EncodeToString(sum[:])
}

var errTaken = errors.New("taken")

// claim takes a reserved key for userID; errTaken if someone holds it.
func (u *Accounts) claim(ctx context.Context, stream string, by Actor, userID string) error {
	evs, err := u.store.ReadStream(ctx, stream, 1, 0)
	if err != nil {
		return fmt.Errorf("read reservation %s: %w", stream, err)
	}
	if len(evs) > 0 && evs[len(evs)-1].Type == typeClaimed {
		return errTaken
	}
	err = u.reserve(ctx, stream, eventstore.Exactly(int64(len(evs))), typeClaimed, by, userID)
	if errors.Is(err, eventstore.ErrConflict) {
		return errTaken
	}
	return err
}

func (u *Accounts) release(ctx context.Context, stream string, by Actor, userID string) error {
	v, err := u.store.StreamVersion(ctx, stream)
	if err != nil {
		return err
	}
	return u.reserve(ctx, stream, eventstore.Exactly(v), typeReleased, by, userID)
}

func (u *Accounts) reserve(ctx context.Context, stream string, expected eventstore.ExpectedVersion, typ string, by Actor, userID string) error {
	data, err := json.Marshal(reservation{UserID: userID})
	if err != nil {
		return err
	}
	meta := by.meta()
	if meta.UserID == "" {
		meta.UserID = userID
	}
	_, err = u.store.Append(ctx, stream, expected, eventstore.NewEvent{
		ID: NewID(), Type: typ, Data: data,
		Metadata: eventstore.Metadata{Author: meta.UserID, CorrelationID: meta.CorrelationID, CausationID: meta.CausationID, Time: u.clock()},
	})
	return err
}

// holder is the user id holding a reservation, or "".
func (u *Accounts) holder(ctx context.Context, stream string) (string, error) {
	evs, err := u.store.ReadStream(ctx, stream, 1, 0)
	if err != nil {
		return "", fmt.Errorf("read reservation %s: %w", stream, err)
	}
	if len(evs) == 0 || evs[len(evs)-1].Type != typeClaimed {
		return "", nil
	}
	var r reservation
	if err := json.Unmarshal(evs[len(evs)-1].Data, &r); err != nil {
		return "", fmt.Errorf("read reservation %s: %w", stream, err)
	}
	return r.UserID, nil
}

// ByUsername finds an account by username (case-insensitive).
func (u *Accounts) ByUsername(ctx context.Context, username string) (*account.Account, error) {
	return u.byReservation(ctx, usernameStream(username), legacyUsernameStream(username))
}

// ByEmail finds an account by e-mail address (case-insensitive).
func (u *Accounts) ByEmail(ctx context.Context, email string) (*account.Account, error) {
	return u.byReservation(ctx, emailStream(email), legacyEmailStream(email))
}

// byReservation loads the holder of the first of streams that is held.
func (u *Accounts) byReservation(ctx context.Context, streams ...string) (*account.Account, error) {
	for _, stream := range streams {
		id, err := u.holder(ctx, stream)
		if err != nil {
			return nil, err
		}
		if id != "" {
			return u.Load(ctx, id)
		}
	}
	return nil, account.ErrNotFound
}

// heldLegacy says whether a reservation made before reservation names were
// hashed holds stream.
func (u *Accounts) heldLegacy(ctx context.Context, stream string) (bool, error) {
	id, err := u.holder(ctx, stream)
	return id != "", err
}

// Register creates an account in group, speaking lang (a product language
// code; empty keeps the default). The form is validated before the
// password is hashed, and the username and e-mail are claimed before the
// account stream is written, so two racing registrations cannot both win.
func (u *Accounts) Register(ctx context.Context, by Actor, in account.RegisterInput, group account.Group, lang string) (*account.Account, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	hash, err := u.hash(in.Password)
	if err != nil {
		return nil, fmt.Errorf("register: %w", err)
	}
	if in.ID == "" {
		in.ID = uuid.NewString()
	}
	evs, err := account.Register(in, hash, u.clock())
	if err != nil {
		return nil, err
	}
	if reg, ok := evs[0].(account.Registered); ok {
		if group != "" {
			reg.Group = group
		}
		if account.ValidLanguage(lang) {
			reg.Language = lang
		}
		evs[0] = reg
	}
	in = in.Normalized()
	if held, err := u.heldLegacy(ctx, legacyUsernameStream(in.Username)); err != nil {
		return nil, err
	} else if held {
		return nil, account.FieldError("username", account.MsgUsernameTaken)
	}
	if held, err := u.heldLegacy(ctx, legacyEmailStream(in.Email)); err != nil {
		return nil, err
	} else if held {
		return nil, account.FieldError("email", account.MsgEmailTaken)
	}
	if err := u.claim(ctx, usernameStream(in.Username), by, in.ID); errors.Is(err, errTaken) {
		return nil, account.FieldError("username", account.MsgUsernameTaken)
	} else if err != nil {
		return nil, err
	}
	if err := u.claim(ctx, emailStream(in.Email), by, in.ID); err != nil {
		if rerr := u.release(ctx, usernameStream(in.Username), by, in.ID); rerr != nil {
			return nil, fmt.Errorf("release username after failed registration: %w", rerr)
		}
		if errors.Is(err, errTaken) {
			return nil, account.FieldError("email", account.MsgEmailTaken)
		}
		return nil, err
	}
	meta := by.meta()
	if meta.UserID == "" {
		meta.UserID = in.ID // a registration is the new user's own act
	}
	return u.repo.Create(ctx, in.ID, meta, evs)
}

// ConfirmEmail confirms the address a mailed link was sent to.
func (u *Accounts) ConfirmEmail(ctx context.Context, by Actor, uid, token string) error {
	_, err := u.update(ctx, u.self(by, uid), uid, func(a *account.Account) ([]account.Event, error) {
		if err := a.CheckConfirmationToken(u.secret, token, u.clock()); err != nil {
			return nil, err
		}
		return a.ConfirmEmail(u.clock())
	})
	return err
}

// self is an anonymous actor acting on their own account (a mailed link).
func (u *Accounts) self(by Actor, uid string) Actor {
	if by.User == nil {
		by.User = &account.Account{ID: uid}
	}
	return by
}

// ConfirmationToken is the token of the link that confirms a's address.
func (u *Accounts) ConfirmationToken(a *account.Account) string {
	return a.ConfirmationToken(u.secret, u.clock())
}

// RequestReset records a password reset request for the account with that
// address and answers it with the link token; (nil, "", nil) when there is
// nothing to send (no such account, too soon, blocked or deleted), which
// the caller must answer exactly like a sent mail.
func (u *Accounts) RequestReset(ctx context.Context, by Actor, email string) (*account.Account, string, error) {
	a, err := u.ByEmail(ctx, email)
	if errors.Is(err, account.ErrNotFound) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	a, err = u.update(ctx, u.self(by, a.ID), a.ID, func(a *account.Account) ([]account.Event, error) {
		return a.RequestReset(u.clock())
	})
	if errors.Is(err, account.ErrResetTooSoon) || errors.Is(err, account.ErrDeleted) || errors.Is(err, account.ErrBlocked) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	token := a.ResetToken(u.secret, u.clock())
	return a, token, nil
}

// ResetPassword sets a new password through a mailed reset link and ends
// every session of the account.
func (u *Accounts) ResetPassword(ctx context.Context, by Actor, uid, token, new1, new2 string) error {
	if err := account.ValidateNewPassword(new1, new2); err != nil {
		return err
	}
	hash, err := account.HashPassword(new1)
	if err != nil {
		return err
	}
	_, err = u.update(ctx, u.self(by, uid), uid, func(a *account.Account) ([]account.Event, error) {
		if err := a.CheckResetToken(u.secret, token, u.clock()); err != nil {
			return nil, err
		}
		return a.ResetPassword(hash, u.clock())
	})
	if errors.Is(err, account.ErrTokenInvalid) || errors.Is(err, account.ErrNotFound) || errors.Is(err, account.ErrDeleted) {
		return account.FieldError("token", "The link is invalid, probably because it has already been used. Please request a new password reset.")
	}
	if err != nil {
		return err
	}
	return u.sessions.EndAll(ctx, uid)
}

// ChangeSettings changes the actor's own settings.
func (u *Accounts) ChangeSettings(ctx context.Context, by Actor, in account.SettingsInput) (*account.Account, error) {
	if err := by.sessionOnly(); err != nil {
		return nil, err
	}
	return u.update(ctx, by, by.userID(), func(a *account.Account) ([]account.Event, error) {
		return a.ChangeSettings(in, u.clock())
	})
}

// ChangeCountry changes the actor's own country, where the group allows.
func (u *Accounts) ChangeCountry(ctx context.Context, by Actor, iso string) (*account.Account, error) {
	if err := by.sessionOnly(); err != nil {
		return nil, err
	}
	return u.update(ctx, by, by.userID(), func(a *account.Account) ([]account.Event, error) {
		return a.ChangeCountry(iso, u.clock())
	})
}

// staff runs a staff action on the account id; the domain decides whether
// the acting staff member may. An account that can no longer log in loses
// its sessions at once (and with them its live streams).
func (u *Accounts) staff(ctx context.Context, by Actor, id string, act func(a *account.Account, staff account.Actor, now time.Time) ([]account.Event, error)) (*account.Account, error) {
	if by.User == nil || !account.CanAccessStaff(by.User.Group) {
		return nil, fault.New(fault.Forbidden, "Only staff may do this")
	}
	if err := by.sessionOnly(); err != nil {
		return nil, err
	}
	a, err := u.update(ctx, by, id, func(a *account.Account) ([]account.Event, error) {
		return act(a, by.User.Actor(), u.clock())
	})
	if err != nil {
		return nil, err
	}
	if a.CanLogIn() != nil && a.Confirmed {
		if err := u.sessions.EndAll(ctx, a.ID); err != nil {
			return nil, err
		}
	}
	if u.runner != nil {
		// A read model behind is no failure of the action: the list
		// catches up within moments.
		_ = u.runner.WaitForStream(ctx, account.Stream(a.ID), a.StreamVersion())
	}
	return a, nil
}

// Block stops the account from logging in.
func (u *Accounts) Block(ctx context.Context, by Actor, id string) (*account.Account, error) {
	return u.staff(ctx, by, id, (*account.Account).Block)
}

// Unblock lifts a block.
func (u *Accounts) Unblock(ctx context.Context, by Actor, id string) (*account.Account, error) {
	return u.staff(ctx, by, id, (*account.Account).Unblock)
}

// ChangeGroup moves the account to another permission group.
func (u *Accounts) ChangeGroup(ctx context.Context, by Actor, id string, to account.Group) (*account.Account, error) {
	return u.staff(ctx, by, id, func(a *account.Account, staff account.Actor, now time.Time) ([]account.Event, error) {
		return a.ChangeGroup(staff, to, now)
	})
}

// DeleteUser closes the account for good and erases its personal data.
func (u *Accounts) DeleteUser(ctx context.Context, by Actor, id string) (*account.Account, error) {
	a, err := u.staff(ctx, by, id, (*account.Account).Delete)
	if err != nil {
		return nil, err
	}
	return u.erase(ctx, by, a)
}

// DeleteOwn closes the actor's own account, on their password, and erases
// its personal data. Anonymised calculation statistics stay
// (docs/privacy.md).
func (u *Accounts) DeleteOwn(ctx context.Context, by Actor, password string) error {
	if err := by.sessionOnly(); err != nil {
		return err
	}
	a, err := u.update(ctx, by, by.userID(), func(a *account.Account) ([]account.Event, error) {
		return a.DeleteOwn(password, u.clock())
	})
	if err != nil {
		return err
	}
	if err := u.sessions.EndAll(ctx, a.ID); err != nil {
		return err
	}
	_, err = u.erase(ctx, by, a)
	return err
}

// Eraser crypto-shreds a user's personal data in the event store
// (*privacy.Store).
type Eraser interface {
	Erase(ctx context.Context, subject string) error
	DeleteStream(ctx context.Context, stream string) error
}

// errNoErasure: the event store in use (KurrentDB) keeps no subject keys.
var errNoErasure = errors.New("this event store cannot erase personal data (docs/privacy.md)")

// erase deletes a deleted account's reservation streams (their names are
// derived from the username and address), then its data key and any
// personal fields it wrote in clear, and records the erasure so that read
// models blank what they copied. Each step may be repeated: a failed
// erasure is finished by deleting the account again.
func (u *Accounts) erase(ctx context.Context, by Actor, a *account.Account) (*account.Account, error) {
	if u.eraser == nil {
		return nil, errNoErasure
	}
	if !a.Erased {
		for _, stream := range []string{usernameStream(a.Username), legacyUsernameStream(a.Username),
			emailStream(a.Email), legacyEmailStream(a.Email)} {
			if err := u.eraser.DeleteStream(ctx, stream); err != nil {
				return nil, fmt.Errorf("erase account %s: %w", a.ID, err)
			}
		}
	}
	if err := u.eraser.Erase(ctx, a.ID); err != nil {
		return nil, fmt.Errorf("erase account %s: %w", a.ID, err)
	}
	u.caches.erased(a.ID)
	a, err := u.update(ctx, by, a.ID, func(a *account.Account) ([]account.Event, error) {
		return a.Erase(u.clock())
	})
	if err != nil {
		return nil, err
	}
	// Again: a load that began before the first may have put back a copy.
	u.caches.erased(a.ID)
	if u.runner != nil {
		// Every read model, those its readers refresh too: none may keep
		// a copy of what the erasure blanked.
		if err := u.runner.WaitForStreamEverywhere(ctx, account.Stream(a.ID), a.StreamVersion()); err != nil {
			return nil, fmt.Errorf("erase account %s: read models: %w", a.ID, err)
		}
	}
	if u.db != nil {
		if err := u.db.Checkpoint(ctx); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// AddUser is an operator creating a confirmed account in group (the
// `users add` command): no e-mail round trip.
func (u *Accounts) AddUser(ctx context.Context, by Actor, in account.RegisterInput, group account.Group) (*account.Account, error) {
	a, err := u.Register(ctx, by, in, group, "")
	if err != nil {
		return nil, err
	}
	return u.update(ctx, u.self(by, a.ID), a.ID, func(a *account.Account) ([]account.Event, error) {
		return a.ConfirmEmail(u.clock())
	})
}

// CreatedAPIToken is a token just made: the only time the token itself is
// seen.
type CreatedAPIToken struct {
	account.APITokenView
	Token string `json:"token"`
}

// CreateAPIToken gives the actor a new personal API token named name.
// Tokens are managed from a signed-in session only: a leaked token must
// not be able to mint others or keep itself alive.
func (u *Accounts) CreateAPIToken(ctx context.Context, by Actor, name string) (CreatedAPIToken, error) {
	if err := by.sessionOnly(); err != nil {
		return CreatedAPIToken{}, err
	}
	token, hash, err := account.NewAPIToken(by.userID())
	if err != nil {
		return CreatedAPIToken{}, err
	}
	id := NewID()
	a, err := u.update(ctx, by, by.userID(), func(a *account.Account) ([]account.Event, error) {
		return a.CreateAPIToken(id, name, hash, u.clock())
	})
	if err != nil {
		return CreatedAPIToken{}, err
	}
	for _, t := range a.LiveAPITokens() {
		if t.ID == id {
			return CreatedAPIToken{APITokenView: t, Token: token}, nil
		}
	}
	return CreatedAPIToken{}, fmt.Errorf("api token %s missing after creation", id)
}

// RevokeAPIToken stops one of the actor's tokens from opening the API, at
// once: every request loads the account afresh.
func (u *Accounts) RevokeAPIToken(ctx context.Context, by Actor, id string) error {
	if err := by.sessionOnly(); err != nil {
		return err
	}
	_, err := u.update(ctx, by, by.userID(), func(a *account.Account) ([]account.Event, error) {
		return a.RevokeAPIToken(id, u.clock())
	})
	return err
}

// APITokens lists the actor's live tokens (names and dates, never the
// tokens).
func (u *Accounts) APITokens(ctx context.Context, by Actor) ([]account.APITokenView, error) {
	if err := by.sessionOnly(); err != nil {
		return nil, err
	}
	a, err := u.Load(ctx, by.userID())
	if err != nil {
		return nil, err
	}
	return a.LiveAPITokens(), nil
}

// ByAPIToken is the account a personal API token opens: it must name an
// account that may log in and be one of its live tokens. Anything else is
// errBadAPIToken, the same for every cause, so a caller learns nothing
// about accounts it cannot open.
func (u *Accounts) ByAPIToken(ctx context.Context, token string) (*account.Account, error) {
	id, ok := account.APITokenUser(token)
	if !ok {
		return nil, errBadAPIToken
	}
	a, err := u.Load(ctx, id)
	if errors.Is(err, account.ErrNotFound) {
		return nil, errBadAPIToken
	}
	if err != nil {
		return nil, err
	}
	if a.CanLogIn() != nil || !a.CheckAPIToken(token) {
		return nil, errBadAPIToken
	}
	return a, nil
}

var errBadAPIToken = fault.New(fault.Unauthenticated,
	"The API token is not valid: it may have been revoked, or its account may no longer sign in. Create a new token in the settings.")
