package match

import (
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
)

// Presence: a player who leaves a live match (the server saw its last connection to the
// match close) is away until it comes back, by reconnecting or by acting. Once a seat has
// been away for the match's ClaimAfter, any opponent may claim the win; at ForfeitAfter
// the seat forfeits by itself, through the engine's timers. A forfeit is a resignation:
// it ends a two-sided match, and in a match of more sides the seat leaves play (see
// game.Withdrawing). The durations are fixed when the match is created and recorded in
// MatchCreated, so a replay decides as the server did.

// Abandon is how long a seat may be away: after ClaimAfter an opponent may claim the win;
// at ForfeitAfter the seat forfeits, or at BotForfeitAfter when every opponent still
// playing is the house bot ("Contre le bot, ta partie t'attend quelques minutes": nobody
// waits at the other side of the board).
//
// FirstMovesMs is the rule for players who never show up: a live match in which some
// seat has not made its first move FirstMovesMs after the start is aborted (see
// abort.go); 0 for no such rule.
type Abandon struct {
	ClaimAfterMs      int64 `json:"claimAfterMs"`
	ForfeitAfterMs    int64 `json:"forfeitAfterMs"`
	BotForfeitAfterMs int64 `json:"botForfeitAfterMs,omitempty"`
	FirstMovesMs      int64 `json:"firstMovesMs,omitempty"`
}

// DefaultAbandon is UnfairChess's rule, which Arbiter applies to every game: a claim after
// thirty seconds away, a forfeit after two minutes, and after ten minutes against the bot;
// and a match whose seats have not all moved two minutes after its start is aborted.
var DefaultAbandon = Abandon{ClaimAfterMs: 30_000, ForfeitAfterMs: 120_000, BotForfeitAfterMs: 600_000, FirstMovesMs: 120_000}

func (a Abandon) claimAfter() time.Duration { return time.Duration(a.ClaimAfterMs) * time.Millisecond }

// ForfeitAfter is how long seat may be away before it forfeits: the bot's wait when every
// opponent of seat still playing is the bot.
func (s *State) ForfeitAfter(rules game.Rules, seat int) time.Duration {
	wait := s.Abandon.ForfeitAfterMs
	if s.onlyBotsAgainst(rules, seat) {
		wait = s.Abandon.BotForfeitAfterMs
	}
	return time.Duration(wait) * time.Millisecond
}

// onlyBotsAgainst reports whether seat's opponents still playing (the seats of other
// teams) are all the bot, and there is one.
func (s *State) onlyBotsAgainst(rules game.Rules, seat int) bool {
	bots := 0
	for _, other := range s.Playing(rules) {
		if s.Plan.Teams[other] == s.Plan.Teams[seat] {
			continue
		}
		if !s.Seats[other].Bot {
			return false
		}
		bots++
	}
	return bots > 0
}

// Leave, Return and ClaimVictory are the presence commands: the first two come from the
// server that holds (or lost) the player's connections, the last from an opponent.
type (
	Leave struct {
		PlayerID string
		// Since is when the player's last connection closed, if the server waited a little
		// before telling (a reload is no leaving): the seat is away from then. Zero, or a
		// time after At, means At.
		Since time.Time
		At    time.Time
	}
	Return struct {
		PlayerID string
		At       time.Time
	}
	ClaimVictory struct {
		PlayerID string
		At       time.Time
	}
)

func (Leave) command()        {}
func (Return) command()       {}
func (ClaimVictory) command() {}

// SeatLeft says a seat's player left the live match at At.
type SeatLeft struct {
	Seat int       `json:"seat"`
	At   time.Time `json:"at"`
}

// SeatReturned says a seat's player came back.
type SeatReturned struct {
	Seat int `json:"seat"`
}

// Forfeited says a seat lost by being away: claimed by an opponent (ClaimedBy), or at
// the forfeit deadline (ClaimedBy -1). The resignation that follows carries it out.
type Forfeited struct {
	Seat      int `json:"seat"`
	ClaimedBy int `json:"claimedBy"`
}

func (SeatLeft) EventType() string     { return "SeatLeft" }
func (SeatReturned) EventType() string { return "SeatReturned" }
func (Forfeited) EventType() string    { return "Forfeited" }

// Away reports whether a seat is away, and since when.
func (s *State) Away(seat int) (time.Time, bool) {
	if seat < 0 || seat >= len(s.AwaySince) || s.AwaySince[seat].IsZero() {
		return time.Time{}, false
	}
	return s.AwaySince[seat], true
}

// Deadline is the next instant at which the engine must submit a Timeout: the game's own
// deadline (a clock), or the forfeit of a seat away, whichever comes first.
func (s *State) Deadline(rules game.Rules) time.Time {
	d := s.GameStatus(rules).Deadline
	if s.Status != Live || s.Abandon == nil {
		return d
	}
	if a, ok := s.AbortAt(); ok && (d.IsZero() || a.Before(d)) {
		d = a
	}
	for _, seat := range s.Playing(rules) {
		if since, away := s.Away(seat); away {
			if f := since.Add(s.ForfeitAfter(rules, seat)); d.IsZero() || f.Before(d) {
				d = f
			}
		}
	}
	return d
}

func leave(s State, seat int, c Leave) ([]game.Emitted, error) {
	if _, away := s.Away(seat); away {
		return nil, game.Reject(game.Conflict, "seat %d has already left", seat)
	}
	at := c.At
	if !c.Since.IsZero() && c.Since.Before(at) {
		at = c.Since
	}
	return game.PublicEvents(SeatLeft{Seat: seat, At: at}), nil
}

func comeBack(s State, seat int) ([]game.Emitted, error) {
	if _, away := s.Away(seat); !away {
		return nil, game.Reject(game.Conflict, "seat %d has not left", seat)
	}
	return game.PublicEvents(SeatReturned{Seat: seat}), nil
}

// claim forfeits every seat of another team, still playing, that has been away long
// enough, as long as the match goes on.
func claim(rules game.Rules, s State, seat int, at time.Time) ([]game.Emitted, error) {
	if s.Abandon == nil {
		return nil, game.Reject(game.Conflict, "this match has no rule for players who leave")
	}
	var out []game.Emitted
	waiting := ""
	for other := range s.Seats {
		since, away := s.Away(other)
		if !away || s.Plan.Teams[other] == s.Plan.Teams[seat] || s.Status != Live || !slices.Contains(s.Playing(rules), other) {
			continue
		}
		if at.Sub(since) < s.Abandon.claimAfter() {
			waiting = (s.Abandon.claimAfter() - at.Sub(since)).Round(time.Second).String()
			continue
		}
		evs, err := forfeit(rules, s, other, seat, at)
		if err != nil {
			return nil, err
		}
		out = append(out, evs...)
		for _, e := range evs {
			s = Evolve(rules, s, e.Event)
		}
	}
	switch {
	case len(out) > 0:
		return out, nil
	case waiting != "":
		return nil, game.Reject(game.Conflict, "your opponent left too recently: you may claim the win in %s", waiting)
	}
	return nil, game.Reject(game.Conflict, "no opponent has left the match")
}

// forfeit is a seat losing by absence at at (the claim's or the timeout's time):
// Forfeited, then its resignation.
func forfeit(rules game.Rules, s State, seat, claimedBy int, at time.Time) ([]game.Emitted, error) {
	out := game.PublicEvents(Forfeited{Seat: seat, ClaimedBy: claimedBy})
	s = Evolve(rules, s, out[0].Event)
	evs, err := resign(rules, s, seat, "abandonment", at)
	return append(out, evs...), err
}

// forfeitDue returns the seat still playing whose forfeit deadline is exactly deadline, if
// it has passed.
func forfeitDue(rules game.Rules, s State, deadline, at time.Time) (int, bool) {
	if s.Abandon == nil || at.Before(deadline) {
		return -1, false
	}
	for _, seat := range s.Playing(rules) {
		if since, away := s.Away(seat); away && since.Add(s.ForfeitAfter(rules, seat)).Equal(deadline) {
			return seat, true
		}
	}
	return -1, false
}
