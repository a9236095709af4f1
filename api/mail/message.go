// Package mail sends the account e-mails (confirmation and password reset)
// through SMTP, or writes them to a directory when no SMTP server is
// configured so every flow works on a developer's machine.
package mail

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"strings"
	"time"
)

// Message is one e-mail. Link is the action link the message carries (also
// inside Text and HTML); senders that do not deliver log it so a developer
// can follow it.
type Message struct {
	To      string
	Subject string
	Text    string
	HTML    string
	Link    string
}

// Sender delivers messages. Implementations are safe for concurrent use.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// ErrInvalidMessage is matched by errors for messages that cannot be sent
// as given (bad address, missing body).
var ErrInvalidMessage = errors.New("mail: invalid message")

// parsed is a message checked and ready to render.
type parsed struct {
	from, to *mail.Address
	Message
}

func prepare(from *mail.Address, m Message) (parsed, error) {
	to, err := mail.ParseAddress(m.To)
	if err != nil {
		return parsed{}, fmt.Errorf("%w: recipient %q: %w", ErrInvalidMessage, m.To, err)
	}
	if m.Text == "" && m.HTML == "" {
		return parsed{}, fmt.Errorf("%w: no body", ErrInvalidMessage)
	}
	return parsed{from: from, to: to, Message: m}, nil
}

// render writes the message in RFC 5322 form with CRLF line ends: a
// multipart/alternative body when there is HTML, else plain text, both
// quoted-printable so long links and non-ASCII names survive any relay.
func render(p parsed, now time.Time) ([]byte, error) {
	var b bytes.Buffer
	h := func(k, v string) { b.WriteString(k + ": " + v + "\r\n") }
	h("From", p.from.String())
	h("To", p.to.String())
	// Q-encoding also neutralises any CR or LF in the subject.
	h("Subject", mime.QEncoding.Encode("utf-8", p.Subject))
	h("Date", now.Format(time.RFC1123Z))
	h("Message-ID", messageID(p.from.Address))
	h("MIME-Version", "1.0")

	if p.HTML == "" {
		h("Content-Type", `text/plain; charset="utf-8"`)
		h("Content-Transfer-Encoding", "quoted-printable")
		b.WriteString("\r\n")
		if err := writeQP(&b, p.Text); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}

	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	h("Content-Type", `multipart/alternative; boundary="`+mw.Boundary()+`"`)
	b.WriteString("\r\n")
	for _, part := range []struct{ typ, content string }{
		{"text/plain", p.Text},
		{"text/html", p.HTML},
	} {
		if part.content == "" {
			continue
		}
		w, err := mw.CreatePart(textproto.MIMEHeader{
			"Content-Type":              {part.typ + `; charset="utf-8"`},
			"Content-Transfer-Encoding": {"quoted-printable"},
		})
		if err != nil {
			return nil, err
		}
		if err := writeQP(w, part.content); err != nil {
			return nil, err
		}
	}
	if err := mw.Close(); err != nil {
		return nil, err
	}
	b.Write(body.Bytes())
	return b.Bytes(), nil
}

type writer interface{ Write([]byte) (int, error) }

func writeQP(w writer, s string) error {
	// Normalise to CRLF so the quoted-printable writer emits hard breaks.
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
	qp := quotedprintable.NewWriter(w)
	if _, err := qp.Write([]byte(s)); err != nil {
		return err
	}
	return qp.Close()
}

func messageID(fromAddr string) string {
	domain := "localhost"
	if at := strings.LastIndexByte(fromAddr, '@'); at >= 0 && at < len(fromAddr)-1 {
		domain = fromAddr[at+1:]
	}
	return "<" + randomHex(16) + "@" + domain + ">"
}

func randomHex(n int) string {
	buf := make([]byte, n)
	_, _ = rand.Read(buf) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(buf)
}
