package mail

import (
	"context"
	"fmt"
	"log/slog"
	"net/mail"
	"os"
	"path/filepath"
	"time"
)

// DirSender writes each message as an .eml file instead of sending it, and
// logs its link: the zero-set-up mode for development and demos.
type DirSender struct {
	dir  string
	log  *slog.Logger
	from *mail.Address
	now  func() time.Time
}

// Dir writes messages under dir, created on first use. A nil logger means
// slog.Default().
func Dir(dir string, logger *slog.Logger) *DirSender {
	if logger == nil {
		logger = slog.Default()
	}
	return &DirSender{
		dir:  dir,
		log:  logger,
		from: &mail.Address{Name: "Drainage Design", Address: "noreply@localhost"},
		now:  time.Now,
	}
}

// Path is the directory the messages are written to.
func (d *DirSender) Path() string { return d.dir }

// Send writes m to a new file named by time and a random suffix, so files
// sort by time and concurrent sends never collide. The file appears whole:
// it is written under a temporary name and renamed.
func (d *DirSender) Send(ctx context.Context, m Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p, err := prepare(d.from, m)
	if err != nil {
		return err
	}
	now := d.now()
	data, err := render(p, now)
	if err != nil {
		return fmt.Errorf("mail: render: %w", err)
	}
	if err := os.MkdirAll(d.dir, 0o700); err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	name := now.UTC().Format("20060102T150405.000000000Z") + "-" + randomHex(4) + ".eml"
	path := filepath.Join(d.dir, name)
	if err := writeAtomic(d.dir, path, data); err != nil {
		return fmt.Errorf("mail: write %s: %w", path, err)
	}
	d.log.InfoContext(ctx, "mail not sent, written to file",
		"to", p.to.Address, "subject", m.Subject, "link", m.Link, "file", path)
	return nil
}

func writeAtomic(dir, path string, data []byte) error {
	f, err := os.CreateTemp(dir, ".eml-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
