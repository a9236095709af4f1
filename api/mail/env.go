package mail

import (
	"log/slog"
	"os"
	"path/filepath"
)

// FromEnv picks the sender: SMTP when SMTP_URL is set, otherwise .eml files
// under dataDir/mail, announced with a warning so nobody mistakes it for
// delivery in production.
func FromEnv(dataDir string, logger *slog.Logger) (Sender, error) {
	return fromEnv(os.Getenv, dataDir, logger)
}

func fromEnv(getenv func(string) string, dataDir string, logger *slog.Logger) (Sender, error) {
	if logger == nil {
		logger = slog.Default()
	}
	if u := getenv("SMTP_URL"); u != "" {
		s, err := SMTP(u)
		if err != nil {
			return nil, err
		}
		logger.Info("mail: delivering through SMTP", "server", s.String())
		return s, nil
	}
	d := Dir(filepath.Join(dataDir, "mail"), logger)
	logger.Warn("mail: SMTP_URL not set; e-mails are written to files, not sent", "dir", d.Path())
	return d, nil
}
