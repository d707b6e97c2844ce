package unfair

import (
	"maps"
	"slices"

	"github.com/arbiter-games/arbiter/domain/game"
)

// The older rules versions, kept as data: a variant says where an older version played
// differently from RulesVersion, and the code asks it at those few points only, so that
// a match recorded then folds, verifies and plays on as it was played
// (docs/games/unfairchess.md, "Rules versions"). The zero variant is RulesVersion.
type variant struct {
	// wakeOnAnyCheck: the sleepers woke right after any move or card that left a king
	// attacked that was not before it, the mover's own included in the middle of a card
	// that adds to the move; since unfair-2026.2 they wake when a turn ends with the
	// opponent's king attacked.
	wakeOnAnyCheck bool
	// movesAgainstStalemate: the restrictions were suspended when they left the seat no
	// legal move, its cards not counted; since unfair-2026.2 a playable card counts too,
	// both ways.
	movesAgainstStalemate bool
	// moveSavesAfterCard: in check, a card that adds to the move was playable whenever a
	// legal move could follow it; since unfair-2026.2 the card itself must save the king.
	moveSavesAfterCard bool
	// swapKeepsCastling: two rooks that traded places by a card (swap) kept the castling
	// rights of their corners, the board still showing a rook in each; since
	// unfair-2026.3 a rook moved by a card has moved, and its corner's right is lost.
	swapKeepsCastling bool
	// cardPawnTakesEnPassant: a pawn that a card of the turn brought beside an enemy pawn
	// just advanced two squares could take it en passant with the move the card owed;
	// since unfair-2026.4 only a pawn the enemy pawn came beside may (Turn.Brought).
	cardPawnTakesEnPassant bool
}

// variants are the older versions this build plays. unfair-2026.1's catalog put the
// antidote in the statuses group, not the extra one: the group is a label, the card
// played the same.
var variants = map[string]variant{
	"unfair-2026.1": {wakeOnAnyCheck: true, movesAgainstStalemate: true, moveSavesAfterCard: true, swapKeepsCastling: true, cardPawnTakesEnPassant: true},
	"unfair-2026.2": {swapKeepsCastling: true, cardPawnTakesEnPassant: true},
	"unfair-2026.3": {cardPawnTakesEnPassant: true},
}

var _ game.Pinned = Rules{}

// Under is the rules of an older version, for the matches recorded under it
// (game.Pinned): unfair-2026.1 to unfair-2026.3, whose differences are variants'.
func (Rules) Under(version string) (game.Rules, bool) {
	if _, ok := variants[version]; !ok {
		return nil, false
	}
	return Rules{pinned: version}, true
}

// Versions lists the older versions this build plays, oldest first (game.Pinned).
func (Rules) Versions() []string { return slices.Sorted(maps.Keys(variants)) }
