package mail

import (
	"strings"
	"testing"
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
		{"fallback language", PasswordReset("a@example.com", "anna", "https://x/confirm?t=1", "hu"), "Reset your", "24 hours"},
		{"unknown language", Confirmation("a@example.com", "anna", "https://x/confirm?t=1", ""), "Confirm your", "7 days"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := tt.m
			if m.To != "a@example.com" || m.Link != "https://x/confirm?t=1" {
				t.Errorf("To/Link = %q %q", m.To, m.Link)
			}
			if !strings.HasPrefix(m.Subject, tt.subject) {
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

func TestCatalogueIsComplete(t *testing.T) {
	t.Parallel()
	for lang, kinds := range catalogue {
		for _, k := range []kind{kindConfirmation, kindPasswordReset} {
			tx, ok := kinds[k]
			if !ok {
				t.Errorf("%s: kind %d missing", lang, k)
				continue
			}
			data := templateData{Product: "P", Username: "U", Link: "https://L", Lifetime: "T"}
			for name, out := range map[string]string{
				"subject": execText(tx.subject, data), "text": execText(tx.text, data), "html": execHTML(tx.html, data),
			} {
				if out == "" || !strings.Contains(tx.text, "{{.Link}}") {
					t.Errorf("%s/%d/%s renders empty or lacks the link", lang, k, name)
				}
			}
		}
	}
}
