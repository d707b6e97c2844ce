package classic

import (
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
)

var _ game.Auditor = Rules{}

// Audit implements game.Auditor: it replays each recorded fact from the position before
// it and checks every derived field (SAN, FEN, seat, piece ID, claim reason) against what
// Decide would have written.
func (Rules) Audit(before game.State, e game.Event) error {
	switch e := e.(type) {
	case GameStarted:
		if before != nil {
			if s, ok := before.(State); ok && s.Game != nil {
				return fmt.Errorf("GameStarted after the game had started")
			}
		}
		p, err := chess.ParseFEN(e.FEN)
		if err != nil {
			return fmt.Errorf("GameStarted: fen %q: %w", e.FEN, err)
		}
		if got := p.FEN(); got != e.FEN {
			return fmt.Errorf("GameStarted: fen %q is not in canonical form %q", e.FEN, got)
		}
		return nil
	case MovePlayed:
		s, ok := before.(State)
		if !ok || s.Game == nil {
			return fmt.Errorf("MovePlayed %s before GameStarted", e.UCI)
		}
		if s.Claimed != "" {
			return fmt.Errorf("MovePlayed %s after a draw was claimed (%s)", e.UCI, s.Claimed)
		}
		if o := s.gameOutcome(); o.Over {
			return fmt.Errorf("MovePlayed %s after the game ended (%s)", e.UCI, o.Reason)
		}
		pos := s.Game.Position()
		m, err := pos.ParseMove(e.UCI)
		if err != nil {
			return fmt.Errorf("MovePlayed %s: %w", e.UCI, err)
		}
		if m.UCI() != e.UCI {
			return fmt.Errorf("MovePlayed: uci %q is not canonical (want %q)", e.UCI, m.UCI())
		}
		if want := Seat(pos.Turn()); e.Seat != want {
			return fmt.Errorf("MovePlayed %s: seat %d recorded, but seat %d was to move", e.UCI, e.Seat, want)
		}
		if want := pos.SAN(m); e.SAN != want {
			return fmt.Errorf("MovePlayed %s: san %q recorded, the move is %q", e.UCI, e.SAN, want)
		}
		if id, _ := pos.PieceID(m.From()); e.Piece != int(id) {
			return fmt.Errorf("MovePlayed %s: piece %d recorded, the piece on %s is %d", e.UCI, e.Piece, e.UCI[:2], id)
		}
		after := pos
		after.Play(m)
		if want := after.FEN(); e.FEN != want {
			return fmt.Errorf("MovePlayed %s: fen %q recorded, the move gives %q", e.UCI, e.FEN, want)
		}
		return auditClock(s, e)
	case DrawClaimed:
		s, ok := before.(State)
		if !ok || s.Game == nil {
			return fmt.Errorf("DrawClaimed before GameStarted")
		}
		reason, ok := s.Game.ClaimableDraw()
		if !ok {
			return fmt.Errorf("DrawClaimed (%s) in a position where no draw can be claimed", e.Reason)
		}
		if reason.String() != e.Reason {
			return fmt.Errorf("DrawClaimed: reason %q recorded, the position allows %q", e.Reason, reason)
		}
		if want := Seat(s.Game.Position().Turn()); e.Seat != want {
			return fmt.Errorf("DrawClaimed: seat %d recorded, but seat %d was to move", e.Seat, want)
		}
		return nil
	case FlagFell:
		s, ok := before.(State)
		if !ok || s.Game == nil || !s.Clock.On {
			return fmt.Errorf("FlagFell in a game without a clock")
		}
		seat := Seat(s.Game.Position().Turn())
		want := flagFell(s.Game.Position(), seat, s.Clock.Deadline(seat))
		if e.At.IsZero() {
			want.At = time.Time{} // schema 1, recorded without the flag's time
		}
		if !e.At.Equal(want.At) || e.Seat != want.Seat || e.Draw != want.Draw {
			return fmt.Errorf("FlagFell %+v recorded, the position gives %+v", e, want)
		}
		return nil
	}
	return fmt.Errorf("chess has no event %T", e)
}

// auditClock checks the clock fields of a move: none without a clock; with one, a move
// played before the mover's deadline and the time left that the clock gives.
func auditClock(s State, e MovePlayed) error {
	if err := s.Clock.Audit(e.Seat, clock.Stamp{At: e.At, LeftMs: e.LeftMs}, true); err != nil {
		return fmt.Errorf("MovePlayed %s: %w", e.UCI, err)
	}
	return nil
}
