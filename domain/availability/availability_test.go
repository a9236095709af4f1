package availability

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/fault"
)

var t0 = time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)

// fakeCatalogue sells poly-100 (channels 100, 150) everywhere and big-bls
// everywhere but GB, as the real catalogue does.
type fakeCatalogue struct{}

func (fakeCatalogue) Sellable(system, country string) bool {
	return system == "poly-100" || (system == "big-bls" && country != "GB")
}
func (fakeCatalogue) HasChannel(system, channel string) bool {
	return system == "poly-100" && (channel == "100" || channel == "150")
}

func apply(o *Offer, evs []Event) {
	for _, e := range evs {
		o.Apply(e)
	}
}

func TestSet(t *testing.T) {
	t.Parallel()
	marketing := account.Actor{ID: "m", Group: account.GroupMarketing}
	for _, tc := range []struct {
		name     string
		by       account.Actor
		before   []Event
		country  string
		key      Key
		offered  bool
		want     []Event
		wantKind fault.Kind
	}{
		{name: "marketing withdraws a system", by: marketing, country: "gb", key: Key{System: "poly-100"},
			want: []Event{Changed{Country: "GB", System: "poly-100", By: "m", At: t0}}},
		{name: "an admin withdraws a channel", by: account.Actor{ID: "a", Group: account.GroupAdmin}, country: "DE",
			key: Key{"poly-100", "150"}, want: []Event{Changed{Country: "DE", System: "poly-100", Channel: "150", By: "a", At: t0}}},
		{name: "offering again what was withdrawn", by: marketing, country: "DE", key: Key{"poly-100", "150"}, offered: true,
			before: []Event{Changed{Country: "DE", System: "poly-100", Channel: "150"}},
			want:   []Event{Changed{Country: "DE", System: "poly-100", Channel: "150", Offered: true, By: "m", At: t0}}},
		{name: "offering what is offered records nothing", by: marketing, country: "DE", key: Key{System: "poly-100"}, offered: true},
		{name: "withdrawing twice records nothing", by: marketing, country: "DE", key: Key{System: "poly-100"},
			before: []Event{Changed{Country: "DE", System: "poly-100"}}},
		{name: "support may not", by: account.Actor{ID: "s", Group: account.GroupSupport}, country: "DE", key: Key{System: "poly-100"}, wantKind: fault.Forbidden},
		{name: "a translator may not", by: account.Actor{ID: "t", Group: account.GroupTranslator}, country: "DE", key: Key{System: "poly-100"}, wantKind: fault.Forbidden},
		{name: "a standard user may not", by: account.Actor{ID: "u", Group: account.GroupStandard}, country: "DE", key: Key{System: "poly-100"}, wantKind: fault.Forbidden},
		{name: "unknown country", by: marketing, country: "XX", key: Key{System: "poly-100"}, wantKind: fault.BadInput},
		{name: "unknown system", by: marketing, country: "DE", key: Key{System: "nope"}, wantKind: fault.BadInput},
		{name: "a system the catalogue never sells there", by: marketing, country: "GB", key: Key{System: "big-bls"}, wantKind: fault.BadInput},
		{name: "a channel the system does not have", by: marketing, country: "DE", key: Key{"poly-100", "300"}, wantKind: fault.BadInput},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := NewOffer()
			apply(o, tc.before)
			got, err := o.Set(tc.country, tc.by, tc.key, tc.offered, fakeCatalogue{}, t0)
			if tc.wantKind != fault.Internal {
				if err == nil || fault.Of(err) != tc.wantKind {
					t.Fatalf("err = %v (kind %v), want kind %v", err, fault.Of(err), tc.wantKind)
				}
				if fault.Message(err) == "" {
					t.Error("the refusal has no message for the user")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("events %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestOffers(t *testing.T) {
	t.Parallel()
	o := NewOffer()
	apply(o, []Event{
		Changed{Country: "DE", System: "poly-100", Channel: "150"},
		Changed{Country: "DE", System: "big-bls"},
		Changed{Country: "DE", System: "steel"},
		Changed{Country: "DE", System: "steel", Offered: true},
	})
	for _, tc := range []struct {
		system, channel string
		want            bool
	}{
		{"poly-100", "", true},
		{"poly-100", "100", true},
		{"poly-100", "150", false},
		{"big-bls", "", false},
		{"big-bls", "200", false}, // a channel of a withdrawn system
		{"steel", "", true},
		{"fibre", "8100", true},
	} {
		if got := o.Offers(tc.system, tc.channel); got != tc.want {
			t.Errorf("Offers(%s, %s) = %v, want %v", tc.system, tc.channel, got, tc.want)
		}
	}
	if got := len(o.Withdrawn()); got != 2 {
		t.Errorf("%d withdrawn, want 2: %v", got, o.Withdrawn())
	}
}

func TestCodec(t *testing.T) {
	t.Parallel()
	e := Changed{Country: "DE", System: "poly-100", Channel: "150", Offered: true, By: "m", At: t0}
	typ, schema, data, err := Encode(e)
	if err != nil || typ != "availability.changed" || schema != 1 {
		t.Fatalf("Encode = %q v%d, %v", typ, schema, err)
	}
	back, err := Decode(typ, schema, data)
	if err != nil || !reflect.DeepEqual(back, e) {
		t.Fatalf("round trip %#v, %v", back, err)
	}
	// A stored sample of version 1, as written: it must keep meaning this.
	stored := `{"country":"GB","system":"steel","offered":false,"by":"u-1","at":"2026-05-06T07:08:09Z"}`
	back, err = Decode(TypeChanged, 1, []byte(stored))
	if err != nil || !reflect.DeepEqual(back, Changed{Country: "GB", System: "steel", By: "u-1", At: t0}) {
		t.Fatalf("stored v1 sample decodes to %#v, %v", back, err)
	}
	if _, err := Decode("availability.nope", 1, []byte(`{}`)); !errors.Is(err, ErrUnknownEventType) {
		t.Errorf("unknown type: %v", err)
	}
}
