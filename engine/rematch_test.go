package engine_test

import (
	"context"
	"sync"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
)

// A fool's mate, then its rematch: asked by Black first, then by White, on two nodes.
func TestRematchTurnsTheSeats(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	nodes := []*engine.Engine{newEngine(store), newEngine(store)}
	id := seated(t, nodes[0])
	if _, err := nodes[0].Rematch(ctx, id, "black", "black", engine.Meta{}); game.CodeOf(err) != game.Conflict {
		t.Fatalf("a rematch of a match still open: %v", err)
	}
	for i, mv := range []string{"f3", "e5", "g4", "Qh4#"} {
		if _, err := nodes[0].Handle(ctx, id, move([]string{"white", "black"}[i%2], mv), engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := nodes[0].Rematch(ctx, id, "kibitzer", "kibitzer", engine.Meta{}); game.CodeOf(err) != game.Forbidden {
		t.Fatalf("a rematch asked by someone who did not play: %v", err)
	}

	ack, err := nodes[0].Rematch(ctx, id, "black", "black", engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	if ack.MatchID != match.RematchID(id) || ack.MatchID == id {
		t.Fatalf("the rematch is %s, want %s", ack.MatchID, match.RematchID(id))
	}
	snap, err := nodes[1].Match(ctx, ack.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	if snap.State.Status != match.Open || snap.State.SeatOf("black") != 0 || snap.State.RematchOf != id || snap.State.Game != "CHESS" {
		t.Fatalf("after Black asked: %+v", snap.State)
	}
	again, err := nodes[1].Rematch(ctx, id, "black", "black", engine.Meta{})
	if err != nil || !again.Duplicate || again.MatchID != ack.MatchID {
		t.Fatalf("Black asking again: %+v %v", again, err)
	}
	if _, err := nodes[1].Rematch(ctx, id, "white", "white", engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	snap, err = nodes[0].Match(ctx, ack.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	if snap.State.Status != match.Live || snap.State.SeatOf("white") != 1 || snap.State.SeatOf("black") != 0 {
		t.Fatalf("after both asked: %+v", snap.State)
	}
	if _, err := nodes[0].Handle(ctx, ack.MatchID, move("black", "e4"), engine.Meta{}); err != nil {
		t.Fatalf("Black, now at seat 0, opens the rematch: %v", err)
	}
}

// Both players ask at the same moment, on two nodes: one rematch, both seated.
func TestRematchAskedByBothAtOnce(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	nodes := []*engine.Engine{newEngine(store), newEngine(store)}
	id := seated(t, nodes[0])
	if _, err := nodes[0].Handle(ctx, id, match.Resign{PlayerID: "white"}, engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, p := range []string{"white", "black"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = nodes[i].Rematch(ctx, id, p, p, engine.Meta{})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
	}
	snap, err := nodes[0].Match(ctx, match.RematchID(id))
	if err != nil {
		t.Fatal(err)
	}
	if snap.State.Status != match.Live || snap.State.SeatOf("white") != 1 || snap.State.SeatOf("black") != 0 {
		t.Fatalf("after both asked at once: %+v", snap.State)
	}
}

// The rematch of a four-seat Royale is kept for its four players, each at the seat after
// their old one: a stranger is refused whichever seat it asks for.
func TestRematchOfRoyaleIsKeptForItsPlayers(t *testing.T) {
	ctx := context.Background()
	e := engine.New(engine.Config{Store: openStore(t), Games: game.NewRegistry(sovereignchess.Rules{})})
	ack, err := e.Create(ctx, engine.CreateMatch{Game: sovereignchess.ID, Options: game.Options{"mode": sovereignchess.Royale}}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	players := []string{"ann", "bob", "cid", "dee"}
	for _, p := range players {
		if _, err := e.Handle(ctx, ack.MatchID, match.Join{PlayerID: p, Name: p}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range players[1:] {
		if _, err := e.Handle(ctx, ack.MatchID, match.Resign{PlayerID: p}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	re, err := e.Rematch(ctx, ack.MatchID, "ann", "ann", engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	for seat := range 4 {
		if _, err := e.Handle(ctx, re.MatchID, match.Join{PlayerID: "mallory", Name: "mallory", Seat: &seat}, engine.Meta{}); game.CodeOf(err) != game.Forbidden {
			t.Fatalf("a stranger asks for seat %d of the rematch: %v", seat, err)
		}
	}
	if _, err := e.Handle(ctx, re.MatchID, match.Join{PlayerID: "mallory", Name: "mallory"}, engine.Meta{}); game.CodeOf(err) != game.Forbidden {
		t.Fatalf("a stranger asks for any seat of the rematch: %v", err)
	}
	for _, p := range players[1:] {
		if _, err := e.Rematch(ctx, ack.MatchID, p, p, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	snap, err := e.Match(ctx, re.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range players {
		if snap.State.SeatOf(p) != (i+1)%4 {
			t.Errorf("%s sits at seat %d of the rematch, want %d", p, snap.State.SeatOf(p), (i+1)%4)
		}
	}
	if snap.State.Status != match.Live {
		t.Fatalf("the rematch has not started: %s", snap.State.Status)
	}
}

// relay is a four-seat game of two teams, seats 0 and 1 against 2 and 3, in which any seat
// may act at any time and the first move wins for its team. Its rematch keeps the teams
// together and swaps their sides, where turning each seat by one would split them.
type relay struct{}

type tagged struct{ Seat int }

func (tagged) EventType() string { return "Tagged" }

func (relay) Info() game.Info { return game.Info{ID: "RELAY", Name: "Relay", RulesVersion: "1"} }
func (relay) Plan(game.Options) (game.Plan, error) {
	return game.Plan{Seats: 4, Teams: []int{0, 0, 1, 1}}, nil
}
func (relay) Setup(game.Setup) ([]game.Emitted, error) { return nil, nil }
func (relay) Decide(_ game.State, a game.Action) ([]game.Emitted, error) {
	return game.PublicEvents(tagged{Seat: a.Seat}), nil
}
func (relay) Evolve(_ game.State, e game.Event) game.State { return e }
func (relay) Status(st game.State) game.Status {
	if t, ok := st.(tagged); ok {
		return game.Status{Over: true, Outcome: game.Outcome{Winners: []int{t.Seat / 2 * 2, t.Seat/2*2 + 1}, Reason: "tag"}}
	}
	return game.Status{ToAct: []int{0, 1, 2, 3}, Phase: "play"}
}
func (relay) Events() *game.Codec {
	c := game.NewCodec()
	game.Register[tagged](c, 1)
	return c
}
func (relay) Reseat(game.Plan) []int { return []int{2, 3, 0, 1} }

// A four-seat team game reseats its rematch as it says: partners stay partners.
func TestRematchKeepsTeamsTogether(t *testing.T) {
	ctx := context.Background()
	e := engine.New(engine.Config{Store: openStore(t), Games: game.NewRegistry(relay{})})
	players := []string{"ann", "bob", "cid", "dee"}
	ack, err := e.Create(ctx, engine.CreateMatch{Game: "RELAY"}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	for seat, p := range players {
		if _, err := e.Handle(ctx, ack.MatchID, match.Join{PlayerID: p, Name: p, Seat: &seat}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.Handle(ctx, ack.MatchID, match.Act{PlayerID: "dee", Do: game.Move{Notation: "tag"}}, engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"cid", "ann", "dee", "bob"} {
		if _, err := e.Rematch(ctx, ack.MatchID, p, p, engine.Meta{}); err != nil {
			t.Fatalf("%s asks for the rematch: %v", p, err)
		}
	}
	snap, err := e.Match(ctx, match.RematchID(ack.MatchID))
	if err != nil {
		t.Fatal(err)
	}
	if snap.State.Status != match.Live {
		t.Fatalf("every player asked: the rematch is %s", snap.State.Status)
	}
	for p, want := range map[string]int{"ann": 2, "bob": 3, "cid": 0, "dee": 1} {
		if got := snap.State.SeatOf(p); got != want {
			t.Errorf("%s sits at seat %d of the rematch, want %d", p, got, want)
		}
	}
	teams := snap.State.Plan.Teams
	if teams[snap.State.SeatOf("ann")] != teams[snap.State.SeatOf("bob")] || teams[snap.State.SeatOf("cid")] != teams[snap.State.SeatOf("dee")] {
		t.Errorf("the partners were split: %+v", snap.State.Seats)
	}
}
