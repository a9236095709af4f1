package translation

import (
	"time"

	"draindesign/domain/fault"
)

// Catalogue is one language's overrides, rebuilt from its stream.
type Catalogue struct {
	Language  string
	overrides map[string]string // kind + "\x00" + key -> text
	version   int64
}

// NewCatalogue is the empty catalogue of a language: nothing overridden.
func NewCatalogue(language string) *Catalogue {
	return &Catalogue{Language: language, overrides: map[string]string{}}
}

func slot(kind, key string) string { return kind + "\x00" + key }

// Apply moves the catalogue on by one event.
func (c *Catalogue) Apply(e Event) {
	if c.overrides == nil {
		c.overrides = map[string]string{}
	}
	c.Language = e.Lang()
	switch e := e.(type) {
	case TextChanged:
		c.overrides[slot(e.Kind, e.Key)] = e.New
	case TextReset:
		delete(c.overrides, slot(e.Kind, e.Key))
	}
}

// SetVersion and StreamVersion let the repository keep the stream version.
func (c *Catalogue) SetVersion(v int64)   { c.version = v }
func (c *Catalogue) StreamVersion() int64 { return c.version }

// Override is the translator's text for key, if there is one.
func (c *Catalogue) Override(kind, key string) (string, bool) {
	s, ok := c.overrides[slot(kind, key)]
	return s, ok
}

// Change is a translator's edit: Check is the proposed text with its
// reference; Shipped is the text the product ships for the key in this
// language ("" when it ships none, as for most help topics).
type Change struct {
	Check
	Shipped string
	By      string
	ByName  string
	At      time.Time
}

// Set decides the events of setting a text. A text equal to what readers
// see already changes nothing; one equal to the shipped text drops the
// override rather than copy the shipped text into it, so that a later
// release's fix of the shipped text reaches readers.
func (c *Catalogue) Set(ch Change) ([]Event, error) {
	if ch.Language != c.Language {
		return nil, fault.New(fault.BadInput, "A change of %s texts sent to %s", ch.Language, c.Language)
	}
	if err := Validate(ch.Check); err != nil {
		return nil, err
	}
	current, overridden := c.Override(ch.Kind, ch.Key)
	if !overridden {
		current = ch.Shipped
	}
	if ch.Text == current {
		return nil, nil
	}
	if overridden && ch.Text == ch.Shipped {
		return []Event{TextReset{Language: ch.Language, Kind: ch.Kind, Key: ch.Key, Old: current, By: ch.By, ByName: ch.ByName, At: ch.At}}, nil
	}
	return []Event{TextChanged{Language: ch.Language, Kind: ch.Kind, Key: ch.Key, Old: current, New: ch.Text,
		English: ch.English, By: ch.By, ByName: ch.ByName, At: ch.At}}, nil
}

// Reset decides the events of going back to the shipped text: none when
// the key has no override.
func (c *Catalogue) Reset(kind, key, by, byName string, at time.Time) []Event {
	current, overridden := c.Override(kind, key)
	if !overridden {
		return nil
	}
	return []Event{TextReset{Language: c.Language, Kind: kind, Key: key, Old: current, By: by, ByName: byName, At: at}}
}
