package project

import (
	"bytes"
	"reflect"
	"testing"
)

var scalarSeeds = []string{
	`1`, ` -12.5e3 `, "\t0\n", `01`, `1.`, `-`, `1 2`, `true`, `false`, `null`, `nul`, `truex`,
	`"abc"`, `"a b-c_1.5"`, `"a\"b"`, `"a\\b"`, `"\u00e9"`, `"é"`, `"<b>"`, `"a&b"`, `"`, `""`,
	`"a"b"`, "\"tab\there\"", `[1,2]`, `{"a":1}`, "\v1", "", ` `, `"x" "y"`, `1e400`,
}

// The shortcut for plain scalars gives what the decoder gives, for
// canonical and for decodeValue, on any input.
func TestPlainScalarsAsTheDecoderReadsThem(t *testing.T) {
	for _, s := range scalarSeeds {
		checkScalarShortcut(t, []byte(s))
	}
	// The shortcut is taken where it should be: otherwise it saves nothing.
	for _, s := range []string{`1`, ` -12.5e3 `, `true`, `null`, `"a b-c_1.5"`, `""`} {
		if _, ok := plainScalar([]byte(s)); !ok {
			t.Errorf("plainScalar(%q) not taken", s)
		}
	}
	for _, s := range []string{`"é"`, `"a\"b"`, `"<b>"`, `1 2`, `[1]`, "\v1", `"`} {
		if _, ok := plainScalar([]byte(s)); ok {
			t.Errorf("plainScalar(%q) taken", s)
		}
	}
}

func FuzzPlainScalar(f *testing.F) {
	for _, s := range scalarSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkScalarShortcut)
}

func checkScalarShortcut(t *testing.T, raw []byte) {
	t.Helper()
	if got, want := canonical(raw), canonicalDecoded(raw); !bytes.Equal(got, want) {
		t.Errorf("canonical(%q) = %q, the decoder gives %q", raw, got, want)
	}
	got, gotErr := decodeValue(raw)
	want, wantErr := decodeValueDecoded(raw)
	if (gotErr == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) {
		t.Errorf("decodeValue(%q) = %#v, %v; the decoder gives %#v, %v", raw, got, gotErr, want, wantErr)
	}
}
