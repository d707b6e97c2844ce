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
	n := new(played) // the game and its flag in one allocation
	if s.extended != nil && s.extended.CompareAndSwap(false, true) {
		n.game = *s.Game
	} else {
		n.game = *s.Game.Clone()
	}
	g := &n.game
	m, err := g.Position().ParseMove(uci) // legal here, or the store is corrupt
	if err != nil {
		panic(fmt.Sprintf("classic: a stored move %s does not replay: %v", uci, err))
	}
	g.Replay(m)
	return g, &n.extended
}

// played is a game after a move, with the flag of its state (State.extended): a state
// points into it twice.
type played struct {
	game     chess.Game
	extended atomic.Bool
}
