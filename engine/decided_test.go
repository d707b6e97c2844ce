package engine_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/bot"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/games/magicchess"
	"github.com/arbiter-games/arbiter/domain/games/solwaris"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
	"github.com/arbiter-games/arbiter/projections"
)

// After each command the engine keeps the match Decide worked out (match.DecideNext)
// rather than folding the events it just appended: that state must be the one a fold of
// the stored events gives, for every game and mode, every command and every seed. Each
// match is played by the house bot's policy on a seeded engine; after each command, the
// state the engine keeps is compared with the fold of the store by a second engine.
func TestTheKeptStateIsTheFoldOfTheStream(t *testing.T) {
	games := game.NewRegistry(classic.Rules{}, unfair.Rules{}, sovereignchess.Rules{}, magicchess.Rules{}, solwaris.Rules{})
	modes := []struct {
		name    string
		game    string
		options game.Options
		seats   int
	}{
		{"classic", classic.ID, nil, 2},
		{"classic-clock", classic.ID, game.Options{"clock": "1+0"}, 2},
		{"unfair", unfair.ID, nil, 2},
		{"sovereign-two", sovereignchess.ID, nil, 2},
		{"sovereign-four", sovereignchess.ID, game.Options{"mode": "ROYALE"}, 4},
		{"magic-one-board", magicchess.ID, game.Options{"mode": "ADVANCED"}, 2},
		{"magic-doubles", magicchess.ID, game.Options{"boards": "2"}, 4},
		{"solwaris", solwaris.ID, nil, 2},
	}
	const seeds, commands = 4, 160
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			for seed := range uint64(seeds) {
				p := newPlayed(t, games, m.game, m.options, m.seats, seed)
				for range commands {
					if !p.step() {
						break
					}
				}
			}
		})
	}
}

// played is a match played by the bot's policy on an engine with a clock and randomness
// of its own, checked against the fold of its store.
type played struct {
	t       *testing.T
	ctx     context.Context
	games   *game.Registry
	store   eventstore.Store
	e       *engine.Engine
	reader  *engine.Engine // of the same store: it folds what it reads there
	now     time.Time
	seed    uint64
	id      string
	players []string
	cmds    int
}

func newPlayed(t *testing.T, games *game.Registry, gameID string, options game.Options, seats int, seed uint64) *played {
	t.Helper()
	var key [32]byte
	binary.BigEndian.PutUint64(key[:], seed)
	copy(key[8:], gameID)
	p := &played{t: t, ctx: context.Background(), games: games, store: memstore.New(), now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC), seed: seed}
	p.e = engine.New(engine.Config{Store: p.store, Games: games, Random: rand.NewChaCha8(key), Now: func() time.Time { return p.now }})
	p.reader = engine.New(engine.Config{Store: p.store, Games: games})
	ack, err := p.e.Create(p.ctx, engine.CreateMatch{Game: gameID, Options: options}, engine.Meta{CommandID: "create"})
	if err != nil {
		t.Fatalf("seed %d: creating: %v", seed, err)
	}
	p.id = ack.MatchID
	p.check()
	for i := range seats {
		p.players = append(p.players, fmt.Sprintf("p%d", i))
		seat := i
		p.do(i, match.Join{PlayerID: p.players[i], Name: p.players[i], Seat: &seat})
	}
	return p
}

// do sends a command of the player at seat (-1: the server) a second after the last, and
// reports whether the rules took it.
func (p *played) do(seat int, cmd match.Command) bool {
	p.t.Helper()
	p.now = p.now.Add(time.Second)
	p.cmds++
	meta := engine.Meta{CommandID: fmt.Sprintf("c%d", p.cmds), Actor: "system"}
	if seat >= 0 {
		meta.Actor = "player:" + p.players[seat]
	}
	_, err := p.e.Handle(p.ctx, p.id, cmd, meta)
	if err != nil && game.CodeOf(err) == "" {
		p.t.Fatalf("seed %d: %T: %v", p.seed, cmd, err)
	}
	if err == nil {
		p.check()
	}
	return err == nil
}

// step plays the next command: the first of the bot's choices for a seat to act that the
// rules take, or else the match's next deadline expired. It returns false once the match
// is over or stuck.
func (p *played) step() bool {
	snap := p.snapshot(p.e)
	if snap.State.Status == match.Finished {
		return false
	}
	status := snap.State.GameStatus(snap.Rules)
	for _, seat := range status.ToAct {
		v := bot.View{Seat: seat, Phase: status.Phase, Seed: [2]uint64{p.seed, uint64(snap.Version)}}
		if gv := projections.ViewerOf(snap.State, p.players[seat]).View(snap.Rules, snap.State.GameState); gv != nil {
			for _, play := range gv.Plays() {
				if play.Seat == seat {
					v.Plays = append(v.Plays, play)
				}
			}
		}
		choices := bot.Decide(v)
		for _, do := range choices[:min(len(choices), 8)] {
			s := seat
			if p.do(seat, match.Act{PlayerID: p.players[seat], Seat: &s, Do: do}) {
				return true
			}
		}
	}
	deadline := snap.State.Deadline(snap.Rules)
	if deadline.IsZero() {
		return false
	}
	if deadline.After(p.now) {
		p.now = deadline.Add(-time.Second) // do moves it on to the deadline
	}
	return p.do(-1, match.Timeout{Deadline: deadline})
}

func (p *played) snapshot(e *engine.Engine) engine.Snapshot {
	p.t.Helper()
	snap, err := e.Match(p.ctx, p.id)
	if err != nil {
		p.t.Fatalf("seed %d: reading the match: %v", p.seed, err)
	}
	return snap
}

// check compares the match the engine keeps with the fold of its store by the reader, an
// engine that sends no command: it folds each stored event as it reads it.
func (p *played) check() {
	p.t.Helper()
	kept := p.snapshot(p.e)
	folded := p.snapshot(p.reader)
	if kept.Version != folded.Version || kept.Position != folded.Position {
		p.t.Fatalf("seed %d, command %d: the engine keeps version %d at %d, the store's fold %d at %d",
			p.seed, p.cmds, kept.Version, kept.Position, folded.Version, folded.Position)
	}
	if !reflect.DeepEqual(kept.State, folded.State) {
		k, f := reflect.ValueOf(kept.State), reflect.ValueOf(folded.State)
		for i := range k.NumField() {
			if !reflect.DeepEqual(k.Field(i).Interface(), f.Field(i).Interface()) {
				p.t.Errorf("%s: kept %+v, folded %+v", k.Type().Field(i).Name, k.Field(i).Interface(), f.Field(i).Interface())
			}
		}
		p.t.Fatalf("seed %d, command %d (version %d): the state the engine keeps is not the fold of its stream", p.seed, p.cmds, kept.Version)
	}
}
