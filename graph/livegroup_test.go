package graph

import "testing"

// A late subscriber's group reads the match's history from the store faster than a
// socket takes it: the ring must keep what its member has yet to write, up to
// liveRingMax, and trim freely once nobody needs the oldest messages.
func TestTheRingKeepsWhatAMemberHasYetToWrite(t *testing.T) {
	group := func(size int, base int64, nexts ...int64) *liveGroup {
		g := &liveGroup{ring: make([]liveMessage, size), base: base, members: map[*liveMember]struct{}{}}
		for _, n := range nexts {
			g.members[&liveMember{next: n}] = struct{}{}
		}
		return g
	}
	for _, c := range []struct {
		name string
		g    *liveGroup
		want int
	}{
		{"nobody behind", group(2*liveRing, 0, 2*liveRing), liveRing},
		{"no member", group(2*liveRing, 100), liveRing},
		{"a late subscriber at message 43", group(2*liveRing, 0, 43, 2*liveRing), 43},
		{"behind the base already", group(2*liveRing, 50, 10), 0},
		{"the ring at its most", group(liveRingMax, 0, 43), liveRingMax - liveRing},
	} {
		if got := c.g.trimmable(); got != c.want {
			t.Errorf("%s: %d messages may go, want %d", c.name, got, c.want)
		}
	}
	// A member that has left holds nothing back.
	g := group(2*liveRing, 0)
	g.members[&liveMember{next: 3, state: liveSlow}] = struct{}{}
	if got := g.trimmable(); got != liveRing {
		t.Errorf("a member that left: %d messages may go, want %d", got, liveRing)
	}
}
