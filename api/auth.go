package api

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"draindesign/api/locale"
	"draindesign/api/mail"
	"draindesign/domain/account"
)

type ctxKey int

const userKey ctxKey = 0

// currentUser is the signed-in account; requireUser guarantees it.
func currentUser(r *http.Request) *account.Account {
	a, _ := r.Context().Value(userKey).(*account.Account)
	return a
}

// requireUser admits requests with a live session of an account that may
// still log in, or a valid API token on a call tokens may make (see
// apitoken.go); anything else is a 401 the client answers by refreshing.
func (s *Server) requireUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token, ok := bearerToken(r); ok {
			s.tokenUser(w, r, token, next)
			return
		}
		a, err := s.sessionUser(r)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), userKey, a)))
	})
}

func (s *Server) sessionUser(r *http.Request) (*account.Account, error) {
	token := sessionToken(r)
	if token == "" {
		return nil, unauthorized("Please log in")
	}
	id, err := s.sessions.user(r.Context(), token)
	if errors.Is(err, errNoSession) {
		return nil, unauthorized(msgExpiredSession)
	}
	if err != nil {
		return nil, err
	}
	a, err := s.accounts.LoadRecent(r.Context(), id, authTrust)
	if err != nil {
		return nil, err
	}
	if a.CanLogIn() != nil {
		return nil, unauthorized(msgExpiredSession)
	}
	return a, nil
}

type userAnswer struct {
	User account.UserView `json:"user"`
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Username string `json:"username"`
		Password string `json:"password"`
	}
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	if strings.TrimSpace(in.Username) == "" || in.Password == "" {
		s.fail(w, r, badRequestf("Please enter your username and password"))
		return
	}
	name := account.UsernameKey(in.Username)
	wait, tried := s.logins.begin(s.clientKey(r), name)
	if wait > 0 {
		s.tooManyRequests(w, r, wait, "Too many failed log-in attempts. Try again in "+waitText(wait)+".")
		return
	}
	failed := false
	defer func() { tried(failed) }()
	a, err := s.accounts.ByUsername(r.Context(), in.Username)
	if errors.Is(err, account.ErrNotFound) {
		account.EqualizeTiming(in.Password) // a missing user costs what a wrong password costs
		failed = true
		s.fail(w, r, unauthorized(msgBadLogin))
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	switch err := a.Authenticate(in.Password); {
	case errors.Is(err, account.ErrBadCredentials):
		failed = true
		s.fail(w, r, unauthorized(msgBadLogin))
		return
	case errors.Is(err, account.ErrNotConfirmed):
		s.fail(w, r, forbidden("Please confirm your e-mail address first: follow the link in the e-mail we sent you."))
		return
	case errors.Is(err, account.ErrBlocked), errors.Is(err, account.ErrDeleted):
		s.fail(w, r, forbidden("This account cannot log in. Please contact the provider."))
		return
	case err != nil:
		s.fail(w, r, err)
		return
	}
	s.logins.succeeded(name)
	token, err := s.sessions.create(r.Context(), a.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.setSessionCookie(w, r, token)
	writeJSON(w, http.StatusOK, userAnswer{a.View()})
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if token := sessionToken(r); token != "" {
		if err := s.sessions.end(r.Context(), token); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	s.clearSessionCookie(w, r)
	writeJSON(w, http.StatusOK, map[string]string{"detail": "Logged out"})
}

func (s *Server) refresh(w http.ResponseWriter, r *http.Request) {
	next, id, err := s.sessions.refresh(r.Context(), sessionToken(r))
	if errors.Is(err, errNoSession) {
		s.clearSessionCookie(w, r)
		s.fail(w, r, unauthorized(msgExpiredSession))
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	a, err := s.accounts.Load(r.Context(), id)
	if err == nil && a.CanLogIn() != nil {
		err = unauthorized(msgExpiredSession)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.setSessionCookie(w, r, next)
	writeJSON(w, http.StatusOK, userAnswer{a.View()})
}

func (s *Server) me(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, userAnswer{currentUser(r).View()})
}

func (s *Server) countries(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, account.Countries())
}

// publicURL is where mailed and shared links point: always the configured
// address, never the request's Host header, which the client chooses.
func (s *Server) publicURL(_ *http.Request) string {
	return s.cfg.PublicURL
}

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	var in account.RegisterInput
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	if in.PasswordConfirmation == "" {
		in.PasswordConfirmation = in.Password // the spec's call sends the password once
	}
	// The confirmation e-mail, and the screens after the first log-in, speak
	// the language the browser asks for.
	a, err := s.accounts.Register(r.Context(), actorOf(r), in, account.GroupStandard, locale.Match(r.Header.Get("Accept-Language")))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	link := s.publicURL(r) + "/api/auth/confirm/?" + url.Values{"uid": {a.ID}, "token": {s.accounts.ConfirmationToken(a)}}.Encode()
	if err := s.cfg.Mail.Send(r.Context(), mail.Confirmation(a.Email, a.Username, link, a.Language)); err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{
		"detail": "Registration successfully saved. Please check your e-mail for the confirmation link.",
	})
}

// confirmEmail is the target of the mailed link: it confirms and sends the
// browser to the sign-in page, which says how it went.
func (s *Server) confirmEmail(w http.ResponseWriter, r *http.Request) {
	uid, token := r.URL.Query().Get("uid"), r.URL.Query().Get("token")
	err := s.accounts.ConfirmEmail(r.Context(), actorOf(r), uid, token)
	switch {
	case err == nil:
		http.Redirect(w, r, "/?confirmed=1", http.StatusSeeOther)
	case errors.Is(err, account.ErrTokenInvalid), errors.Is(err, account.ErrNotFound), errors.Is(err, account.ErrDeleted):
		http.Redirect(w, r, "/?confirmed=0", http.StatusSeeOther)
	default:
		s.fail(w, r, err)
	}
}

func (s *Server) resetRequest(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Email string `json:"email"`
	}
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	if !account.ValidEmail(strings.TrimSpace(in.Email)) {
		s.fail(w, r, badRequestf("Please check the email address is valid."))
		return
	}
	// The answer is the same whether or not the address has an account, so
	// the form cannot be used to find out who is registered.
	done := func() {
		writeJSON(w, http.StatusOK, map[string]string{"detail": "A password reset e-mail has been sent."})
	}
	a, token, err := s.accounts.RequestReset(r.Context(), actorOf(r), in.Email)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if a == nil {
		done()
		return
	}
	link := s.publicURL(r) + "/password-reset/" + url.PathEscape(a.ID) + "?" + url.Values{"token": {token}}.Encode()
	if err := s.cfg.Mail.Send(r.Context(), mail.PasswordReset(a.Email, a.Username, link, a.Language)); err != nil {
		s.fail(w, r, err)
		return
	}
	done()
}

func (s *Server) resetConfirm(w http.ResponseWriter, r *http.Request) {
	var in struct {
		UID   string `json:"uid"`
		Token string `json:"token"`
		New1  string `json:"new_password1"`
		New2  string `json:"new_password2"`
	}
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.accounts.ResetPassword(r.Context(), actorOf(r), in.UID, in.Token, in.New1, in.New2); err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"detail": "Your password has been changed. You can now log in."})
}

func (s *Server) userSettings(w http.ResponseWriter, r *http.Request) {
	var in account.SettingsInput
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	a, err := s.accounts.ChangeSettings(r.Context(), actorOf(r), in)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, userAnswer{a.View()})
}

func (s *Server) userCountry(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Country string `json:"country"`
	}
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	a, err := s.accounts.ChangeCountry(r.Context(), actorOf(r), in.Country)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v := a.View()
	writeJSON(w, http.StatusOK, map[string]any{"country": v.Country, "user": v})
}
