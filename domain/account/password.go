package account

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"

	"golang.org/x/crypto/argon2"
)

// Argon2id parameters. Measured on the target 2-core server class (see
// BenchmarkHashPassword): m=64 MiB, t=2, p=2 takes about 70 ms, the same
// memory as RFC 9106's second recommended setting and above OWASP's
// minimums, while keeping a login well under a tenth of a second. p=2 lets
// one hash use both cores.
const (
	argonMemoryKiB = 64 * 1024
	argonTime      = 2
	argonThreads   = 2
	argonSaltLen   = 16
	argonKeyLen    = 32
)

// Upper bounds for parameters read back from a stored hash, so a corrupt or
// planted hash cannot make one login allocate gigabytes.
const (
	maxMemoryKiB = 1024 * 1024
	maxTime      = 16
)

// hashSlots bounds concurrent hashing: each hash holds 64 MiB, so a burst
// of login attempts would otherwise exhaust memory on a small server. Four
// slots cap it at 256 MiB; extra callers queue, which also slows guessing.
var hashSlots = make(chan struct{}, 4)

func withHashSlot[T any](f func() T) T {
	hashSlots <- struct{}{}
	defer func() { <-hashSlots }()
	return f()
}

// ErrMalformedHash is matched by errors for stored hashes that cannot be
// parsed.
var ErrMalformedHash = errors.New("account: malformed password hash")

var b64 = base64.RawStdEncoding

// HashPassword hashes pw with argon2id and a fresh random salt, in PHC
// string format: $argon2id$v=19$m=65536,t=2,p=2$<salt>$<hash>.
func HashPassword(pw string) (string, error) {
	if len(pw) > MaxPasswordLength*4 {
		return "", fmt.Errorf("account: password longer than %d characters", MaxPasswordLength)
	}
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("account: salt: %w", err)
	}
	key := withHashSlot(func() []byte {
		return argon2.IDKey([]byte(pw), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	})
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, argonMemoryKiB, argonTime, argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

type phc struct {
	memory  uint32
	time    uint32
	threads uint8
	salt    []byte
	key     []byte
}

func parsePHC(hash string) (phc, error) {
	var p phc
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return p, fmt.Errorf("%w: not an argon2id PHC string", ErrMalformedHash)
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return p, fmt.Errorf("%w: version %q", ErrMalformedHash, parts[2])
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.memory, &p.time, &p.threads); err != nil {
		return p, fmt.Errorf("%w: parameters %q", ErrMalformedHash, parts[3])
	}
	if p.memory == 0 || p.memory > maxMemoryKiB || p.time == 0 || p.time > maxTime || p.threads == 0 {
		return p, fmt.Errorf("%w: parameters out of range %q", ErrMalformedHash, parts[3])
	}
	var err error
	if p.salt, err = b64.DecodeString(parts[4]); err != nil || len(p.salt) < 8 {
		return p, fmt.Errorf("%w: salt", ErrMalformedHash)
	}
	if p.key, err = b64.DecodeString(parts[5]); err != nil || len(p.key) < 16 {
		return p, fmt.Errorf("%w: key", ErrMalformedHash)
	}
	return p, nil
}

// VerifyPassword reports whether pw matches hash, using the parameters
// recorded in the hash. The comparison is constant-time. A wrong password
// is (false, nil); an error means the stored hash is unusable.
func VerifyPassword(hash, pw string) (bool, error) {
	p, err := parsePHC(hash)
	if err != nil {
		return false, err
	}
	if len(pw) > MaxPasswordLength*4 {
		return false, nil
	}
	key := withHashSlot(func() []byte {
		return argon2.IDKey([]byte(pw), p.salt, p.time, p.memory, p.threads, uint32(len(p.key)))
	})
	return subtle.ConstantTimeCompare(key, p.key) == 1, nil
}

// NeedsRehash reports whether hash was made with other parameters than the
// current ones (or is unreadable), so the caller should store a fresh hash
// after the next successful login.
func NeedsRehash(hash string) bool {
	p, err := parsePHC(hash)
	if err != nil {
		return true
	}
	return p.memory != argonMemoryKiB || p.time != argonTime || p.threads != argonThreads ||
		len(p.salt) != argonSaltLen || len(p.key) != argonKeyLen
}

var (
	dummyOnce sync.Once
	dummyHash string
)

// EqualizeTiming spends the time of one password verification. Call it when
// a login names no account, so response times do not reveal which
// usernames exist.
func EqualizeTiming(pw string) {
	dummyOnce.Do(func() {
		h, err := HashPassword("draindesign timing equaliser")
		if err == nil {
			dummyHash = h
		}
	})
	if dummyHash != "" {
		_, _ = VerifyPassword(dummyHash, pw)
	}
}
