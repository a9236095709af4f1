// Package availability is what the provider offers in each country: which
// drainage systems, and of each system which channel widths. The catalogue
// says what exists and where a system may never be sold (its exclusions,
// fixed); within that, marketing withdraws and re-offers systems and
// channels country by country. Every change is an event on the country's
// stream, so the staff history shows who changed what and when, and the
// offer of a country is that stream replayed.
//
// Everything the catalogue allows is offered until withdrawn: a new
// system or channel in the catalogue reaches every country at once.
package availability

import (
	"fmt"
	"strings"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/eventcodec"
	"draindesign/domain/fault"
)

// StreamPrefix starts every availability stream name.
const StreamPrefix = "availability-"

// Stream is the event-store stream of a country's offer (ISO code).
func Stream(country string) string { return StreamPrefix + country }

// Event is anything that happened to a country's offer.
type Event interface{ EventType() string }

// Changed offers or withdraws a system (Channel empty) or one channel
// width of a system in a country.
type Changed struct {
	Country string `json:"country"`
	System  string `json:"system"`
	// Channel is the channel's width in mm as the catalogue names its
	// sub-product ("150"); empty for the whole system.
	Channel string    `json:"channel,omitempty"`
	Offered bool      `json:"offered"`
	By      string    `json:"by"`
	At      time.Time `json:"at"`
}

// TypeChanged is the stored type name of Changed.
const TypeChanged = "availability.changed"

func (Changed) EventType() string { return TypeChanged }

var codec = func() *eventcodec.Codec[Event] {
	c := eventcodec.New("availability", Event.EventType)
	eventcodec.Register[Changed](c, 1)
	return c
}()

// ErrUnknownEventType is matched by Decode's error for a type this package
// does not know.
var ErrUnknownEventType = eventcodec.ErrUnknownEventType

// Encode gives an event's stored type name, schema version and JSON body.
func Encode(e Event) (typ string, schema int, data []byte, err error) { return codec.Encode(e) }

// Decode turns a stored event back into its value.
func Decode(typ string, schema int, data []byte) (Event, error) {
	return codec.Decode(typ, schema, data)
}

// EventTypes lists every availability event type, sorted.
func EventTypes() []string { return codec.Types() }

// Key names a system, or a channel of a system.
type Key struct {
	System  string
	Channel string
}

func (k Key) String() string {
	if k.Channel == "" {
		return k.System
	}
	return k.System + "/" + k.Channel
}

// Offer is a country's offer: what has been withdrawn there.
type Offer struct {
	Country   string
	version   int64
	withdrawn map[Key]bool
}

// NewOffer is the offer of a country nothing was ever withdrawn from.
func NewOffer() *Offer { return &Offer{withdrawn: map[Key]bool{}} }

// Apply moves the offer on by one event.
func (o *Offer) Apply(e Event) {
	if c, ok := e.(Changed); ok {
		o.Country = c.Country
		k := Key{c.System, c.Channel}
		if c.Offered {
			delete(o.withdrawn, k)
		} else {
			o.withdrawn[k] = true
		}
	}
}

func (o *Offer) SetVersion(v int64)   { o.version = v }
func (o *Offer) StreamVersion() int64 { return o.version }

// Offers reports whether the system (channel "") or the channel of the
// system is offered: a channel of a withdrawn system is not.
func (o *Offer) Offers(system, channel string) bool {
	if o.withdrawn[Key{System: system}] {
		return false
	}
	return channel == "" || !o.withdrawn[Key{system, channel}]
}

// Withdrawn lists what is withdrawn.
func (o *Offer) Withdrawn() []Key {
	out := make([]Key, 0, len(o.withdrawn))
	for k := range o.withdrawn {
		out = append(out, k)
	}
	return out
}

// Catalogue is what the offer is checked against: whether a system exists
// and may be sold in the country at all, and whether it has the channel.
type Catalogue interface {
	Sellable(system, country string) bool
	HasChannel(system, channel string) bool
}

// Set offers or withdraws a system or channel in the offer's country.
// Only marketing users and administrators (is_marketing) may. Asking for
// what already holds changes nothing and records nothing.
func (o *Offer) Set(country string, by account.Actor, k Key, offered bool, cat Catalogue, now time.Time) ([]Event, error) {
	if !account.FlagsFor(by.Group).IsMarketing {
		return nil, &ForbiddenError{Actor: by.ID}
	}
	country = strings.ToUpper(strings.TrimSpace(country))
	if _, ok := account.CountryByISO(country); !ok {
		return nil, &UnknownError{What: "country", Name: country}
	}
	if !cat.Sellable(k.System, country) {
		return nil, &UnknownError{What: "system", Name: k.System, Country: country}
	}
	if k.Channel != "" && !cat.HasChannel(k.System, k.Channel) {
		return nil, &UnknownError{What: "channel", Name: k.String()}
	}
	if o.withdrawn[k] == !offered {
		return nil, nil
	}
	return []Event{Changed{Country: country, System: k.System, Channel: k.Channel, Offered: offered, By: by.ID, At: now.UTC()}}, nil
}

// ForbiddenError refuses a change to someone without the right.
type ForbiddenError struct{ Actor string }

func (e *ForbiddenError) Error() string {
	return fmt.Sprintf("availability: %s may not change what is offered", e.Actor)
}
func (e *ForbiddenError) Kind() fault.Kind { return fault.Forbidden }
func (e *ForbiddenError) UserMessage() string {
	return "Only marketing users and administrators may change what is offered"
}

// UnknownError names a country, system or channel that is not there to
// offer (a system the catalogue never sells in the country included).
type UnknownError struct {
	What, Name, Country string
}

func (e *UnknownError) Error() string    { return "availability: " + e.UserMessage() }
func (e *UnknownError) Kind() fault.Kind { return fault.BadInput }
func (e *UnknownError) UserMessage() string {
	if e.Country != "" {
		return fmt.Sprintf("There is no %s %q to offer in %s", e.What, e.Name, e.Country)
	}
	return fmt.Sprintf("There is no %s %q", e.What, e.Name)
}
