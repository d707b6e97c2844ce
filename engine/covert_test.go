package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire/grimoiretest"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/replay"
)

// trapRules is Solwaris with the Guerrier's Leap ("bond") laying a trap instead: no class
// of part 1 lays one.
func trapRules(t *testing.T) solwaris.Rules {
	t.Helper()
	return solwaris.Rules{Catalog: grimoiretest.Spell(t, "bond", map[string]any{"effects": []any{map[string]any{"kind": "trap", "to": "cell", "duration": 8, "zone": map[string]any{"kind": "cross", "size": 1},
		"effects": []any{map[string]any{"kind": "damage", "to": "all", "min": 20, "max": 20}}}}})}
}

// A trap laid goes to its team's hidden stream, never to the match's: the match's
// version does not move, and a node that folds the match cold (another engine, replay)
// folds it from both streams in store order and finds the trap. When two nodes race, a
// covert command decided on a version of the match's stream that another node has since
// passed is void: node A, whose cache stands before ann's end of turn appended by node B,
// lays ann's trap on its stale state; the hidden stream takes it (the store checks that
// stream's version alone), but A reads back that the match's stream moved first, finds
// its events void, decides again, and refuses: it is no longer ann's turn. Every fold,
// A's, a cold engine's and verify's, agrees that no trap lies there.
func TestCovertEventsKeepToTheirTeamsStream(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	store := openStore(t)
	rules := trapRules(t)
	reg := game.NewRegistry(rules)
	clock := func() time.Time { return time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC) }
	nodeA := engine.New(engine.Config{Store: store, Games: reg, Now: clock})
	nodeB := engine.New(engine.Config{Store: store, Games: reg, Now: clock})
	ann, bob := register(t, nodeA, "Ann"), register(t, nodeA, "Bob")
	ack, err := nodeA.Create(ctx, engine.CreateMatch{Game: solwaris.ID, By: ann.ID, Options: game.Options{solwaris.MapOption: "caveau"}}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	id := ack.MatchID
	players := []engine.Player{ann, bob}
	for _, p := range players {
		if _, err := join(nodeA, id, p); err != nil {
			t.Fatal(err)
		}
	}
	act := func(e *engine.Engine, seat int, do any) (engine.Ack, error) {
		return e.Handle(ctx, id, match.Act{PlayerID: players[seat].ID, Do: do}, engine.Meta{Actor: "player:" + players[seat].ID})
	}
	must := func(e *engine.Engine, seat int, do any) {
		t.Helper()
		if _, err := act(e, seat, do); err != nil {
			t.Fatalf("seat %d %T: %v", seat, do, err)
		}
	}
	view := func(e *engine.Engine, seat int) (*solwaris.View, engine.Snapshot) {
		t.Helper()
		snap, err := e.Match(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := rules.View(snap.State.GameState, game.Viewpoint{Seats: []int{seat}, Teams: []int{seat}}).(*solwaris.View)
		return v, snap
	}
	must(nodeA, 0, solwaris.ChooseGrimoire{Class: "guerrier"})
	must(nodeA, 1, solwaris.ChooseGrimoire{Class: "arcaniste"})
	for seat := range players {
		v, _ := view(nodeA, seat)
		must(nodeA, seat, solwaris.PlaceFighter{Cell: v.PlacementCells[0]})
	}
	for v, snap := view(nodeA, 0); v.Phase == solwaris.PhaseAuction; v, snap = view(nodeA, 0) {
		seat := snap.State.GameStatus(snap.Rules).ToAct[0]
		if seat == 0 && v.Auction.Price == 0 {
			must(nodeA, 0, solwaris.Bid{})
		} else {
			must(nodeA, seat, solwaris.PassBid{})
		}
	}
	v, snap := view(nodeA, 0)
	if v.Phase != solwaris.PhasePlay || v.Acting != 0 {
		t.Fatalf("after the auction: phase %s, fighter %d to act", v.Phase, v.Acting)
	}
	var cells []string
	for _, sp := range v.Targets {
		if sp.Spell == "bond" {
			cells = sp.Cells
		}
	}
	if len(cells) < 2 {
		t.Fatalf("ann may lay her trap on %v", cells)
	}
	hidden := matchstream.Hidden(id, 0)
	count := func(stream string) int64 {
		t.Helper()
		n, err := store.StreamVersion(ctx, stream)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	traps := func(st match.State) int { return len(st.GameState.(solwaris.State).Traps) }

	// The race: node B appends ann's end of turn to the match's stream; node A, whose
	// cache stands before it, lays ann's trap on its stale state.
	if _, err := nodeA.Match(ctx, id); err != nil { // A's cache is warm
		t.Fatal(err)
	}
	if _, err := act(nodeB, 0, solwaris.EndTurn{}); err != nil {
		t.Fatal(err)
	}
	_, err = act(nodeA, 0, solwaris.CastSpell{Spell: "bond", Cell: cells[0]})
	if game.CodeOf(err) != game.NotYourTurn {
		t.Fatalf("node A laid ann's trap after her turn ended: %v", err)
	}
	if n := count(hidden); n != 2 {
		t.Fatalf("the hidden stream holds %d events; want the void race's 2", n)
	}
	a, _ := nodeA.Match(ctx, id)
	c, err := engine.New(engine.Config{Store: store, Games: reg, Now: clock}).Match(ctx, id)
	if err != nil || traps(a.State) != 0 || traps(c.State) != 0 {
		t.Fatalf("after the race node A folds %d traps, a cold engine %d (%v); want none", traps(a.State), traps(c.State), err)
	}
	must(nodeB, 1, solwaris.EndTurn{})

	// No race: in ann's next turn the trap goes to team 0's hidden stream; the match's
	// version stays.
	v, snap = view(nodeA, 0)
	for _, sp := range v.Targets {
		if sp.Spell == "bond" {
			cells = sp.Cells
		}
	}
	if v.Acting != 0 || len(cells) == 0 {
		t.Fatalf("ann's next turn: fighter %d acts; ann may lay her trap on %v", v.Acting, cells)
	}
	if _, err := act(nodeA, 0, solwaris.CastSpell{Spell: "bond", Cell: cells[0]}); err != nil {
		t.Fatal(err)
	}
	after, _ := nodeA.Match(ctx, id)
	if after.Version != snap.Version || count(matchstream.Name(id)) != snap.Version || count(hidden) != 4 {
		t.Fatalf("the trap moved the match from version %d to %d (stored %d); its team's hidden stream holds %d events",
			snap.Version, after.Version, count(matchstream.Name(id)), count(hidden))
	}
	evs, err := store.ReadStream(ctx, hidden, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if team, ok := ev.Visibility.Team(); !ok || team != 0 {
			t.Fatalf("%s in the hidden stream is visible to %s", ev.Type, ev.Visibility)
		}
	}
	cold := engine.New(engine.Config{Store: store, Games: reg, Now: clock})
	if got, err := cold.Match(ctx, id); err != nil || traps(got.State) != 1 || traps(after.State) != 1 {
		t.Fatalf("a cold fold finds %d traps (%v), node A %d; want 1", traps(got.State), err, traps(after.State))
	}
	report, err := replay.Verify(ctx, store, reg, id)
	if err != nil || !report.OK() {
		t.Fatalf("verify: %v %v", err, report.Err())
	}
	snapAt, err := replay.State(ctx, store, reg, id, 0)
	if err != nil || traps(snapAt.State) != 1 {
		t.Fatalf("replay folds %d traps: %v", traps(snapAt.State), err)
	}
	// The covert events' IDs, the void race's too, begin with the time of the match's
	// event they were decided on.
	checkIDBases(t, store, id, 0, 1)
}
