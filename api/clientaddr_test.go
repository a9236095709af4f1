package api

import (
	"net/http/httptest"
	"net/netip"
	"testing"
)

// The client's address is the peer's unless the peer is a trusted proxy;
// then the rightmost forwarded address that is not a trusted proxy, so a
// client can add addresses to the left of the header but never choose the
// one that counts.
func TestClientAddress(t *testing.T) {
	trusted, err := ParseTrustedProxies(" 10.0.0.0/8, 192.0.2.1 ,2001:db8:1::/48")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		trusted []netip.Prefix
		peer    string
		xff     []string
		realIP  string
		want    string
	}{
		{"peer without headers", trusted, "203.0.113.5:4711", nil, "", "203.0.113.5"},
		{"port is not part of the address", nil, "203.0.113.5:1", nil, "", "203.0.113.5"},
		{"untrusted peer: forwarded header ignored", nil, "203.0.113.5:4711", []string{"198.51.100.7"}, "", "203.0.113.5"},
		{"untrusted peer: X-Real-IP ignored", nil, "203.0.113.5:4711", nil, "198.51.100.7", "203.0.113.5"},
		{"trusted peer: forwarded client", trusted, "10.1.2.3:4711", []string{"198.51.100.7"}, "", "198.51.100.7"},
		{"trusted peer: spoofed entries left of the real one", trusted, "10.1.2.3:4711",
			[]string{"1.1.1.1, 2.2.2.2, 198.51.100.7"}, "", "198.51.100.7"},
		{"chain of trusted proxies is skipped", trusted, "10.1.2.3:4711",
			[]string{"6.6.6.6, 198.51.100.7, 192.0.2.1", "10.9.9.9"}, "", "198.51.100.7"},
		{"trusted peer: X-Real-IP when no X-Forwarded-For", trusted, "192.0.2.1:80", nil, "198.51.100.7", "198.51.100.7"},
		{"garbage written by a trusted hop stops the walk", trusted, "10.1.2.3:4711", []string{"not-an-ip, 10.4.4.4"}, "", "10.4.4.4"},
		{"only trusted addresses: the leftmost", trusted, "10.1.2.3:4711", []string{"10.7.7.7, 10.8.8.8"}, "", "10.7.7.7"},
		{"forwarded entry with a port", trusted, "10.1.2.3:4711", []string{"198.51.100.7:5555"}, "", "198.51.100.7"},
		{"IPv6 peer trusted by prefix", trusted, "[2001:db8:1::9]:443", []string{"2001:db8:ffff::1"}, "", "2001:db8:ffff::1"},
		{"IPv4-mapped IPv6 peer", trusted, "[::ffff:10.1.2.3]:80", []string{"198.51.100.7"}, "", "198.51.100.7"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tc.peer
			for _, v := range tc.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if tc.realIP != "" {
				r.Header.Set("X-Real-IP", tc.realIP)
			}
			if got := (clientAddrs{trusted: tc.trusted}).of(r); got.String() != tc.want {
				t.Errorf("client %s, want %s", got, tc.want)
			}
		})
	}
}

func TestParseTrustedProxies(t *testing.T) {
	for in, want := range map[string]int{"": 0, " , ": 0, //nolint:gocritic // blanks around a comma are the case under test
		"127.0.0.1": 1, "10.0.0.0/8,::1": 2, "::ffff:127.0.0.1": 1} {
		got, err := ParseTrustedProxies(in)
		if err != nil || len(got) != want {
			t.Errorf("%q: %v %v, want %d prefixes", in, got, err, want)
		}
	}
	for _, in := range []string{"localhost", "10.0.0.0/33", "1.2.3"} {
		if _, err := ParseTrustedProxies(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

// A whole IPv6 /64 counts as one client; IPv4 addresses count singly.
func TestAddrKey(t *testing.T) {
	cases := map[string]string{
		"198.51.100.7":           "198.51.100.7",
		"2001:db8:1:2:aaaa::1":   "2001:db8:1:2::/64",
		"2001:db8:1:2:bbbb::999": "2001:db8:1:2::/64",
	}
	for in, want := range cases {
		if got := addrKey(netip.MustParseAddr(in)); got != want {
			t.Errorf("%s: key %s, want %s", in, got, want)
		}
	}
	if addrKey(netip.Addr{}) != "unknown" {
		t.Error("invalid address has a key")
	}
}
