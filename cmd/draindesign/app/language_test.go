package app

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A browser asking for German gets a German confirmation e-mail, and the
// new account speaks German after its first log-in.
func TestRegistrationSpeaksTheBrowserLanguage(t *testing.T) {
	p := start(t, Options{DataDir: t.TempDir()})
	body, _ := json.Marshal(registration("greta"))
	req, _ := http.NewRequest("POST", p.srv.URL+"/api/drainage/register/", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Language", "de-AT,de;q=0.9,en;q=0.5")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("register: %v %v", err, resp)
	}
	resp.Body.Close()
	files, _ := filepath.Glob(filepath.Join(p.opts.DataDir, "mail", "*.eml"))
	if len(files) != 1 {
		t.Fatalf("%d mails", len(files))
	}
	raw, _ := os.ReadFile(files[0])
	if !strings.Contains(string(raw), "E-Mail-Adresse") {
		t.Fatalf("the confirmation e-mail is not in German:\n%s", raw)
	}
	u := p.newUser(t)
	link := mailedLink(t, p.opts.DataDir, "greta@example.com")
	confirm, _ := http.NewRequest("GET", link, nil)
	resp, err = u.http.Do(confirm)
	if err != nil {
		t.Fatalf("confirm: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("confirm: %s", resp.Status)
	}
	var me struct {
		User struct{ Language string } `json:"user"`
	}
	u.must(http.StatusOK, "POST", "/api/auth/login/", map[string]string{"username": "greta", "password": "a long password"}, &me)
	if me.User.Language != "de" {
		t.Fatalf("language after log-in %q, want de", me.User.Language)
	}
}
