package mail

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"testing"
)

// assertCRLF fails on a bare LF: RFC 5322 lines end in CRLF.
func assertCRLF(t *testing.T, raw []byte) {
	t.Helper()
	if bytes.Contains(bytes.ReplaceAll(raw, []byte("\r\n"), nil), []byte("\n")) {
		t.Error("message has bare LF line ends")
	}
}

// parseEML reads a rendered message the way a mail client would and returns
// its header and decoded text and HTML bodies.
func parseEML(t *testing.T, raw []byte) (mail.Header, string, string) {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("ReadMessage: %v\n%s", err, raw)
	}
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		t.Fatalf("Content-Type: %v", err)
	}
	if mt == "text/plain" {
		b, err := io.ReadAll(quotedprintable.NewReader(msg.Body))
		if err != nil {
			t.Fatal(err)
		}
		return msg.Header, string(b), ""
	}
	if mt != "multipart/alternative" {
		t.Fatalf("Content-Type %q", mt)
	}
	var text, html string
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("NextPart: %v", err)
		}
		b, err := io.ReadAll(p) // NextPart undoes quoted-printable
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasPrefix(p.Header.Get("Content-Type"), "text/plain"):
			text = string(b)
		case strings.HasPrefix(p.Header.Get("Content-Type"), "text/html"):
			html = string(b)
		}
	}
	return msg.Header, text, html
}

func decodeSubject(t *testing.T, h mail.Header) string {
	t.Helper()
	s, err := new(mime.WordDecoder).DecodeHeader(h.Get("Subject"))
	if err != nil {
		t.Fatalf("Subject: %v", err)
	}
	return s
}
