package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/smtp"
	"net/url"
	"time"
)

// SMTPSender delivers through an SMTP server.
type SMTPSender struct {
	addr        string // host:port
	host        string
	from        *mail.Address
	auth        smtp.Auth
	implicitTLS bool
	tlsConfig   *tls.Config // nil: system roots, ServerName = host
	timeout     time.Duration
	now         func() time.Time
}

// defaultTimeout bounds one delivery when the context sets no deadline, so
// a stalled server cannot hold a request forever.
const defaultTimeout = 30 * time.Second

// SMTP configures delivery from a URL such as
//
//	smtp://user:pass@host:587?from=noreply@example.com
//	smtps://user:pass@host:465?from=Drainage%20Design%20<noreply@example.com>
//
// smtp:// upgrades with STARTTLS whenever the server offers it (default
// port 587); smtps:// speaks TLS from the start (default port 465). The
// credentials are only ever sent over TLS or to a loopback server, which
// net/smtp enforces. from is required.
func SMTP(rawURL string) (*SMTPSender, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("mail: SMTP_URL: %w", err)
	}
	s := &SMTPSender{timeout: defaultTimeout, now: time.Now}
	port := "587"
	switch u.Scheme {
	case "smtp":
	case "smtps":
		s.implicitTLS, port = true, "465"
	default:
		return nil, fmt.Errorf("mail: SMTP_URL scheme %q, want smtp or smtps", u.Scheme)
	}
	s.host = u.Hostname()
	if s.host == "" {
		return nil, errors.New("mail: SMTP_URL has no host")
	}
	if p := u.Port(); p != "" {
		port = p
	}
	s.addr = net.JoinHostPort(s.host, port)
	from := u.Query().Get("from")
	if from == "" {
		return nil, errors.New("mail: SMTP_URL needs ?from=address")
	}
	if s.from, err = mail.ParseAddress(from); err != nil {
		return nil, fmt.Errorf("mail: SMTP_URL from %q: %w", from, err)
	}
	if u.User != nil {
		pass, _ := u.User.Password()
		s.auth = smtp.PlainAuth("", u.User.Username(), pass, s.host)
	}
	return s, nil
}

// String describes the sender without its password, for start-up logs.
func (s *SMTPSender) String() string {
	scheme := "smtp"
	if s.implicitTLS {
		scheme = "smtps"
	}
	return fmt.Sprintf("%s://%s (from %s)", scheme, s.addr, s.from.Address)
}

// Send delivers m, honouring ctx for cancellation and deadline.
func (s *SMTPSender) Send(ctx context.Context, m Message) error {
	p, err := prepare(s.from, m)
	if err != nil {
		return err
	}
	data, err := render(p, s.now())
	if err != nil {
		return fmt.Errorf("mail: render: %w", err)
	}
	if err := s.deliver(ctx, p, data); err != nil {
		return fmt.Errorf("mail: send to %s via %s: %w", p.to.Address, s.addr, err)
	}
	return nil
}

func (s *SMTPSender) tlsConf() *tls.Config {
	if s.tlsConfig != nil {
		return s.tlsConfig.Clone()
	}
	return &tls.Config{ServerName: s.host, MinVersion: tls.VersionTLS12}
}

func (s *SMTPSender) deliver(ctx context.Context, p parsed, data []byte) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.timeout)
		defer cancel()
	}
	var conn net.Conn
	var err error
	if s.implicitTLS {
		conn, err = (&tls.Dialer{Config: s.tlsConf()}).DialContext(ctx, "tcp", s.addr)
	} else {
		conn, err = (&net.Dialer{}).DialContext(ctx, "tcp", s.addr)
	}
	if err != nil {
		return err
	}
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	// net/smtp knows no contexts; cancelling makes the next I/O fail.
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()

	c, err := smtp.NewClient(conn, s.host)
	if err != nil {
		conn.Close()
		return err
	}
	defer c.Close()
	if !s.implicitTLS {
		if ok, _ := c.Extension("STARTTLS"); ok {
			if err := c.StartTLS(s.tlsConf()); err != nil {
				return fmt.Errorf("starttls: %w", err)
			}
		}
	}
	if s.auth != nil {
		if ok, _ := c.Extension("AUTH"); !ok {
			return errors.New("server offers no AUTH but credentials are configured")
		}
		if err := c.Auth(s.auth); err != nil {
			return fmt.Errorf("auth: %w", err)
		}
	}
	if err := c.Mail(p.from.Address); err != nil {
		return fmt.Errorf("MAIL FROM: %w", err)
	}
	if err := c.Rcpt(p.to.Address); err != nil {
		return fmt.Errorf("RCPT TO: %w", err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if _, err := w.Write(data); err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	return c.Quit()
}
