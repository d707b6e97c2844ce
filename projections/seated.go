package projections

import (
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
)

// seatedMatches follows who sits at each seat of the matches a per-player model reads (the
// cards played, the choices remembered), from a match's creation to its end, for the games
// the model is about.
type seatedMatches struct {
	games   *game.Registry
	follows func(game.Rules) bool // whether a game's matches are followed
	byID    map[string]*seatedMatch
	// ended, when set, is called with a followed match as it ends, and the time of its
	// end, before it is forgotten.
	ended func(m *seatedMatch, at time.Time)
}

type seatedMatch struct {
	rules   game.Rules
	players []string // by seat
	// delay is a match's spectator delay (match.SpectatorDelayOption), 0 for none: what it
	// records reaches anyone seated nowhere in it only once the delay is over, its end
	// included, so a model read by everyone holds the match's facts until its end is
	// older than the delay (held, then CardsPlayed.due).
	delay time.Duration
	held  []HeldCard // the cards played in a delayed match, counted once its end is as old as its delay
}

func newSeatedMatches(reg *game.Registry, follows func(game.Rules) bool) seatedMatches {
	return seatedMatches{games: reg, follows: follows, byID: map[string]*seatedMatch{}}
}

// public folds ev into the seats it follows, and returns the match and the decoded event
// when ev is a public event of a game's own, of a followed match; nil otherwise.
func (ms seatedMatches) public(ev eventstore.Event) (*seatedMatch, game.Event) {
	id, ok := strings.CutPrefix(ev.Stream, "match-")
	if !ok {
		return nil, nil
	}
	if match.IsLifecycle(ev.Type) {
		ms.lifecycle(id, ev)
		return nil, nil
	}
	m := ms.byID[id]
	if m == nil || ev.Visibility != visibility.Public {
		return nil, nil
	}
	d, err := match.Decode(m.rules, ev.Type, ev.SchemaVersion, ev.Payload)
	if err != nil {
		delete(ms.byID, id) // a match whose events do not replay is set aside (see Matches)
		return nil, nil
	}
	return m, d
}

func (ms seatedMatches) lifecycle(id string, ev eventstore.Event) {
	d, err := match.Decode(nil, ev.Type, ev.SchemaVersion, ev.Payload)
	if err != nil {
		delete(ms.byID, id) // a match whose events do not replay is set aside (see Matches)
		return
	}
	switch e := d.(type) {
	case match.MatchCreated:
		rules, err := ms.games.Get(e.Game)
		if err != nil {
			return // a game this server does not host: nothing of it is read
		}
		if ms.follows(rules) {
			delay, _ := match.SpectatorDelay(e.Options) // checked when the match was created
			ms.byID[id] = &seatedMatch{rules: rules, players: make([]string, e.Seats), delay: delay}
		}
	case match.SeatTaken:
		if m := ms.byID[id]; m != nil && e.Seat >= 0 && e.Seat < len(m.players) {
			m.players[e.Seat] = e.PlayerID
		}
	case match.MatchEnded:
		if m := ms.byID[id]; m != nil && ms.ended != nil {
			ms.ended(m, ev.Time)
		}
		delete(ms.byID, id)
	}
}

// player is who sits at seat, "" for nobody.
func (m *seatedMatch) player(seat int) string {
	if seat < 0 || seat >= len(m.players) {
		return ""
	}
	return m.players[seat]
}
