package magicchess

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
)

// Rule 8's loops, searched over the catalog: which two cards laid in a row make the
// second repeat without end? Only a card that resolves another card can loop, and Echo
// is the only one; so every ordered pair of the classic deck is laid in a row, in positions where
// most cards have a target (an open game, a check by a knight, a pawn on its seventh; the
// first card on one choice of targets, the second on two),
// and the only pair that annuls its second card is Echo then Echo. Every position a pair
// leaves can be evaluated (chess.Position.Validate: rule 8's other case never arises). The deck holds one
// Echo: one board never meets the loop; doubles do, when a reshuffle brings the same Echo
// back to a board whose last card is Echo (TestAnAnnulmentVerifiedInAStoredMatch).
func TestOnlyEchoOnEchoLoops(t *testing.T) {
	positions := []string{
		"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
		"rnbqkb1r/pppppppp/8/8/8/3n4/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"4k3/1P6/8/8/8/8/6p1/R3K2R w KQ - 0 1",
	}
	deck := classicDeck()
	var loops [][2]string
	pairs := 0
	for _, fen := range positions {
		for _, a := range deck {
			s := table(t, fen, []string{a}, nil)
			first := handCard(t, s, 0, a)
			if !first.Playable {
				continue
			}
			for _, ta := range first.Targets {
				after, err := decideAll(s, 0, cards.PlayCard{Card: a, Slot: -1, Targets: ta})
				if err != nil || after.toAct() != 0 && after.Turn.MovesDue > 0 {
					continue
				}
				if after.toAct() == 0 { // a card a move follows: play the first move
					m := legal(after)
					if len(m) == 0 {
						continue
					}
					if after, err = decideAll(after, 0, game.Move{Notation: m[0]}); err != nil {
						t.Fatal(err)
					}
				}
				for _, b := range deck {
					s2 := after
					s2.Hands[1] = []string{b}
					second := handCard(t, s2, 1, b)
					for i, tb := range second.Targets {
						if i == 2 {
							break // two choices of targets of the second card: a loop is the cards', not the squares'
						}
						pairs++
						evs, err := Rules{}.Decide(s2, game.Action{Seat: 1, At: t0, Do: cards.PlayCard{Card: b, Slot: -1, Targets: tb}})
						if err != nil {
							continue
						}
						var st game.State = s2
						for _, e := range evs {
							st = Rules{}.Evolve(st, e.Event)
						}
						if err := st.(State).Pos.Validate(); err != nil {
							t.Fatalf("%s then %s %v leave a position the rules cannot evaluate: %v (%s)", a, b, tb, err, st.(State).FEN())
						}
						if slices.ContainsFunc(evs, func(e game.Emitted) bool { _, ok := e.Event.(CardAnnulled); return ok }) && !slices.Contains(loops, [2]string{a, b}) {
							loops = append(loops, [2]string{a, b})
						}
					}
				}
				break // one choice of targets of the first card per position
			}
		}
	}
	t.Logf("%d pairs laid in a row; loops: %v", pairs, loops)
	if !slices.Equal(loops, [][2]string{{"echo", "echo"}}) {
		t.Fatalf("the pairs that loop: %v, want Echo then Echo alone", loops)
	}
}

// decideAll has seat do something in s and returns the state its events give.
func decideAll(s State, seat int, do any) (State, error) {
	evs, err := Rules{}.Decide(s, game.Action{Seat: seat, At: t0, Do: do})
	if err != nil {
		return s, err
	}
	var st game.State = s
	for _, e := range evs {
		st = Rules{}.Evolve(st, e.Event)
	}
	return st.(State), nil
}
