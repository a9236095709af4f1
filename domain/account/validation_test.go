package account

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestRegisterValidationMessages(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		edit   func(*RegisterInput)
		field  string
		want   string
		others bool // other fields may also fail
	}{
		{"blank username", func(in *RegisterInput) { in.Username = "  " }, "username", "Please enter a username", false},
		{"blank first name", func(in *RegisterInput) { in.FirstName = "" }, "firstName", "Please enter a first name", false},
		{"blank last name", func(in *RegisterInput) { in.LastName = "" }, "lastName", "Please enter a last name", false},
		{"blank email", func(in *RegisterInput) { in.Email = "" }, "email", "Please enter an email address", false},
		{"blank company", func(in *RegisterInput) { in.Company = "\t" }, "company", "Please enter a company", false},
		{"blank address", func(in *RegisterInput) { in.Address = "" }, "address", "Please enter an address", false},
		{"blank city", func(in *RegisterInput) { in.City = "" }, "city", "Please enter a city", false},
		{"blank postcode", func(in *RegisterInput) { in.Postcode = "" }, "postcode", "Please enter a postcode", false},
		{"blank password", func(in *RegisterInput) { in.Password = "" }, "password", "Please enter a password", false},
		{"blank confirmation", func(in *RegisterInput) { in.PasswordConfirmation = "" }, "passwordConfirmation", "Please enter a password confirmation", false},
		{"missing country", func(in *RegisterInput) { in.Country = "" }, "country", "Please select a country", false},
		{"unknown country", func(in *RegisterInput) { in.Country = "XX" }, "country", MsgInvalidCountry, false},
		{"mismatch", func(in *RegisterInput) { in.PasswordConfirmation = "correct horsE" }, "passwordConfirmation", "Passwords do not match", false},
		{"short password", func(in *RegisterInput) { in.Password, in.PasswordConfirmation = "1234567", "1234567" }, "password",
			"This password is too short. It must contain at least 8 characters.", false},
		{"spaces password", func(in *RegisterInput) { in.Password, in.PasswordConfirmation = "         ", "         " }, "password",
			"This password cannot be only spaces.", false},
		{"long password", func(in *RegisterInput) {
			in.Password = strings.Repeat("x", MaxPasswordLength+1)
			in.PasswordConfirmation = in.Password
		}, "password", "This password is too long. It must contain at most 1024 characters.", false},
		{"bad username", func(in *RegisterInput) { in.Username = "anna m" }, "username", MsgUsernameChars, false},
		{"long username", func(in *RegisterInput) { in.Username = strings.Repeat("a", 151) }, "username",
			"Ensure this field has no more than 150 characters.", false},
		{"bad email", func(in *RegisterInput) { in.Email = "anna@example" }, "email", MsgInvalidEmail, false},
		{"bad telephone", func(in *RegisterInput) { in.Telephone = "call me" }, "telephone", MsgInvalidTelephone, false},
		{"control chars", func(in *RegisterInput) { in.City = "Ber\x00lin" }, "city", "Please remove control characters from the city", false},
		{"long postcode", func(in *RegisterInput) { in.Postcode = strings.Repeat("1", 21) }, "postcode",
			"Ensure this field has no more than 20 characters.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := validInput()
			tt.edit(&in)
			err := in.Validate()
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("Validate() = %v, want *ValidationError", err)
			}
			if got := ve.Fields[tt.field]; !slices.Equal(got, []string{tt.want}) {
				t.Errorf("Fields[%q] = %q, want [%q]", tt.field, got, tt.want)
			}
			if !tt.others && len(ve.Fields) != 1 {
				t.Errorf("unexpected other field errors: %v", ve.Fields)
			}
			if _, err := Register(in, fakeHash("a"), t0); !errors.As(err, &ve) {
				t.Errorf("Register accepted invalid input: %v", err)
			}
		})
	}
}

func TestRegisterValidInput(t *testing.T) {
	t.Parallel()
	tests := map[string]func(*RegisterInput){
		"as is":               func(in *RegisterInput) {},
		"no telephone":        func(in *RegisterInput) { in.Telephone = "" },
		"lower-case country":  func(in *RegisterInput) { in.Country = " be " },
		"unicode username":    func(in *RegisterInput) { in.Username = "Zoë_1" },
		"spaces around names": func(in *RegisterInput) { in.FirstName = " Anna " },
	}
	for name, edit := range tests {
		in := validInput()
		edit(&in)
		if err := in.Validate(); err != nil {
			t.Errorf("%s: Validate() = %v, want nil", name, err)
		}
	}
}

func TestRegisterNormalizesAndDefaults(t *testing.T) {
	t.Parallel()
	in := validInput()
	in.Country, in.FirstName = " be ", " Anna "
	events, err := Register(in, fakeHash("a"), t0)
	if err != nil || len(events) != 1 {
		t.Fatalf("Register = %v, %v", events, err)
	}
	r := events[0].(Registered)
	if r.Country != "BE" || r.FirstName != "Anna" || r.Group != GroupStandard ||
		r.Language != "en" || r.RainfallUnits != "mm/h" || r.UserID != "u-anna" {
		t.Errorf("Registered = %+v", r)
	}
	in.ID = ""
	events, _ = Register(in, fakeHash("a"), t0)
	if id := events[0].AccountID(); len(id) != 36 {
		t.Errorf("generated id %q is not a UUID", id)
	}
	if _, err := Register(validInput(), "plaintext", t0); !errors.Is(err, ErrMalformedHash) {
		t.Errorf("Register with a non-PHC hash = %v, want ErrMalformedHash", err)
	}
}

func TestValidationErrorCollectsAllFieldsAndMarshalsFlat(t *testing.T) {
	t.Parallel()
	err := RegisterInput{}.Validate()
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("Validate() = %v", err)
	}
	want := []string{"address", "city", "company", "country", "email", "firstName", "lastName",
		"password", "passwordConfirmation", "postcode", "username"}
	var got []string
	for k := range ve.Fields {
		got = append(got, k)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("fields = %v, want %v", got, want)
	}
	b, _ := json.Marshal(err)
	var m map[string][]string
	if json.Unmarshal(b, &m) != nil || m["country"][0] != "Please select a country" {
		t.Errorf("JSON = %s, want a flat field map", b)
	}
}

func TestWithArticle(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"username":         "a username",
		"first name":       "a first name",
		"email address":    "an email address",
		"address":          "an address",
		"city":             "a city",
		"hour":             "an hour",
		"honest answer":    "an honest answer",
		"user name":        "a user name",
		"unit":             "a unit",
		"uninteresting":    "an uninteresting",
		"European address": "a European address",
		"one-off code":     "a one-off code",
		"item":             "an item",
		"organisation":     "an organisation",
		"house":            "a house",
		"Umbrella":         "an Umbrella",
	}
	for label, want := range tests {
		if got := WithArticle(label); got != want {
			t.Errorf("WithArticle(%q) = %q, want %q", label, got, want)
		}
	}
}

func TestValidUsername(t *testing.T) {
	t.Parallel()
	tests := map[string]bool{
		"anna":            true,
		"anna.m+test@x":   true,
		"a-b_c":           true,
		"Łukasz":          true,
		"user42":          true,
		"":                false,
		"anna m":          false,
		"anna/m":          false,
		"<script>":        false,
		"anna;drop":       false,
		"tab\tinside":     false,
		"quote'":          false,
		"emoji\U0001F600": false,
	}
	for in, want := range tests {
		if got := ValidUsername(in); got != want {
			t.Errorf("ValidUsername(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestValidEmail(t *testing.T) {
	t.Parallel()
	tests := map[string]bool{
		"anna@example.com":                  true,
		"a.b+c@sub.example.co.uk":           true,
		"anna@example":                      false,
		"Anna <anna@example.com>":           false,
		"anna@@example.com":                 false,
		"anna@.example.com":                 false,
		"anna@example.com.":                 false,
		"anna@example..com":                 false,
		"@example.com":                      false,
		"anna example@example.com":          false,
		strings.Repeat("a", 250) + "@x.com": false,
	}
	for in, want := range tests {
		if got := ValidEmail(in); got != want {
			t.Errorf("ValidEmail(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestValidateNewPassword(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p1, p2 string
		want   map[string][]string
	}{
		{"long enough", "long enough", nil},
		{"", "", map[string][]string{"new_password1": {"Please enter a password"}, "new_password2": {"Please enter a password confirmation"}}},
		{"long enough", "long enougH", map[string][]string{"new_password2": {MsgPasswordsDoNotMatch}}},
		{"short", "short", map[string][]string{"new_password1": {"This password is too short. It must contain at least 8 characters."}}},
	}
	for _, tt := range tests {
		err := ValidateNewPassword(tt.p1, tt.p2)
		if tt.want == nil {
			if err != nil {
				t.Errorf("ValidateNewPassword(%q,%q) = %v", tt.p1, tt.p2, err)
			}
			continue
		}
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Fatalf("ValidateNewPassword(%q,%q) = %v", tt.p1, tt.p2, err)
		}
		b1, _ := json.Marshal(ve.Fields)
		b2, _ := json.Marshal(tt.want)
		if string(b1) != string(b2) {
			t.Errorf("ValidateNewPassword(%q,%q) = %s, want %s", tt.p1, tt.p2, b1, b2)
		}
	}
}

func TestKeysFoldCase(t *testing.T) {
	t.Parallel()
	if UsernameKey(" Anna ") != UsernameKey("anna") || EmailKey("Anna@Example.COM") != EmailKey("anna@example.com") {
		t.Error("keys must fold case and trim")
	}
}
