package sovereignchess

import "github.com/arbiter-games/arbiter/domain/game"

// Settled reports whether every fact the last move, choice or claim implies has been
// folded: until then the state is ahead of the stream (see Evolve), and views streamed
// event by event wait (game.Settling).
func (Rules) Settled(st game.State) bool {
	s, ok := st.(State)
	return !ok || len(s.pending) == 0
}

var _ game.Settling = Rules{}
