package sovereignchess

import (
	"maps"
	"slices"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/sovereign"
)

// The older rules versions, kept as data: a variant says where an older version played
// differently from RulesVersion, and the code asks it at those points only, so that a
// match recorded then folds, verifies and plays on as it was played
// (docs/games/sovereign.md, "Rules versions"). The zero variant is RulesVersion.
type variant struct {
	// kingTakes: in the two-player game, the king move a defection forces could take the
	// other king (sovereign.Position.KingTakes); the game then went on as Royale's capture
	// of a king does. rulebook-2017.3 refuses that move.
	kingTakes bool
	// noWithdrawal: a Royale seat that resigned while the game went on kept its king, its
	// army and its turns (Withdraw recorded nothing); since rulebook-2017.2 it withdraws.
	noWithdrawal bool
	// fiftyIn100: a draw on the fifty-move rule could be claimed after 100 quiet plies in
	// Royale too, that is 25 moves by each of four players; since rulebook-2017.4 it takes
	// fifty moves by each player still playing (sovereign.Game.FiftyMovePlies).
	fiftyIn100 bool
	// capturedClaims: a Royale seat whose king was captured, and who had crowned no new
	// one, could claim a draw and was ranked tied by any claimed draw; since
	// rulebook-2017.5 it may not claim (it can neither win nor tie: rulebook p.4), and a
	// draw another seat claims ranks it lost, as the end of the battle would.
	capturedClaims bool
	// clearsShared: an unmoved king that moved or left took the castling rights of every
	// rook on its edges, those another unmoved king castles with included
	// (sovereign.Position.ClearsSharedEdges); since rulebook-2017.6 a rook keeps its
	// right while it has not moved and another unmoved king shares an edge with it.
	clearsShared bool
}

// position is pos as the version plays it.
func (v variant) position(pos sovereign.Position) sovereign.Position {
	if v.kingTakes {
		pos = pos.KingTakes()
	}
	if v.clearsShared {
		pos = pos.ClearsSharedEdges()
	}
	return pos
}

// variants are the older versions this build plays.
var variants = map[string]variant{
	"rulebook-2017.1": {kingTakes: true, noWithdrawal: true, fiftyIn100: true, capturedClaims: true, clearsShared: true},
	"rulebook-2017.2": {kingTakes: true, fiftyIn100: true, capturedClaims: true, clearsShared: true},
	"rulebook-2017.3": {fiftyIn100: true, capturedClaims: true, clearsShared: true},
	"rulebook-2017.4": {capturedClaims: true, clearsShared: true},
	"rulebook-2017.5": {clearsShared: true},
}

var _ game.Pinned = Rules{}

// Under is the rules of an older version, for the matches recorded under it
// (game.Pinned): rulebook-2017.1 to rulebook-2017.5, whose differences are variants'.
func (Rules) Under(version string) (game.Rules, bool) {
	if _, ok := variants[version]; !ok {
		return nil, false
	}
	return Rules{pinned: version}, true
}

// Versions lists the older versions this build plays, oldest first (game.Pinned).
func (Rules) Versions() []string { return slices.Sorted(maps.Keys(variants)) }
