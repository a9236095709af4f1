package account

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash"
	"strconv"
	"strings"
	"time"
)

// Token purposes. A token made for one purpose never verifies for another.
const (
	PurposeConfirmEmail  = "confirm-email"
	PurposeResetPassword = "reset-password"
)

// Link lifetimes. A reset link grants the account, so it lives one day, long
// enough to reach a mailbox checked next morning. A confirmation link only
// proves the address and is often opened days later (registration at a
// desk, mail read elsewhere), so it lives a week.
const (
	ResetTokenLifetime        = 24 * time.Hour
	ConfirmationTokenLifetime = 7 * 24 * time.Hour
)

// ErrTokenInvalid is matched by every token error, for callers that only
// need "show the bad-link page".
var ErrTokenInvalid = errors.New("account: invalid link")

type tokenError struct{ msg string }

func (e *tokenError) Error() string        { return "account: " + e.msg }
func (e *tokenError) Is(target error) bool { return target == ErrTokenInvalid }

// Distinct token failures, each matching ErrTokenInvalid.
var (
	ErrTokenMalformed    error = &tokenError{"malformed link token"}
	ErrTokenBadSignature error = &tokenError{"link token signature does not match"}
	ErrTokenExpired      error = &tokenError{"link token expired"}
	// ErrTokenUsed means the token is genuine but the account state it was
	// bound to has changed: the link was used (or superseded).
	ErrTokenUsed error = &tokenError{"link token already used"}
)

var tokenEnc = base64.RawURLEncoding

const fingerprintTagLen = 12

// A token is four dot-separated parts, URL-safe without escaping:
//
//	base64url(userID) . expiry (unix seconds) . base64url(tag) . base64url(mac)
//
// tag is a keyed digest of the account fingerprint; mac signs purpose, user,
// expiry and tag. Carrying the tag lets CheckToken tell a used link (genuine
// signature, stale fingerprint) from a forged one.

// MakeToken signs a single-use link token. fingerprint is the part of the
// account state that using the link changes (the password hash for a reset,
// the confirmed flag for a confirmation), so the token dies once used.
// secret should be at least 32 random bytes; an empty secret is a wiring
// bug and panics.
func MakeToken(secret []byte, purpose, userID, fingerprint string, expires time.Time) string {
	if len(secret) == 0 {
		panic("account: MakeToken with an empty secret")
	}
	tag := fingerprintTag(secret, purpose, userID, fingerprint)
	exp := expires.Unix()
	mac := tokenMAC(secret, purpose, userID, exp, tag)
	return tokenEnc.EncodeToString([]byte(userID)) + "." + strconv.FormatInt(exp, 10) + "." +
		tokenEnc.EncodeToString(tag) + "." + tokenEnc.EncodeToString(mac)
}

type parsedToken struct {
	userID string
	exp    int64
	tag    []byte
	mac    []byte
}

func parseToken(token string) (parsedToken, error) {
	var p parsedToken
	parts := strings.Split(token, ".")
	if len(parts) != 4 {
		return p, ErrTokenMalformed
	}
	uid, err := tokenEnc.DecodeString(parts[0])
	if err != nil || len(uid) == 0 {
		return p, ErrTokenMalformed
	}
	p.userID = string(uid)
	if p.exp, err = strconv.ParseInt(parts[1], 10, 64); err != nil {
		return p, ErrTokenMalformed
	}
	if p.tag, err = tokenEnc.DecodeString(parts[2]); err != nil || len(p.tag) != fingerprintTagLen {
		return p, ErrTokenMalformed
	}
	if p.mac, err = tokenEnc.DecodeString(parts[3]); err != nil || len(p.mac) != sha256.Size {
		return p, ErrTokenMalformed
	}
	return p, nil
}

// TokenUserID reads the user id from a token without verifying it, so the
// caller can load the account whose fingerprint CheckToken needs. Never
// trust the id before CheckToken succeeds.
func TokenUserID(token string) (string, error) {
	p, err := parseToken(token)
	if err != nil {
		return "", err
	}
	return p.userID, nil
}

// CheckToken verifies token for purpose against the account's current
// fingerprint and returns the user id it was made for. Errors, all matching
// ErrTokenInvalid: ErrTokenMalformed, ErrTokenBadSignature, ErrTokenExpired,
// ErrTokenUsed.
func CheckToken(secret []byte, purpose, token, fingerprint string, now time.Time) (string, error) {
	p, err := parseToken(token)
	if err != nil {
		return "", err
	}
	if len(secret) == 0 || !hmac.Equal(p.mac, tokenMAC(secret, purpose, p.userID, p.exp, p.tag)) {
		return "", ErrTokenBadSignature
	}
	if now.Unix() > p.exp {
		return "", ErrTokenExpired
	}
	if !hmac.Equal(p.tag, fingerprintTag(secret, purpose, p.userID, fingerprint)) {
		return "", ErrTokenUsed
	}
	return p.userID, nil
}

// writeField length-prefixes each field so that no two different field
// lists produce the same MAC input.
func writeField(h hash.Hash, s string) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(s)))
	h.Write(n[:])
	h.Write([]byte(s))
}

func fingerprintTag(secret []byte, purpose, userID, fingerprint string) []byte {
	h := hmac.New(sha256.New, secret)
	writeField(h, "draindesign/token-fingerprint/v1")
	writeField(h, purpose)
	writeField(h, userID)
	writeField(h, fingerprint)
	return h.Sum(nil)[:fingerprintTagLen]
}

func tokenMAC(secret []byte, purpose, userID string, exp int64, tag []byte) []byte {
	h := hmac.New(sha256.New, secret)
	writeField(h, "draindesign/token/v1")
	writeField(h, purpose)
	writeField(h, userID)
	writeField(h, strconv.FormatInt(exp, 10))
	writeField(h, string(tag))
	return h.Sum(nil)
}
