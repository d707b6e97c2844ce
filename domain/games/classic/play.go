package classic

import (
	"fmt"
	"sync/atomic"

	"github.com/arbiter-games/arbiter/domain/chess"
)

// playStored returns the game of s after the stored move uci, leaving s's game as it was.
//
// chess.Game.Clone clips the move and hash histories, so that the clone's first Play
// copies them: folding a match of n moves that way copies O(n²) history, which was most of
// the time of rebuilding a long match. Instead, the first state evolved from s shares s's
// history storage: its Play appends past the length that s sees, into spare capacity, so s
// is unchanged. s.extended records that this was done, atomically because states are
// shared between goroutines; any later state evolved from s (a fork: the engine deciding
// on a cached state, a replay from an old version) sees the flag and clones instead, so
// two forks never write to the same slot.
func playStored(s State, uci string) (*chess.Game, *atomic.Bool) {
	var g *chess.Game
	if s.extended != nil && s.extended.CompareAndSwap(false, true) {
		c := *s.Game
		g = &c
	} else {
		g = s.Game.Clone()
	}
	m, err := g.Position().ParseMove(uci) // legal here, or the store is corrupt
	if err != nil {
		panic(fmt.Sprintf("classic: a stored move %s does not replay: %v", uci, err))
	}
	g.Replay(m)
	return g, new(atomic.Bool)
}
