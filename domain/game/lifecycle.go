package game

import (
	"fmt"
	"time"
)

// Lifecycle hooks: where the match around a game assumes two seats or chess, a game may
// say otherwise by implementing one of these optional interfaces. Each has a function
// below that applies it, with today's behaviour as the default for a game without it.

// Reseating is implemented by a game whose rematch seats the players otherwise than each
// at the seat after their old one (colours swapped in a two-player game), for example
// where teams must stay together (2v2, bughouse). Reseat returns, by seat of the finished
// match, the seat its player takes in the rematch: a permutation of the plan's seats.
type Reseating interface {
	Reseat(p Plan) []int
}

// RematchSeats returns, by seat of a finished match of plan p, the seat its player takes
// in the rematch: the game's Reseating, or else the seat after each one. A game whose
// Reseat is not a permutation of p's seats is an error of the game.
func RematchSeats(rules Rules, p Plan) ([]int, error) {
	to := make([]int, p.Seats)
	for i := range to {
		to[i] = (i + 1) % p.Seats
	}
	if r, ok := rules.(Reseating); ok {
		to = r.Reseat(p)
	}
	bad := fmt.Errorf("game: %s reseats a rematch of %d seats as %v, which is not a permutation of them", rules.Info().ID, p.Seats, to)
	if len(to) != p.Seats {
		return nil, bad
	}
	taken := make([]bool, p.Seats)
	for _, s := range to {
		if s < 0 || s >= p.Seats || taken[s] {
			return nil, bad
		}
		taken[s] = true
	}
	return to, nil
}

// RatingKeyed is implemented by a game whose results do not all count under its ID: Solwaris
// rates each class apart. RatingKeys returns the keys under which seat's result counts,
// from the game's state at the end of the match; every seat has as many keys, and the
// results are rated key by key, the i-th key of each seat against the i-th of the others.
type RatingKeyed interface {
	RatingKeys(st State, seat int) []string
}

// RatingKeys returns, by seat, the keys under which each of the seats' results counts in
// a match that ended in state st: the game's RatingKeyed, or else its ID alone. When the
// game gives the seats keys in different numbers, the match counts under its ID alone.
func RatingKeys(rules Rules, st State, seats int) [][]string {
	out := make([][]string, seats)
	if r, ok := rules.(RatingKeyed); ok {
		for seat := range out {
			out[seat] = r.RatingKeys(st, seat)
		}
		if even(out) {
			return out
		}
	}
	for seat := range out {
		out[seat] = []string{rules.Info().ID}
	}
	return out
}

// even reports whether every seat has the same, non-zero number of keys.
func even(keys [][]string) bool {
	for _, k := range keys {
		if len(k) == 0 || len(k) != len(keys[0]) {
			return false
		}
	}
	return true
}

// DrawDeclining is implemented by a game where not every action of another seat declines
// a pending draw offer: on Ajedrez Mágico's two boards somebody always moves, so only a
// move on the offerer's board answers it. DeclinesDraw reports whether action a, which
// its seat plays in st, declines the offer of seat offerer.
type DrawDeclining interface {
	DeclinesDraw(st State, a Action, offerer int) bool
}

// DeclinesDraw reports whether action a, played in st while seat offerer's draw offer is
// pending, declines it: never the offerer's own action nor the engine's, else as the
// game's DrawDeclining says, and by default always.
func DeclinesDraw(rules Rules, st State, a Action, offerer int) bool {
	if a.Seat == offerer || a.Seat == System {
		return false
	}
	d, ok := rules.(DrawDeclining)
	return !ok || d.DeclinesDraw(st, a, offerer)
}

// Preluded is implemented by a game that opens with a phase in which nobody moves
// (Ajedrez Mágico's planning): PlayFrom is when its first moves may start, the phase's
// deadline while it lasts and its end once it is over (zero before the game is set up).
// The match waits for the first moves from then, not from its start: a match is not
// aborted for moves nobody was allowed to make.
type Preluded interface {
	PlayFrom(st State) time.Time
}

// PlayFrom is when the first moves of a game in state st may start: the game's Preluded,
// or else start, when the match started.
func PlayFrom(rules Rules, st State, start time.Time) time.Time {
	if p, ok := rules.(Preluded); ok {
		if at := p.PlayFrom(st); at.After(start) {
			return at
		}
	}
	return start
}

// Rewarding is implemented by a game in which a match abandoned early is too short to
// count for the seats that stay (Solwaris: before its 4th turn). AbandonCounts reports
// whether a match that ended in st by a seat's resignation or forfeit went far enough
// for the others to be rewarded: when not, the stakes move nothing and the ratings of
// those who stayed do not move, while the seat that left still loses its rating.
type Rewarding interface {
	AbandonCounts(st State) bool
}

// RatingStarting is implemented by a game whose ratings do not start at Elo's usual
// 1400 (Solwaris: every class starts at 1000). InitialRating is where the rating kept
// under key starts.
type RatingStarting interface {
	InitialRating(key string) float64
}

// AbandonedEarly reports whether a match of rules that ended in st with resigned seats
// was abandoned too early to reward those who stayed (see Rewarding). st may be nil (a
// game that folded no event yet): the game says what that means.
func AbandonedEarly(rules Rules, st State, resigned int) bool {
	r, ok := rules.(Rewarding)
	return ok && resigned > 0 && !r.AbandonCounts(st)
}
