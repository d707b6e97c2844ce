package chess

import "slices"

// Reason is why a game is over or may be claimed drawn.
type Reason uint8

// The reasons. The first five end the game by themselves under the FIDE Laws (5.1.1,
// 5.2.1, 9.6.1, 9.6.2, 5.2.2); the last two are draws a player may claim (9.2, 9.3).
const (
	NoReason Reason = iota
	Checkmate
	Stalemate
	FivefoldRepetition
	SeventyFiveMoves
	InsufficientMaterial
	ThreefoldRepetition
	FiftyMoves
)

var reasonNames = [...]string{"none", "checkmate", "stalemate", "fivefold repetition",
	"seventy-five-move rule", "insufficient material", "threefold repetition", "fifty-move rule"}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "unknown"
}

// Outcome is the state of a game: over or not, won by whom, and why.
type Outcome struct {
	Over   bool
	Winner Color // NoColor for a draw or a game still going
	Reason Reason
}

// Game is a start position plus the moves played from it: what the repetition and move
// rules need on top of a Position.
type Game struct {
	start  *Position // never written once set: shared by every copy and clone of the game
	pos    Position
	moves  []Move
	hashes []uint64 // hashes[i] is the hash before moves[i]; the current one is pos.hash
}

// NewGame starts a game from start.
func NewGame(start Position) *Game {
	return &Game{start: &start, pos: start}
}

// Play plays m if it is legal in the current position and the game is not over;
// otherwise it returns a *MoveError wrapping ErrIllegalMove.
func (g *Game) Play(m Move) error {
	if g.Outcome().Over || !g.pos.IsLegal(m) {
		return &MoveError{m.UCI(), ErrIllegalMove}
	}
	g.hashes = append(g.hashes, g.pos.hash)
	g.moves = append(g.moves, m)
	g.pos.Play(m)
	return nil
}

// Grow makes room in the game's histories for n more moves, so that playing them
// allocates nothing: for a caller that knows how many it will replay (a stored state).
func (g *Game) Grow(n int) {
	g.moves = slices.Grow(g.moves, n)
	g.hashes = slices.Grow(g.hashes, n)
}

// Replay plays m, which the caller knows to be legal in the current position (a stored
// move, checked when it was first played), without Play's checks: replaying a stored game
// then costs one move generation per move (the caller's parse), not three.
func (g *Game) Replay(m Move) {
	g.hashes = append(g.hashes, g.pos.hash)
	g.moves = append(g.moves, m)
	g.pos.Play(m)
}

// Start is the position the game started from.
func (g *Game) Start() Position { return *g.start }

// Position is the current position.
func (g *Game) Position() Position { return g.pos }

// Moves is a copy of the moves played.
func (g *Game) Moves() []Move { return append([]Move(nil), g.moves...) }

// Outcome reports whether the game has ended by itself. Checkmate takes precedence over
// the 75-move rule when the last move mates (FIDE 9.6.2).
func (g *Game) Outcome() Outcome { return outcome(&g.pos, g.hashes, len(g.hashes)) }

// OutcomeAfter is the Outcome of the game once m, which must be legal in the current
// position, is played, and leaves the game as it is: trying a move costs no copy of the
// histories (a Clone's first Play copies them) and no allocation.
func (g *Game) OutcomeAfter(m Move) Outcome {
	after := g.pos
	after.Play(m)
	// The history after m is g's followed by the current hash, which repetitions never
	// reads: it compares the positions two, four... plies back, with the same side to move.
	return outcome(&after, g.hashes, len(g.hashes)+1)
}

// outcome is the Outcome of a game in pos whose history holds n hashes, the first
// len(hashes) of which are hashes (see repetitions).
func outcome(pos *Position, hashes []uint64, n int) Outcome {
	if !pos.hasLegalMove(&classic) {
		if pos.InCheck() {
			return Outcome{Over: true, Winner: pos.turn.Other(), Reason: Checkmate}
		}
		return Outcome{Over: true, Winner: NoColor, Reason: Stalemate}
	}
	switch {
	case repetitions(pos, hashes, n) >= 5:
		return Outcome{Over: true, Winner: NoColor, Reason: FivefoldRepetition}
	case pos.halfmove >= 150:
		return Outcome{Over: true, Winner: NoColor, Reason: SeventyFiveMoves}
	case pos.InsufficientMaterial():
		return Outcome{Over: true, Winner: NoColor, Reason: InsufficientMaterial}
	}
	return Outcome{Winner: NoColor}
}

// ClaimableDraw reports a draw the player to move may claim now: threefold repetition
// of the current position or fifty moves without capture or pawn move. (FIDE also lets
// a player claim on the move about to be played; the caller can test that by playing
// it on a copy of the game.)
func (g *Game) ClaimableDraw() (Reason, bool) {
	switch {
	case g.Outcome().Over:
		return NoReason, false
	case repetitions(&g.pos, g.hashes, len(g.hashes)) >= 3:
		return ThreefoldRepetition, true
	case g.pos.halfmove >= 100:
		return FiftyMoves, true
	}
	return NoReason, false
}

// repetitions counts the occurrences of pos, itself included, among the positions since
// the last capture or pawn move (none before can be the same), in a history of n hashes
// (the hash before each move) of which hashes holds at least the first n-1: the last one
// is the position before pos, never compared, as the side to move differs. Positions are
// compared by Zobrist hash, which covers side to move, castling rights and usable en
// passant as the Laws require.
func repetitions(pos *Position, hashes []uint64, n int) int {
	count := 1
	back := min(int(pos.halfmove), n)
	for i := n - 2; i >= n-back; i -= 2 {
		if hashes[i] == pos.hash {
			count++
		}
	}
	return count
}
