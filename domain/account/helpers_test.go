package account

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// fakeHash is a well-formed PHC string, so aggregate tests need not spend
// 70 ms per real hash.
func fakeHash(seed string) string {
	enc := base64.RawStdEncoding
	salt := enc.EncodeToString([]byte(strings.Repeat(seed, 16)[:16]))
	key := enc.EncodeToString([]byte(strings.Repeat(seed, 32)[:32]))
	return "$argon2id$v=19$m=65536,t=2,p=2$" + salt + "$" + key
}

func validInput() RegisterInput {
	return RegisterInput{
		Username: "anna.m", Password: "correct horse", PasswordConfirmation: "correct horse",
		FirstName: "Anna", LastName: "Meier", Email: "anna@example.com", Company: "Meier Tiefbau",
		Telephone: "+49 30 1234567", Country: "DE", Address: "Hauptstr. 1", City: "Berlin",
		Postcode: "10115", ID: "u-anna",
	}
}

// newAccount registers, optionally confirms, and applies the events.
func newAccount(t *testing.T, id string, g Group, confirmed bool) *Account {
	t.Helper()
	in := validInput()
	in.ID, in.Username = id, id
	events, err := Register(in, fakeHash("a"), t0)
	if err != nil {
		t.Fatalf("Register: %v", err)
	}
	a, err := FromEvents(events)
	if err != nil {
		t.Fatalf("FromEvents: %v", err)
	}
	if confirmed {
		mustApply(t, a)(a.ConfirmEmail(t0))
	}
	if g != GroupStandard {
		a.Apply(GroupChanged{UserID: id, From: a.Group, To: g, By: "seed", At: t0})
	}
	return a
}

// mustApply applies a command's events, failing the test on error.
func mustApply(t *testing.T, a *Account) func([]Event, error) []Event {
	t.Helper()
	return func(events []Event, err error) []Event {
		t.Helper()
		if err != nil {
			t.Fatalf("command: %v", err)
		}
		for _, e := range events {
			a.Apply(e)
		}
		return events
	}
}
