package project

import (
	"bytes"
	"encoding/json"
)

// plainScalar is raw, its JSON whitespace trimmed, when it is a number,
// true, false, null or a string of printable ASCII without escapes, <, >
// or &: a value that encoding/json (numbers kept as json.Number) decodes
// to itself and encodes back byte for byte. Almost every input field is
// one; canonical and decodeValue then skip the decoder, whose buffer of
// at least 512 bytes per value was 7 % of an instance's allocations under
// `make load`. Anything else (or not valid JSON) is for the decoder.
func plainScalar(raw []byte) ([]byte, bool) {
	t := bytes.Trim(raw, " \t\r\n")
	if len(t) == 0 {
		return nil, false
	}
	switch c := t[0]; {
	case c == '"':
		if len(t) < 2 || t[len(t)-1] != '"' {
			return nil, false
		}
		for _, b := range t[1 : len(t)-1] {
			if b < 0x20 || b > 0x7e || b == '\\' || b == '"' || b == '<' || b == '>' || b == '&' {
				return nil, false
			}
		}
		return t, true
	case c == '-' || (c >= '0' && c <= '9'), c == 't', c == 'f', c == 'n':
		// json.Valid of a value starting so accepts only a number or the
		// three literals, whole and alone.
		return t, json.Valid(t)
	}
	return nil, false
}

// scalarValue is what the decoder (UseNumber) gives for a plain scalar.
func scalarValue(t []byte) any {
	switch t[0] {
	case '"':
		return string(t[1 : len(t)-1])
	case 't':
		return true
	case 'f':
		return false
	case 'n':
		return nil
	}
	return json.Number(t)
}
