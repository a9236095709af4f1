package eventcodec_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"draindesign/domain/eventcodec"
)

// A made-up aggregate whose "person.named" event changed shape twice:
//
//	v1 {"name": "Ann Example"}
//	v2 {"first": "Ann", "last": "Example"}          (name split)
//	v3 {"first": "Ann", "last": "Example", "title": ""} (title added, "" for old events)
type event interface{ Type() string }

type named struct {
	First string `json:"first"`
	Last  string `json:"last"`
	Title string `json:"title"`
}

type moved struct {
	To string `json:"to"`
}

func (named) Type() string { return "person.named" }
func (moved) Type() string { return "person.moved" }

func splitName(data json.RawMessage) (json.RawMessage, error) {
	var v1 struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(data, &v1); err != nil {
		return nil, err
	}
	first, last, _ := strings.Cut(v1.Name, " ")
	return json.Marshal(map[string]string{"first": first, "last": last})
}

func addTitle(data json.RawMessage) (json.RawMessage, error) {
	var v2 map[string]any
	if err := json.Unmarshal(data, &v2); err != nil {
		return nil, err
	}
	v2["title"] = ""
	return json.Marshal(v2)
}

func newCodec() *eventcodec.Codec[event] {
	c := eventcodec.New("person", func(e event) string { return e.Type() })
	eventcodec.Register[named](c, 3, splitName, addTitle)
	eventcodec.Register[moved](c, 1)
	return c
}

func TestDecodeUpcastsThroughTheChain(t *testing.T) {
	c := newCodec()
	tests := []struct {
		name   string
		typ    string
		schema int
		data   string
		want   event
	}{
		{"v1, two upcasts", "person.named", 1, `{"name":"Ann Example"}`, named{First: "Ann", Last: "Example"}},
		{"schema 0 counts as 1", "person.named", 0, `{"name":"Ann Example"}`, named{First: "Ann", Last: "Example"}},
		{"v2, one upcast", "person.named", 2, `{"first":"Bo","last":"Lee"}`, named{First: "Bo", Last: "Lee"}},
		{"current version", "person.named", 3, `{"first":"Cy","last":"Ng","title":"Dr"}`, named{First: "Cy", Last: "Ng", Title: "Dr"}},
		{"never changed", "person.moved", 1, `{"to":"DE"}`, moved{To: "DE"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.Decode(tt.typ, tt.schema, []byte(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("decoded %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	c := newCodec()
	tests := []struct {
		name           string
		typ            string
		schema         int
		data           string
		unknown, newer bool
	}{
		{"unknown type", "person.renamed", 1, `{}`, true, false},
		{"schema newer than known", "person.named", 4, `{}`, false, true},
		{"bad JSON", "person.moved", 1, `{"to":`, false, false},
		{"upcaster fails", "person.named", 1, `[]`, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Decode(tt.typ, tt.schema, []byte(tt.data))
			if err == nil {
				t.Fatal("decoded")
			}
			if errors.Is(err, eventcodec.ErrUnknownEventType) != tt.unknown || errors.Is(err, eventcodec.ErrFutureSchema) != tt.newer {
				t.Errorf("error %v: unknown type %v, newer schema %v; want %v, %v", err,
					errors.Is(err, eventcodec.ErrUnknownEventType), errors.Is(err, eventcodec.ErrFutureSchema), tt.unknown, tt.newer)
			}
		})
	}
}

type stray struct{}

func (stray) Type() string { return "person.stray" }

func TestEncode(t *testing.T) {
	c := newCodec()
	typ, schema, data, err := c.Encode(named{First: "Ann", Last: "Example", Title: "Dr"})
	if err != nil || typ != "person.named" || schema != 3 || string(data) != `{"first":"Ann","last":"Example","title":"Dr"}` {
		t.Errorf("Encode = %q %d %s %v", typ, schema, data, err)
	}
	// A pointer encodes as its value.
	typ, schema, data, err = c.Encode(&moved{To: "BE"})
	if err != nil || typ != "person.moved" || schema != 1 || string(data) != `{"to":"BE"}` {
		t.Errorf("Encode(pointer) = %q %d %s %v", typ, schema, data, err)
	}
	if _, _, _, err := c.Encode(stray{}); !errors.Is(err, eventcodec.ErrUnknownEventType) {
		t.Errorf("Encode(unregistered) = %v, want ErrUnknownEventType", err)
	}
	if _, _, _, err := c.Encode(nil); err == nil {
		t.Error("Encode(nil) succeeded")
	}
	// What Encode writes, Decode reads.
	typ, schema, data, _ = c.Encode(named{First: "Ann"})
	if back, err := c.Decode(typ, schema, data); err != nil || back != (named{First: "Ann"}) {
		t.Errorf("round trip: %#v, %v", back, err)
	}
}

func TestTypesAndSchema(t *testing.T) {
	c := newCodec()
	if got := c.Types(); !slices.Equal(got, []string{"person.moved", "person.named"}) {
		t.Errorf("Types = %v", got)
	}
	if v, ok := c.Schema("person.named"); !ok || v != 3 {
		t.Errorf("Schema(person.named) = %d, %v", v, ok)
	}
	if _, ok := c.Schema("person.renamed"); ok {
		t.Error("Schema of an unknown type")
	}
}

func TestRegisterRefusesMistakes(t *testing.T) {
	tests := []struct {
		name     string
		register func(c *eventcodec.Codec[event])
	}{
		{"registered twice", func(c *eventcodec.Codec[event]) {
			eventcodec.Register[moved](c, 1)
			eventcodec.Register[moved](c, 1)
		}},
		{"missing upcaster", func(c *eventcodec.Codec[event]) { eventcodec.Register[named](c, 3, splitName) }},
		{"upcaster too many", func(c *eventcodec.Codec[event]) { eventcodec.Register[moved](c, 1, splitName) }},
		{"nil upcaster", func(c *eventcodec.Codec[event]) { eventcodec.Register[named](c, 2, nil) }},
		{"schema 0", func(c *eventcodec.Codec[event]) { eventcodec.Register[moved](c, 0) }},
		{"not an event", func(c *eventcodec.Codec[event]) { eventcodec.Register[struct{ X int }](c, 1) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("Register did not panic")
				}
			}()
			tt.register(eventcodec.New("person", func(e event) string { return e.Type() }))
		})
	}
}
