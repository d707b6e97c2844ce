package unfair

import (
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
)

// Each card is played in a position built for it (cards_*_test.go), and refused where the
// rules refuse it. White plays the card unless a row says otherwise.

// cardCase plays a card and checks what it did.
type cardCase struct {
	name         string
	fen          string
	white, black cardsOf // White holds just the card when white is empty
	setup        func(t *testing.T, s State) State
	card         string
	targets      []string
	then         string // the move sent with a card that adds to the move
	board        string // the board after, FEN's first field; "" to leave it unchecked
	check        func(t *testing.T, before, after State, evs []game.Emitted)
}

// refusal shows a card refused: not playable at all (Hand says why), or not on these
// targets; Decide refuses it with ILLEGAL_MOVE and changes nothing.
type refusal struct {
	name         string
	fen          string
	white, black cardsOf
	setup        func(t *testing.T, s State) State
	card         string
	targets      []string
	then         string
	unplayable   bool
	reason       string // a part of the reason
}

func (c cardCase) table(t *testing.T) State {
	return setUp(t, c.fen, c.white, c.black, c.card, c.setup)
}

func setUp(t *testing.T, fen string, white, black cardsOf, card string, setup func(*testing.T, State) State) State {
	t.Helper()
	if white.hand == nil {
		white.hand = []string{card}
	}
	s := table(t, fen, white, black)
	if setup != nil {
		s = setup(t, s)
	}
	return s
}

func runCards(t *testing.T, cases []cardCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.card+"/"+c.name, func(t *testing.T) {
			s := c.table(t)
			seat := s.toAct()
			hc := handCard(t, s, seat, c.card)
			if !hc.Playable {
				t.Fatalf("%s is not playable: %s", c.card, hc.Reason)
			}
			if _, listed := defs[c.card].find(listed(hc.Targets), c.targets); !listed {
				t.Fatalf("the hand does not list the targets %v among %v", c.targets, hc.Targets)
			}
			after, evs := playCard(t, s, c.card, c.targets, c.then)
			if c.board != "" && board(after) != c.board {
				t.Errorf("board %s, want %s", board(after), c.board)
			}
			side := after.Sides[seat]
			if len(side.Discard) == 0 || side.Discard[0] != c.card || (Rules{}).Played(after, seat)[c.card] != 1 {
				t.Errorf("%s did not go from the hand to the discard pile: hand %v, discard %v", c.card, side.Hand, side.Discard)
			}
			if played := eventsOf[CardPlayed](evs); len(played) != 1 || played[0].FEN != after.Pos.FEN() && c.then == "" {
				t.Errorf("CardPlayed %+v, the position after is %s", played, after.Pos.FEN())
			}
			if c.check != nil {
				c.check(t, s, after, evs)
			}
		})
	}
}

// listed turns listed targets back into plays, to look targets up among them.
func listed(targets [][]string) []play {
	out := make([]play, len(targets))
	for i, tg := range targets {
		out[i] = play{targets: tg}
	}
	return out
}

func runRefusals(t *testing.T, cases []refusal) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.card+"/"+c.name, func(t *testing.T) {
			s := setUp(t, c.fen, c.white, c.black, c.card, c.setup)
			hc := handCard(t, s, s.toAct(), c.card)
			if c.unplayable && (hc.Playable || !strings.Contains(hc.Reason, c.reason)) {
				t.Errorf("Hand shows %s playable %v (%q), want not playable because %q", c.card, hc.Playable, hc.Reason, c.reason)
			}
			if !c.unplayable && !hc.Playable {
				t.Errorf("%s should be playable on other targets: %s", c.card, hc.Reason)
			}
			reason := refused(t, s, cards.PlayCard{Card: c.card, Slot: -1, Targets: c.targets, Move: c.then}, game.IllegalMove)
			if !strings.Contains(reason, c.reason) {
				t.Errorf("refused because %q, want %q", reason, c.reason)
			}
		})
	}
}

// Every card of the catalog is played by a test and refused by another.
func TestEveryCardIsTested(t *testing.T) {
	played, refusedCards := map[string]bool{}, map[string]bool{}
	for _, group := range [][]cardCase{statusPlays, movementPlays, teleportPlays, returnPlays, boardPlays, handPlays, extraPlays} {
		for _, c := range group {
			played[c.card] = true
		}
	}
	for _, group := range [][]refusal{statusRefusals, movementRefusals, teleportRefusals, returnRefusals, boardRefusals, handRefusals, extraRefusals} {
		for _, c := range group {
			refusedCards[c.card] = true
		}
	}
	for _, c := range (Rules{}).Catalog() {
		if !played[c.ID] {
			t.Errorf("no test plays %s", c.ID)
		}
		if !refusedCards[c.ID] {
			t.Errorf("no test refuses %s", c.ID)
		}
	}
}
