package projections

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/rating"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
)

// A rated Royale match of four newcomers, won by the last seat standing after three
// resignations: the winner gains what a win against one equal gains (K 40 times 0.5),
// the three others share the loss, and a friendly match changes nothing. Each seat moves
// first: a rated match that ends before every seat has moved is aborted and rates nobody.
func TestRatingsOfAFourPlayerMatch(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	reg := game.NewRegistry(classic.Rules{}, sovereignchess.Rules{})
	eng := engine.New(engine.Config{Store: store, Games: reg})
	players := []string{"ann", "bob", "cid", "dee"}
	for _, rated := range []bool{true, false} {
		ack, err := eng.Create(ctx, engine.CreateMatch{Game: sovereignchess.ID, Options: game.Options{"mode": "ROYALE"}, Rated: rated, By: "ann"}, engine.Meta{CommandID: fmt.Sprint(rated)})
		if err != nil {
			t.Fatal(err)
		}
		for seat, p := range players {
			if _, err := eng.Handle(ctx, ack.MatchID, match.Join{PlayerID: p, Name: p, Seat: &seat}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		for range players { // each seat makes its first move: else the match is aborted
			snap, err := eng.Match(ctx, ack.MatchID)
			if err != nil {
				t.Fatal(err)
			}
			seat := snap.State.GameStatus(snap.Rules).ToAct[0]
			first := snap.Rules.(game.Boarded).Board(snap.State.GameState).LegalMoves[0]
			if _, err := eng.Handle(ctx, ack.MatchID, match.Act{PlayerID: players[seat], Do: game.Move{Notation: first}}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range players[:3] {
			if _, err := eng.Handle(ctx, ack.MatchID, match.Resign{PlayerID: p}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	r := NewRatings(reg)
	if err := Rebuild(ctx, store, nil, r); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"ann": 1400 - 20.0/3, "bob": 1400 - 20.0/3, "cid": 1400 - 20.0/3, "dee": 1420}
	for p, w := range want {
		got := r.Of(p)
		if len(got) != 1 || got[0].Game != sovereignchess.ID || got[0].Games != 1 || math.Abs(got[0].Rating-w) > 1e-9 {
			t.Errorf("%s: %+v, want one rated game at %g", p, got, w)
		}
	}
	if dee := r.Of("dee")[0]; dee.Wins != 1 || dee.Losses != 0 {
		t.Errorf("the winner's record: %+v", dee)
	}
	if ann := r.Of("ann")[0]; ann.Losses != 1 {
		t.Errorf("a loser's record: %+v", ann)
	}
	// The leaderboard: the winner, then the three tied losers by player ID; cut at n.
	for n, want := range map[int][]string{10: {"dee", "ann", "bob", "cid"}, 2: {"dee", "ann"}, 0: {}} {
		board := r.Leaderboard(sovereignchess.ID, n)
		got := []string{}
		for _, s := range board {
			if s.Rating != r.Of(s.Player)[0] {
				t.Errorf("the leaderboard's %s: %+v, the player's %+v", s.Player, s.Rating, r.Of(s.Player))
			}
			got = append(got, s.Player)
		}
		if !slices.Equal(got, want) {
			t.Errorf("the leaderboard of %d: %v, want %v", n, got, want)
		}
	}
	if board := r.Leaderboard(classic.ID, 10); len(board) != 0 {
		t.Errorf("a game no one played rated has a leaderboard: %+v", board)
	}
}

// duel is a two-seat game in which each seat, in turn, picks the class it plays (a Move
// naming it), and the first to pick wins once both have. Its results count under its ID
// and under the class each seat played, as Solwaris rates per class.
type duel struct{}

type picked struct {
	Seat  int
	Class string
}

func (picked) EventType() string { return "Picked" }

func (duel) Info() game.Info { return game.Info{ID: "DUEL", Name: "Duel", RulesVersion: "1"} }
func (duel) Plan(game.Options) (game.Plan, error) {
	return game.Plan{Seats: 2, Teams: []int{0, 1}}, nil
}
func (duel) Setup(game.Setup) ([]game.Emitted, error) { return nil, nil }
func (duel) Decide(_ game.State, a game.Action) ([]game.Emitted, error) {
	return game.PublicEvents(picked{Seat: a.Seat, Class: a.Do.(game.Move).Notation}), nil
}
func (duel) Evolve(st game.State, e game.Event) game.State {
	classes, _ := st.([]string)
	return append(slices.Clone(classes), e.(picked).Class)
}
func (duel) Status(st game.State) game.Status {
	classes, _ := st.([]string)
	if len(classes) == 2 {
		return game.Status{Over: true, Outcome: game.Outcome{Winners: []int{0}, Reason: "quicker"}}
	}
	return game.Status{ToAct: []int{len(classes)}, Phase: "pick"}
}
func (duel) Events() *game.Codec {
	c := game.NewCodec()
	game.Register[picked](c, 1)
	return c
}
func (duel) RatingKeys(st game.State, seat int) []string {
	return []string{"DUEL", "DUEL/" + st.([]string)[seat]}
}

// Two rated duels: Ann's mage, then her brute, beat Bob's brute twice. Each result counts
// under the game and under the class each played, class against class.
func TestRatingsUnderTheKeysAGameNames(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	reg := game.NewRegistry(duel{})
	eng := engine.New(engine.Config{Store: store, Games: reg})
	for i, classes := range [][2]string{{"mage", "brute"}, {"brute", "brute"}} {
		ack, err := eng.Create(ctx, engine.CreateMatch{Game: "DUEL", Rated: true, By: "ann"}, engine.Meta{CommandID: fmt.Sprint(i)})
		if err != nil {
			t.Fatal(err)
		}
		for seat, p := range []string{"ann", "bob"} {
			if _, err := eng.Handle(ctx, ack.MatchID, match.Join{PlayerID: p, Name: p, Seat: &seat}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		for seat, p := range []string{"ann", "bob"} {
			if _, err := eng.Handle(ctx, ack.MatchID, match.Act{PlayerID: p, Do: game.Move{Notation: classes[seat]}}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	r := NewRatings(reg)
	if err := Rebuild(ctx, store, nil, r); err != nil {
		t.Fatal(err)
	}
	second := func(a, b rating.Player) (float64, float64) { // Ann beats Bob
		after := rating.UpdateMany([]rating.Player{a, b}, []int{0, 1}, []float64{1, 0})
		return after[0], after[1]
	}
	annDuel, bobDuel := second(rating.Player{Rating: 1420, Games: 1}, rating.Player{Rating: 1380, Games: 1})
	annBrute, bobBrute := second(rating.Player{Rating: rating.Initial}, rating.Player{Rating: 1380, Games: 1})
	want := map[string][]Rating{
		"ann": {
			{Game: "DUEL", Key: "DUEL", Rating: annDuel, Games: 2, Wins: 2},
			{Game: "DUEL", Key: "DUEL/brute", Rating: annBrute, Games: 1, Wins: 1},
			{Game: "DUEL", Key: "DUEL/mage", Rating: 1420, Games: 1, Wins: 1},
		},
		"bob": {
			{Game: "DUEL", Key: "DUEL", Rating: bobDuel, Games: 2, Losses: 2},
			{Game: "DUEL", Key: "DUEL/brute", Rating: bobBrute, Games: 2, Losses: 2},
		},
	}
	for p, w := range want {
		got := r.Of(p)
		if len(got) != len(w) {
			t.Fatalf("%s: %+v, want %+v", p, got, w)
		}
		for i := range w {
			if g := got[i]; g.Game != w[i].Game || g.Key != w[i].Key || g.Games != w[i].Games || g.Wins != w[i].Wins || g.Losses != w[i].Losses || math.Abs(g.Rating-w[i].Rating) > 1e-9 {
				t.Errorf("%s: %+v, want %+v", p, g, w[i])
			}
		}
	}
}

// shortDuel is the duel where an abandonment counts once both classes are picked
// (game.Rewarding, Solwaris's "from the 4th turn") and every rating starts at 1000.
type shortDuel struct{ duel }

func (shortDuel) Info() game.Info {
	return game.Info{ID: "SHORT", Name: "Short duel", RulesVersion: "1"}
}
func (shortDuel) AbandonCounts(st game.State) bool {
	classes, _ := st.([]string)
	return len(classes) == 2
}
func (shortDuel) InitialRating(string) float64        { return 1000 }
func (shortDuel) RatingKeys(game.State, int) []string { return []string{"SHORT"} }

// Bob abandons before the duel counts: he loses his rating, Ann's does not move; then
// Ann abandons the next one after her first pick, still too early: she loses, Bob gains
// nothing. Ratings start at the game's 1000.
func TestAnAbandonmentTooEarlyMovesOnlyTheLeaversRating(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	reg := game.NewRegistry(shortDuel{})
	eng := engine.New(engine.Config{Store: store, Games: reg})
	for i, c := range []struct {
		picks  []string
		leaver string
	}{{nil, "bob"}, {[]string{"mage", "brute"}, "ann"}} {
		ack, err := eng.Create(ctx, engine.CreateMatch{Game: "SHORT", Rated: true, By: "ann"}, engine.Meta{CommandID: fmt.Sprint(i)})
		if err != nil {
			t.Fatal(err)
		}
		for seat, p := range []string{"ann", "bob"} {
			if _, err := eng.Handle(ctx, ack.MatchID, match.Join{PlayerID: p, Name: p, Seat: &seat}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		if c.picks != nil { // ann picks; the duel counts once bob has too, and ends: resign before
			if _, err := eng.Handle(ctx, ack.MatchID, match.Act{PlayerID: "ann", Do: game.Move{Notation: c.picks[0]}}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := eng.Handle(ctx, ack.MatchID, match.Resign{PlayerID: c.leaver}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	r := NewRatings(reg)
	if err := Rebuild(ctx, store, nil, r); err != nil {
		t.Fatal(err)
	}
	bobAfter := rating.UpdateMany([]rating.Player{{Rating: 1000}, {Rating: 1000}}, []int{0, 1}, []float64{1, 0})[1]
	annAfter := rating.UpdateMany([]rating.Player{{Rating: 1000}, {Rating: bobAfter, Games: 1}}, []int{0, 1}, []float64{0, 1})[0]
	ann, bob := r.Of("ann"), r.Of("bob")
	if len(bob) != 1 || bob[0].Games != 1 || bob[0].Losses != 1 || math.Abs(bob[0].Rating-bobAfter) > 1e-9 {
		t.Fatalf("bob after abandoning early, then seeing ann abandon early: %+v, want one loss at %.1f", bob, bobAfter)
	}
	if len(ann) != 1 || ann[0].Games != 1 || ann[0].Losses != 1 || math.Abs(ann[0].Rating-annAfter) > 1e-9 {
		t.Fatalf("ann: %+v, want one loss at %.1f and no win from bob's abandonment", ann, annAfter)
	}
}
