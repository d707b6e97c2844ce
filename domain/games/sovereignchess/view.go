package sovereignchess

import (
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/sovereign"
	"github.com/arbiter-games/arbiter/domain/tactic"
)

// View is a Sovereign Chess match as a viewer sees it: all of it, since the game hides
// nothing. The legal moves are those of the seat to move, which everyone may work out.
type View struct {
	Board game.Board // the position, its colours, armies, sides and marks, the legal moves
	Moves []string   // the moves played, in the game's notation

	// What Plays needs, as public as the rest: the position, the viewer's seats to act
	// (none once the match is over) and the choice put to them.
	pos     sovereign.Position
	seats   []int
	mover   int // the seat of the side to move
	choices []string
}

var _ game.Viewed = Rules{}

// View shows the match to p.
func (r Rules) View(st game.State, p game.Viewpoint) game.View {
	s, ok := st.(State)
	if !ok || s.Game == nil {
		return nil
	}
	v := &View{Board: r.Board(s), Moves: r.MoveList(s), pos: s.Game.Position()}
	v.mover = s.seatOf(v.pos.Turn())
	if st := r.Status(s); !p.Over && !st.Over {
		for _, seat := range st.ToAct {
			if p.Holds(seat) {
				v.seats = append(v.seats, seat)
			}
		}
		v.choices = st.Choices
	}
	return v
}

// Plays lists, for a seat of the viewer's that is to act, the options of the choice put
// to it (the opening's keep or refuse), or else its legal moves, scored by what they win
// or take.
func (v *View) Plays() []game.Play {
	var out []game.Play
	for _, seat := range v.seats {
		for _, c := range v.choices {
			out = append(out, game.Play{Seat: seat, Do: game.Choose{Option: c}, Kind: game.KindChoice})
		}
		if len(v.choices) > 0 || seat != v.mover {
			continue
		}
		for _, n := range v.Board.LegalMoves {
			out = append(out, game.Play{Seat: seat, Do: game.Move{Notation: n}, Kind: game.KindMove, Score: score(v.pos, n)})
		}
	}
	return out
}

// values are the values of Sovereign Chess's roles.
var values = [...]int{sovereign.Pawn: tactic.Pawn, sovereign.Knight: tactic.Knight, sovereign.Bishop: tactic.Bishop, sovereign.Rook: tactic.Rook, sovereign.Queen: tactic.Queen, sovereign.King: tactic.King}

// score scores a move: one that wins the game for its mover as a mate, a capture by what
// it takes and with what; a bare defection, an escape or a pass takes nothing.
func score(pos sovereign.Position, notation string) int {
	m, err := pos.ParseMove(notation)
	if err != nil || !m.HasStep() {
		return 0
	}
	var victim int
	attacker := values[pos.PieceAt(m.From()).Role()]
	if pc := pos.PieceAt(m.To()); pc != 0 && !m.IsCastling() {
		victim = values[pc.Role()]
	}
	mover := pos.Turn()
	pos.Play(m)
	after := pos.Status()
	return tactic.Score(after.HasWinner && after.Winner == mover, victim, attacker)
}

// ShownBoard is the board (game.BoardView).
func (v *View) ShownBoard() game.Board { return v.Board }

// ShownMoves is the record (game.BoardView).
func (v *View) ShownMoves() []string { return v.Moves }
