package bot

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
	"github.com/arbiter-games/arbiter/matchstream"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// openMatch is a friendly chess match on e, created and joined at seat 0 by "ann".
func openMatch(t *testing.T, ctx context.Context, e *engine.Engine, rated bool) string {
	t.Helper()
	ack, err := e.Create(ctx, engine.CreateMatch{Game: classic.ID, Rated: rated, By: "ann"}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	zero := 0
	if _, err := e.Handle(ctx, ack.MatchID, match.Join{PlayerID: "ann", Name: "Ann", Seat: &zero}, engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	return ack.MatchID
}

// Two nodes' runners both see every turn of the bot: each turn is played once, with the
// command ID of the version it was decided on.
func TestRunnersOfTwoNodesPlayEachTurnOnce(t *testing.T) {
	store := memstore.New()
	reg := game.NewRegistry(classic.Rules{})
	nodes := []*engine.Engine{engine.New(engine.Config{Store: store, Games: reg}), engine.New(engine.Config{Store: store, Games: reg})}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	id := openMatch(t, ctx, nodes[0], false)
	if _, err := Add(ctx, nodes[1], id, "ann", nil, engine.Meta{CommandID: "add-bot"}); err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	var runners []*Runner
	done := make(chan struct{}, len(nodes))
	for _, n := range nodes {
		r := NewRunner(n, quiet)
		runners = append(runners, r)
		go func() { _ = r.Run(runCtx); done <- struct{}{} }()
	}
	// track is the read side of both nodes, told of the match as it is now.
	track := func() engine.Snapshot {
		t.Helper()
		var snap engine.Snapshot
		for i, n := range nodes {
			s, err := n.Match(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			runners[i].Track(id, s.Rules, s.State)
			snap = s
		}
		return snap
	}
	humanMoves := 0
	for humanMoves < 12 {
		snap := track()
		if snap.State.Status == match.Finished {
			break
		}
		if turn := snap.State.GameStatus(snap.Rules).ToAct; turn[0] != 0 {
			time.Sleep(time.Millisecond) // the bot's turn: its runners are at it
			if ctx.Err() != nil {
				t.Fatal("the bot never answered")
			}
			continue
		}
		legal := snap.Rules.(game.Boarded).Board(snap.State.GameState).LegalMoves
		mv := legal[(humanMoves*7)%len(legal)]
		if _, err := nodes[humanMoves%2].Handle(ctx, id, match.Act{PlayerID: "ann", Do: game.Move{Notation: mv}}, engine.Meta{}); err != nil {
			t.Fatalf("Ann's %s: %v", mv, err)
		}
		humanMoves++
	}
	for range 50 { // a last look, as the read side would: nothing more to play
		track()
	}
	stop()
	for range nodes {
		<-done
	}

	evs, err := store.ReadStream(ctx, matchstream.Name(id), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	botMoves, ids := 0, map[string]bool{}
	var last eventstore.Event
	for _, ev := range evs {
		if ev.Type != "MovePlayed" {
			continue
		}
		if ev.Actor == "player:"+ID {
			botMoves++
			if ids[ev.CommandID] || !strings.HasPrefix(ev.CommandID, "bot-"+id+"-") {
				t.Fatalf("the bot's move at version %d has the command ID %q", ev.Version, ev.CommandID)
			}
			ids[ev.CommandID] = true
		}
		last = ev
	}
	want := humanMoves
	if last.Actor != "player:"+ID {
		want-- // the game ended on Ann's move
	}
	if botMoves != want {
		t.Fatalf("Ann played %d moves, the bot %d: want %d", humanMoves, botMoves, want)
	}
}

func TestAddRefusesAndChangesNothing(t *testing.T) {
	e := engine.New(engine.Config{Store: memstore.New(), Games: game.NewRegistry(classic.Rules{}, sovereignchess.Rules{})})
	ctx := context.Background()
	rated := openMatch(t, ctx, e, true)
	friendly := openMatch(t, ctx, e, false)
	at := func(n int) *int { return &n }
	one := at(1)
	for _, tc := range []struct {
		name, match, by string
		seat            *int
		code            game.Code
		reason          string
	}{
		{"rated", rated, "ann", nil, game.BadInput, "bot games never count for ratings"},
		{"a stranger", friendly, "eve", nil, game.Forbidden, "only a player seated"},
		{"no match", "nope", "ann", nil, game.NotFound, ""},
		{"a seat taken", friendly, "ann", at(0), game.Conflict, "seat 0 is taken"},
		{"no such seat", friendly, "ann", at(5), game.BadInput, "seat 5 does not exist"},
	} {
		before, _ := e.Store().StreamVersion(ctx, matchstream.Name(tc.match))
		_, err := Add(ctx, e, tc.match, tc.by, tc.seat, engine.Meta{})
		after, _ := e.Store().StreamVersion(ctx, matchstream.Name(tc.match))
		if game.CodeOf(err) != tc.code || !strings.Contains(err.Error(), tc.reason) || after != before {
			t.Errorf("%s: %v (version %d, then %d)", tc.name, err, before, after)
		}
	}
	// Seated, then a retry (the first outcome), then again under another ID, then a second bot.
	first, err := Add(ctx, e, friendly, "ann", one, engine.Meta{CommandID: "b1"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := Add(ctx, e, friendly, "ann", one, engine.Meta{CommandID: "b1"})
	if err != nil || !again.Duplicate || again.LastVersion != first.LastVersion {
		t.Fatalf("a retry: %+v, %v (first %+v)", again, err, first)
	}
	if _, err := Add(ctx, e, friendly, "ann", one, engine.Meta{CommandID: "b2"}); game.CodeOf(err) != game.Conflict {
		t.Fatalf("the bot seated twice at one seat: %v", err)
	}
	snap, _ := e.Match(ctx, friendly)
	if snap.State.Status != match.Live || !sameSeat(snap.State.Seats[1], match.Seat{PlayerID: ID, Name: Name, Bot: true}) || snap.Version != first.LastVersion {
		t.Fatalf("after the bot sat: %+v", snap.State)
	}

	_, err = Add(ctx, e, friendly, "ann", nil, engine.Meta{})
	if game.CodeOf(err) != game.Conflict || !strings.Contains(err.Error(), "has started") {
		t.Fatalf("a bot in a started match: %v", err)
	}

	// Royale: the creator seats the bot without sitting, then a second bot at the first
	// free seat; the same seat twice is refused.
	ack, err := e.Create(ctx, engine.CreateMatch{Game: sovereignchess.ID, Options: game.Options{"mode": sovereignchess.Royale}, By: "cat"}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Add(ctx, e, ack.MatchID, "cat", at(2), engine.Meta{}); err != nil {
		t.Fatalf("the creator seats the bot: %v", err)
	}
	if _, err := Add(ctx, e, ack.MatchID, "cat", at(2), engine.Meta{}); game.CodeOf(err) != game.Conflict || !strings.Contains(err.Error(), "seat 2 is taken") {
		t.Fatalf("the bot twice at seat 2: %v", err)
	}
	second, err := Add(ctx, e, ack.MatchID, "cat", nil, engine.Meta{})
	if err != nil {
		t.Fatalf("a second bot: %v", err)
	}
	if seat, err := SeatTaken(ctx, e, second); seat != 0 || err != nil {
		t.Fatalf("the second bot sits at seat %d (%v), want 0", seat, err)
	}
}

// sameSeat compares two seats but for their entropy, which the server draws for the bot
// (it must draw some: ServerEntropy).
func sameSeat(a, b match.Seat) bool {
	return a.PlayerID == b.PlayerID && a.Name == b.Name && a.Bot == b.Bot && len(a.Entropy) > 0 && a.ServerEntropy
}
