package mail

import (
	"bytes"
	htmltemplate "html/template"
	"strconv"
	"strings"

	"draindesign/api/locale"
	"draindesign/domain/account"
)

// The wording of the account e-mails lives in the shared message catalogue
// (web/locales, keys mail.*), so every e-mail goes out in the user's
// language, with English for anything missing.

const productName = "draindesign"

type kind struct {
	prefix string // catalogue key prefix
	data   map[string]any
}

// Link lifetimes come from the token rules, so an e-mail can never promise
// more than the server grants.
var (
	kindConfirmation  = kind{"mail.confirm.", map[string]any{"days": strconv.Itoa(int(account.ConfirmationTokenLifetime.Hours() / 24))}}
	kindPasswordReset = kind{"mail.reset.", map[string]any{"hours": strconv.Itoa(int(account.ResetTokenLifetime.Hours()))}}
)

// htmlBody is the HTML part; the texts and the link are escaped by the
// template, so neither a username nor a translation can inject markup.
var htmlBody = htmltemplate.Must(htmltemplate.New("mail").Parse(`<p>{{.Greeting}}</p>
<p>{{.Intro}}</p>
<p><a href="{{.Link}}">{{.Button}}</a></p>
<p>{{.CopyLink}}<br>{{.Link}}</p>
<p>{{.Expiry}}</p>
`))

type parts struct {
	Greeting, Intro, Action, Button, CopyLink, Expiry, Link string
}

func build(k kind, to, username, link, lang string) Message {
	data := map[string]any{"username": username, "product": productName}
	for key, v := range k.data {
		data[key] = v
	}
	t := func(key string) string { return locale.T(lang, key, data) }
	p := parts{
		Greeting: t("mail.greeting"), Intro: t(k.prefix + "intro"), Action: t(k.prefix + "action"),
		Button: t(k.prefix + "button"), CopyLink: t("mail.copyLink"), Expiry: t(k.prefix + "expiry"), Link: link,
	}
	var html bytes.Buffer
	if err := htmlBody.Execute(&html, p); err != nil {
		html.Reset() // only a broken template gets here; the text part still carries the link
	}
	text := strings.Join([]string{p.Greeting, p.Intro, p.Action, link, p.Expiry}, "\n\n") + "\n"
	return Message{To: to, Subject: t(k.prefix + "subject"), Text: text, HTML: html.String(), Link: link}
}

// Confirmation is the e-mail with the account's activation link.
func Confirmation(to, username, link, lang string) Message {
	return build(kindConfirmation, to, username, link, lang)
}

// PasswordReset is the e-mail with a password-reset link.
func PasswordReset(to, username, link, lang string) Message {
	return build(kindPasswordReset, to, username, link, lang)
}
