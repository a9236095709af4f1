package account

import (
	"errors"
	"strings"
	"testing"
	"time"
)

var secret = []byte("0123456789abcdef0123456789abcdef")

func TestCheckToken(t *testing.T) {
	t.Parallel()
	exp := t0.Add(time.Hour)
	good := MakeToken(secret, PurposeResetPassword, "u-1", "fp1", exp)
	parts := strings.Split(good, ".")
	tamper := func(i int, v string) string {
		p := append([]string(nil), parts...)
		p[i] = v
		return strings.Join(p, ".")
	}
	otherUser := MakeToken(secret, PurposeResetPassword, "u-2", "fp1", exp)

	tests := []struct {
		name    string
		secret  []byte
		purpose string
		token   string
		fp      string
		now     time.Time
		want    error
	}{
		{"valid", secret, PurposeResetPassword, good, "fp1", t0, nil},
		{"valid at expiry", secret, PurposeResetPassword, good, "fp1", exp, nil},
		{"expired", secret, PurposeResetPassword, good, "fp1", exp.Add(time.Second), ErrTokenExpired},
		{"used", secret, PurposeResetPassword, good, "fp2", t0, ErrTokenUsed},
		{"other purpose", secret, PurposeConfirmEmail, good, "fp1", t0, ErrTokenBadSignature},
		{"other secret", []byte("another secret of enough length!"), PurposeResetPassword, good, "fp1", t0, ErrTokenBadSignature},
		{"no secret", nil, PurposeResetPassword, good, "fp1", t0, ErrTokenBadSignature},
		{"extended expiry", secret, PurposeResetPassword, tamper(1, "9999999999"), "fp1", t0, ErrTokenBadSignature},
		{"swapped user", secret, PurposeResetPassword, tamper(0, strings.Split(otherUser, ".")[0]), "fp1", t0, ErrTokenBadSignature},
		{"replaced tag", secret, PurposeResetPassword, tamper(2, strings.Split(otherUser, ".")[2]), "fp1", t0, ErrTokenBadSignature},
		{"flipped mac", secret, PurposeResetPassword, tamper(3, "A"+parts[3][1:]), "fp1", t0, ErrTokenBadSignature},
		{"three parts", secret, PurposeResetPassword, strings.Join(parts[:3], "."), "fp1", t0, ErrTokenMalformed},
		{"empty", secret, PurposeResetPassword, "", "fp1", t0, ErrTokenMalformed},
		{"bad base64", secret, PurposeResetPassword, tamper(3, "!!"), "fp1", t0, ErrTokenMalformed},
		{"bad expiry", secret, PurposeResetPassword, tamper(1, "soon"), "fp1", t0, ErrTokenMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			uid, err := CheckToken(tt.secret, tt.purpose, tt.token, tt.fp, tt.now)
			if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
				t.Fatalf("CheckToken = %q, %v, want %v", uid, err, tt.want)
			}
			if tt.want == nil && uid != "u-1" {
				t.Errorf("uid = %q, want u-1", uid)
			}
			if tt.want != nil && !errors.Is(err, ErrTokenInvalid) {
				t.Errorf("%v does not match ErrTokenInvalid", err)
			}
		})
	}
}

func TestTokenIsURLSafe(t *testing.T) {
	t.Parallel()
	tok := MakeToken(secret, PurposeConfirmEmail, "8a6e0804-2bd0-4672-b79d-d97027f9071a", "x", t0)
	if strings.ContainsAny(tok, "/+=?&# %") {
		t.Errorf("token %q needs URL escaping", tok)
	}
	if uid, err := TokenUserID(tok); err != nil || uid != "8a6e0804-2bd0-4672-b79d-d97027f9071a" {
		t.Errorf("TokenUserID = %q, %v", uid, err)
	}
}

func TestResetTokenSingleUse(t *testing.T) {
	t.Parallel()
	a := newAccount(t, "u-reset", GroupStandard, false)
	tok := a.ResetToken(secret, t0)
	if err := a.CheckResetToken(secret, tok, t0.Add(23*time.Hour)); err != nil {
		t.Fatalf("fresh reset token: %v", err)
	}
	if err := a.CheckResetToken(secret, tok, t0.Add(ResetTokenLifetime+time.Second)); !errors.Is(err, ErrTokenExpired) {
		t.Errorf("after 24 h: %v, want ErrTokenExpired", err)
	}
	if err := a.CheckConfirmationToken(secret, tok, t0); !errors.Is(err, ErrTokenBadSignature) {
		t.Errorf("reset token used for confirmation: %v, want ErrTokenBadSignature", err)
	}
	other := newAccount(t, "u-other", GroupStandard, false)
	if err := other.CheckResetToken(secret, tok, t0); !errors.Is(err, ErrTokenBadSignature) {
		t.Errorf("token checked against another account: %v, want ErrTokenBadSignature", err)
	}

	mustApply(t, a)(a.ResetPassword(fakeHash("b"), t0.Add(time.Hour)))
	if err := a.CheckResetToken(secret, tok, t0.Add(time.Hour)); !errors.Is(err, ErrTokenUsed) {
		t.Errorf("after the password changed: %v, want ErrTokenUsed", err)
	}
}

func TestConfirmationTokenSingleUse(t *testing.T) {
	t.Parallel()
	a := newAccount(t, "u-confirm", GroupStandard, false)
	tok := a.ConfirmationToken(secret, t0)
	if err := a.CheckConfirmationToken(secret, tok, t0.Add(6*24*time.Hour)); err != nil {
		t.Fatalf("six days later: %v", err)
	}
	if err := a.CheckConfirmationToken(secret, tok, t0.Add(ConfirmationTokenLifetime+time.Second)); !errors.Is(err, ErrTokenExpired) {
		t.Errorf("after 7 days: %v, want ErrTokenExpired", err)
	}
	mustApply(t, a)(a.ConfirmEmail(t0))
	if err := a.CheckConfirmationToken(secret, tok, t0); !errors.Is(err, ErrTokenUsed) {
		t.Errorf("after confirming: %v, want ErrTokenUsed", err)
	}
}

func TestMakeTokenPanicsWithoutSecret(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("MakeToken with an empty secret did not panic")
		}
	}()
	MakeToken(nil, PurposeConfirmEmail, "u", "fp", t0)
}
