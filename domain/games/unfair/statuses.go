package unfair

import (
	"github.com/arbiter-games/arbiter/domain/chess"
)

// Statuses live on pieces, by ID, until they go off or end:
//
//   - poison: when the opponent captures the piece, the capturer dies with it (a king
//     that captures survives);
//   - sleep: the piece cannot move, by a move or by its owner's cards; every sleeping
//     piece wakes at once when a king is put in check: when a turn ends with the
//     opponent's king attacked (the mover's own never is then);
//   - shield: during the opponent's next turn the piece cannot be captured nor destroyed
//     by a card; it expires when that turn ends. An explosion still kills it;
//   - dynamite: when the piece captures or is captured it explodes, and every piece on its
//     square and the eight around it leaves the board, kings excepted. The dynamited
//     piece itself dies. One capture sets off one explosion at most (when both pieces
//     carry dynamite, the captured one's goes off and takes the capturer with it), an
//     explosion never sets off another one, and a piece it kills sets off no poison.
//
// A piece that leaves the board takes its statuses with it, without an event: its removal
// is the event. A piece that comes back is a new piece, with a new ID and no status.

// has reports whether the piece id carries a status of kind.
func (s *State) has(id chess.PieceID, kind string) bool {
	for _, st := range s.Statuses {
		if st.Piece == id && st.Kind == kind {
			return true
		}
	}
	return false
}

// statusesOf lists the statuses on the piece id.
func (s *State) statusesOf(id chess.PieceID) []PieceStatus {
	var out []PieceStatus
	for _, st := range s.Statuses {
		if st.Piece == id {
			out = append(out, st)
		}
	}
	return out
}

// pieceOn is the piece on sq with its ID; ok is false on an empty square.
func (s *State) pieceOn(sq chess.Square) (pc chess.Piece, id chess.PieceID, ok bool) {
	pc, ok = s.Pos.PieceAt(sq)
	id, _ = s.Pos.PieceID(sq)
	return pc, id, ok
}

// applyStatus puts a status of kind on the piece on sq, by seat's card.
func (f *fold) applyStatus(seat int, sq chess.Square, kind string) {
	_, id, _ := f.pieceOn(sq)
	f.Statuses = with(f.Statuses, PieceStatus{Piece: id, Kind: kind, By: seat})
	f.emit(StatusApplied{Seat: seat, Piece: int(id), Square: sq.String(), Status: kind})
}

// endStatus lifts one status without it going off.
func (f *fold) endStatus(st PieceStatus, reason string) {
	for i, x := range f.Statuses {
		if x == st {
			f.Statuses = without(f.Statuses, i)
			break
		}
	}
	sq, _ := f.Pos.SquareOf(st.Piece)
	f.emit(StatusEnded{Piece: int(st.Piece), Square: sq.String(), Status: st.Kind, Reason: reason})
}

// gone records that the piece id, pc, has left the board: it joins its seat's taken
// pieces and loses its statuses. The board itself is the caller's to change.
func (f *fold) gone(id chess.PieceID, pc chess.Piece) {
	side := &f.Sides[seatOf(pc.Color)]
	side.Taken = with(side.Taken, Taken{Piece: id, Role: pc.Role})
	kept := f.Statuses[:0:0]
	for _, st := range f.Statuses {
		if st.Piece != id {
			kept = append(kept, st)
		}
	}
	f.Statuses = kept
}

// remove takes the piece on sq off the board (never a king: callers skip kings).
func (f *fold) remove(sq chess.Square) Removed {
	pc, id, ok := f.Pos.Remove(sq)
	if !ok || pc.Role == chess.King {
		panic("unfair: removing " + sq.String() + ", which holds no piece that may leave")
	}
	f.gone(id, pc)
	return Removed{Piece: int(id), Square: sq.String(), Role: pc.String()}
}

// capture is what a capture sets off: victim (pc, with the statuses it had) was taken on
// victimSq by the piece capturer, which now stands on at. The victim is already off the
// board and counted as taken.
func (f *fold) capture(capturer chess.PieceID, at chess.Square, victim chess.PieceID, victimSq chess.Square, had []PieceStatus, capturerBlasts bool) {
	poisoned, blasts := false, false
	for _, st := range had {
		poisoned = poisoned || st.Kind == Poison
		blasts = blasts || st.Kind == Dynamite
	}
	if pc, id, _ := f.pieceOn(at); poisoned && id == capturer && pc.Role != chess.King {
		f.emit(StatusTriggered{Piece: int(victim), Square: victimSq.String(), Status: Poison, Removed: []Removed{f.remove(at)}})
	}
	switch {
	case blasts:
		f.emit(StatusTriggered{Piece: int(victim), Square: victimSq.String(), Status: Dynamite, Removed: f.blast(victimSq)})
	case capturerBlasts:
		f.emit(StatusTriggered{Piece: int(capturer), Square: at.String(), Status: Dynamite, Removed: f.blast(at)})
	}
}

// blast removes every piece but the kings on center and the eight squares around it.
func (f *fold) blast(center chess.Square) []Removed {
	out := []Removed{}
	area := chess.BB(center) | chess.Attacks(chess.King, chess.White, center, 0)
	for _, sq := range (area & f.Pos.Occupied()).Squares() {
		if pc, _ := f.Pos.PieceAt(sq); pc.Role != chess.King {
			out = append(out, f.remove(sq))
		}
	}
	return out
}

// wake wakes every sleeping piece if seat's turn, now over, put the opponent's king in
// check. A check is one that stands when the turn ends: the opponent's king is never
// attacked when seat's turn starts, and a seat's own king exposed in the middle of a card
// that adds to the move (then covered by the move it owes) is no check at all.
func (f *fold) wake(seat int) {
	if f.kingAttacked(1 - seat) {
		f.wakeAll()
	}
}

// wakeOnAnyCheck is how the sleepers woke under unfair-2026.1 (variant.wakeOnAnyCheck),
// right after each move or card: all of them, if it left a king attacked that was not
// before it (before: which kings were attacked then), whichever king it was. Under the
// later versions it does nothing: wake does it when the turn ends.
func (f *fold) wakeOnAnyCheck(before [2]bool) {
	if !f.v.wakeOnAnyCheck {
		return
	}
	if now := f.kingsAttacked(); now[0] && !before[0] || now[1] && !before[1] {
		f.wakeAll()
	}
}

// wakeAll ends every sleep, oldest first.
func (f *fold) wakeAll() {
	for _, st := range f.Statuses {
		if st.Kind == Sleep {
			f.endStatus(st, "woke")
		}
	}
}

// expireShields ends the shields put on by seat's opponent: they protected its pieces
// during seat's turn, which is over.
func (f *fold) expireShields(seat int) {
	for _, st := range f.Statuses {
		if st.Kind == Shield && st.By != seat {
			f.endStatus(st, "expired")
		}
	}
}
