// Package tactic scores the moves of the chess-like games for a player in a hurry (the
// bot): a mate above every capture, a capture by the value of the piece it takes and then
// by the cheapness of the piece that takes, and a quiet move 0. Each game reads its own
// board and says what a move mates and takes; the order is shared here.
package tactic

import "github.com/arbiter-games/arbiter/domain/chess"

// The values of the pieces, by the usual count; a king is worth more than all the rest.
const (
	Pawn   = 1
	Knight = 3
	Bishop = 3
	Rook   = 5
	Queen  = 9
	King   = 100
)

// Mate is the score of a mating move, above every capture.
const Mate = 1 << 20

// Score is the score of a move that mates or not, taking a piece worth victim (0 for
// none) with a piece worth attacker. Captures order by victim, then by the cheaper
// attacker: victim*256 - attacker stays above the next victim's for any attacker up to a
// King, and above 0.
func Score(mates bool, victim, attacker int) int {
	switch {
	case mates:
		return Mate
	case victim > 0:
		return victim*256 - attacker
	}
	return 0
}

// chessValues are the values of chess's roles.
var chessValues = [...]int{chess.Pawn: Pawn, chess.Knight: Knight, chess.Bishop: Bishop, chess.Rook: Rook, chess.Queen: Queen, chess.King: King}

// Chess scores a move in UCI on a chess position, by the rules of chess alone: a move
// that only a game's variant allows (an UnfairChess card's) scores 0.
func Chess(pos chess.Position, uci string) int {
	m, err := pos.ParseMove(uci)
	if err != nil {
		return 0
	}
	var victim, attacker int
	if mover, ok := pos.PieceAt(m.From()); ok {
		attacker = chessValues[mover.Role]
	}
	if pc, ok := pos.PieceAt(m.To()); ok && pc.Color != pos.Turn() {
		victim = chessValues[pc.Role]
	} else if m.IsEnPassant() {
		victim = Pawn
	}
	pos.Play(m)
	return Score(pos.InCheck() && len(pos.LegalMoves(nil)) == 0, victim, attacker)
}
