package corpus

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/arbiter-games/arbiter/bot"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
	"github.com/arbiter-games/arbiter/projections"
)

// epoch is when every corpus match starts on the generator's clock.
var epoch = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// step is how far the clock moves before each command: a second, well within every
// game's turn and clock, so that no deadline passes unless a scenario lets it.
const step = time.Second

// Table is one match being played for the corpus: an engine on a store in memory, a
// clock of its own and a random source from the scenario's seed, so that the same seed
// plays the same match on every run.
type Table struct {
	ctx     context.Context
	e       *engine.Engine
	now     time.Time
	seed    uint64
	Players []engine.Player // by seat
	ID      string
	cmds    int
}

// newTable opens the match of a scenario and seats its players, seat i for player i.
func newTable(ctx context.Context, games *game.Registry, sc Scenario, seed uint64) (*Table, error) {
	var key [32]byte
	binary.BigEndian.PutUint64(key[:], seed)
	copy(key[8:], sc.Name)
	t := &Table{ctx: ctx, now: epoch, seed: seed}
	t.e = engine.New(engine.Config{
		Store: memstore.New(), Games: games, Random: rand.NewChaCha8(key),
		Now: func() time.Time { return t.now },
	})
	for i := range sc.Seats {
		p, _, err := t.e.RegisterPlayer(ctx, fmt.Sprintf("Player %d", i+1), fmt.Sprintf("corpus-register-%s-%d-%016x", sc.Name, i, seed))
		if err != nil {
			return nil, err
		}
		t.Players = append(t.Players, p)
	}
	ack, err := t.e.Create(ctx, engine.CreateMatch{Game: sc.Game, Options: sc.Options, Rated: sc.Rated, By: t.Players[0].ID}, t.meta(0))
	if err != nil {
		return nil, fmt.Errorf("creating the match: %w", err)
	}
	t.ID = ack.MatchID
	for i, p := range t.Players {
		seat := i
		join := match.Join{PlayerID: p.ID, Name: p.Name, Seat: &seat}
		if i == 0 { // the first player brings its own entropy; the engine draws the others'
			join.Entropy = make([]byte, 32)
			binary.BigEndian.PutUint64(join.Entropy, seed^0x5eed)
			copy(join.Entropy[8:], "corpus entropy of seat 0")
		}
		if err := t.do(i, join); err != nil {
			return nil, fmt.Errorf("seating player %d: %w", i+1, err)
		}
	}
	return t, nil
}

// meta names the next command, sent by the player at seat (-1: the server).
func (t *Table) meta(seat int) engine.Meta {
	t.cmds++
	m := engine.Meta{CommandID: fmt.Sprintf("corpus-%d", t.cmds), Actor: "system"}
	if seat >= 0 {
		m.Actor = "player:" + t.Players[seat].ID
	}
	return m
}

// do moves the clock on a step and sends a command of the player at seat.
func (t *Table) do(seat int, cmd match.Command) error {
	t.now = t.now.Add(step)
	_, err := t.e.Handle(t.ctx, t.ID, cmd, t.meta(seat))
	return err
}

// Act plays an action of the player at seat.
func (t *Table) Act(seat int, do any) error {
	s := seat
	return t.do(seat, match.Act{PlayerID: t.Players[seat].ID, Seat: &s, Do: do})
}

// Moves plays moves in turn, seat 0 first, in a two-seat game.
func (t *Table) Moves(moves ...string) error {
	for i, m := range moves {
		if err := t.Act(i%2, game.Move{Notation: m}); err != nil {
			return fmt.Errorf("move %d %s: %w", i+1, m, err)
		}
	}
	return nil
}

// Resign resigns the player at seat.
func (t *Table) Resign(seat int) error {
	return t.do(seat, match.Resign{PlayerID: t.Players[seat].ID})
}

// OfferDraw and AcceptDraw are the players' draw requests.
func (t *Table) OfferDraw(seat int) error {
	return t.do(seat, match.OfferDraw{PlayerID: t.Players[seat].ID})
}

// AcceptDraw accepts the pending offer.
func (t *Table) AcceptDraw(seat int) error {
	return t.do(seat, match.AcceptDraw{PlayerID: t.Players[seat].ID})
}

// Leave records that the player at seat left the match (its last connection closed).
func (t *Table) Leave(seat int) error {
	return t.do(-1, match.Leave{PlayerID: t.Players[seat].ID})
}

// Snapshot is the match now.
func (t *Table) Snapshot() (engine.Snapshot, error) { return t.e.Match(t.ctx, t.ID) }

// Over reports whether the match has ended.
func (t *Table) Over() (bool, error) {
	snap, err := t.Snapshot()
	return err == nil && snap.State.Status == match.Finished, err
}

// Expire moves the clock to the match's next deadline (a flag, a turn's time, a
// forfeit) and submits the timeout, as the engine's timers would.
func (t *Table) Expire() error {
	snap, err := t.Snapshot()
	if err != nil {
		return err
	}
	deadline := snap.State.Deadline(snap.Rules)
	if deadline.IsZero() {
		return errors.New("the match has no deadline to expire")
	}
	if deadline.After(t.now) {
		t.now = deadline
	}
	_, err = t.e.Handle(t.ctx, t.ID, match.Timeout{Deadline: deadline}, t.meta(-1))
	return err
}

// errStuck is a match in which nobody can act and nothing is due.
var errStuck = errors.New("nobody can act and no deadline is set")

// Play lets the house bot's policy (bot.Decide) play every seat that skip does not hold
// back, for at most n commands or until the match ends. A window in which nobody may act
// yet (a reading time) lets the clock run a step; a deadline nobody acts before is
// expired. It returns whether the match ended.
func (t *Table) Play(n int, skip func(seat int) bool) (bool, error) {
	for range n {
		snap, err := t.Snapshot()
		if err != nil {
			return false, err
		}
		if snap.State.Status == match.Finished {
			return true, nil
		}
		status := snap.State.GameStatus(snap.Rules)
		acted := false
		for _, seat := range status.ToAct {
			if skip != nil && skip(seat) {
				continue
			}
			if acted, err = t.decide(snap, seat); err != nil || acted {
				break
			}
		}
		if err != nil {
			return false, err
		}
		if acted {
			continue
		}
		deadline := snap.State.Deadline(snap.Rules)
		switch {
		case deadline.IsZero():
			return false, fmt.Errorf("match %s at version %d (phase %q): %w", t.ID, snap.Version, status.Phase, errStuck)
		case t.now.Add(step).Before(deadline):
			t.now = t.now.Add(step)
		default:
			if err := t.Expire(); err != nil {
				return false, err
			}
		}
	}
	return t.Over()
}

// decide plays the first of the bot policy's choices for seat that the rules take, and
// reports whether one was.
func (t *Table) decide(snap engine.Snapshot, seat int) (bool, error) {
	v := bot.View{Seat: seat, Phase: snap.State.GameStatus(snap.Rules).Phase, Seed: [2]uint64{t.seed, uint64(snap.Version)}}
	if gv := viewOf(snap, t.Players[seat].ID); gv != nil {
		for _, p := range gv.Plays() {
			if p.Seat == seat {
				v.Plays = append(v.Plays, p)
			}
		}
	}
	choices := bot.Decide(v)
	for _, do := range choices[:min(len(choices), 8)] {
		err := t.Act(seat, do)
		if err == nil {
			return true, nil
		}
		if game.CodeOf(err) == "" {
			return false, err
		}
	}
	return false, nil
}

// viewOf is the game's view of the match for a player, as the API redacts it.
func viewOf(snap engine.Snapshot, playerID string) game.View {
	return projections.ViewerOf(snap.State, playerID).View(snap.Rules, snap.State.GameState)
}
