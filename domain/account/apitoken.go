package account

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"draindesign/domain/fault"
)

// Personal API tokens let a user's scripts call the API as that user
// (docs/permissions.md, "API tokens", says which calls). A token is
//
//	ddt.<user id>.<secret>
//
// where the secret is 32 random bytes, base64url. The user id in the clear
// lets the server load the one account to check instead of searching every
// account; the secret is what proves possession. Only the SHA-256 of the
// whole token is kept, in the account's events: a 256-bit random secret
// cannot be guessed from its hash, so the slow password hash, which exists
// to protect guessable passwords, is not needed and every request stays
// cheap to check.
const (
	apiTokenPrefix = "ddt."
	// MaxAPITokens is how many live tokens one account may hold: enough
	// for a few machines and scripts, few enough to review in the dialog.
	MaxAPITokens = 20
	// MaxAPITokenName bounds a token's label, in characters.
	MaxAPITokenName = 80
)

// APIToken is one token of the account, live or revoked.
type APIToken struct {
	ID        string
	Name      string
	Hash      string // hex SHA-256 of the whole token
	CreatedAt time.Time
	RevokedAt time.Time // zero while live
}

// Live says whether the token still opens the API.
func (t APIToken) Live() bool { return t.RevokedAt.IsZero() }

// APITokenView is a token as its owner sees it in the list: never the
// token itself, which is shown once, at creation.
type APITokenView struct {
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	Created time.Time `json:"created"`
}

// NewAPIToken makes a fresh token for the user and the hash to store.
func NewAPIToken(userID string) (token, hash string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", fmt.Errorf("account: api token: %w", err)
	}
	token = apiTokenPrefix + userID + "." + base64.RawURLEncoding.EncodeToString(b)
	return token, HashAPIToken(token), nil
}

// HashAPIToken is the stored form of a token.
func HashAPIToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// APITokenUser is the user id a token names, or false when the text is not
// shaped like a token at all.
func APITokenUser(token string) (string, bool) {
	rest, ok := strings.CutPrefix(token, apiTokenPrefix)
	if !ok {
		return "", false
	}
	id, secret, ok := strings.Cut(rest, ".")
	if !ok || id == "" || len(secret) != 43 {
		return "", false
	}
	return id, true
}

// ErrAPITokenNotFound answers a revocation of a token the account does not
// hold (or no longer holds).
var ErrAPITokenNotFound = &fault.Error{K: fault.NotFound, Message: "No such API token"}

// CheckAPIToken says whether token is one of the account's live tokens.
// Every live token is compared in constant time, so the answer's timing
// does not tell how much of a hash matched.
func (a *Account) CheckAPIToken(token string) bool {
	h := []byte(HashAPIToken(token))
	found := 0
	for _, t := range a.Tokens {
		if t.Live() {
			found |= subtle.ConstantTimeCompare(h, []byte(t.Hash))
		}
	}
	return found == 1
}

// LiveAPITokens lists the tokens that still open the API, oldest first.
func (a *Account) LiveAPITokens() []APITokenView {
	out := []APITokenView{}
	for _, t := range a.Tokens {
		if t.Live() {
			out = append(out, APITokenView{ID: t.ID, Name: t.Name, Created: t.CreatedAt})
		}
	}
	return out
}

// CreateAPIToken records a new token by its id, label and hash (see
// NewAPIToken). The label is required so the owner can tell tokens apart
// when revoking one.
func (a *Account) CreateAPIToken(id, name, hash string, now time.Time) ([]Event, error) {
	if err := a.alive(); err != nil {
		return nil, err
	}
	name = strings.TrimSpace(name)
	v := &ValidationError{}
	switch {
	case name == "":
		v.Add("name", "Please give the token a name, such as the machine or script that uses it.")
	case utf8.RuneCountInString(name) > MaxAPITokenName:
		v.Add("name", fmt.Sprintf("Please use at most %d characters.", MaxAPITokenName))
	case len(a.LiveAPITokens()) >= MaxAPITokens:
		v.Add("name", fmt.Sprintf("You already have %d tokens. Please revoke one you no longer use first.", MaxAPITokens))
	}
	if err := v.orNil(); err != nil {
		return nil, err
	}
	if id == "" || len(hash) != sha256.Size*2 {
		return nil, fmt.Errorf("account: api token needs an id and a SHA-256 hash")
	}
	return []Event{APITokenCreated{UserID: a.ID, TokenID: id, Name: name, Hash: hash, At: now.UTC()}}, nil
}

// RevokeAPIToken stops a token from opening the API. A token already
// revoked, or never held, is ErrAPITokenNotFound: the list the owner
// revokes from shows live tokens only.
func (a *Account) RevokeAPIToken(id string, now time.Time) ([]Event, error) {
	if err := a.alive(); err != nil {
		return nil, err
	}
	for _, t := range a.Tokens {
		if t.ID == id && t.Live() {
			return []Event{APITokenRevoked{UserID: a.ID, TokenID: id, At: now.UTC()}}, nil
		}
	}
	return nil, ErrAPITokenNotFound
}
