package api

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"draindesign/projections"
)

// Sessions live in the read-model database (not a projection: they are not
// derived from events and survive a rebuild). The cookie carries a random
// token; the table keeps only its hash, so a leaked table opens no session.
//
// A session is short-lived (sessionTTL) and may be refreshed, with a new
// token each time, until refreshTTL after login: the spec's "refresh once on
// 401 and repeat the call".
const (
	cookieName = "session-state"
	sessionTTL = 2 * time.Hour
	refreshTTL = 30 * 24 * time.Hour
)

type sessions struct {
	db  *projections.DB
	now func() time.Time

	// recent are the sessions this instance read lately, by token hash:
	// see user.
	mu     sync.Mutex
	recent map[string]recentSession
	// ended counts the sessions ended here: a row read before an end is
	// not remembered after it.
	ended uint64
}

type recentSession struct {
	userID  string
	expires int64     // Unix seconds, as stored
	checked time.Time // when the row was read
}

// authTrust is how long a request's session (and its account, see
// sessionUser) as this instance last read it is taken without asking the
// database again. Every call of a designer's made two round trips for
// them (`make load`); a sign-out, block or erasure through this instance
// still ends access at once, one through another instance within
// authTrust, as for the live streams (docs/decisions.md).
const authTrust = time.Second

// maxRecentSessions bounds recent; when full it starts again.
const maxRecentSessions = 10_000

var errNoSession = errors.New("no session")

func (s *sessions) setup(ctx context.Context) error {
	_, err := s.db.Exec(ctx, `CREATE TABLE IF NOT EXISTS sessions (
		token_hash    TEXT PRIMARY KEY,
		user_id       TEXT NOT NULL,
		expires_at    BIGINT NOT NULL,
		refresh_until BIGINT NOT NULL
	)`)
	if err != nil {
		return fmt.Errorf("create sessions table: %w", err)
	}
	return nil
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func newToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on a supported platform
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// create starts a session with a fresh token: a new session id at login.
func (s *sessions) create(ctx context.Context, userID string) (string, error) {
	token, now := newToken(), s.now()
	_, err := s.db.Exec(ctx, `INSERT INTO sessions (token_hash, user_id, expires_at, refresh_until) VALUES (?, ?, ?, ?)`,
		hashToken(token), userID, now.Add(sessionTTL).Unix(), now.Add(refreshTTL).Unix())
	if err != nil {
		return "", fmt.Errorf("create session: %w", err)
	}
	return token, nil
}

// user is the user of a live session; errNoSession when it is unknown or
// expired.
//
// A session this instance read within authTrust is taken as read.
func (s *sessions) user(ctx context.Context, token string) (string, error) {
	hash, now := hashToken(token), s.now()
	userID, ok, ended := s.recentUser(hash, now)
	if ok {
		return userID, nil
	}
	var expires int64
	err := s.db.QueryRow(ctx, `SELECT user_id, expires_at FROM sessions WHERE token_hash = ?`, hash).Scan(&userID, &expires)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && now.Unix() >= expires) {
		s.forget(hash)
		return "", errNoSession
	}
	if err != nil {
		return "", fmt.Errorf("read session: %w", err)
	}
	s.remember(hash, recentSession{userID: userID, expires: expires, checked: now}, ended)
	return userID, nil
}

// recentUser is the remembered session's user, if read within authTrust;
// ended is the count of ends so far, for remember.
func (s *sessions) recentUser(hash string, now time.Time) (userID string, ok bool, ended uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.recent[hash]
	if !ok || now.Sub(r.checked) >= authTrust || now.Before(r.checked) || now.Unix() >= r.expires {
		return "", false, s.ended
	}
	return r.userID, true, s.ended
}

// remember keeps a session read when ended sessions numbered ended,
// unless one has ended since: it may be this one.
func (s *sessions) remember(hash string, r recentSession, ended uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended != ended {
		return
	}
	if s.recent == nil || len(s.recent) >= maxRecentSessions {
		s.recent = make(map[string]recentSession)
	}
	s.recent[hash] = r
}

func (s *sessions) forget(hash string) {
	s.mu.Lock()
	s.ended++
	delete(s.recent, hash)
	s.mu.Unlock()
}

// forgetUser drops every remembered session of userID.
func (s *sessions) forgetUser(userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended++
	for h, r := range s.recent {
		if r.userID == userID {
			delete(s.recent, h)
		}
	}
}

// sessionBatch bounds the tokens users asks in one query, well under
// SQLite's and PostgreSQL's limits on bound parameters.
const sessionBatch = 500

// users is the user of each of tokens whose session is live, in as few
// queries as the tokens need batches of sessionBatch (one for an instance's
// live connections): the live watcher's per-tick check. Unknown and expired
// tokens are absent, by the same rule as user.
func (s *sessions) users(ctx context.Context, tokens []string) (map[string]string, error) {
	byHash := make(map[string]string, len(tokens))
	hashes := make([]any, 0, len(tokens))
	for _, t := range tokens {
		h := hashToken(t)
		if _, dup := byHash[h]; !dup {
			byHash[h] = t
			hashes = append(hashes, h)
		}
	}
	out := make(map[string]string, len(hashes))
	now := s.now().Unix()
	for start := 0; start < len(hashes); start += sessionBatch {
		chunk := hashes[start:min(start+sessionBatch, len(hashes))]
		if err := s.usersOf(ctx, chunk, now, byHash, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// usersOf adds to out the live sessions among hashes.
func (s *sessions) usersOf(ctx context.Context, hashes []any, now int64, byHash, out map[string]string) error {
	marks := strings.TrimSuffix(strings.Repeat("?,", len(hashes)), ",")
	rows, err := s.db.Query(ctx, `SELECT token_hash, user_id, expires_at FROM sessions WHERE token_hash IN (`+marks+`)`, hashes...)
	if err != nil {
		return fmt.Errorf("read sessions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var hash, userID string
		var expires int64
		if err := rows.Scan(&hash, &userID, &expires); err != nil {
			return fmt.Errorf("read sessions: %w", err)
		}
		if now < expires {
			out[byHash[hash]] = userID
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read sessions: %w", err)
	}
	return nil
}

// refresh swaps a session that may still be refreshed for a new token.
func (s *sessions) refresh(ctx context.Context, token string) (string, string, error) {
	var userID string
	var until int64
	err := s.db.QueryRow(ctx, `SELECT user_id, refresh_until FROM sessions WHERE token_hash = ?`, hashToken(token)).Scan(&userID, &until)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && s.now().Unix() >= until) {
		return "", "", errNoSession
	}
	if err != nil {
		return "", "", fmt.Errorf("read session: %w", err)
	}
	next := newToken()
	s.forget(hashToken(token))
	res, err := s.db.Exec(ctx, `UPDATE sessions SET token_hash = ?, expires_at = ? WHERE token_hash = ?`,
		hashToken(next), s.now().Add(sessionTTL).Unix(), hashToken(token))
	if err != nil {
		return "", "", fmt.Errorf("refresh session: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return "", "", errNoSession // refreshed concurrently by another request
	}
	return next, userID, nil
}

// end closes one session. It is forgotten before and after the delete, so
// that no request of this instance reading the row meanwhile keeps it.
func (s *sessions) end(ctx context.Context, token string) error {
	hash := hashToken(token)
	s.forget(hash)
	defer s.forget(hash)
	_, err := s.db.Exec(ctx, `DELETE FROM sessions WHERE token_hash = ?`, hash)
	return err
}

// EndAll closes every session of a user (blocked, deleted, password changed).
func (s *sessions) EndAll(ctx context.Context, userID string) error {
	s.forgetUser(userID)
	defer s.forgetUser(userID)
	_, err := s.db.Exec(ctx, `DELETE FROM sessions WHERE user_id = ?`, userID)
	return err
}

// The cookie is Secure when the request came over TLS, or when the public
// address is https: behind a proxy that ends TLS, r.TLS is nil although the
// browser's connection is encrypted.
func (s *Server) setSessionCookie(w http.ResponseWriter, r *http.Request, token string) {
	http.SetCookie(w, &http.Cookie{
		Name: cookieName, Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: s.secureCookies || r.TLS != nil, MaxAge: int(refreshTTL / time.Second),
	})
}

func (s *Server) clearSessionCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{
		Name: cookieName, Value: "", Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: s.secureCookies || r.TLS != nil, MaxAge: -1,
	})
}

func sessionToken(r *http.Request) string {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return ""
	}
	return c.Value
}
