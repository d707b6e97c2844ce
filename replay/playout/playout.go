// Package playout plays deterministic chess matches through the real engine, so that
// benchmarks, tests and `arbiter bench` can fill an event store with matches that look
// like real ones: two registered players, a creation with a secret seed, seats taken, a
// game of legal moves, and for some matches an end by resignation or agreement. The moves
// are chosen in advance from a per-match seed, so that picking them costs nothing while
// the engine is measured, and the same seed always gives the same game.
package playout

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
)

// Moves returns a pseudo-random game of legal moves from the starting position, in UCI,
// derived from seed alone. It avoids a move that ends the game (mate, stalemate,
// repetition, dead position) while another move exists, so that the game reaches plies
// moves unless every move would end it; it is shorter only then.
func Moves(seed uint64, plies int) []string {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	g := chess.NewGame(chess.StartingPosition())
	out := make([]string, 0, plies)
	var buf [256]chess.Move
	for len(out) < plies {
		pos := g.Position()
		legal := pos.LegalMoves(buf[:0])
		if len(legal) == 0 {
			break
		}
		start := r.IntN(len(legal))
		chosen, ends := legal[start], true
		for i := range legal {
			m := legal[(start+i)%len(legal)]
			// OutcomeAfter, not a clone played on: a clone's first move copies the game's
			// history, for every move tried, which made choosing a match's moves
			// quadratic in its length and the largest allocator of arbiter bench.
			if !g.OutcomeAfter(m).Over {
				chosen, ends = m, false
				break
			}
		}
		if err := g.Play(chosen); err != nil {
			panic(fmt.Sprintf("playout: a generated move %s is illegal: %v", chosen.UCI(), err))
		}
		out = append(out, chosen.UCI())
		if ends {
			break
		}
	}
	return out
}

// Ending says how a match is closed once its moves are played.
type Ending int

// The endings.
const (
	Unfinished Ending = iota // the match stays live
	Resign                   // the side to move resigns
	Agree                    // White offers a draw and Black accepts it
)

// EndingOf is the ending the fillers give match i: a third of the matches each way, so a
// filled store holds live matches, decisive results and draws.
func EndingOf(i int) Ending { return [...]Ending{Resign, Agree, Unfinished}[i%3] }

// Match is a chess match created for a playout, with its two players and its moves.
type Match struct {
	Index   int
	ID      string
	Players [2]string // by seat: White, Black
	Moves   []string  // UCI, White's first

	actors [2]string // "player:" and Players, by seat, when Create made the match
}

// Create registers two players, creates a rated chess match and seats them, and chooses
// the match's moves from seed. Command IDs derive from index, so a retry is harmless.
func Create(ctx context.Context, eng *engine.Engine, index int, seed uint64, plies int) (Match, error) {
	m := Match{Index: index, Moves: Moves(seed, plies)}
	for seat := range m.Players {
		p, _, err := eng.RegisterPlayer(ctx, fmt.Sprintf("player %d.%d", index, seat), "")
		if err != nil {
			return m, fmt.Errorf("playout: registering a player of match %d: %w", index, err)
		}
		m.Players[seat], m.actors[seat] = p.ID, "player:"+p.ID
	}
	ack, err := eng.Create(ctx, engine.CreateMatch{Game: classic.ID, Rated: true, By: m.Players[0]},
		engine.Meta{CommandID: fmt.Sprintf("playout-%d-create", index), Actor: "player:" + m.Players[0]})
	if err != nil {
		return m, fmt.Errorf("playout: creating match %d: %w", index, err)
	}
	m.ID = ack.MatchID
	for seat, p := range m.Players {
		s := seat
		if _, err := eng.Handle(ctx, m.ID, match.Join{PlayerID: p, Name: fmt.Sprintf("player %d.%d", index, seat), Seat: &s}, m.meta(fmt.Sprintf("join%d", seat), seat)); err != nil {
			return m, fmt.Errorf("playout: seating %s in match %s: %w", p, m.ID, err)
		}
	}
	return m, nil
}

func (m Match) meta(what string, seat int) engine.Meta {
	return engine.Meta{CommandID: fmt.Sprintf("playout-%d-%s", m.Index, what), Actor: m.actor(seat)}
}

// plyMeta is meta("ply<i>", seat), written with one allocation (the command ID): a
// benchmark sends one per move, and its harness shares the machine it measures.
func (m Match) plyMeta(i, seat int) engine.Meta {
	var buf [48]byte
	b := strconv.AppendInt(append(buf[:0], "playout-"...), int64(m.Index), 10)
	b = strconv.AppendInt(append(b, "-ply"...), int64(i), 10)
	return engine.Meta{CommandID: string(b), Actor: m.actor(seat)}
}

// actor is the actor of the player at seat.
func (m Match) actor(seat int) string {
	if a := m.actors[seat]; a != "" {
		return a
	}
	return "player:" + m.Players[seat] // a Match made by hand
}

// Play sends moves from (inclusive) to to (exclusive) through the engine, one command
// each, and calls observe (if not nil) with when each Handle was called and when it
// returned (both clock readings, so that a caller can place stamps taken in between).
func (m Match) Play(ctx context.Context, eng *engine.Engine, from, to int, observe func(start, end time.Time)) error {
	for i := from; i < to && i < len(m.Moves); i++ {
		seat := i % 2
		start := time.Now()
		_, err := eng.Handle(ctx, m.ID, match.Act{PlayerID: m.Players[seat], Do: game.Move{Notation: m.Moves[i]}}, m.plyMeta(i, seat))
		if err != nil {
			return fmt.Errorf("playout: match %s ply %d (%s): %w", m.ID, i+1, m.Moves[i], err)
		}
		if observe != nil {
			observe(start, time.Now())
		}
	}
	return nil
}

// Finish closes the match as e says, after played moves (it needs the side to move).
// A match whose game already ended is left as it is.
func (m Match) Finish(ctx context.Context, eng *engine.Engine, e Ending, played int) error {
	snap, err := eng.Match(ctx, m.ID)
	if err != nil {
		return err
	}
	if snap.State.Status != match.Live {
		return nil
	}
	var cmds []match.Command
	var seats []int
	switch e {
	case Resign:
		cmds, seats = []match.Command{match.Resign{PlayerID: m.Players[played%2]}}, []int{played % 2}
	case Agree:
		cmds = []match.Command{match.OfferDraw{PlayerID: m.Players[0]}, match.AcceptDraw{PlayerID: m.Players[1]}}
		seats = []int{0, 1}
	}
	for i, c := range cmds {
		if _, err := eng.Handle(ctx, m.ID, c, m.meta(fmt.Sprintf("end%d", i), seats[i])); err != nil {
			return fmt.Errorf("playout: ending match %s: %w", m.ID, err)
		}
	}
	return nil
}

// Config is a whole playout.
type Config struct {
	Matches  int    // how many matches
	Plies    int    // moves per match, at most
	Seed     uint64 // match i plays the game of Seed+i
	Parallel int    // matches played at once (default: all)
}

// Fill creates cfg.Matches matches, plays them concurrently and ends them as EndingOf says.
func Fill(ctx context.Context, eng *engine.Engine, cfg Config) ([]Match, error) {
	par := cfg.Parallel
	if par <= 0 {
		par = cfg.Matches
	}
	out := make([]Match, cfg.Matches)
	errs := make([]error, cfg.Matches)
	sem := make(chan struct{}, max(par, 1))
	var wg sync.WaitGroup
	for i := range out {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			m, err := Create(ctx, eng, i, cfg.Seed+uint64(i), cfg.Plies)
			if err == nil {
				err = m.Play(ctx, eng, 0, len(m.Moves), nil)
			}
			if err == nil {
				err = m.Finish(ctx, eng, EndingOf(i), len(m.Moves))
			}
			out[i], errs[i] = m, err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return out, err
		}
	}
	return out, nil
}
