package mail

import (
	"strings"
	"testing"

	"draindesign/api/locale"
)

func TestMessageBuilders(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		m        Message
		subject  string
		lifetime string
	}{
		{"confirmation", Confirmation("a@example.com", "anna", "https://x/confirm?t=1", "en"), "Confirm your e-mail address", "7 days"},
		{"reset", PasswordReset("a@example.com", "anna", "https://x/confirm?t=1", "en"), "Reset your", "24 hours"},
		{"German", PasswordReset("a@example.com", "anna", "https://x/confirm?t=1", "de"), "Setzen Sie Ihr Passwort", "24 Stunden"},
		{"Serbian by the product's code", Confirmation("a@example.com", "anna", "https://x/confirm?t=1", "rs"), "Potvrdite svoju adresu", "7 dana"},
		{"Slovene by the product's code", Confirmation("a@example.com", "anna", "https://x/confirm?t=1", "si"), "Potrdite svoj", "7 dni"},
		{"unknown language", Confirmation("a@example.com", "anna", "https://x/confirm?t=1", ""), "Confirm your", "7 days"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := tt.m
			if m.To != "a@example.com" || m.Link != "https://x/confirm?t=1" {
				t.Errorf("To/Link = %q %q", m.To, m.Link)
			}
			if !strings.HasPrefix(m.Subject, tt.subject) || !strings.Contains(m.Subject, productName) {
				t.Errorf("Subject = %q", m.Subject)
			}
			for part, body := range map[string]string{"text": m.Text, "html": m.HTML} {
				if !strings.Contains(body, "anna") || !strings.Contains(body, tt.lifetime) {
					t.Errorf("%s lacks username or lifetime %q:\n%s", part, tt.lifetime, body)
				}
			}
			if !strings.Contains(m.Text, m.Link) || !strings.Contains(m.HTML, `href="https://x/confirm?t=1"`) {
				t.Errorf("link missing:\n%s\n%s", m.Text, m.HTML)
			}
		})
	}
}

func TestHTMLEscapesUserInput(t *testing.T) {
	t.Parallel()
	m := Confirmation("a@example.com", "<b>x</b>", `javascript:alert(1)`, "en")
	if strings.Contains(m.HTML, "<b>x</b>") {
		t.Error("username not escaped in HTML")
	}
	if strings.Contains(m.HTML, `href="javascript:`) {
		t.Error("unsafe URL scheme not neutralised in HTML")
	}
}

// Every language has every e-mail text: none comes back as its bare key.
func TestCatalogueHasTheMailTexts(t *testing.T) {
	t.Parallel()
	for _, lang := range locale.Codes {
		for _, m := range []Message{Confirmation("a@b.c", "u", "https://l", lang), PasswordReset("a@b.c", "u", "https://l", lang)} {
			all := m.Subject + m.Text + m.HTML
			if strings.Contains(all, "mail.confirm.") || strings.Contains(all, "mail.reset.") || strings.Contains(all, "mail.greeting") || strings.Contains(all, "mail.copyLink") {
				t.Errorf("%s: untranslated key in %q\n%s", lang, m.Subject, m.Text)
			}
		}
	}
}
