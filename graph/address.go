package graph

import (
	"net"
	"net/http"
	"net/netip"
)

// clientAddress is the address a request counts against in every bound on a caller that
// is not (or not only) a player: the rate limiter's bucket without a valid token, the
// registrations per hour, and the websockets without a token or awaiting their
// connection_init. All of them key by it, so that no bound is easier to dodge than another.
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return addressKey(host)
}

// addressKey is the key of a remote host: an IPv4 address as it is, an IPv6 one by its
// /64, the block a single subscriber is usually given (counting each address of it apart
// would give one client 2^64 buckets and caps).
func addressKey(host string) string {
	a, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	a = a.Unmap()
	if a.Is4() {
		return a.String()
	}
	p, err := a.WithZone("").Prefix(64)
	if err != nil {
		return host
	}
	return p.String()
}
