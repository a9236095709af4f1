package account

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"draindesign/domain/eventcodec"
)

// sampleEvents has one fully populated event of every type.
func sampleEvents() []Event {
	yes, units, lang, s := true, "l/s/m2", "de", "x"
	return []Event{
		Registered{UserID: "u", Username: "anna", FirstName: "Anna", LastName: "Meier", Email: "a@b.de",
			Company: "C", Telephone: "123", Country: "DE", Address: "A", City: "B", Postcode: "1",
			PasswordHash: fakeHash("a"), Group: GroupStandard, Language: "en", RainfallUnits: "mm/h", At: t0},
		EmailConfirmed{UserID: "u", At: t0},
		PasswordChanged{UserID: "u", PasswordHash: fakeHash("b"), At: t0},
		ResetRequested{UserID: "u", At: t0},
		SettingsChanged{UserID: "u", DefaultAdvancedMode: &yes, RainfallUnits: &units, Language: &lang,
			Company: &s, Telephone: &s, Address: &s, City: &s, Postcode: &s, At: t0},
		CountryChanged{UserID: "u", Country: "BE", At: t0},
		Blocked{UserID: "u", By: "admin", At: t0},
		Unblocked{UserID: "u", By: "admin", At: t0},
		GroupChanged{UserID: "u", From: GroupStandard, To: GroupAdvanced, By: "admin", At: t0},
		Deleted{UserID: "u", By: "admin", At: t0},
		APITokenCreated{UserID: "u", TokenID: "t1", Name: "CI", Hash: HashAPIToken("x"), At: t0},
		APITokenRevoked{UserID: "u", TokenID: "t1", At: t0},
		Erased{UserID: "u", At: t0},
	}
}

func TestCodecRoundTrip(t *testing.T) {
	t.Parallel()
	var seen []string
	for _, e := range sampleEvents() {
		t.Run(e.EventType(), func(t *testing.T) {
			t.Parallel()
			typ, schema, data, err := Encode(e)
			if err != nil {
				t.Fatal(err)
			}
			if typ != e.EventType() || !strings.HasPrefix(typ, "account.") || schema != 1 {
				t.Errorf("type = %q, schema version %d", typ, schema)
			}
			back, err := Decode(typ, schema, data)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, e) {
				t.Errorf("round trip:\n got %#v\nwant %#v", back, e)
			}
			// pointer events encode the same
			ptr := reflect.New(reflect.TypeOf(e))
			ptr.Elem().Set(reflect.ValueOf(e))
			typ2, schema2, data2, err := Encode(ptr.Interface().(Event))
			if err != nil || typ2 != typ || schema2 != schema || string(data2) != string(data) {
				t.Errorf("pointer encode = %q %d %s %v", typ2, schema2, data2, err)
			}
		})
		seen = append(seen, e.EventType())
	}
	slices.Sort(seen)
	all := EventTypes()
	slices.Sort(all)
	if !slices.Equal(seen, all) {
		t.Errorf("sample events cover %v, EventTypes lists %v", seen, all)
	}
}

func TestSettingsChangedOmitsUntouchedFields(t *testing.T) {
	t.Parallel()
	lang := "fr"
	_, _, data, err := Encode(SettingsChanged{UserID: "u", Language: &lang, At: t0})
	if err != nil {
		t.Fatal(err)
	}
	for _, absent := range []string{"company", "rainfall_units", "default_advanced_mode", "telephone"} {
		if strings.Contains(string(data), absent) {
			t.Errorf("%s present in %s", absent, data)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	if _, err := Decode("account.renamed", 1, []byte(`{}`)); !errors.Is(err, ErrUnknownEventType) {
		t.Errorf("unknown type: %v", err)
	}
	if _, err := Decode(TypeBlocked, 1, []byte(`{`)); err == nil || errors.Is(err, ErrUnknownEventType) {
		t.Errorf("bad JSON: %v", err)
	}
	if _, err := Decode(TypeBlocked, 2, []byte(`{}`)); !errors.Is(err, eventcodec.ErrFutureSchema) {
		t.Errorf("newer schema: %v, want ErrFutureSchema", err)
	}
	if _, _, _, err := Encode(nil); err == nil {
		t.Error("Encode(nil) succeeded")
	}
}

func TestStreamName(t *testing.T) {
	t.Parallel()
	if got := Stream("42"); got != "account-42" {
		t.Errorf("Stream = %q", got)
	}
}
