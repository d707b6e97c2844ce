package bot

import (
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/sovereign"
)

// lookahead reads a board from its public notation (game.Board.FEN) and looks one move of
// the side to act ahead on it, with nothing but the board: no hand, no deck, no card's
// effect. A card game's board is read as its pieces stand.
type lookahead interface {
	// judge says whether a move of the side to act ends the game in its favour on the
	// board (checkmate, Royale's last king standing) and the value of the piece it
	// captures (0 for none, 100 for a king), and of the piece that moves.
	judge(move string) (mates bool, victim, attacker int)
}

// readBoard returns the lookahead of a board in a notation the bot reads (chess FEN,
// Sovereign Chess's), or nil.
func readBoard(notation string) lookahead {
	if pos, err := chess.ParseFEN(notation); err == nil {
		return chessBoard{pos}
	}
	if pos, err := sovereign.Parse(notation); err == nil {
		return sovereignBoard{pos}
	}
	return nil
}

// kingValue is a king's value: capturing one (Sovereign Chess Royale) outweighs anything.
const kingValue = 100

type chessBoard struct{ pos chess.Position }

var chessValues = [...]int{chess.Pawn: 1, chess.Knight: 3, chess.Bishop: 3, chess.Rook: 5, chess.Queen: 9, chess.King: kingValue}

func (b chessBoard) judge(uci string) (mates bool, victim, attacker int) {
	m, err := b.pos.ParseMove(uci)
	if err != nil {
		return false, 0, 0 // a move only the cards allow: the board alone does not know it
	}
	if mover, ok := b.pos.PieceAt(m.From()); ok {
		attacker = chessValues[mover.Role]
	}
	if pc, ok := b.pos.PieceAt(m.To()); ok && pc.Color != b.pos.Turn() {
		victim = chessValues[pc.Role]
	} else if m.IsEnPassant() {
		victim = chessValues[chess.Pawn]
	}
	after := b.pos
	after.Play(m)
	return after.InCheck() && len(after.LegalMoves(nil)) == 0, victim, attacker
}

type sovereignBoard struct{ pos sovereign.Position }

var sovereignValues = [...]int{sovereign.Pawn: 1, sovereign.Knight: 3, sovereign.Bishop: 3, sovereign.Rook: 5, sovereign.Queen: 9, sovereign.King: kingValue}

func (b sovereignBoard) judge(notation string) (mates bool, victim, attacker int) {
	pos := b.pos
	m, err := pos.ParseMove(notation)
	if err != nil || !m.HasStep() {
		return false, 0, 0 // a bare defection, an escape or a pass captures nothing
	}
	attacker = sovereignValues[pos.PieceAt(m.From()).Role()]
	if pc := pos.PieceAt(m.To()); pc != 0 && !m.IsCastling() {
		victim = sovereignValues[pc.Role()]
	}
	mover := pos.Turn()
	pos.Play(m)
	st := pos.Status()
	return st.HasWinner && st.Winner == mover, victim, attacker
}
