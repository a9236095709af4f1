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
	recent recentReads[string, recentSession]
}

type recentSession struct {
	userID  string
	expires int64 // Unix seconds, as stored
}

// authTrust is how long a request's session (and its account, see
// sessionUser) as this instance last read it is taken without asking the
// database again. Every call of a designer's made two round trips for
// them (`make load`); a sign-out, block or erasure through this instance
// still ends access at once, one through another instance within
// authTrust, as for the live streams (docs/decisions.md).
const authTrust = time.Second

// authActive: the sessions and accounts asked for within it are rechecked
// together every half authTrust (Server.keepAuthFresh); one asked for
// again after a longer pause is read on its own, as before.
const authActive = 5 * time.Second

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
	r, ok, ticket := s.recent.get(hash, now)
	if ok && now.Unix() < r.expires {
		return r.userID, nil
	}
	err := s.db.QueryRow(ctx, `SELECT user_id, expires_at FROM sessions WHERE token_hash = ?`, hash).Scan(&r.userID, &r.expires)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && now.Unix() >= r.expires) {
		s.recent.drop(hash)
		return "", errNoSession
	}
	if err != nil {
		return "", fmt.Errorf("read session: %w", err)
	}
	s.recent.keep(hash, r, now, ticket)
	return r.userID, nil
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
	hashes := make([]string, 0, len(tokens))
	for _, t := range tokens {
		h := hashToken(t)
		if _, dup := byHash[h]; !dup {
			byHash[h] = t
			hashes = append(hashes, h)
		}
	}
	live, err := s.live(ctx, hashes, s.now())
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(live))
	for h, r := range live {
		out[byHash[h]] = r.userID
	}
	return out, nil
}

// recheck reads again, together, the sessions that requests asked for
// within the last active, and keeps each still live as read now, so that
// user finds it without a query of its own (see Server.keepAuthFresh). A
// session found ended is left to age out of recent within authTrust, as
// user would have found it.
func (s *sessions) recheck(ctx context.Context, active time.Duration) error {
	now := s.now()
	hashes, ticket := s.recent.usedSince(now.Add(-active))
	live, err := s.live(ctx, hashes, now)
	if err != nil {
		return err
	}
	for h, r := range live {
		s.recent.keep(h, r, now, ticket)
	}
	return nil
}

// live is the sessions among hashes that are live at now, in as few
// queries as the hashes need batches of sessionBatch.
func (s *sessions) live(ctx context.Context, hashes []string, now time.Time) (map[string]recentSession, error) {
	out := make(map[string]recentSession, len(hashes))
	for start := 0; start < len(hashes); start += sessionBatch {
		chunk := hashes[start:min(start+sessionBatch, len(hashes))]
		if err := s.liveOf(ctx, chunk, now.Unix(), out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// liveOf adds to out the live sessions among hashes, by hash.
func (s *sessions) liveOf(ctx context.Context, hashes []string, now int64, out map[string]recentSession) error {
	marks := strings.TrimSuffix(strings.Repeat("?,", len(hashes)), ",")
	args := make([]any, len(hashes))
	for i, h := range hashes {
		args[i] = h
	}
	rows, err := s.db.Query(ctx, `SELECT token_hash, user_id, expires_at FROM sessions WHERE token_hash IN (`+marks+`)`, args...)
	if err != nil {
		return fmt.Errorf("read sessions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var hash string
		var r recentSession
		if err := rows.Scan(&hash, &r.userID, &r.expires); err != nil {
			return fmt.Errorf("read sessions: %w", err)
		}
		if now < r.expires {
			out[hash] = r
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
	s.recent.drop(hashToken(token))
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
	s.recent.drop(hash)
	defer s.recent.drop(hash)
	_, err := s.db.Exec(ctx, `DELETE FROM sessions WHERE token_hash = ?`, hash)
	return err
}

// EndAll closes every session of a user (blocked, deleted, password changed).
func (s *sessions) EndAll(ctx context.Context, userID string) error {
	ofUser := func(_ string, r recentSession) bool { return r.userID == userID }
	s.recent.dropWhere(ofUser)
	defer s.recent.dropWhere(ofUser)
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
