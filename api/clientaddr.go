package api

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// The client's address is what every per-address limit keys on, so it must
// be something the client cannot choose. The direct peer is the client
// unless it is one of the configured trusted proxies; only then are
// X-Forwarded-For (or X-Real-IP) read, from the right, skipping further
// trusted proxies, and the first address not among them is the client.
// Anything to the left of that address was written by the client itself.

// ParseTrustedProxies reads a comma-separated list of addresses and CIDR
// prefixes (TRUSTED_PROXIES); empty means no proxy is trusted.
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if strings.Contains(f, "/") {
			p, err := netip.ParsePrefix(f)
			if err != nil {
				return nil, fmt.Errorf("trusted proxy %q is not an address or CIDR prefix: %w", f, err)
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q is not an address or CIDR prefix: %w", f, err)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

type clientAddrs struct {
	trusted []netip.Prefix
}

func (c clientAddrs) isTrusted(a netip.Addr) bool {
	for _, p := range c.trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// of is the address of the client that sent r. It is the invalid Addr only
// when the peer address itself cannot be read, which net/http never gives.
func (c clientAddrs) of(r *http.Request) netip.Addr {
	peer := parseHostAddr(r.RemoteAddr)
	if !peer.IsValid() || !c.isTrusted(peer) {
		return peer
	}
	hops := forwardedFor(r.Header)
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		a := parseHostAddr(hops[i])
		if !a.IsValid() {
			// A trusted proxy wrote something unreadable: the last address
			// we could trust is the best we know.
			return client
		}
		client = a
		if !c.isTrusted(a) {
			return a
		}
	}
	return client
}

// forwardedFor is the chain of addresses the proxies reported, leftmost
// first: every X-Forwarded-For header in order, else X-Real-IP.
func forwardedFor(h http.Header) []string {
	var hops []string
	for _, v := range h.Values("X-Forwarded-For") {
		for _, f := range strings.Split(v, ",") {
			hops = append(hops, strings.TrimSpace(f))
		}
	}
	if len(hops) == 0 {
		if v := strings.TrimSpace(h.Get("X-Real-IP")); v != "" {
			hops = []string{v}
		}
	}
	return hops
}

// parseHostAddr reads "1.2.3.4", "1.2.3.4:5678", "::1" or "[::1]:5678";
// IPv4-mapped IPv6 addresses become IPv4 and zones are dropped.
func parseHostAddr(s string) netip.Addr {
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap().WithZone("")
	}
	host, _, err := net.SplitHostPort(s)
	if err != nil {
		return netip.Addr{}
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	return a.Unmap().WithZone("")
}

// clientKey is what per-address limits count: the IPv4 address, or the /64
// an IPv6 address belongs to (one subscriber usually holds a whole /64, so
// counting single IPv6 addresses would let one client rotate freely).
func (s *Server) clientKey(r *http.Request) string {
	return addrKey(s.clients.of(r))
}

func addrKey(a netip.Addr) string {
	if !a.IsValid() {
		return "unknown"
	}
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}
