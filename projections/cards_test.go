package projections

import (
	"context"
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
	"github.com/arbiter-games/arbiter/replay/playout"
)

// TestCardsPlayed plays UnfairChess through the engine, counting each player's cards as
// they are played, and finds the same counts in the read model, fed one event at a time
// and rebuilt; the classic matches around it count nothing.
func TestCardsPlayed(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	reg := game.NewRegistry(classic.Rules{}, unfair.Rules{})
	eng := engine.New(engine.Config{Store: store, Games: reg})
	if _, err := playout.Fill(ctx, eng, playout.Config{Matches: 2, Plies: 10, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	players := []string{"ann", "bob"}
	want := map[string]map[string]int{"ann": {}, "bob": {}}
	for round := range 2 {
		ack, err := eng.Create(ctx, engine.CreateMatch{Game: unfair.ID}, engine.Meta{CommandID: fmt.Sprintf("create-%d", round)})
		if err != nil {
			t.Fatal(err)
		}
		id := ack.MatchID
		for seat, p := range players {
			if _, err := eng.Handle(ctx, id, match.Join{PlayerID: p, Name: p, Seat: &seat}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		for turn := 0; turn < 40; turn++ {
			snap, err := eng.Match(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if snap.State.Status != match.Live {
				break
			}
			status := snap.Rules.Status(snap.State.GameState)
			seat := status.ToAct[0]
			board := snap.Rules.(game.Boarded).Board(snap.State.GameState)
			// A card every other turn, and whenever no move is legal: a player in
			// check may have no move but a card that saves it, and the match goes on.
			var do any
			if status.Phase != "move-after-card" && (turn%2 == 0 || len(board.LegalMoves) == 0) {
				for _, h := range (unfair.Rules{}).Hand(snap.State.GameState, seat) {
					if h.Playable {
						do = cards.PlayCard{Slot: h.Slot, Targets: h.Targets[0]}
						want[players[seat]][h.Card]++
						break
					}
				}
			}
			if do == nil {
				if len(board.LegalMoves) == 0 {
					t.Fatalf("turn %d: seat %d may act in %s but has neither a move nor a playable card", turn, seat, board.FEN)
				}
				do = game.Move{Notation: board.LegalMoves[0]}
			}
			if _, err := eng.Handle(ctx, id, match.Act{PlayerID: players[seat], Do: do}, engine.Meta{}); err != nil {
				t.Fatalf("turn %d, seat %d: %v", turn, seat, err)
			}
		}
	}
	if len(want["ann"])+len(want["bob"]) == 0 {
		t.Fatal("no card was played")
	}

	fed := NewCardsPlayed(reg)
	all, err := store.ReadAll(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range all {
		if err := fed.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	rebuilt := NewCardsPlayed(reg)
	if err := Rebuild(ctx, store, nil, rebuilt); err != nil {
		t.Fatal(err)
	}
	if fed.Digest() != rebuilt.Digest() {
		t.Fatalf("fed %s, rebuilt %s", fed.Digest(), rebuilt.Digest())
	}
	for _, p := range players {
		got := map[string]int{}
		for _, c := range rebuilt.Of(p, time.Now()) {
			if c.Game != unfair.ID {
				t.Fatalf("%s has cards counted in %s", p, c.Game)
			}
			got[c.Card] = c.Count
		}
		if !maps.Equal(got, want[p]) {
			t.Errorf("%s played %v, the model says %v", p, want[p], got)
		}
	}
}

// TestCardsOfADelayedMatchCountOnceItsEndIsAsOldAsItsDelay: a match with a spectator
// delay counts its cards once its end is as old as its delay, not as they are played nor
// at its end, in the model fed live and in ones restored from its stored form in the
// middle and after the end: a player's cards are public, and a count that moved sooner
// would show a spectator held minutes behind the card just played, or the end.
func TestCardsOfADelayedMatchCountOnceItsEndIsAsOldAsItsDelay(t *testing.T) {
	const delay = time.Minute
	ctx := context.Background()
	store := memstore.New()
	reg := game.NewRegistry(unfair.Rules{})
	eng := engine.New(engine.Config{Store: store, Games: reg})
	ack, err := eng.Create(ctx, engine.CreateMatch{Game: unfair.ID, Options: game.Options{match.SpectatorDelayOption: "60"}}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	id, players := ack.MatchID, []string{"ann", "bob"}
	for seat, p := range players {
		if _, err := eng.Handle(ctx, id, match.Join{PlayerID: p, Name: p, Seat: &seat}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	played := ""
	for turn := 0; turn < 40 && played == ""; turn++ {
		snap, err := eng.Match(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		seat := snap.Rules.Status(snap.State.GameState).ToAct[0]
		var do any
		for _, h := range (unfair.Rules{}).Hand(snap.State.GameState, seat) {
			if h.Playable {
				do, played = cards.PlayCard{Slot: h.Slot, Targets: h.Targets[0]}, players[seat]
				break
			}
		}
		if do == nil {
			do = game.Move{Notation: snap.Rules.(game.Boarded).Board(snap.State.GameState).LegalMoves[0]}
		}
		if _, err := eng.Handle(ctx, id, match.Act{PlayerID: players[seat], Do: do}, engine.Meta{}); err != nil {
			t.Fatalf("turn %d, seat %d: %v", turn, seat, err)
		}
	}
	if played == "" {
		t.Fatal("no card was played in 40 turns")
	}
	fed := NewCardsPlayed(reg)
	var last int64
	feed := func(models ...*CardsPlayed) {
		t.Helper()
		all, err := store.ReadAll(ctx, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range models {
			for _, ev := range all {
				if err := m.Apply(ev); err != nil {
					t.Fatal(err)
				}
			}
		}
		last = all[len(all)-1].Position
	}
	restore := func() *CardsPlayed {
		t.Helper()
		pos, data, err := fed.Save()
		if err != nil {
			t.Fatal(err)
		}
		restored := NewCardsPlayed(reg)
		if err := restored.Restore(ctx, store, pos, data); err != nil {
			t.Fatal(err)
		}
		return restored
	}
	counted := func(name string, m *CardsPlayed, at time.Time, want int) {
		t.Helper()
		got := m.Of(played, at)
		if n := 0; len(got) == 1 {
			n = got[0].Count
			if n != want {
				t.Errorf("%s: %s's cards %+v, want %d", name, played, got, want)
			}
		} else if len(got) != want {
			t.Errorf("%s: %s's cards %+v, want %d", name, played, got, want)
		}
	}
	feed(fed)
	counted("live", fed, time.Now().Add(time.Hour), 0)
	during := restore()
	if _, err := eng.Handle(ctx, id, match.Resign{PlayerID: "bob"}, engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	ended := time.Now() // the end's event is no later
	feed(fed, during)
	after := restore()
	for name, m := range map[string]*CardsPlayed{"fed": fed, "restored live": during, "restored ended": after} {
		counted(name+", at the end", m, ended, 0)
		counted(name+", a second before the delay is over", m, ended.Add(delay-time.Second), 0)
		counted(name+", once the delay is over", m, ended.Add(delay), 1)
		if m.Digest() != fed.Digest() {
			t.Errorf("%s %s, fed %s", name, m.Digest(), fed.Digest())
		}
	}

	// An event later than the delay counts the cards in the model itself, alike whatever
	// the time it is read at.
	later := eventstore.Event{Proposed: eventstore.Proposed{Type: "Noted", Time: ended.Add(delay + time.Second)}, Stream: "player-x", Position: last + 1}
	for name, m := range map[string]*CardsPlayed{"fed": fed, "restored ended": after} {
		if err := m.Apply(later); err != nil {
			t.Fatal(err)
		}
		counted(name+", after an event past the delay", m, time.Time{}, 1)
	}
	if fed.Digest() != after.Digest() {
		t.Errorf("fed %s, restored %s", fed.Digest(), after.Digest())
	}
}
