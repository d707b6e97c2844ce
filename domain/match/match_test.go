package match_test

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/visibility"
)

var (
	rules = classic.Rules{}
	seed  = bytes.Repeat([]byte{7}, 32)
	// entropy is what every seat of these tests brings to the match seed.
	entropy = bytes.Repeat([]byte{9}, 16)
	t0      = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
)

// table is a match being played in a test: commands go through Decide, events through
// Evolve, exactly as the engine does it, minus the store.
type table struct {
	t      *testing.T
	state  match.State
	events []game.Emitted
}

func (tb *table) do(cmd match.Command) []game.Emitted {
	tb.t.Helper()
	evs, err := match.Decide(rules, tb.state, cmd)
	if err != nil {
		tb.t.Fatalf("%T %+v: %v", cmd, cmd, err)
	}
	for _, e := range evs {
		tb.state = match.Evolve(rules, tb.state, e.Event)
	}
	tb.events = append(tb.events, evs...)
	return evs
}

func (tb *table) refuse(cmd match.Command, code game.Code) {
	tb.t.Helper()
	before := tb.state
	evs, err := match.Decide(rules, tb.state, cmd)
	if game.CodeOf(err) != code || evs != nil {
		tb.t.Fatalf("%T %+v: got %v (events %v), want %s", cmd, cmd, err, evs, code)
	}
	if before.Status != tb.state.Status {
		tb.t.Fatalf("a refusal changed the state")
	}
}

// newGame creates a chess match with alice (White) and bob (Black) seated.
func newGame(t *testing.T) *table {
	tb := &table{t: t}
	tb.do(match.Create{Game: classic.ID, Seed: seed, At: t0, By: "alice"})
	tb.do(match.Join{Entropy: entropy, PlayerID: "alice", Name: "Alice", At: t0})
	tb.do(match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob", At: t0})
	return tb
}

func (tb *table) move(player, notation string) []game.Emitted {
	return tb.do(match.Act{PlayerID: player, Do: game.Move{Notation: notation}, At: t0})
}

func TestCreateCommitsToASecretSeed(t *testing.T) {
	tb := &table{t: t}
	evs := tb.do(match.Create{Game: classic.ID, Seed: seed, At: t0})
	created := evs[0].Event.(match.MatchCreated)
	if created.SeedCommitment != match.Commitment(seed) || evs[0].Visibility != visibility.Public {
		t.Fatalf("MatchCreated must publish the seed's commitment: %+v", evs[0])
	}
	if evs[1].Visibility != visibility.Server {
		t.Fatalf("the seed itself must be server-only until the end, got %q", evs[1].Visibility)
	}
	if created.RulesVersion != classic.RulesVersion {
		t.Fatalf("the first event pins the rules version: %+v", created)
	}
	tb.refuse(match.Create{Game: classic.ID, Seed: seed}, game.Conflict)
	if _, err := match.Decide(rules, match.State{}, match.Create{Game: classic.ID, Seed: []byte("short")}); game.CodeOf(err) != game.BadInput {
		t.Fatalf("a short seed: %v", err)
	}
}

func TestSeatsFillThenPlayStarts(t *testing.T) {
	tb := &table{t: t}
	tb.do(match.Create{Game: classic.ID, Seed: seed, At: t0})
	one := 1
	tb.do(match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob", Seat: &one})
	if tb.state.Status != match.Open {
		t.Fatalf("one seat of two taken: %s", tb.state.Status)
	}
	tb.refuse(match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob"}, game.Conflict)                 // twice in one match
	tb.refuse(match.Join{Entropy: entropy, PlayerID: "carol", Name: "Carol", Seat: &one}, game.Conflict) // taken
	two := 2
	tb.refuse(match.Join{Entropy: entropy, PlayerID: "carol", Name: "Carol", Seat: &two}, game.BadInput) // no such seat
	tb.refuse(match.Act{PlayerID: "bob", Do: game.Move{Notation: "e5"}}, game.Conflict)
	evs := tb.do(match.Join{Entropy: entropy, PlayerID: "alice", Name: "Alice"})
	if tb.state.Status != match.Live || tb.state.SeatOf("alice") != 0 {
		t.Fatalf("after the last seat: %s, alice at %d", tb.state.Status, tb.state.SeatOf("alice"))
	}
	if _, ok := evs[len(evs)-1].Event.(classic.GameStarted); !ok {
		t.Fatalf("the game's setup follows MatchStarted: %+v", evs)
	}
	tb.refuse(match.Join{Entropy: entropy, PlayerID: "carol", Name: "Carol"}, game.Conflict)
}

func TestTurnsAndSeats(t *testing.T) {
	tb := newGame(t)
	tb.refuse(match.Act{PlayerID: "bob", Do: game.Move{Notation: "e5"}}, game.NotYourTurn)
	tb.refuse(match.Act{PlayerID: "carol", Do: game.Move{Notation: "e4"}}, game.Forbidden)
	tb.refuse(match.Act{PlayerID: "alice", Do: game.Move{Notation: "e5"}}, game.IllegalMove)
	tb.move("alice", "e4")
	tb.move("bob", "e5")
}

func TestCheckmateEndsTheMatchAndRevealsTheSeed(t *testing.T) {
	tb := newGame(t)
	tb.move("alice", "f3")
	tb.move("bob", "e5")
	tb.move("alice", "g4")
	evs := tb.move("bob", "Qh4#")
	ended, ok := evs[len(evs)-2].Event.(match.MatchEnded)
	if !ok || len(ended.Winners) != 1 || ended.Winners[0] != 1 || ended.Reason != "checkmate" {
		t.Fatalf("Fool's mate: %+v", evs)
	}
	revealed := evs[len(evs)-1].Event.(match.SeedRevealed)
	if match.Commitment(revealed.Seed) != tb.state.SeedCommitment || evs[len(evs)-1].Visibility != visibility.Public {
		t.Fatalf("the revealed seed must match the commitment")
	}
	tb.refuse(match.Act{PlayerID: "alice", Do: game.Move{Notation: "e4"}}, game.Conflict)
	tb.refuse(match.Resign{PlayerID: "alice"}, game.Conflict)
}

func TestResignation(t *testing.T) {
	tb := newGame(t)
	tb.move("alice", "e4")
	tb.do(match.Resign{PlayerID: "alice"})
	if tb.state.Status != match.Finished || tb.state.Result.Reason != "resignation" || tb.state.Result.Winners[0] != 1 {
		t.Fatalf("White resigned: %+v", tb.state.Result)
	}
}

func TestDrawOffers(t *testing.T) {
	tb := newGame(t)
	tb.refuse(match.AcceptDraw{PlayerID: "bob"}, game.Conflict) // nothing offered
	tb.do(match.OfferDraw{PlayerID: "alice"})
	tb.refuse(match.OfferDraw{PlayerID: "alice"}, game.Conflict)
	tb.refuse(match.OfferDraw{PlayerID: "bob"}, game.Conflict)
	tb.refuse(match.AcceptDraw{PlayerID: "alice"}, game.Conflict) // one's own offer
	tb.do(match.DeclineDraw{PlayerID: "bob"})
	if tb.state.DrawOfferBy != -1 {
		t.Fatalf("declined offer still pending")
	}

	// Not again before an opponent has moved, as chess servers rule: offers cannot fill
	// the match's history.
	tb.refuse(match.OfferDraw{PlayerID: "alice"}, game.Conflict)
	tb.move("alice", "e4")
	tb.refuse(match.OfferDraw{PlayerID: "alice"}, game.Conflict)
	tb.move("bob", "e5")

	// An offer lapses when the other side moves instead of answering (FIDE 9.1.2.3).
	tb.do(match.OfferDraw{PlayerID: "alice"})
	tb.move("alice", "Nf3")
	evs := tb.move("bob", "Nc6")
	if d, ok := evs[0].Event.(match.DrawDeclined); !ok || !d.Implicit || tb.state.DrawOfferBy != -1 {
		t.Fatalf("moving declines the pending offer: %+v", evs)
	}

	tb.do(match.OfferDraw{PlayerID: "bob"})
	evs = tb.do(match.AcceptDraw{PlayerID: "alice"})
	if tb.state.Status != match.Finished || tb.state.Result.Reason != "agreement" || len(tb.state.Result.Winners) != 0 {
		t.Fatalf("accepted draw: %+v %+v", tb.state.Result, evs)
	}
}

func TestEvolveLeavesTheGivenStateAsItWas(t *testing.T) {
	tb := newGame(t)
	tb.move("alice", "e4")
	before := tb.state
	fenBefore := rules.Board(before.GameState).FEN
	tb.move("bob", "c5")
	if got := rules.Board(before.GameState).FEN; got != fenBefore {
		t.Fatalf("evolving changed an earlier state: %s -> %s", fenBefore, got)
	}
}

func TestUnknownMatch(t *testing.T) {
	_, err := match.Decide(rules, match.State{}, match.Join{Entropy: entropy, PlayerID: "a"})
	var rej *game.Error
	if !errors.As(err, &rej) || rej.Code != game.NotFound {
		t.Fatalf("joining a match that does not exist: %v", err)
	}
}
