package projections

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/magicchess"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
)

// An advanced match of Ajedrez Mágico, played through the engine until it has met
// reaction windows of each kind, is fed to the model one event at a time, and rebuilt
// in pages that cut its commands anywhere. A card laid or a move that opens a window is
// one command of two events (the action, then ReactionWindowOpened), as is an answer and
// the held card's resolution: between them the game's state names the window's phase but
// shows no window open. A reader must never see it: after every event the model shows the
// match as of the last event of a command, settled, its phase and its window agreeing.
func TestReadersSeeAMatchOnlyBetweenCommands(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	reg := game.NewRegistry(magicchess.Rules{})
	// A fixed source of the engine's seeds: the same deal, so the same match, every run.
	eng := engine.New(engine.Config{Store: store, Games: reg, Now: func() time.Time { return now }, Random: rand.NewChaCha8([32]byte{'f', 'l', 'a', 'k', 'e'})})
	ack, err := eng.Create(ctx, engine.CreateMatch{Game: magicchess.ID, Options: game.Options{magicchess.OptionMode: magicchess.Advanced}}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	id, players := ack.MatchID, []string{"ann", "bob"}
	for seat, p := range players {
		if _, err := eng.Handle(ctx, id, match.Join{PlayerID: p, Name: p, Seat: &seat}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	opened := map[string]int{} // windows opened, by kind
	reacted := 0
	for turn := 0; opened[magicchess.R1] == 0 || opened[magicchess.R2] == 0 || reacted == 0; turn++ {
		if turn == 400 {
			t.Fatalf("four hundred commands without a window of each kind and a reaction: %v, %d reactions", opened, reacted)
		}
		snap, err := eng.Match(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if snap.State.Status != match.Live {
			t.Fatalf("the match ended (%+v) before a window of each kind and a reaction: %v, %d reactions", snap.State.Result, opened, reacted)
		}
		now = now.Add(time.Second)
		status := snap.State.GameStatus(snap.Rules)
		if len(status.ToAct) == 0 { // a window's reading time: the engine's timer ends it
			now = status.Deadline
			if _, err := eng.Handle(ctx, id, match.Timeout{Deadline: status.Deadline}, engine.Meta{}); err != nil {
				t.Fatalf("turn %d: the timeout of %s: %v", turn, status.Phase, err)
			}
			continue
		}
		seat := status.ToAct[0]
		plays := ViewerOf(snap.State, players[seat]).View(snap.Rules, snap.State.GameState).Plays()
		do := choose(plays, turn)
		if do == nil {
			t.Fatalf("turn %d: seat %d is to act in %s with nothing to do", turn, seat, status.Phase)
		}
		if _, ok := do.(magicchess.React); ok {
			reacted++
		}
		res, err := eng.Handle(ctx, id, match.Act{PlayerID: players[seat], Do: do}, engine.Meta{})
		if err != nil {
			t.Fatalf("turn %d: seat %d's %+v: %v", turn, seat, do, err)
		}
		evs, err := store.ReadStream(ctx, "match-"+id, res.FirstVersion-1, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			if ev.Type == "ReactionWindowOpened" {
				e, err := magicchess.Rules{}.Events().Decode(ev.Type, ev.SchemaVersion, ev.Payload)
				if err != nil {
					t.Fatal(err)
				}
				opened[e.(magicchess.ReactionWindowOpened).Window]++
			}
		}
	}

	all, err := store.ReadAll(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	fed, between := NewMatches(reg), 0
	for _, ev := range all {
		if err := fed.Apply(ev); err != nil {
			t.Fatal(err)
		}
		v, err := fed.Get(ctx, id)
		if err != nil || v == nil {
			t.Fatalf("after version %d the match is missing", ev.Version)
		}
		if v.Version != ev.Version {
			between++ // this event is not its command's last: the view is the one before
		}
		agrees(t, v, ev.Version)
	}
	if between == 0 {
		t.Fatal("no command of more than one event whose state in between is unsettled: the test proves nothing")
	}
	// Rebuilt in pages that end anywhere (in the middle of a command too), the same.
	for _, size := range []int{1, 2, 3, 5, 4096} {
		paged := NewMatches(reg)
		for evs := all; len(evs) > 0; {
			n := min(size, len(evs))
			if _, err := paged.applyPage(evs[:n]); err != nil {
				t.Fatal(err)
			}
			evs = evs[n:]
			if v, err := paged.Get(ctx, id); err != nil {
				t.Fatal(err)
			} else if v != nil {
				agrees(t, v, all[len(all)-len(evs)-1].Version)
			}
		}
		if paged.Digest() != fed.Digest() {
			t.Errorf("in pages of %d: %s; one by one: %s", size, paged.Digest(), fed.Digest())
		}
	}
}

// choose picks a play: a reaction whenever one may be laid, else the pass; a card laid
// every third turn; else a capture or check (scored), else the first move.
func choose(plays []game.Play, turn int) any {
	var best *game.Play
	for i, p := range plays {
		switch {
		case p.Kind == game.KindChoice:
			return p.Do // the planning's "ready"
		case isReaction(p):
			return p.Do
		case p.Kind == game.KindCard && turn%3 == 0:
			return p.Do
		case best == nil || p.Score > best.Score && p.Kind == game.KindMove:
			best = &plays[i]
		}
	}
	if best == nil {
		return nil
	}
	return best.Do
}

func isReaction(p game.Play) bool {
	_, ok := p.Do.(magicchess.React)
	return ok
}

// agrees fails t unless v, the model's view after the event of version at, is settled and
// its phase (what the API answers as a match's phase) names the window its state shows.
func agrees(t *testing.T, v *MatchView, at int64) {
	t.Helper()
	if !v.State.Settled(v.Rules) {
		t.Fatalf("after version %d a reader sees version %d, in the middle of a command", at, v.Version)
	}
	if v.State.Status != match.Live {
		return
	}
	phase := v.State.GameStatus(v.Rules).Phase
	shown, _ := ViewerOf(v.State, "").View(v.Rules, v.State.GameState).(*magicchess.View)
	if shown == nil {
		return // not set up yet
	}
	w := shown.Reaction
	if strings.HasPrefix(phase, "reaction-") != (w != nil) || w != nil && phase != "reaction-"+w.Window {
		t.Fatalf("after version %d a reader sees version %d in the phase %s with the window %+v", at, v.Version, phase, w)
	}
}
