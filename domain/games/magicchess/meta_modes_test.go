package magicchess

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
)

// Every card where it works and where it is refused, beyond one classic board
// (TestEveryCardIsTestedOrRefused): in the advanced mode on one board, in classic doubles
// and in advanced doubles, seeded random matches (each seat choosing among its own view's
// plays, a card when it has one two times in three, reacting whenever it may) lay every
// card of the mode's deck at least once, each event audited, and meet every card refused
// at least once: held by the seat to act, not playable, with the reason the hand gives,
// and laying it refused by Decide. The test fails naming the cards a mode never met
// either way. Holds for every seed.
func TestEveryCardWorksAndIsRefusedInEachMode(t *testing.T) {
	modes := []struct {
		name  string
		opts  game.Options
		seats int
		seeds int
	}{
		{"advanced", game.Options{"mode": Advanced, "clock": "off", "reaction": "2"}, 2, 25},
		{"doubles", game.Options{"boards": "2", "clock": "off"}, 4, 20},
		{"advanced doubles", game.Options{"mode": Advanced, "boards": "2", "clock": "off", "reaction": "2"}, 4, 20},
	}
	// Cards random play seldom lays (a mate by one distant piece for Miracle), played in
	// a position of their own in the mode.
	scenarios := map[string]map[string]func(*testing.T){
		"advanced":         {"miracle": cardTests["miracle"].works},
		"advanced doubles": {"miracle": doublesMiracle},
	}
	r := Rules{}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			works, refused := map[string]bool{}, map[string]bool{}
			for id, f := range scenarios[m.name] {
				if t.Run(id+"/works", f) {
					works[id] = true
				}
			}
			for seed := range uint64(m.seeds) {
				rng := rand.New(rand.NewPCG(seed, 99))
				teams := []int{0, 1}
				if m.seats == 4 {
					teams = doublesTeams
				}
				evs, err := r.Setup(game.Setup{Plan: game.Plan{Seats: m.seats, Teams: teams}, Options: m.opts,
					Seed: []byte(fmt.Sprintf("every card %s %02d ..............", m.name, seed))[:32], At: t0})
				if err != nil {
					t.Fatal(err)
				}
				var st game.State
				for _, e := range evs {
					st = r.Evolve(st, e.Event)
				}
				st = r.Evolve(st, PlanningEnded{At: t0, Reason: "time"})
				now := t0
				for n := 0; n < 500 && !r.Status(st).Over; n++ {
					now = now.Add(100 * time.Millisecond)
					status := r.Status(st)
					if len(status.ToAct) == 0 {
						now = status.Deadline
						st = audited(t, st, game.System, now, game.Timeout{Deadline: now})
						continue
					}
					seat := status.ToAct[rng.IntN(len(status.ToAct))]
					v := r.View(st, game.Viewpoint{Seats: []int{seat}, Teams: []int{teams[seat]}}).(*View)
					for _, hc := range v.Hand {
						if hc.Playable || hc.Reason == "" || refused[hc.Card] {
							continue
						}
						do := any(cards.PlayCard{Card: hc.Card, Slot: hc.Slot, Targets: []string{}})
						if v.react >= 0 {
							do = React{Card: hc.Card, Slot: hc.Slot, Targets: []string{}}
						}
						if _, err := r.Decide(st, game.Action{Seat: seat, At: now, Do: do}); err != nil {
							refused[hc.Card] = true
						}
					}
					var mine, cardPlays []game.Play
					for _, p := range v.Plays() {
						if p.Seat == seat {
							mine = append(mine, p)
							if p.Kind == game.KindCard {
								cardPlays = append(cardPlays, p)
							}
						}
					}
					if len(mine) == 0 {
						t.Fatalf("seed %d: seat %d is to act with no play", seed, seat)
					}
					p := mine[rng.IntN(len(mine))]
					if len(cardPlays) > 0 && (v.react >= 0 || rng.IntN(3) > 0) {
						p = cardPlays[rng.IntN(len(cardPlays))]
					}
					st = audited(t, st, seat, now, p.Do)
					switch do := p.Do.(type) {
					case cards.PlayCard:
						works[do.Card] = true
					case React:
						works[do.Card] = true
					}
				}
			}
			deck := deckOf(fmt.Sprint(m.opts["mode"]))
			var notWorks, notRefused []string
			for _, id := range deck {
				if !works[id] {
					notWorks = append(notWorks, id)
				}
				if !refused[id] {
					notRefused = append(notRefused, id)
				}
			}
			slices.Sort(notWorks)
			slices.Sort(notRefused)
			if len(notWorks)+len(notRefused) > 0 {
				t.Errorf("%s: never laid %v; never refused %v", m.name, notWorks, notRefused)
			}
		})
	}
}

// audited has seat do something at at in st: every event passes the audit and is folded.
func audited(t *testing.T, st game.State, seat int, at time.Time, do any) game.State {
	t.Helper()
	r := Rules{}
	evs, err := r.Decide(st, game.Action{Seat: seat, At: at, Do: do})
	if err != nil {
		t.Fatalf("seat %d %+v: %v", seat, do, err)
	}
	for _, e := range evs {
		if err := r.Audit(st, e.Event); err != nil {
			t.Fatalf("seat %d %+v: the audit refuses %T: %v", seat, do, e.Event, err)
		}
		st = r.Evolve(st, e.Event)
	}
	return st
}

// doublesMiracle: on board A of advanced doubles, Rh1-a1 mates the king on a5, walled in
// by its own pawns, with no piece in Black's hand; seat 1's Miracle puts a pawn on a4.
func doublesMiracle(t *testing.T) {
	tb := advDoubles(t, [4][]string{{"frost"}, {"miracle"}, {"truce"}, {"wall"}}, "")
	pos, err := chess.ParseFEN("8/8/pp6/kp6/8/2K5/8/7R[] w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	tb.Boards[0].Pos = pos
	tb = dmovesAt(t, tb, sec(1), "0:h1a1")
	if w := dwindow(t, tb, 0, R2, 1); !slices.Contains(w.Triggers, TriggerMate) {
		t.Fatalf("triggers %v, want mate", w.Triggers)
	}
	if _, over := tb.outcome(); over {
		t.Fatal("the match ended before the mate's window closed")
	}
	tb = dtimeout(t, tb, tb.Boards[0].Window.Answers)
	tb, _ = dact(t, tb, 1, sec(4), React{Card: "miracle", Slot: -1, Targets: []string{"a4"}})
	if pc, _ := tb.Boards[0].Pos.PieceAt(chess.A4); pc != (chess.Piece{Color: chess.Black, Role: chess.Pawn}) {
		t.Fatalf("no black pawn on a4: %s", tb.Boards[0].Pos.FEN())
	}
	if _, over := tb.outcome(); over || tb.Boards[0].kingAttacked(1) {
		t.Fatal("the miracle did not save the king")
	}
}
