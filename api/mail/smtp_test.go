package mail

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"log/slog"
	"math/big"
	"net"
	"net/textproto"
	"strings"
	"sync"
	"testing"
	"time"
)

// received is what the fake server recorded of one delivery.
type received struct {
	from, to string
	auth     string // decoded AUTH PLAIN response
	tls      bool
	data     []byte
}

// fakeSMTP is just enough of an SMTP server to check what a client sends.
type fakeSMTP struct {
	ln         net.Listener
	tlsConf    *tls.Config // offer STARTTLS when set
	rejectRcpt bool
	silent     bool // accept connections but never greet

	mu   sync.Mutex
	msgs []received
}

func startFake(t *testing.T, configure func(*fakeSMTP)) *fakeSMTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeSMTP{ln: ln}
	if configure != nil {
		configure(f)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { defer conn.Close(); f.serve(t, conn) })
		}
	})
	return f
}

func (f *fakeSMTP) port() string { _, p, _ := net.SplitHostPort(f.ln.Addr().String()); return p }

func (f *fakeSMTP) messages() []received {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]received(nil), f.msgs...)
}

func (f *fakeSMTP) serve(t *testing.T, conn net.Conn) {
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	if f.silent {
		buf := make([]byte, 1)
		_, _ = conn.Read(buf) // wait for the client to give up
		return
	}
	tp := textproto.NewConn(conn)
	var cur received
	reply := func(lines ...string) { _ = tp.PrintfLine("%s", strings.Join(lines, "\r\n")) } // a client that hung up fails its own side
	reply("220 fake.test ESMTP")
	for {
		line, err := tp.ReadLine()
		if err != nil {
			return
		}
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO", "HELO":
			lines := []string{"250-fake.test"}
			if f.tlsConf != nil && !cur.tls {
				lines = append(lines, "250-STARTTLS")
			}
			reply(append(lines, "250-AUTH PLAIN", "250 8BITMIME")...)
		case "STARTTLS":
			reply("220 go ahead")
			tc := tls.Server(conn, f.tlsConf)
			if err := tc.Handshake(); err != nil {
				t.Logf("fake: handshake: %v", err)
				return
			}
			conn, tp, cur.tls = tc, textproto.NewConn(tc), true
		case "AUTH":
			mech, resp, _ := strings.Cut(arg, " ")
			b, err := base64.StdEncoding.DecodeString(resp)
			if mech != "PLAIN" || err != nil {
				reply("535 bad auth")
				continue
			}
			cur.auth = string(b)
			reply("235 ok")
		case "MAIL":
			cur.from = strings.TrimSuffix(strings.TrimPrefix(arg, "FROM:<"), ">")
			if i := strings.Index(cur.from, ">"); i >= 0 {
				cur.from = cur.from[:i]
			}
			reply("250 ok")
		case "RCPT":
			if f.rejectRcpt {
				reply("550 no such user")
				continue
			}
			cur.to = strings.TrimSuffix(strings.TrimPrefix(arg, "TO:<"), ">")
			reply("250 ok")
		case "DATA":
			reply("354 end with .")
			data, err := tp.ReadDotBytes()
			if err != nil {
				return
			}
			cur.data = data
			f.mu.Lock()
			f.msgs = append(f.msgs, cur)
			f.mu.Unlock()
			reply("250 queued")
		case "RSET", "NOOP":
			reply("250 ok")
		case "QUIT":
			reply("221 bye")
			return
		default:
			reply("502 not implemented")
		}
	}
}

// selfSigned makes a certificate for 127.0.0.1 and a client config that
// trusts it.
func selfSigned(t *testing.T) (server, client *tls.Config) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "fake smtp"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}},
		&tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}
}

func TestSMTPDelivers(t *testing.T) {
	t.Parallel()
	srvTLS, cliTLS := selfSigned(t)
	tests := []struct {
		name     string
		url      string
		fake     func(*fakeSMTP)
		wantAuth string
		wantTLS  bool
	}{
		{"no auth, no tls", "smtp://127.0.0.1:%s?from=noreply@example.com", nil, "", false},
		{"auth on loopback", "smtp://user:p%40ss@127.0.0.1:%s?from=noreply@example.com", nil, "\x00user\x00p@ss", false},
		{"starttls when offered", "smtp://user:pw@127.0.0.1:%s?from=noreply@example.com",
			func(f *fakeSMTP) { f.tlsConf = srvTLS }, "\x00user\x00pw", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// textproto's dot reader turns CRLF into LF, so line ends are
			// checked in the Dir tests, which see the raw bytes.
			f := startFake(t, tt.fake)
			s, err := SMTP(strings.Replace(tt.url, "%s", f.port(), 1))
			if err != nil {
				t.Fatal(err)
			}
			s.tlsConfig = cliTLS
			m := Confirmation("Anna <anna@example.com>", "anna", testLink, "en")
			if err := s.Send(context.Background(), m); err != nil {
				t.Fatal(err)
			}
			msgs := f.messages()
			if len(msgs) != 1 {
				t.Fatalf("server received %d messages", len(msgs))
			}
			got := msgs[0]
			if got.from != "noreply@example.com" || got.to != "anna@example.com" {
				t.Errorf("envelope %q -> %q", got.from, got.to)
			}
			if got.auth != tt.wantAuth || got.tls != tt.wantTLS {
				t.Errorf("auth %q tls %v, want %q %v", got.auth, got.tls, tt.wantAuth, tt.wantTLS)
			}
			h, text, _ := parseEML(t, got.data)
			if decodeSubject(t, h) != m.Subject || !strings.Contains(text, testLink) {
				t.Errorf("message subject %q, text:\n%s", h.Get("Subject"), text)
			}
			if from, err := h.AddressList("From"); err != nil || from[0].Address != "noreply@example.com" {
				t.Errorf("From = %v, %v", from, err)
			}
		})
	}
}

func TestSMTPFailures(t *testing.T) {
	t.Parallel()
	t.Run("recipient rejected", func(t *testing.T) {
		t.Parallel()
		f := startFake(t, func(f *fakeSMTP) { f.rejectRcpt = true })
		s, _ := SMTP("smtp://127.0.0.1:" + f.port() + "?from=noreply@example.com")
		err := s.Send(context.Background(), Confirmation("a@example.com", "a", "l", "en"))
		if err == nil || !strings.Contains(err.Error(), "550") {
			t.Errorf("err = %v, want the 550 reply", err)
		}
	})
	t.Run("silent server times out", func(t *testing.T) {
		t.Parallel()
		f := startFake(t, func(f *fakeSMTP) { f.silent = true })
		s, _ := SMTP("smtp://127.0.0.1:" + f.port() + "?from=noreply@example.com")
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		if err := s.Send(ctx, Confirmation("a@example.com", "a", "l", "en")); err == nil {
			t.Error("Send to a silent server succeeded")
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("Send took %v despite a 200 ms deadline", d)
		}
	})
	t.Run("cancel stops a stalled send", func(t *testing.T) {
		t.Parallel()
		f := startFake(t, func(f *fakeSMTP) { f.silent = true })
		s, _ := SMTP("smtp://127.0.0.1:" + f.port() + "?from=noreply@example.com")
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		start := time.Now()
		if err := s.Send(ctx, Confirmation("a@example.com", "a", "l", "en")); err == nil {
			t.Error("Send succeeded after cancel")
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("cancel took %v to take effect", d)
		}
	})
	t.Run("invalid message never dials", func(t *testing.T) {
		t.Parallel()
		s, _ := SMTP("smtp://192.0.2.1:25?from=noreply@example.com")
		if err := s.Send(context.Background(), Message{To: "bad", Text: "x"}); err == nil ||
			!strings.Contains(err.Error(), "invalid message") {
			t.Errorf("err = %v", err)
		}
	})
}

func TestSMTPURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url     string
		addr    string
		tls     bool
		auth    bool
		from    string
		wantErr bool
	}{
		{"smtp://user:pass@mail.example.com:2525?from=noreply@example.com", "mail.example.com:2525", false, true, "noreply@example.com", false},
		{"smtp://mail.example.com?from=noreply@example.com", "mail.example.com:587", false, false, "noreply@example.com", false},
		{"smtps://u:p@mail.example.com?from=Drain%20Design%20%3Cnoreply@example.com%3E", "mail.example.com:465", true, true, "noreply@example.com", false},
		{"smtp://[::1]:25?from=a@b.c", "[::1]:25", false, false, "a@b.c", false},
		{"http://mail.example.com?from=a@b.c", "", false, false, "", true},
		{"smtp://mail.example.com", "", false, false, "", true},
		{"smtp://mail.example.com?from=not-an-address", "", false, false, "", true},
		{"smtp://?from=a@b.c", "", false, false, "", true},
		{"smtp://%zz", "", false, false, "", true},
	}
	for _, tt := range tests {
		s, err := SMTP(tt.url)
		if tt.wantErr {
			if err == nil {
				t.Errorf("SMTP(%q) accepted", tt.url)
			}
			continue
		}
		if err != nil {
			t.Errorf("SMTP(%q): %v", tt.url, err)
			continue
		}
		if s.addr != tt.addr || s.implicitTLS != tt.tls || (s.auth != nil) != tt.auth || s.from.Address != tt.from {
			t.Errorf("SMTP(%q) = addr %q tls %v auth %v from %q", tt.url, s.addr, s.implicitTLS, s.auth != nil, s.from.Address)
		}
		if strings.Contains(s.String(), "pass") {
			t.Errorf("String() leaks the password: %s", s)
		}
	}
}

func TestFromEnv(t *testing.T) {
	t.Parallel()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	dir := t.TempDir()
	quiet := slog.New(slog.DiscardHandler)
	s, err := fromEnv(env(nil), dir, quiet)
	if d, ok := s.(*DirSender); err != nil || !ok || d.Path() != dir+"/mail" {
		t.Errorf("without SMTP_URL: %T %v", s, err)
	}
	s, err = fromEnv(env(map[string]string{"SMTP_URL": "smtp://h:25?from=a@b.c"}), dir, quiet)
	if _, ok := s.(*SMTPSender); err != nil || !ok {
		t.Errorf("with SMTP_URL: %T %v", s, err)
	}
	if _, err := fromEnv(env(map[string]string{"SMTP_URL": "smtp://h:25"}), dir, quiet); err == nil {
		t.Error("a bad SMTP_URL was accepted")
	}
}
