package mail

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const testLink = "https://design.example.com/password-reset/8a6e0804-2bd0-4672-b79d-d97027f9071a?token=dTE.1772442000.abc_def-ghi.Zm9vYmFy&x=1"

// syncBuffer lets parallel subtests share a log buffer safely.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func TestDirWritesParseableEML(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "not", "yet", "there")
	var logs syncBuffer
	d := Dir(dir, slog.New(slog.NewTextHandler(&logs, nil)))

	m := PasswordReset("Zoë Müller <zoe@example.com>", "zoë", testLink, "en")
	if err := d.Send(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.eml"))
	if len(files) != 1 {
		t.Fatalf("files = %v", files)
	}
	raw, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	assertCRLF(t, raw)
	h, text, html := parseEML(t, raw)
	if got := decodeSubject(t, h); got != m.Subject {
		t.Errorf("Subject = %q, want %q", got, m.Subject)
	}
	if to, err := h.AddressList("To"); err != nil || to[0].Address != "zoe@example.com" || to[0].Name != "Zoë Müller" {
		t.Errorf("To = %v, %v", to, err)
	}
	for _, k := range []string{"From", "Date", "Message-ID", "MIME-Version"} {
		if h.Get(k) == "" {
			t.Errorf("header %s missing", k)
		}
	}
	if _, err := h.Date(); err != nil {
		t.Errorf("Date: %v", err)
	}
	if !strings.Contains(text, testLink) {
		t.Errorf("text body lacks the link:\n%s", text)
	}
	if !strings.Contains(html, `href="`+strings.ReplaceAll(testLink, "&", "&amp;")+`"`) {
		t.Errorf("HTML body lacks the link:\n%s", html)
	}
	if !strings.Contains(logs.String(), "link="+testLink) && !strings.Contains(logs.String(), `link="`+testLink) {
		t.Errorf("log lacks the link:\n%s", logs.String())
	}
	if info, err := os.Stat(dir); err != nil || info.Mode().Perm() != 0o700 {
		t.Errorf("dir mode = %v, %v", info, err)
	}
}

func TestDirFileNamesAreUnique(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	d := Dir(dir, slog.New(slog.DiscardHandler))
	fixed := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	d.now = func() time.Time { return fixed } // same instant for every send
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if err := d.Send(context.Background(), Confirmation("a@example.com", "a", "https://x/y", "en")); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	files, _ := os.ReadDir(dir)
	if len(files) != 20 {
		t.Errorf("%d files, want 20", len(files))
	}
	for _, f := range files {
		if !strings.HasPrefix(f.Name(), "20260302T090000.000000000Z-") || !strings.HasSuffix(f.Name(), ".eml") {
			t.Errorf("file name %q", f.Name())
		}
	}
}

func TestDirRejectsBadMessages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	d := Dir(dir, slog.New(slog.DiscardHandler))
	tests := map[string]Message{
		"no recipient":     {Subject: "s", Text: "t"},
		"bad recipient":    {To: "not an address", Subject: "s", Text: "t"},
		"header injection": {To: "a@example.com\r\nBcc: b@example.com", Subject: "s", Text: "t"},
		"no body":          {To: "a@example.com", Subject: "s"},
	}
	for name, m := range tests {
		if err := d.Send(context.Background(), m); !errors.Is(err, ErrInvalidMessage) {
			t.Errorf("%s: %v, want ErrInvalidMessage", name, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := d.Send(ctx, Confirmation("a@example.com", "a", "l", "en")); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("files written for rejected messages: %v", files)
	}
}

func TestPlainTextOnlyAndSubjectInjection(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	d := Dir(dir, slog.New(slog.DiscardHandler))
	m := Message{To: "a@example.com", Subject: "Hi\r\nBcc: evil@example.com", Text: "line one\nline two " + strings.Repeat("x", 200)}
	if err := d.Send(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.eml"))
	raw, _ := os.ReadFile(files[0])
	assertCRLF(t, raw)
	h, text, _ := parseEML(t, raw)
	if h.Get("Bcc") != "" {
		t.Error("subject injected a Bcc header")
	}
	if text != "line one\r\nline two "+strings.Repeat("x", 200) {
		t.Errorf("text = %q", text)
	}
}
