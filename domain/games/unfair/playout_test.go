package unfair

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
)

// randomAction picks, with rng, a legal action of the seat to act: a card (with the move
// it owes, half the time) or a move.
func randomAction(rng *rand.Rand, s State) any {
	var plays []cards.PlayCard
	if s.Turn.Card == "" {
		for _, hc := range (Rules{}).Hand(s, s.toAct()) {
			for _, tg := range hc.Targets {
				plays = append(plays, cards.PlayCard{Slot: hc.Slot, Targets: tg})
			}
		}
	}
	moves := legal(s)
	if len(plays) > 0 && (len(moves) == 0 || rng.IntN(2) == 0) {
		pc := plays[rng.IntN(len(plays))]
		if defs[s.Sides[s.toAct()].Hand[pc.Slot]].Cost == AddsToMove && rng.IntN(2) == 0 {
			_, after, err := s.decideCard(s.toAct(), pc)
			if err != nil {
				panic(err)
			}
			next := legal(after)
			pc.Move = next[rng.IntN(len(next))]
		}
		return pc
	}
	return game.Move{Notation: moves[rng.IntN(len(moves))]}
}

// playout plays a seeded random game of at most plies actions and returns its events.
func playout(t *testing.T, seed uint64, plies int) ([]game.Event, State) {
	t.Helper()
	return playoutUnder(t, Rules{}, seed, plies)
}

// playoutUnder is playout under r, the current rules or an older version's (Under).
func playoutUnder(t *testing.T, r Rules, seed uint64, plies int) ([]game.Event, State) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	opening, err := r.Setup(game.Setup{Seed: []byte{byte(seed), byte(seed >> 8)}})
	if err != nil {
		t.Fatal(err)
	}
	var evs []game.Event
	var st game.State
	for _, e := range opening {
		evs, st = append(evs, e.Event), r.Evolve(st, e.Event)
	}
	s := st.(State)
	for ply := 0; ply < plies && !r.Status(s).Over; ply++ {
		a := randomAction(rng, s)
		var played []game.Emitted
		s, played = act(t, s, a) // Audit, Evolve and Decide's own state agree at every step
		for _, e := range played {
			evs = append(evs, e.Event)
		}
		checkInvariants(t, s)
	}
	return evs, s
}

// checkInvariants checks what holds between turns whatever the cards did.
func checkInvariants(t *testing.T, s State) {
	t.Helper()
	for seat, side := range s.Sides {
		if n := side.handCards() + len(side.Deck) + len(side.Discard); n != len(deck) {
			t.Fatalf("seat %d has %d cards in all", seat, n)
		}
		if s.Pos.Pieces(colour(seat), chess.King).Count() != 1 {
			t.Fatalf("seat %d has lost its king: %s", seat, s.Pos.FEN())
		}
	}
	if (s.Pos.Pieces(chess.White, chess.Pawn)|s.Pos.Pieces(chess.Black, chess.Pawn))&backRanks != 0 {
		t.Fatalf("a pawn on a back rank: %s", s.Pos.FEN())
	}
	if s.Turn.MovesDue == 0 {
		if _, err := chess.ParseFEN(s.Pos.FEN()); err != nil {
			t.Fatalf("between turns the position is not a chess position: %v", err)
		}
	}
}

// Random seeded games: every event passes Audit, the fold of the events is the state
// Decide computed, and folding the whole stream again from nothing gives the same state.
func TestRandomPlayoutsReplay(t *testing.T) {
	r := Rules{}
	for seed := range uint64(30) {
		evs, final := playout(t, seed, 300)
		var st game.State
		for _, e := range evs {
			if err := r.Audit(st, e); err != nil {
				t.Fatalf("seed %d: a second audit refuses %T: %v", seed, e, err)
			}
			st = r.Evolve(st, e)
		}
		refolded := st.(State)
		refolded.pending, final.pending = nil, nil
		if !reflect.DeepEqual(refolded, final) {
			t.Fatalf("seed %d: the stream folds to another state", seed)
		}
	}
}
