package account

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

func TestHashAndVerifyPassword(t *testing.T) {
	t.Parallel()
	h, err := HashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^\$argon2id\$v=19\$m=65536,t=2,p=2\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$`).MatchString(h) {
		t.Errorf("hash %q is not the expected PHC string", h)
	}
	h2, _ := HashPassword("correct horse battery")
	if h == h2 {
		t.Error("two hashes of one password are equal: salt not random")
	}
	tests := []struct {
		pw   string
		want bool
	}{
		{"correct horse battery", true},
		{"correct horse batterY", false},
		{"", false},
		{"correct horse battery ", false},
		{strings.Repeat("x", 5000), false},
	}
	for _, tt := range tests {
		got, err := VerifyPassword(h, tt.pw)
		if err != nil || got != tt.want {
			t.Errorf("VerifyPassword(%q) = %v, %v, want %v", tt.pw, got, err, tt.want)
		}
	}
	if NeedsRehash(h) {
		t.Error("NeedsRehash on a current hash")
	}
}

func TestVerifyPasswordRejectsMalformedHashes(t *testing.T) {
	t.Parallel()
	good := fakeHash("a")
	tests := map[string]string{
		"empty":          "",
		"plain":          "secret",
		"bcrypt":         "$2a$10$abcdefghijklmnopqrstuu5Ue5Qe0XxqcnEBLWbnQT2J2Qz8p1XbW",
		"argon2i":        strings.Replace(good, "argon2id", "argon2i", 1),
		"version 16":     strings.Replace(good, "v=19", "v=16", 1),
		"huge memory":    strings.Replace(good, "m=65536", "m=99999999", 1),
		"zero time":      strings.Replace(good, "t=2", "t=0", 1),
		"bad salt":       strings.Replace(good, "$YWFh", "$!!!!", 1),
		"missing part":   good[:strings.LastIndex(good, "$")],
		"garbled params": strings.Replace(good, "m=65536,t=2,p=2", "m=x", 1),
	}
	for name, h := range tests {
		if _, err := VerifyPassword(h, "pw"); !errors.Is(err, ErrMalformedHash) {
			t.Errorf("%s: VerifyPassword = %v, want ErrMalformedHash", name, err)
		}
		if !NeedsRehash(h) {
			t.Errorf("%s: NeedsRehash = false", name)
		}
	}
}

func TestNeedsRehashOnOldParameters(t *testing.T) {
	t.Parallel()
	tests := map[string]bool{
		fakeHash("a"): false,
		strings.Replace(fakeHash("a"), "t=2", "t=1", 1):         true,
		strings.Replace(fakeHash("a"), "m=65536", "m=19456", 1): true,
		strings.Replace(fakeHash("a"), "p=2", "p=1", 1):         true,
	}
	for h, want := range tests {
		if got := NeedsRehash(h); got != want {
			t.Errorf("NeedsRehash(%q) = %v, want %v", h, got, want)
		}
	}
}

func TestAuthenticate(t *testing.T) {
	t.Parallel()
	h, err := HashPassword("correct horse")
	if err != nil {
		t.Fatal(err)
	}
	a := newAccount(t, "u-auth", GroupStandard, true)
	a.PasswordHash = h
	if err := a.Authenticate("correct horse"); err != nil {
		t.Errorf("right password: %v", err)
	}
	if err := a.Authenticate("wrong horse"); !errors.Is(err, ErrBadCredentials) {
		t.Errorf("wrong password: %v, want ErrBadCredentials", err)
	}
	a.Blocked = true
	if err := a.Authenticate("correct horse"); !errors.Is(err, ErrBlocked) {
		t.Errorf("blocked: %v, want ErrBlocked", err)
	}
	a.PasswordHash = "corrupt"
	if err := a.Authenticate("correct horse"); !errors.Is(err, ErrMalformedHash) {
		t.Errorf("corrupt hash: %v, want ErrMalformedHash", err)
	}
}

// BenchmarkHashPassword measures the cost chosen for the 2-core server;
// run with -cpu 2 to reproduce the figure quoted at argonTime.
func BenchmarkHashPassword(b *testing.B) {
	for b.Loop() {
		if _, err := HashPassword("correct horse battery"); err != nil {
			b.Fatal(err)
		}
	}
}
