package graph

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/magicchess"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
)

// playCard naming a card by its ID and by the slot of another card is refused with
// BAD_USER_INPUT and changes nothing: the server lays neither the slot's card (which is
// playable on the targets given) nor the named one. The match is Ajedrez Mágico's on a
// real engine over a SQLite file; the caller is Ann, seat 0, in her first turn.
func TestPlayCardRefusesACardIDWithAnotherCardsSlot(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "arbiter.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	e := engine.New(engine.Config{Store: store, Games: game.NewRegistry(magicchess.Rules{})})
	ack, err := e.Create(ctx, engine.CreateMatch{Game: magicchess.ID}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	id := ack.MatchID
	for _, c := range []match.Command{
		match.Join{PlayerID: "ann", Name: "Ann"}, match.Join{PlayerID: "bob", Name: "Bob"},
		match.Act{PlayerID: "ann", Do: game.Choose{Option: "ready"}}, match.Act{PlayerID: "bob", Do: game.Choose{Option: "ready"}},
	} {
		if _, err := e.Handle(ctx, id, c, engine.Meta{}); err != nil {
			t.Fatalf("%T: %v", c, err)
		}
	}
	snap, err := e.Match(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	hand := snap.State.GameState.(magicchess.State).Hands[0]
	var play *cards.PlayCard
	for _, p := range (magicchess.Rules{}).View(snap.State.GameState, game.Viewpoint{Seats: []int{0}}).Plays() {
		if pc, ok := p.Do.(cards.PlayCard); ok {
			play = &pc
			break
		}
	}
	if play == nil {
		t.Fatalf("Ann may lay none of %v in her first turn", hand)
	}
	other := ""
	for _, c := range hand {
		if c != "" && c != play.Card {
			other = c
			break
		}
	}
	r := &mutationResolver{&Resolver{Engine: e}}
	ann := context.WithValue(ctx, callerKey{}, &caller{player: &engine.Player{ID: "ann"}})
	_, err = playCard(ann, r, id, other, play.Slot, play.Targets)
	var rej *game.Error
	if !errors.As(err, &rej) || rej.Code != game.BadInput || rej.Reason != fmt.Sprintf("slot %d of your hand holds %s, not %s: name one card (its ID, its slot, or both alike)", play.Slot, play.Card, other) {
		t.Fatalf("%s with the slot %d of %s: %v, want BAD_USER_INPUT naming both", other, play.Slot, play.Card, err)
	}
	after, err := e.Match(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version != snap.Version {
		t.Fatalf("the refusal moved the match from version %d to %d", snap.Version, after.Version)
	}
}

// playCard calls the resolver; a panic after the engine took the command (this test's
// resolver has no read side to answer from) is the command's success, as an error.
func playCard(ctx context.Context, r *mutationResolver, id, card string, slot int, targets []string) (_ any, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("the command was taken (the answer panicked without a read side: %v)", v)
		}
	}()
	return r.PlayCard(ctx, id, &card, &slot, targets, nil, nil, nil)
}
