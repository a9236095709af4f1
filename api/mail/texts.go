package mail

import (
	"bytes"
	htmltemplate "html/template"
	"strconv"
	"text/template"

	"draindesign/domain/account"
)

// All wording of the account e-mails lives here, keyed by language, so a
// translation catalogue can later replace this map without touching the
// builders. Only English exists yet; other languages fall back to it.

const productName = "Drainage Design"

type kind int

const (
	kindConfirmation kind = iota
	kindPasswordReset
)

type texts struct {
	subject string
	text    string // text/template
	html    string // html/template: the username and link are escaped
}

var catalogue = map[string]map[kind]texts{
	"en": {
		kindConfirmation: {
			subject: "Confirm your e-mail address for {{.Product}}",
			text: `Hello {{.Username}},

thank you for registering with {{.Product}}.

Please confirm your e-mail address by opening this link:

{{.Link}}

The link works once and expires in {{.Lifetime}}. If you did not register, ignore this e-mail; no account will be activated.
`,
			html: `<p>Hello {{.Username}},</p>
<p>thank you for registering with {{.Product}}.</p>
<p>Please confirm your e-mail address:</p>
<p><a href="{{.Link}}">Confirm my e-mail address</a></p>
<p>If the button does not work, copy this address into your browser:<br>{{.Link}}</p>
<p>The link works once and expires in {{.Lifetime}}. If you did not register, ignore this e-mail; no account will be activated.</p>
`,
		},
		kindPasswordReset: {
			subject: "Reset your {{.Product}} password",
			text: `Hello {{.Username}},

someone asked to reset the password of your {{.Product}} account.

To choose a new password, open this link:

{{.Link}}

The link works once and expires in {{.Lifetime}}. If you did not ask for this, ignore this e-mail; your password stays as it is.
`,
			html: `<p>Hello {{.Username}},</p>
<p>someone asked to reset the password of your {{.Product}} account.</p>
<p><a href="{{.Link}}">Choose a new password</a></p>
<p>If the button does not work, copy this address into your browser:<br>{{.Link}}</p>
<p>The link works once and expires in {{.Lifetime}}. If you did not ask for this, ignore this e-mail; your password stays as it is.</p>
`,
		},
	},
}

const fallbackLanguage = "en"

// lifetimes state how long each link lives, taken from the token rules so
// the e-mail can never promise more than the server grants.
var lifetimes = map[kind]string{
	kindConfirmation:  days(account.ConfirmationTokenLifetime.Hours()),
	kindPasswordReset: hours(account.ResetTokenLifetime.Hours()),
}

func days(h float64) string {
	if h/24 == 1 {
		return "1 day"
	}
	return strconv.Itoa(int(h/24)) + " days"
}

func hours(h float64) string {
	if h == 1 {
		return "1 hour"
	}
	return strconv.Itoa(int(h)) + " hours"
}

type templateData struct {
	Product, Username, Link, Lifetime string
}

func build(k kind, to, username, link, lang string) Message {
	t, ok := catalogue[lang][k]
	if !ok {
		t = catalogue[fallbackLanguage][k]
	}
	data := templateData{Product: productName, Username: username, Link: link, Lifetime: lifetimes[k]}
	subject := execText(t.subject, data)
	m := Message{
		To:      to,
		Subject: subject,
		Text:    execText(t.text, data),
		HTML:    execHTML(t.html, data),
		Link:    link,
	}
	if m.Text == "" {
		// Only a broken catalogue entry gets here; the link must still go out.
		m.Text = subject + "\n\n" + link + "\n"
	}
	return m
}

func execText(src string, data templateData) string {
	t, err := template.New("").Option("missingkey=error").Parse(src)
	if err != nil {
		return ""
	}
	var b bytes.Buffer
	if t.Execute(&b, data) != nil {
		return ""
	}
	return b.String()
}

func execHTML(src string, data templateData) string {
	t, err := htmltemplate.New("").Option("missingkey=error").Parse(src)
	if err != nil {
		return ""
	}
	var b bytes.Buffer
	if t.Execute(&b, data) != nil {
		return ""
	}
	return b.String()
}

// Confirmation is the e-mail with the account's activation link.
func Confirmation(to, username, link, lang string) Message {
	return build(kindConfirmation, to, username, link, lang)
}

// PasswordReset is the e-mail with a password-reset link.
func PasswordReset(to, username, link, lang string) Message {
	return build(kindPasswordReset, to, username, link, lang)
}
