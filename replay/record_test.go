package replay_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/replay"
)

// played plays a match through the engine, on its seats' behalf, and returns the engine
// and the match's ID; do gets the snapshot before each action and returns the next one,
// with the seat that sends it, or ok false to stop.
func played(t *testing.T, games *game.Registry, gameID string, opts game.Options, names [2]string, do func(engine.Snapshot) (seat int, cmd any, ok bool)) (*engine.Engine, *memstore.Store, string) {
	t.Helper()
	ctx := context.Background()
	store := memstore.New()
	e := engine.New(engine.Config{Store: store, Games: games, Random: rand.NewChaCha8([32]byte{15})}) // the same seed, decks and hands every run
	ack, err := e.Create(ctx, engine.CreateMatch{Game: gameID, Options: opts}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	for seat, name := range names {
		if _, err := e.Handle(ctx, ack.MatchID, match.Join{PlayerID: name, Name: name, Seat: &seat}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	for {
		snap, err := e.Match(ctx, ack.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		seat, cmd, ok := do(snap)
		if !ok {
			return e, store, ack.MatchID
		}
		var c match.Command
		switch x := cmd.(type) {
		case string:
			c = match.Resign{PlayerID: names[seat]}
		default:
			c = match.Act{PlayerID: names[seat], Do: x}
		}
		if _, err := e.Handle(ctx, ack.MatchID, c, engine.Meta{}); err != nil {
			t.Fatalf("seat %d's %v: %v", seat, cmd, err)
		}
	}
}

// Sovereign Chess: when the opening choice gives side 1 (White) to seat 1, seat 0 plays
// Black, and its win reads 0-1; a number covers side 1's turn and side 2's.
func TestResultAndRecordReadBySide(t *testing.T) {
	games := game.NewRegistry(classic.Rules{}, sovereignchess.Rules{})
	var moves []string
	_, store, id := played(t, games, sovereignchess.ID, nil, [2]string{"Ada", "Bo"}, func(snap engine.Snapshot) (int, any, bool) {
		if snap.State.Status != match.Live {
			return 0, nil, false
		}
		gs := snap.State.GameStatus(snap.Rules)
		seat := gs.ToAct[0]
		switch {
		case gs.Phase == "opening-choice" && seat == 1: // the first mover, seat 0, is refused White
			return seat, game.Choose{Option: "keep"}, true
		case gs.Phase == "opening-choice":
			return seat, game.Choose{Option: "refuse"}, true
		case len(moves) == 3:
			return 1, "resign", true
		}
		m := snap.Rules.(game.Boarded).Board(snap.State.GameState).LegalMoves[0]
		moves = append(moves, m)
		return seat, game.Move{Notation: m}, true
	})
	snap, err := replay.State(context.Background(), store, games, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := replay.Result(snap.Rules, snap.State), "0-1 (Black, seat 0, Ada, wins by resignation)"; got != want {
		t.Errorf("the result reads %q, want %q", got, want)
	}
	if got, want := replay.Record(snap.Rules, snap.State), "1. "+moves[0]+" "+moves[1]+" 2. "+moves[2]; got != want {
		t.Errorf("the record reads %q, want %q", got, want)
	}
	evs, err := store.ReadStream(context.Background(), matchstream.Name(id), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r := replay.VerifyEvents(games, matchstream.Name(id), evs); !r.OK() || r.Ending != "0-1 (Black, seat 0, Ada, wins by resignation)" {
		t.Errorf("verify: %+v, %q", r.Problems, r.Ending)
	}
}

// Chess from a position with Black to move at move 12 numbers from there; a draw reads
// 1/2-1/2.
func TestRecordFromASetUpPosition(t *testing.T) {
	games := game.NewRegistry(classic.Rules{})
	plays := []string{"Kg2", "e5", "Kf3"}
	_, store, id := played(t, games, classic.ID, game.Options{"fen": "8/8/8/8/4P3/8/8/K6k b - - 0 12"}, [2]string{"Ada", "Bo"}, func(snap engine.Snapshot) (int, any, bool) {
		n := len(snap.Rules.(game.Recorded).MoveList(snap.State.GameState))
		if n == len(plays) {
			return 0, nil, false
		}
		return snap.State.GameStatus(snap.Rules).ToAct[0], game.Move{Notation: plays[n]}, true
	})
	snap, err := replay.State(context.Background(), store, games, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := replay.Record(snap.Rules, snap.State), "12... Kg2 13. e5 Kf3"; got != want {
		t.Errorf("the record reads %q, want %q", got, want)
	}
	st := snap.State
	st.Result = &game.Outcome{Winners: []int{}, Reason: "agreement"}
	if got := replay.Result(snap.Rules, st); got != "1/2-1/2 (draw: agreement)" {
		t.Errorf("a draw reads %q", got)
	}
}

// UnfairChess: a card that adds to the move and its move are one turn, written as one
// after its number (a double move: the card and both moves). The engine's random source is fixed, so the hands are the same every
// run: White plays the first such card it holds, then moves; everyone else moves.
func TestRecordKeepsACardWithItsMove(t *testing.T) {
	games := game.NewRegistry(unfair.Rules{})
	adds := map[string]bool{}
	for _, c := range (unfair.Rules{}).Catalog() {
		adds[c.ID] = c.Cost == "ADDS_TO_MOVE"
	}
	var card, moveAfter string
	turn := 0
	_, store, id := played(t, games, unfair.ID, nil, [2]string{"Ada", "Bo"}, func(snap engine.Snapshot) (int, any, bool) {
		if snap.State.Status != match.Live {
			return 0, nil, false
		}
		gs, st := snap.State.GameStatus(snap.Rules), snap.State.GameState
		seat := gs.ToAct[0]
		legal := snap.Rules.(game.Boarded).Board(st).LegalMoves
		switch {
		case gs.Phase == "move-after-card":
			moveAfter = legal[0]
			return seat, game.Move{Notation: moveAfter}, true
		case moveAfter != "":
			return seat, "resign", true
		case seat == 0:
			turn++
			for _, h := range (unfair.Rules{}).Hand(st, seat) {
				if h.Playable && adds[h.Card] {
					card = h.Card
					return seat, cards.PlayCard{Card: h.Card, Slot: h.Slot, Targets: h.Targets[0]}, true
				}
			}
		}
		if turn > 40 {
			t.Fatalf("White held no card that adds to the move in %d turns", turn)
		}
		return seat, game.Move{Notation: legal[len(legal)/2]}, true
	})
	snap, err := replay.State(context.Background(), store, games, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	rec := replay.Record(snap.Rules, snap.State)
	_, turns := snap.Rules.(game.Turned).Turns(snap.State.GameState)
	last := turns[len(turns)-1]
	if len(turns) != 2*turn-1 || len(last.Plays) < 2 || !strings.HasPrefix(last.Plays[0], "["+card) || last.Plays[1] == "" ||
		!strings.HasSuffix(" "+rec, " "+strconv.Itoa(turn)+". "+strings.Join(last.Plays, " & ")) || slices.Contains(strings.Fields(rec), strconv.Itoa(2*turn)+".") {
		t.Fatalf("after %s and %s on White's turn %d: %q (turns %+v)", card, moveAfter, turn, rec, turns)
	}
}
