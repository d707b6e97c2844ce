package match

import (
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
)

// Matches that are not played: an open match its creator cancels or a player leaves, a
// live match aborted because a seat never made its first move. Neither counts for
// anybody: no winner, no rating.
//
// A match is opened once every seat has made its first move (the game's record holds as
// many turns as the match has seats; a game that keeps no record is opened from its start).
// Until then:
//   - a rated match that ends (a resignation, an agreement, a flag, a forfeit) is
//     aborted instead: an account cannot feed another rating points by losing at move 0;
//   - once Abandon.FirstMovesMs has passed since the start, the engine's timers abort it,
//     rated or not: a player who never plays, even one who never opened a connection,
//     does not keep the others waiting forever.

// The reasons of results that count for nobody.
const (
	Aborted   = "aborted"   // a live match ended before every seat had moved
	Cancelled = "cancelled" // an open match its creator (or its only player) cancelled
)

// Void reports whether a match ended for this reason counts for nobody (no rating).
func Void(reason string) bool { return reason == Aborted || reason == Cancelled }

// Cancel ends an open match: asked by its creator, or by its only seated player.
type Cancel struct {
	PlayerID string
	At       time.Time
}

// Unseat frees the player's seat of an open match (leaveMatch).
type Unseat struct {
	PlayerID string
	At       time.Time
}

func (Cancel) command() {}
func (Unseat) command() {}

// SeatVacated says a seat of an open match is free again: its player left before the start.
type SeatVacated struct {
	Seat int `json:"seat"`
}

func (SeatVacated) EventType() string { return "SeatVacated" }

// AbortAt is when a live match in which some seat has not moved yet is aborted, if it has
// such a rule: FirstMovesMs after the first moves may start (the start, or the end of a
// game's prelude, game.Preluded).
func (s *State) AbortAt() (time.Time, bool) {
	if s.Status != Live || s.Opened || s.Abandon == nil || s.Abandon.FirstMovesMs <= 0 {
		return time.Time{}, false
	}
	from := s.StartedAt
	if s.PlayFrom.After(from) {
		from = s.PlayFrom
	}
	return from.Add(time.Duration(s.Abandon.FirstMovesMs) * time.Millisecond), true
}

// opened reports whether every seat of the live match s has made its first move: as the
// game says (game.Opener), else as many turns as seats (an UnfairChess card and the move it adds to are one turn), or, for a
// game that does not group its record by turns, as many moves.
func opened(rules game.Rules, s *State) bool {
	if o, ok := rules.(game.Opener); ok {
		return o.Opened(s.GameState, len(s.Seats))
	}
	if t, ok := rules.(game.Turned); ok {
		_, turns := t.Turns(s.GameState)
		return len(turns) >= len(s.Seats)
	}
	rec, ok := rules.(game.Recorded)
	return !ok || len(rec.MoveList(s.GameState)) >= len(s.Seats)
}

// keepsRecord reports whether a game tells its turns or moves: one that does not is
// opened from its start.
func keepsRecord(rules game.Rules) bool {
	if _, ok := rules.(game.Opener); ok {
		return true
	}
	_, turned := rules.(game.Turned)
	_, recorded := rules.(game.Recorded)
	return turned || recorded
}

// cancel ends an open match, for its creator or its only seated player.
//
// Whoever is neither the match's creator nor seated in it is refused before the match's
// status is looked at, and the creator seated nowhere is told no more than that the match
// has started: both see a match with a spectator delay as it was the delay ago (graph's
// delayed view), and a refusal that named the status would tell them its start and its
// end early.
func cancel(s State, c Cancel) ([]game.Emitted, error) {
	seat, creator := -1, false
	if c.PlayerID != "" { // nobody's: an anonymous caller, never a free seat's
		seat, creator = s.SeatOf(c.PlayerID), c.PlayerID == s.CreatedBy
	}
	switch {
	case seat < 0 && !creator:
		return nil, game.Reject(game.Forbidden, "only the creator of this match, or its only seated player, may cancel it")
	case s.Status != Open && seat < 0:
		return nil, game.Reject(game.Conflict, "only an open match can be cancelled: this one has started")
	case s.Status != Open:
		return nil, game.Reject(game.Conflict, "only an open match can be cancelled: this one is %s (resign, or offer a draw, instead)", s.Status)
	case !creator && len(s.Seats)-freeSeats(s) > 1:
		return nil, game.Reject(game.Forbidden, "only the creator of this match, or its only seated player, may cancel it: leave your seat with leaveMatch instead")
	}
	return end(s, nil, Cancelled), nil
}

func unseat(s State, c Unseat) ([]game.Emitted, error) {
	seat := s.SeatOf(c.PlayerID)
	switch {
	case seat < 0:
		return nil, game.Reject(game.Forbidden, "you have no seat in this match")
	case s.Status != Open:
		return nil, game.Reject(game.Conflict, "the match has started: resign instead of leaving")
	}
	return game.PublicEvents(SeatVacated{Seat: seat}), nil
}

// offered reports whether seat offered a draw that its opponents have not moved since.
func (s *State) offered(seat int) bool { return seat >= 0 && seat < len(s.Offered) && s.Offered[seat] }

// moved clears the draw offers of the seats other than those to act before a game event:
// one of them is acting (or the system, on their clock), so the offerers may offer again.
func (s *State) moved(rules game.Rules) {
	if !slices.Contains(s.Offered, true) || s.GameState == nil {
		return
	}
	toAct := rules.Status(s.GameState).ToAct
	s.Offered = slices.Clone(s.Offered)
	for seat := range s.Offered {
		if slices.ContainsFunc(toAct, func(o int) bool { return o != seat }) {
			s.Offered[seat] = false
		}
	}
}
