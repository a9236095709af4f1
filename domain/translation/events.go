// Package translation holds the translators' changes to the product's texts:
// the eleven message catalogues of web/locales and the help topics. The
// shipped files stay the default; each change a translator makes is an event
// in the stream of its language, and the overrides these events leave are
// laid over the shipped texts wherever texts are read (server documents,
// the client's catalogue, help pages).
//
// The package is pure: the checks a change must pass (placeholders kept,
// plural forms the language has) and the events it decides.
package translation

import "time"

// Stable event type names, written to the event store.
const (
	TypeTextChanged = "translation.text_changed"
	TypeTextReset   = "translation.text_reset"
)

// Kinds of text a change may touch.
const (
	// KindMessage is a key of the message catalogue (web/locales/<lang>.json),
	// screens and documents alike.
	KindMessage = "message"
	// KindHelp is a help topic's Markdown, keyed by the topic's file name.
	KindHelp = "help"
)

// Stream is the stream of one language's changes.
func Stream(language string) string { return "translation-" + language }

// Event is one change to one language's texts.
type Event interface {
	EventType() string
	Lang() string
}

// TextChanged says a translator replaced a text. Old is the text readers saw
// before (the shipped one when there was no override); English is the
// English text the new one translates, so that a later change of the English
// shows which translations to look at again.
type TextChanged struct {
	Language string    `json:"language"`
	Kind     string    `json:"kind"`
	Key      string    `json:"key"`
	Old      string    `json:"old"`
	New      string    `json:"new"`
	English  string    `json:"english"`
	By       string    `json:"by"`
	ByName   string    `json:"by_name"`
	At       time.Time `json:"at"`
}

// TextReset says a translator dropped an override: readers see the shipped
// text again (or, for a help topic with no shipped text in the language, the
// English one).
type TextReset struct {
	Language string    `json:"language"`
	Kind     string    `json:"kind"`
	Key      string    `json:"key"`
	Old      string    `json:"old"`
	By       string    `json:"by"`
	ByName   string    `json:"by_name"`
	At       time.Time `json:"at"`
}

func (TextChanged) EventType() string { return TypeTextChanged }
func (TextReset) EventType() string   { return TypeTextReset }

func (e TextChanged) Lang() string { return e.Language }
func (e TextReset) Lang() string   { return e.Language }
