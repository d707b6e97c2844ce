package unfair

import (
	"strings"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
)

// A turn is a move, or a card that replaces the move, or a card that adds to the move and
// then the move it owes (two for the double move). At most one card per turn. Whatever
// the turn did, the mover's own king must not be attacked at its end; only the moves and
// cards that manage it are legal.
//
// When the turn ends, the restrictions the opponent put on the mover expire, and so do
// the opponent's shields; the opponent's restrictions for its coming turn are checked
// for a fake stalemate (see restrictions.go).

// moves lists the legal moves of the seat to act.
func (s *State) moves() []chess.Move { return s.movesUnder(s.restrictions()) }

// movesUnder lists the moves of the seat to act under r: chess moves, less those refused
// by refusal.
func (s *State) movesUnder(r chess.Restrictions) []chess.Move {
	all := s.Pos.LegalMovesWith(nil, r)
	keep := all[:0]
	for _, m := range all {
		if s.refusal(m) == "" {
			keep = append(keep, m)
		}
	}
	return keep
}

// refusal says why a chess-legal move m is not legal here, or "" when it is: a king is
// never captured (it can be attacked while its side is not to move, after a card that
// adds to the move); poison and dynamite must not leave the mover's king attacked; the
// first move of a double move gives no check and leaves a second move to play.
func (s *State) refusal(m chess.Move) string {
	victim, hit := s.Pos.PieceAt(m.To())
	if hit && victim.Role == chess.King {
		return "a king is never captured"
	}
	if id, _ := s.Pos.PieceID(m.From()); m.IsEnPassant() && s.Turn.Brought != 0 && id == s.Turn.Brought {
		return "en passant takes a pawn that came beside yours by its two-square advance, and this pawn was brought there by your card"
	}
	first := s.Turn.MovesDue == 2
	if !first && !s.setsOff(m) {
		return ""
	}
	seat := s.toAct()
	f := s.fork()
	f.playMove(m)
	switch {
	case f.kingAttacked(seat):
		return "what the capture sets off would leave your king in check"
	case first && f.kingAttacked(1-seat):
		return "the first move of a double move may not give check"
	case first:
		f.Pos.PassTurn()
		f.Turn.MovesDue = 1
		if len(f.moves()) == 0 {
			return "no second move would follow"
		}
	}
	return ""
}

// setsOff reports whether m is a capture that sets a status off.
func (s *State) setsOff(m chess.Move) bool {
	victimSq := m.To()
	if m.IsEnPassant() {
		victimSq ^= 8
	}
	victim, ok := s.Pos.PieceID(victimSq)
	if !ok || m.IsCastling() {
		return false
	}
	mover, _ := s.Pos.PieceID(m.From())
	return s.has(victim, Poison) || s.has(victim, Dynamite) || s.has(mover, Dynamite)
}

// playMove plays the chess move m and what its capture sets off.
func (f *fold) playMove(m chess.Move) {
	from, to := m.From(), m.To()
	mover, _ := f.Pos.PieceID(from)
	victimSq := to
	if m.IsEnPassant() {
		victimSq ^= 8
	}
	pc, victim, hit := f.pieceOn(victimSq)
	hit = hit && !m.IsCastling()
	var had []PieceStatus
	blasts := f.has(mover, Dynamite)
	if hit {
		had = f.statusesOf(victim)
		f.gone(victim, pc)
	}
	f.Pos.Play(m)
	if hit {
		f.capture(mover, to, victim, victimSq, had, blasts)
	}
}

// carry moves the piece on from to to by a card: a capture when an enemy piece stands
// there, with what it sets off; a pawn reaching its last rank becomes a queen.
func (f *fold) carry(from, to chess.Square) {
	_, mover, _ := f.pieceOn(from)
	_, victim, hit := f.pieceOn(to)
	var had []PieceStatus
	blasts := f.has(mover, Dynamite)
	if hit {
		had = f.statusesOf(victim)
		f.remove(to)
	}
	must(f.Pos.Relocate(from, to))
	if moved, _ := f.Pos.PieceAt(to); moved.Role == chess.Pawn && (to.Rank() == 0 || to.Rank() == 7) {
		must(f.Pos.SetRole(to, chess.Queen))
	}
	if hit {
		f.capture(mover, to, victim, to, had, blasts)
	}
}

// move is the seat to act playing m, a legal move: it returns the move's SAN.
func (f *fold) move(m chess.Move) string {
	seat := f.toAct()
	san := strings.TrimRight(f.Pos.SANWith(m, f.restrictions()), "+#")
	before := f.kingsAttacked()
	f.playMove(m)
	f.wakeOnAnyCheck(before)
	if f.Turn.MovesDue == 2 {
		// The double move's first move: the same seat moves again.
		f.Pos.PassTurn()
		f.Turn.MovesDue = 1
	} else {
		f.endTurn(seat)
	}
	// The check sign is the game's, not plain chess's: a card may yet save a king that
	// chess would call mated, and a poisoned capture may uncover a check.
	if o, over := f.outcome(); over && o.Reason == "checkmate" {
		san += "#"
	} else if f.kingAttacked(1 - seat) {
		san += "+"
	}
	f.Record, f.Players = with(f.Record, san), with(f.Players, seat)
	return san
}

// playCard is seat playing card d with the chosen play p, on the state the card left by
// leaving the hand (see options): the effect, the sleepers a check wakes, the refill, and
// the end of the turn or the move it owes.
func (f *fold) playCard(seat int, d *def, p play) {
	before, pos := f.kingsAttacked(), f.Pos
	p.do(f)
	f.wakeOnAnyCheck(before)
	f.refill(seat)
	f.Record, f.Players = with(f.Record, d.notation(p.targets)), with(f.Players, seat)
	if d.Cost == AddsToMove {
		f.Turn.MovesDue = d.movesOwed()
		if !f.v.cardPawnTakesEnPassant {
			f.Turn.Brought = brought(pos, f.Pos)
		}
		return
	}
	f.Pos.PassTurn()
	f.endTurn(seat)
}

// brought is the pawn of the side to move that stands, in after, beside the enemy pawn
// that may be taken en passant, and did not stand there in before: a card between the
// two brought it. 0 for none (no en passant, or only pawns that were there already).
func brought(before, after chess.Position) chess.PieceID {
	for _, sq := range beside(after).Squares() {
		id, _ := after.PieceID(sq)
		if was, _ := before.PieceID(sq); was != id {
			return id
		}
	}
	return 0
}

// beside is the pawns of the side to move in pos that stand beside the enemy pawn that
// may be taken en passant: the squares from which a pawn takes it.
func beside(pos chess.Position) chess.Bitboard {
	ep, ok := pos.EnPassant()
	if !ok {
		return 0
	}
	us := pos.Turn()
	return chess.Attacks(chess.Pawn, us.Other(), ep, 0) & pos.Pieces(us, chess.Pawn)
}

// endTurn closes seat's turn: a check it gives wakes the sleepers, the restrictions and
// shields that bound it expire, and the opponent's coming turn starts, with its
// restrictions suspended if they would stalemate it.
func (f *fold) endTurn(seat int) {
	if !f.v.wakeOnAnyCheck {
		f.wake(seat)
	}
	f.Bars[seat] = Bars{}
	f.expireShields(seat)
	f.Turn = Turn{}
	f.Suspended = false
	if next := 1 - seat; f.suspends(next) {
		f.Suspended = true
		f.emit(RestrictionsSuspended{Seat: next})
	}
}

// outcome says whether the game is over and how. A king with no legal move is mated
// (or stalemated) only if no card in its hand is playable either: a card that gets it out
// of check, or any card at all when it is not in check. A seat whose flag fell lost.
// UnfairChess knows no repetition, fifty-move or dead-position draw, nor a draw on time.
func (s *State) outcome() (game.Outcome, bool) {
	if s.Flag != nil {
		return game.Outcome{Winners: []int{1 - s.Flag.Seat}, Reason: "timeout"}, true
	}
	seat := s.toAct()
	if !s.started || s.Turn.MovesDue > 0 || s.canAct(seat) {
		return game.Outcome{}, false
	}
	if s.Pos.InCheck() {
		return game.Outcome{Winners: []int{1 - seat}, Reason: "checkmate"}, true
	}
	return game.Outcome{Winners: []int{}, Reason: "stalemate"}, true
}
