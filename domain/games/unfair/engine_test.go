package unfair_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/replay"
)

// A whole match through the engine, cards and all, to a result; replay.Verify then
// checks its stream: the chain, the seed's decks and every event against the rules.
func TestMatchThroughTheEngine(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	games := game.NewRegistry(unfair.Rules{})
	eng := engine.New(engine.Config{Store: store, Games: games, Random: rand.NewChaCha8([32]byte{7})})
	ack, players := seated(t, eng, nil)
	rng := rand.New(rand.NewPCG(3, 4))
	r := unfair.Rules{}
	played := 0
	for ply := 0; ; ply++ {
		snap, err := eng.Match(ctx, ack.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		if snap.State.Status == match.Finished {
			t.Logf("%s after %d actions, %d cards: %v", snap.State.Result.Reason, ply, played, r.MoveList(snap.State.GameState))
			break
		}
		seat := r.Status(snap.State.GameState).ToAct[0]
		var cmd match.Command = match.Act{PlayerID: players[seat], Do: choose(rng, snap.State.GameState, seat)}
		if ply == 1000 {
			cmd = match.Resign{PlayerID: players[seat]}
		}
		if a, ok := cmd.(match.Act); ok {
			if _, isCard := a.Do.(cards.PlayCard); isCard {
				played++
			}
		}
		if _, err := eng.Handle(ctx, ack.MatchID, cmd, engine.Meta{}); err != nil {
			t.Fatalf("action %d %+v: %v", ply, cmd, err)
		}
	}
	if played == 0 {
		t.Error("no card was played")
	}
	report, err := replay.Verify(ctx, store, games, ack.MatchID)
	if err != nil || !report.OK() {
		t.Fatalf("verify: %v %v", err, report.Err())
	}
	if report.Result == nil || len(report.Result.Winners) != 1 || report.Result.Reason != "checkmate" {
		t.Errorf("result %+v", report.Result)
	}
	// A forger who re-hashes the chain after changing a drawn card or a card's target is
	// still caught by the rules.
	evs, err := store.ReadStream(ctx, matchstream.Name(ack.MatchID), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, forgery := range []struct {
		typ   string
		nth   int
		field string
		value any
	}{
		{"CardDrawn", 9, "card", "queen-return"}, // the first draw after the deal
		{"MovePlayed", 3, "fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
		{"CardPlayed", 1, "slot", 3},
	} {
		forged := forge(t, evs, forgery.typ, forgery.nth, forgery.field, forgery.value)
		report := replay.VerifyEvents(games, matchstream.Name(ack.MatchID), forged)
		if report.OK() || report.Problems[0].Check != replay.CheckRules {
			t.Errorf("%s with another %s: %+v", forgery.typ, forgery.field, report.Problems)
		}
	}
	// A draw stored for everyone to see, or a deal stored for a seat, is a leak the
	// verifier names, even re-hashed.
	for _, leak := range []struct {
		typ   string
		nth   int // counted from 1, as in forge
		vis   visibility.Visibility
		other bool // stored visible to the other seat instead of vis
		check string
	}{
		{"CardDrawn", 9, visibility.Public, false, replay.CheckSight}, // the first draw after the deal
		{"CardDrawn", 9, visibility.Public, true, replay.CheckSight},
		{"CardDrawn", 1, visibility.Public, false, replay.CheckSetup}, // the deal is re-dealt from the seed
		{"DeckShuffled", 1, visibility.Seat(0), false, replay.CheckSetup},
	} {
		forged := slices.Clone(evs)
		i, n := 0, 0
		for i = range forged {
			if forged[i].Type == leak.typ {
				if n++; n == leak.nth {
					break
				}
			}
		}
		forged[i].Visibility = leak.vis
		if leak.other {
			seat, _ := evs[i].Visibility.Seat()
			forged[i].Visibility = visibility.Seat(1 - seat)
		}
		for j := i; j < len(forged); j++ {
			forged[j].PrevHash = forged[j-1].Hash
			forged[j].Hash = eventstore.Hash(forged[j].PrevHash, forged[j])
		}
		report := replay.VerifyEvents(games, matchstream.Name(ack.MatchID), forged)
		if report.OK() || report.Problems[0].Check != leak.check {
			t.Errorf("%s number %d stored visible to %q: %+v", leak.typ, leak.nth, forged[i].Visibility, report.Problems)
		}
	}
}

// seated creates a match with opts and seats white and black at it.
func seated(t *testing.T, eng *engine.Engine, opts game.Options) (engine.Ack, []string) {
	t.Helper()
	ctx := context.Background()
	ack, err := eng.Create(ctx, engine.CreateMatch{Game: unfair.ID, Options: opts}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	players := []string{"white", "black"}
	for _, p := range players {
		if _, err := eng.Handle(ctx, ack.MatchID, match.Join{PlayerID: p, Name: p}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	return ack, players
}

// forge returns a copy of the stream where the nth event of type typ has field set to
// value, its chain hashed again from there.
func forge(t *testing.T, evs []eventstore.Event, typ string, nth int, field string, value any) []eventstore.Event {
	t.Helper()
	out := slices.Clone(evs)
	for i, ev := range out {
		if ev.Type != typ {
			continue
		}
		if nth--; nth > 0 {
			continue
		}
		var fields map[string]any
		if err := json.Unmarshal(ev.Payload, &fields); err != nil {
			t.Fatal(err)
		}
		fields[field] = value
		payload, err := json.Marshal(fields)
		if err != nil {
			t.Fatal(err)
		}
		out[i].Payload = payload
		for j := i; j < len(out); j++ {
			out[j].PrevHash = out[j-1].Hash
			out[j].Hash = eventstore.Hash(out[j].PrevHash, out[j])
		}
		return out
	}
	t.Fatalf("no %s number %d", typ, nth)
	return nil
}

// choose is a player that mates when a move mates, and otherwise plays a random card
// (a third of the time, when one is playable) or a random move.
func choose(rng *rand.Rand, st game.State, seat int) any {
	r := unfair.Rules{}
	moves := r.Board(st).LegalMoves
	for _, m := range moves {
		evs, err := r.Decide(st, game.Action{Seat: seat, Do: game.Move{Notation: m}})
		if err != nil {
			panic(err)
		}
		after := st
		for _, e := range evs {
			after = r.Evolve(after, e.Event)
		}
		if s := r.Status(after); s.Over && len(s.Outcome.Winners) == 1 {
			return game.Move{Notation: m}
		}
	}
	var plays []cards.PlayCard
	for _, hc := range r.Hand(st, seat) {
		for _, tg := range hc.Targets {
			plays = append(plays, cards.PlayCard{Slot: hc.Slot, Targets: tg})
		}
	}
	if len(plays) > 0 && (len(moves) == 0 || rng.IntN(3) == 0) {
		return plays[rng.IntN(len(plays))]
	}
	return game.Move{Notation: moves[rng.IntN(len(moves))]}
}

// A match on the clock through the engine, its time read from a fake clock: the players
// act, then White stops; the engine's scheduler submits the timeout at the deadline that
// Status announces, White's flag falls and Black wins on time. replay.Verify accepts the
// stream, every recorded time checked by the audit.
func TestMatchOnTheClockThroughTheEngine(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var now atomic.Int64
	noon := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	now.Store(noon.UnixNano())
	store := memstore.New()
	games := game.NewRegistry(unfair.Rules{})
	eng := engine.New(engine.Config{Store: store, Games: games, Random: rand.NewChaCha8([32]byte{9}),
		Now: func() time.Time { return time.Unix(0, now.Load()) }})
	ack, players := seated(t, eng, game.Options{"clock": "1+2"})
	rng := rand.New(rand.NewPCG(5, 6))
	status := func() (match.State, game.Status) {
		snap, err := eng.Match(ctx, ack.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		return snap.State, snap.State.GameStatus(unfair.Rules{})
	}
	// Twelve actions, three seconds apart, cards among them.
	for range 12 {
		now.Add(int64(3 * time.Second))
		ms, st := status()
		seat := st.ToAct[0]
		do := choose(rng, ms.GameState, seat)
		if _, err := eng.Handle(ctx, ack.MatchID, match.Act{PlayerID: players[seat], Do: do}, engine.Meta{}); err != nil {
			t.Fatalf("%+v: %v", do, err)
		}
	}
	ms, st := status()
	if ms.Status != match.Live || st.Deadline.IsZero() {
		t.Fatalf("after twelve actions: %+v", st)
	}
	loser := st.ToAct[0]
	now.Store(st.Deadline.Add(time.Millisecond).UnixNano())
	timers := eng.NewTimers()
	timers.Track(ack.MatchID, st.Deadline)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { _ = timers.Run(runCtx); close(done) }()
	for ms.Status != match.Finished && ctx.Err() == nil {
		time.Sleep(5 * time.Millisecond)
		ms, _ = status()
	}
	stop()
	<-done
	if ms.Result == nil || ms.Result.Reason != "timeout" || !slices.Equal(ms.Result.Winners, []int{1 - loser}) {
		t.Fatalf("result %+v, want seat %d to lose on time", ms.Result, loser)
	}
	report, err := replay.Verify(ctx, store, games, ack.MatchID)
	if err != nil || !report.OK() {
		t.Fatalf("verify: %v %v", err, report.Err())
	}
	evs, err := store.ReadStream(ctx, matchstream.Name(ack.MatchID), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	stamped, cards := 0, 0
	for _, ev := range evs {
		switch ev.Type {
		case "MovePlayed", "CardPlayed":
			if strings.Contains(string(ev.Payload), `"at":`) {
				stamped++
			}
			if ev.Type == "CardPlayed" {
				cards++
			}
		case "FlagFell":
			if ev.Actor != "system" {
				t.Errorf("the flag's actor is %q", ev.Actor)
			}
		}
	}
	if stamped < 12 || cards == 0 {
		t.Errorf("%d actions carry their time, %d of them cards", stamped, cards)
	}
	// A forger who gives a player more time, re-hashing the chain, is caught by the audit.
	forged := forge(t, evs, "MovePlayed", 2, "leftMs", 99_000)
	if report := replay.VerifyEvents(games, matchstream.Name(ack.MatchID), forged); report.OK() || report.Problems[0].Check != replay.CheckRules {
		t.Errorf("more time left: %+v", report.Problems)
	}
}
