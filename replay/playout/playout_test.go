package playout

import (
	"fmt"
	"testing"
)

// A move's command ID and actor, written without fmt, are those meta writes: stores
// filled before and after hold the same command IDs, and a retry is known for one.
func TestPlyMetaIsMeta(t *testing.T) {
	made := Match{Index: 1234567, Players: [2]string{"abc", "def"}, actors: [2]string{"player:abc", "player:def"}}
	byHand := Match{Index: 0, Players: [2]string{"w", "b"}}
	for _, m := range []Match{made, byHand} {
		for _, ply := range []int{0, 1, 9, 10, 59, 1000} {
			seat := ply % 2
			if got, want := m.plyMeta(ply, seat), m.meta(fmt.Sprintf("ply%d", ply), seat); got != want {
				t.Errorf("match %d ply %d: plyMeta %+v, meta %+v", m.Index, ply, got, want)
			}
		}
	}
	if got := byHand.actor(1); got != "player:b" {
		t.Errorf("actor of a hand-made match: %q", got)
	}
}
