package projections

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
	"github.com/arbiter-games/arbiter/replay/playout"
)

// TestChoices plays Solwaris's grimoire phase through the engine among classic matches:
// the model keeps each player's last grimoire locked per class, not a choice still secret
// (a match whose other seat has not chosen), the same fed one event at a time (each
// twice, as a redelivery would) and rebuilt.
func TestChoices(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	reg := game.NewRegistry(classic.Rules{}, solwaris.Rules{})
	eng := engine.New(engine.Config{Store: store, Games: reg})
	if _, err := playout.Fill(ctx, eng, playout.Config{Matches: 2, Plies: 10, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	players := []string{"ann", "bob"}
	n := 0
	launch := func(choices ...*solwaris.ChooseGrimoire) {
		t.Helper()
		n++
		ack, err := eng.Create(ctx, engine.CreateMatch{Game: solwaris.ID}, engine.Meta{CommandID: fmt.Sprintf("create-%d", n)})
		if err != nil {
			t.Fatal(err)
		}
		for seat, p := range players {
			if _, err := eng.Handle(ctx, ack.MatchID, match.Join{PlayerID: p, Name: p, Seat: &seat}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		for seat, c := range choices {
			if c == nil {
				continue
			}
			if _, err := eng.Handle(ctx, ack.MatchID, match.Act{PlayerID: players[seat], Do: *c}, engine.Meta{}); err != nil {
				t.Fatalf("match %d, seat %d: %v", n, seat, err)
			}
		}
	}
	launch(&solwaris.ChooseGrimoire{Class: "guerrier", Variants: []string{"ancrage"}}, &solwaris.ChooseGrimoire{Class: "arcaniste"})
	launch(&solwaris.ChooseGrimoire{Class: "arcaniste", Variants: []string{"rayon"}}, nil) // never locked
	launch(&solwaris.ChooseGrimoire{Class: "guerrier"}, &solwaris.ChooseGrimoire{Class: "guerrier", Variants: []string{"ancrage"}})

	fed := NewChoices(reg)
	all, err := store.ReadAll(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range all {
		for range 2 {
			if err := fed.Apply(ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	rebuilt := NewChoices(reg)
	if err := Rebuild(ctx, store, nil, rebuilt); err != nil {
		t.Fatal(err)
	}
	if fed.Digest() != rebuilt.Digest() {
		t.Fatalf("fed %s, rebuilt %s", fed.Digest(), rebuilt.Digest())
	}
	want := map[string][]Remembered{
		"ann": {{Game: solwaris.ID, Key: "guerrier"}},
		"bob": {{Game: solwaris.ID, Key: "arcaniste"}, {Game: solwaris.ID, Key: "guerrier", Values: []string{"ancrage"}}},
	}
	for _, m := range []*Choices{fed, rebuilt} {
		for p, w := range want {
			if got := m.Of(p, solwaris.ID); !reflect.DeepEqual(got, w) {
				t.Errorf("%s remembers %+v, want %+v", p, got, w)
			}
			if got := m.Of(p, classic.ID); len(got) != 0 {
				t.Errorf("%s remembers %+v in chess", p, got)
			}
		}
		if v, ok := m.Last("bob", solwaris.ID, "guerrier"); !ok || !reflect.DeepEqual(v, []string{"ancrage"}) {
			t.Errorf("Bob's last Guerrier: %v %v", v, ok)
		}
		if _, ok := m.Last("ann", solwaris.ID, "arcaniste"); ok {
			t.Error("Ann's Arcaniste, never locked, is remembered")
		}
	}
}
