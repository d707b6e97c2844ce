package graph

import (
	"strings"
	"testing"
)

// The counts hold what is open and nothing more: a cap is whole again once its sockets
// are given back, a key is forgotten with its last socket, and a give of what was never
// taken changes nothing.
func TestWebsocketCounts(t *testing.T) {
	var s wsCounts
	ann := wsKey{class: wsPlayer, who: "ann"}
	addr := wsKey{class: wsAnonymous, who: "192.0.2.1"}
	for i := range 3 {
		if !s.take(ann, 3) {
			t.Fatalf("Ann's socket %d of 3 refused", i+1)
		}
	}
	if s.take(ann, 3) {
		t.Fatal("Ann's fourth socket taken with a cap of 3")
	}
	if !s.take(addr, 1) || !s.take(wsKey{class: wsAwaiting, who: "192.0.2.1"}, 1) {
		t.Fatal("the address's anonymous and awaiting sockets count apart from each other and from Ann's")
	}
	if by, keys := s.totals(); by != [wsClasses]int{1, 1, 3} || keys != 3 {
		t.Fatalf("totals %v over %d keys, want [1 1 3] over 3", by, keys)
	}
	s.give(ann)
	if !s.take(ann, 3) || s.take(ann, 3) {
		t.Fatal("a socket given back makes room for one, and only one")
	}
	s.give(wsKey{class: wsPlayer, who: "bob"}) // never taken
	for range 3 {
		s.give(ann)
	}
	s.give(addr)
	s.give(wsKey{class: wsAwaiting, who: "192.0.2.1"})
	if by, keys := s.totals(); by != [wsClasses]int{} || keys != 0 || len(s.open) != 0 {
		t.Fatalf("after every socket was given back: totals %v, %d keys held", by, keys)
	}
}

// An IPv6 client counts by its /64: the addresses of one subscriber's block are one.
func TestAddressKey(t *testing.T) {
	for host, want := range map[string]string{
		"192.0.2.7":                  "192.0.2.7",
		"::ffff:192.0.2.7":           "192.0.2.7",
		"2001:db8:1:2::1":            "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff::9":       "2001:db8:1:2::/64",
		"2001:db8:1:3::1":            "2001:db8:1:3::/64",
		"fe80::1%eth0":               "fe80::/64",
		"not an address":             "not an address",
		"2001:db8:1:2:aaaa:bbbb:0:1": "2001:db8:1:2::/64",
	} {
		if got := addressKey(host); got != want {
			t.Errorf("addressKey(%q) = %q, want %q", host, got, want)
		}
	}
}

// A refusal's reason fits a close frame (123 bytes) whole at the largest cap serve takes,
// and names the cap and the code.
func TestTooManyReasonFitsACloseFrame(t *testing.T) {
	for _, class := range []wsClass{wsAwaiting, wsAnonymous, wsPlayer} {
		r := tooManyReason(class, 1_000_000)
		if len(r) > 123 || !strings.HasPrefix(r, CodeTooManyConnections+": ") || !strings.Contains(r, " 1000000 ") {
			t.Errorf("class %d: %d bytes, %q", class, len(r), r)
		}
	}
}
