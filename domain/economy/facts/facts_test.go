package facts_test

import (
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/economy/facts"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
	"github.com/arbiter-games/arbiter/domain/match"
)

func tally(evs ...game.Event) facts.Match {
	t := facts.New("m1")
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for _, e := range evs {
		if match.IsLifecycle(e.EventType()) {
			t.Add(e, at)
			continue
		}
		payload, err := game.Encode(e) // as stored: the tally reads the game's JSON
		if err != nil {
			panic(err)
		}
		t.AddGame(e.EventType(), payload)
	}
	return t.Match()
}

func opening(gameName string, stake string) []game.Event {
	return []game.Event{
		match.MatchCreated{Game: gameName, Rated: true, Seats: 2, Teams: []int{0, 1}, Options: game.Options{"stake": stake}},
		match.SeatTaken{Seat: 0, PlayerID: "ann"}, match.SeatTaken{Seat: 1, PlayerID: "bob"},
	}
}

// White poisons its e4 pawn, Black takes it with the d5 pawn and dies with it; Black
// resigns after White's check.
func TestAnUnfairChessGame(t *testing.T) {
	m := tally(append(opening("UNFAIR_CHESS", "200"),
		unfair.MovePlayed{Seat: 0, SAN: "e4", Piece: 12},
		unfair.MovePlayed{Seat: 1, SAN: "d5", Piece: 19},
		unfair.CardPlayed{Seat: 0, Card: "poison", Targets: []string{"e4"}},
		unfair.StatusApplied{Seat: 0, Piece: 12, Square: "e4", Status: "poison"},
		unfair.MovePlayed{Seat: 1, SAN: "dxe4", Piece: 19},
		unfair.StatusTriggered{Piece: 12, Square: "e4", Status: "poison"},
		unfair.MovePlayed{Seat: 0, SAN: "Bb5+", Piece: 5},
		match.Resigned{Seat: 1},
		match.MatchEnded{Winners: []int{0}, Reason: "resignation"},
		match.SeedRevealed{Seed: []byte{1}, MatchSeed: []byte{2, 3}},
	)...)
	ann, bob := m.Seats[0], m.Seats[1]
	want := map[string]int{facts.Matches: 1, facts.Wins: 1, facts.Moves: 2, facts.Cards: 1, facts.CardPrefix + "poison": 1,
		facts.StatusPrefix + "poison": 1, facts.TriggeredPrefix + "poison": 1, facts.Checks: 1}
	for k, n := range want {
		if ann.Counts[k] != n {
			t.Errorf("ann's %s: %d, want %d (%v)", k, ann.Counts[k], n, ann.Counts)
		}
	}
	if !ann.Won || bob.Won || !bob.Abandoned || bob.Counts[facts.Captures] != 1 || m.Abandoner() != 1 || m.Stake != 200 || !m.Rated || m.Turns != 2 || len(m.Seed) != 1 || len(m.MatchSeed) != 2 {
		t.Errorf("the match: %+v", m)
	}
}

// Ann's hero (fighter 0) pushes Bob's (fighter 1) onto a trap and strikes it; Bob's turn
// summons a creature that walks.
func TestASolwarisDuel(t *testing.T) {
	m := tally(append(opening("SOLWARIS", "0"),
		solwaris.GrimoiresLocked{Grimoires: []solwaris.Grimoire{{Seat: 0, Class: "guerrier"}, {Seat: 1, Class: "arcaniste"}}},
		solwaris.TurnStarted{Fighter: 0, Turn: 1},
		solwaris.SpellCast{Fighter: 0, Spell: "bourrade"},
		solwaris.Pushed{Fighter: 1, Path: []string{"e5", "e6"}},
		solwaris.TrapTriggered{Trap: "t0", Fighter: 1, Cell: "e6"},
		solwaris.Damaged{Fighter: 1, Caster: 0, HPLoss: 30, Critical: true},
		solwaris.TurnStarted{Fighter: 1, Turn: 1},
		solwaris.Summoned{Fighter: 2, Summoner: 1, Entity: "golem"},
		solwaris.FighterMoved{Fighter: 1, Path: []string{"e7", "e8"}},
		solwaris.TurnStarted{Fighter: 2, Turn: 1},
		solwaris.Damaged{Fighter: 0, Caster: 2, HPLoss: 12},
		solwaris.TurnStarted{Fighter: 0, Turn: 2},
		solwaris.Fallen{Fighter: 2},
		match.MatchEnded{Winners: []int{0}, Reason: "no hero standing"},
	)...)
	ann, bob := m.Seats[0], m.Seats[1]
	for k, n := range map[string]int{facts.Spells: 1, facts.Pushes: 1, facts.PushTraps: 1, facts.Damage: 30, facts.Crits: 1, facts.Knockouts: 1, facts.Wins: 1} {
		if ann.Counts[k] != n {
			t.Errorf("ann's %s: %d, want %d (%v)", k, ann.Counts[k], n, ann.Counts)
		}
	}
	for k, n := range map[string]int{facts.Summons: 1, facts.Steps: 2, facts.Damage: 12} {
		if bob.Counts[k] != n {
			t.Errorf("bob's %s: %d, want %d (%v)", k, bob.Counts[k], n, bob.Counts)
		}
	}
	if ann.Class != "guerrier" || bob.Class != "arcaniste" || m.Turns != 2 || m.Abandoner() != -1 || m.Stake != 0 {
		t.Errorf("the duel: %+v", m)
	}
}
