package corpus

import (
	"errors"
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/magicchess"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
)

// Scenario is one archived match: how it is opened and played, and what it must show to
// be worth keeping (a card played, a reaction, the right ending). A scenario played by
// the bot's policy may not show it for every seed: Generate tries seeds from Seed on and
// keeps the first that does, so the corpus stays the same from run to run.
type Scenario struct {
	Name    string // the file's name without .ndjson
	About   string // what the match shows, for a person
	Game    string
	Options game.Options
	Rated   bool
	Seats   int
	Seed    uint64
	Play    func(t *Table) error
	Want    func(p Played) error // nil: any finished match
}

// Played is a finished match as Want sees it.
type Played struct {
	Events []eventstore.Event
	Final  Final
}

// count is how many of the match's events are of type typ.
func (p Played) count(typ string) int {
	n := 0
	for _, ev := range p.Events {
		if ev.Type == typ {
			n++
		}
	}
	return n
}

// maxEvents bounds an archived match played by the bot, so that the corpus stays small:
// a longer game is tried again with the next seed. (The legacy procedure's files were
// played under a bound of 700.)
const maxEvents = 400

// playOut lets the bot play every seat to the end.
func playOut(t *Table) error {
	over, err := t.Play(maxEvents, nil)
	if err == nil && !over {
		err = errLong
	}
	return err
}

// errLong is a match the bot did not finish within maxEvents commands.
var errLong = errors.New("the match did not end within the corpus's bound")

// needs checks that a match holds at least one event of each type.
func needs(types ...string) func(Played) error {
	return func(p Played) error {
		for _, typ := range types {
			if p.count(typ) == 0 {
				return fmt.Errorf("no %s", typ)
			}
		}
		return nil
	}
}

// endedBy checks the reason a match ended with.
func endedBy(reason string, and func(Played) error) func(Played) error {
	return func(p Played) error {
		if !strings.Contains(p.Final.Reason, reason) {
			return fmt.Errorf("ended by %q, not %q", p.Final.Reason, reason)
		}
		if and != nil {
			return and(p)
		}
		return nil
	}
}

// Scenarios are the corpus's matches: every game, each of its modes, and the ways a match
// ends (a mate, a draw, a flag, a resignation, a timeout).
var Scenarios = []Scenario{
	{
		Name: "chess-mate", About: "classic chess, the scholar's mate", Game: "CHESS", Seats: 2, Rated: true,
		Play: func(t *Table) error { return t.Moves("e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7") },
		Want: endedBy("checkmate", nil),
	},
	{
		Name: "chess-repetition", About: "classic chess, a threefold repetition claimed", Game: "CHESS", Seats: 2,
		Play: func(t *Table) error {
			if err := t.Moves("g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"); err != nil {
				return err
			}
			return t.Act(0, game.ClaimDraw{})
		},
		Want: endedBy("repetition", nil),
	},
	{
		Name: "chess-agreement", About: "classic chess, a draw offered and accepted", Game: "CHESS", Seats: 2, Rated: true,
		Options: game.Options{"clock": "5+3"},
		Play: func(t *Table) error {
			if err := t.Moves("d2d4", "d7d5", "c2c4", "e7e6"); err != nil {
				return err
			}
			if err := t.OfferDraw(0); err != nil {
				return err
			}
			return t.AcceptDraw(1)
		},
		Want: endedBy("agree", nil),
	},
	{
		Name: "chess-flag", About: "classic chess at 1+0, White's flag falls", Game: "CHESS", Seats: 2, Rated: true,
		Options: game.Options{"clock": "1+0"},
		Play: func(t *Table) error {
			if err := t.Moves("e2e4", "c7c5", "g1f3"); err != nil {
				return err
			}
			return t.Expire()
		},
		Want: endedBy("time", nil),
	},
	{
		Name: "unfair-mate", About: "UnfairChess played by the bot's policy to a mate, cards played", Game: "UNFAIR_CHESS", Seats: 2,
		Seed: 1, Play: playOut, Want: endedBy("checkmate", needs("CardPlayed")),
	},
	{
		Name: "sovereign-two", About: "Sovereign Chess, two players, to the end", Game: "SOVEREIGN_CHESS", Seats: 2,
		Seed: 1, Play: playOut,
	},
	{
		Name: "sovereign-royale", About: "Sovereign Chess Royale, four players, to the end", Game: "SOVEREIGN_CHESS", Seats: 4,
		Options: game.Options{"mode": "ROYALE"}, Seed: 1, Play: playOut,
	},
	{
		Name: "magic-classic", About: "Ajedrez Mágico, classic mode, to the end", Game: "MAGIC_CHESS", Seats: 2,
		Seed: 1, Play: playOut, Want: needs("CardPlayed"),
	},
	{
		Name: "magic-advanced", About: "Ajedrez Mágico, advanced mode, a reaction played", Game: "MAGIC_CHESS", Seats: 2,
		Options: game.Options{"mode": "ADVANCED"}, Seed: 1, Play: playOut, Want: needs("CardPlayed", "ReactionPlayed"),
	},
	{
		Name: "magic-doubles", About: "Ajedrez Mágico, doubles on two boards, each seat signalling its partner, to the end", Game: "MAGIC_CHESS", Seats: 4,
		Options: game.Options{"boards": "2"}, Seed: 1,
		Play: func(t *Table) error {
			// From magic-2026.4 on the signals are covert: in the teams' hidden streams,
			// which the export (the match's own stream) does not hold.
			if _, err := t.Play(20, nil); err != nil {
				return err
			}
			for seat, sig := range []string{"save-ready", "hand-low", "card-next", "no-save"} {
				if err := t.Act(seat, magicchess.SendSignal{Signal: sig}); err != nil {
					return err
				}
			}
			return playOut(t)
		},
	},
	{
		Name: "magic-doubles-signals", About: "Ajedrez Mágico doubles, covert signals archived in the teams' hidden streams (from magic-2026.4)", Game: "MAGIC_CHESS", Seats: 4,
		Options: game.Options{"boards": "2"}, Seed: 1,
		Play: func(t *Table) error {
			// Signals in the planning and in play: each is stored in its team's hidden
			// stream, which the export holds beside the match's own.
			for seat, sig := range []string{"save-ready", "no-save", "card-next", "hand-low"} {
				if err := t.Act(seat, magicchess.SendSignal{Signal: sig}); err != nil {
					return err
				}
			}
			if _, err := t.Play(20, nil); err != nil {
				return err
			}
			for seat, sig := range []string{"hand-low", "save-ready", "no-save", "card-next"} {
				if err := t.Act(seat, magicchess.SendSignal{Signal: sig}); err != nil {
					return err
				}
			}
			return playOut(t)
		},
		Want: hiddenSignals,
	},
	{
		Name: "magic-doubles-resign", About: "Ajedrez Mágico doubles, a player resigns: its team loses on both boards (from magic-2026.4)", Game: "MAGIC_CHESS", Seats: 4,
		Options: game.Options{"boards": "2"}, Seed: 1,
		Play: func(t *Table) error {
			if _, err := t.Play(40, nil); err != nil {
				return err
			}
			return t.Resign(2)
		},
		Want: endedBy("resign", nil),
	},
	{
		Name: "magic-doubles-advanced", About: "Ajedrez Mágico, doubles in the advanced mode, a reaction played", Game: "MAGIC_CHESS", Seats: 4,
		Options: game.Options{"boards": "2", "mode": "ADVANCED"}, Seed: 1, Play: playOut, Want: needs("CardPlayed", "ReactionPlayed"),
	},
	{
		Name: "solwaris-duel", About: "a Solwaris duel to the end", Game: "SOLWARIS", Seats: 2,
		Options: game.Options{"map": "caveau"}, Seed: 1, Play: playOut,
	},
	{
		Name: "solwaris-staked", About: "a Solwaris duel staked 200 a seat, to the end", Game: "SOLWARIS", Seats: 2,
		Options: game.Options{"stake": "200"}, Seed: 1, Play: playOut,
	},
	{
		Name: "solwaris-resign", About: "a Solwaris duel resigned in play", Game: "SOLWARIS", Seats: 2,
		Seed: 1,
		Play: func(t *Table) error {
			if _, err := t.Play(40, nil); err != nil {
				return err
			}
			return t.Resign(1)
		},
		Want: endedBy("resign", nil),
	},
	{
		Name: "solwaris-timeout", About: "a Solwaris duel: one player leaves, its turns time out, and it forfeits", Game: "SOLWARIS", Seats: 2,
		Seed: 1,
		Play: func(t *Table) error {
			if _, err := t.Play(40, nil); err != nil {
				return err
			}
			if err := t.Leave(1); err != nil {
				return err
			}
			over, err := t.Play(maxEvents, func(seat int) bool { return seat == 1 })
			if err == nil && !over {
				err = errLong
			}
			return err
		},
		Want: endedBy("abandonment", timedOut),
	},
}

// timedOut checks that a turn of the match ended at its deadline.
func timedOut(p Played) error {
	for _, ev := range p.Events {
		if ev.Type == "TurnEnded" && strings.Contains(string(ev.Payload), `"timeout":true`) {
			return nil
		}
	}
	return errors.New("no turn ended by its timeout")
}

// hiddenSignals checks that every signal of the match is in its team's hidden stream, and
// that both teams' streams are there.
func hiddenSignals(p Played) error {
	teams := map[int]int{}
	for _, ev := range p.Events {
		if ev.Type != "Signalled" {
			continue
		}
		_, team, ok := matchstream.HiddenOf(ev.Stream)
		if !ok {
			return fmt.Errorf("a signal in stream %s, not in a hidden one", ev.Stream)
		}
		teams[team]++
	}
	if teams[0] == 0 || teams[1] == 0 {
		return fmt.Errorf("the hidden streams hold the signals %v by team: both teams signalled", teams)
	}
	return nil
}
