package magicchess

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
)

// Each rule of the classic mode, with its test.

// setup is a match set up from seed with opts, folded.
func setup(t *testing.T, seed string, opts game.Options) (State, []game.Emitted) {
	t.Helper()
	r := Rules{}
	evs, err := r.Setup(game.Setup{Plan: game.Plan{Seats: 2, Teams: []int{0, 1}}, Options: opts, Seed: []byte(seed), At: t0})
	if err != nil {
		t.Fatal(err)
	}
	var st game.State
	for _, e := range evs {
		st = r.Evolve(st, e.Event)
	}
	return st.(State), evs
}

// Rule 2: the deck is shuffled from the seed, the same seed deals the same hands, each
// hand is secret to its seat, up to ten cards (an option), never a reaction in classic.
func TestTheDealComesFromTheSeed(t *testing.T) {
	a, evs := setup(t, "seed-1", nil)
	b, _ := setup(t, "seed-1", nil)
	c, _ := setup(t, "seed-2", nil)
	if !slices.Equal(a.Hands[0], b.Hands[0]) || !slices.Equal(a.Hands[1], b.Hands[1]) {
		t.Fatal("one seed dealt two different hands")
	}
	if slices.Equal(a.Hands[0], c.Hands[0]) {
		t.Fatal("two seeds dealt the same hand")
	}
	if len(a.Hands[0]) != MaxHand || len(a.Hands[1]) != MaxHand || len(a.Deck) != len(classicDeck())-2*MaxHand {
		t.Fatalf("hands of %d and %d, a deck of %d", len(a.Hands[0]), len(a.Hands[1]), len(a.Deck))
	}
	seen := map[string]bool{}
	for _, c := range slices.Concat(a.Hands[0], a.Hands[1], a.Deck) {
		if seen[c] || byID[c].Window == Reaction {
			t.Fatalf("%s dealt twice, or a reaction in the classic deck", c)
		}
		seen[c] = true
	}
	for _, e := range evs {
		switch ev := e.Event.(type) {
		case CardsDealt:
			if e.Visibility != (Rules{}).Sight(ev) || ev.Shadow().(CardsDealt).Cards != nil {
				t.Fatalf("a deal is not its seat's alone: %+v", e)
			}
		case DeckShuffled:
			if e.Visibility != (Rules{}).Sight(ev) {
				t.Fatal("the deck is not the server's alone")
			}
		}
	}
	small, _ := setup(t, "seed-1", game.Options{"hand": "4"})
	if len(small.Hands[0]) != 4 {
		t.Fatalf("hand option 4 dealt %d", len(small.Hands[0]))
	}
	for _, bad := range []game.Options{{"hand": "11"}, {"hand": "0"}, {"planning": "5"}, {"clock": "x"}, {"colour": "red"}, {"mode": "BLITZ"}} {
		if _, err := (Rules{}).Plan(bad); game.CodeOf(err) != game.BadInput {
			t.Errorf("options %v: %v, want BAD_USER_INPUT", bad, err)
		}
	}
}

// Rule 2: a planning phase of 2 minutes (or 3) before the first move, in which nobody
// moves; both seats may end it early; the clock starts when it ends.
func TestPlanningPhase(t *testing.T) {
	r := Rules{}
	s, _ := setup(t, "plan", nil)
	st := r.Status(s)
	if st.Phase != Planning || !st.Deadline.Equal(t0.Add(2*time.Minute)) || !slices.Equal(st.ToAct, []int{0, 1}) {
		t.Fatalf("status %+v: the planning of both seats until 2 minutes after the start", st)
	}
	if three, _ := setup(t, "plan", game.Options{"planning": "3"}); !three.PlanEnds.Equal(t0.Add(3 * time.Minute)) {
		t.Fatal("planning 3 is not three minutes")
	}
	in := t0.Add(time.Minute)
	for _, do := range []any{game.Move{Notation: "e2e4"}, cards.PlayCard{Slot: 0}} {
		if _, err := r.Decide(s, game.Action{Seat: 0, At: in, Do: do}); game.CodeOf(err) != game.NotYourTurn {
			t.Fatalf("%+v in the planning: %v, want NOT_YOUR_TURN", do, err)
		}
	}
	evs, err := r.Decide(s, game.Action{Seat: 1, At: in, Do: game.Choose{Option: "ready"}})
	if err != nil || len(evs) != 1 {
		t.Fatalf("ready: %v %v", evs, err)
	}
	s1 := r.Evolve(s, evs[0].Event).(State)
	if st := r.Status(s1); !slices.Equal(st.ToAct, []int{0}) || st.Phase != Planning {
		t.Fatalf("after seat 1 is ready: %+v", st)
	}
	evs, err = r.Decide(s1, game.Action{Seat: 0, At: in, Do: game.Choose{Option: "ready"}})
	if err != nil || len(evs) != 2 {
		t.Fatalf("both ready: %v %v", evs, err)
	}
	for _, e := range evs {
		s1 = r.Evolve(s1, e.Event).(State)
	}
	if st := r.Status(s1); st.Phase != "play" || !slices.Equal(st.ToAct, []int{0}) || !st.Deadline.Equal(in.Add(10*time.Minute)) {
		t.Fatalf("after both are ready: %+v, want White to play with 10 minutes from then", st)
	}
	// The default clock is rule 6's 10+5: White moves a minute in and has 9:05 left.
	evs, err = r.Decide(s1, game.Action{Seat: 0, At: in.Add(time.Minute), Do: game.Move{Notation: "e2e4"}})
	if err != nil {
		t.Fatal(err)
	}
	s2 := r.Evolve(s1, evs[0].Event).(State)
	if left := s2.Clock.Left[0]; left != 9*time.Minute+5*time.Second || s.control == nil || s.control.String() != DefaultClock || DefaultClock != "10+5" {
		t.Fatalf("White has %s left after a minute's move, clock %v: want 10+5", left, s.control)
	}
	// At its deadline, the engine's timeout ends it.
	if _, err := r.Decide(s, game.Action{Seat: game.System, At: in, Do: game.Timeout{Deadline: s.PlanEnds}}); game.CodeOf(err) != game.Conflict {
		t.Fatalf("an early timeout: %v", err)
	}
	evs, err = r.Decide(s, game.Action{Seat: game.System, At: s.PlanEnds, Do: game.Timeout{Deadline: s.PlanEnds}})
	if err != nil || evs[0].Event.(PlanningEnded).Reason != "time" {
		t.Fatalf("the timeout: %v %v", evs, err)
	}
}

// Rule 3: cards are laid only in one's own turn; one card per turn.
func TestCardsOnlyInYourOwnTurn(t *testing.T) {
	s := table(t, start, []string{"truce"}, []string{"frost"})
	_, err := Rules{}.Decide(s, game.Action{Seat: 1, At: t0, Do: cards.PlayCard{Card: "frost", Slot: -1, Targets: []string{}}})
	if game.CodeOf(err) != game.NotYourTurn {
		t.Fatalf("Black's card in White's turn: %v", err)
	}
	if hc := handCard(t, s, 1, "frost"); hc.Playable {
		t.Fatal("Black's hand lists a card playable in White's turn")
	}
	s2 := table(t, start, []string{"knight-leap", "truce"}, nil)
	s2, _ = lay(t, s2, "knight-leap", at("c1"), "")
	refuseCard(t, s2, "truce", nil, "laid a card this turn already")
}

// Rule 3 and 8: a laid card is final: it resolves, or lasts face up while it lasts, or is
// discarded without effect; rule 9: durations count at the end of each of the owner's
// turns, not the turn it is laid in.
func TestALaidCardIsFinalAndLastsItsOwnersTurns(t *testing.T) {
	s := table(t, start, []string{"echo", "wall"}, []string{"truce"})
	s, evs := lay(t, s, "echo", nil, "")
	if e := evs[0].Event.(CardPlayed); e.Result != NoEffect || !slices.Contains(s.Discard, "echo") || slices.Contains(s.Hands[0], "echo") {
		t.Fatalf("an echo with nothing to repeat: %+v, discard %v", e, s.Discard)
	}
	s = move(t, s, "e7e6")
	s, evs = lay(t, s, "wall", at("e5"), "") // wall: 2 of White's turns
	if evs[0].Event.(CardPlayed).Result != Lasts || slices.Contains(s.Discard, "wall") {
		t.Fatal("the wall is not face up")
	}
	for i, turn := range []string{"d7d6", "a2a3", "a7a6", "b2b3"} {
		noMove(t, s, "e6e5")
		if i%2 == 1 && i < 3 && len(s.Lasting) != 1 {
			t.Fatal("the wall ended early")
		}
		var evs []game.Emitted
		s, evs = act(t, s, game.Move{Notation: turn})
		if turn == "b2b3" && !slices.Equal(evs[0].Event.(MovePlayed).Expired, []string{"wall"}) {
			t.Fatalf("the wall does not expire at the end of White's second turn after it: %+v", evs[0].Event)
		}
	}
	if len(s.Lasting) != 0 || !slices.Contains(s.Discard, "wall") {
		t.Fatal("the wall did not go to the discard pile")
	}
	move(t, s, "e6e5") // open again
}

// Rule 1: no card removes a king, and one's own king is never in check at the end of
// one's turn, after every card and effect: over every legal play of every card in a
// hand of all the implemented cards, in positions with and without check.
func TestNoCardRemovesAKingNorLeavesYoursInCheck(t *testing.T) {
	var all []string
	for _, e := range entries {
		if Implemented(e.ID) && e.Window != Reaction { // reactions: reactions_test.go
			all = append(all, e.ID)
		}
	}
	for _, fen := range []string{start, rookCheck, "k7/8/8/8/8/3n4/8/4K3 w - - 0 1", "r3k2r/ppp2ppp/2n5/3qp3/1b1P4/2N5/PPPB1PPP/R2QKB1R w KQkq - 0 1"} {
		s := table(t, fen, all, nil)
		for _, hc := range (Rules{}).Hand(s, 0) {
			for _, tg := range hc.Targets {
				after, _ := lay(t, s, hc.Card, tg, "")
				for _, c := range []chess.Color{chess.White, chess.Black} {
					if _, ok := after.Pos.KingSquare(c); !ok {
						t.Fatalf("%s on %v removed a king", hc.Card, tg)
					}
				}
				if after.toAct() == 1 && after.kingAttacked(0) {
					t.Fatalf("%s on %v ends White's turn in check (%s)", hc.Card, tg, fen)
				}
			}
		}
	}
}

// Rule 8, no loops: Echo laid on an Echo would repeat without end: the card is annulled,
// the position before it restored, both recorded as events, and its player keeps the
// turn.
func TestALoopIsAnnulled(t *testing.T) {
	s := table(t, start, []string{"wall", "truce"}, []string{"echo", "frost"})
	s, _ = lay(t, s, "wall", at("e4"), "")
	s, _ = lay(t, s, "echo", nil, "") // Black repeats the wall: fine
	before := s.FEN()
	s.Hands[0] = []string{"echo"}
	after, evs := lay(t, s, "echo", nil, "")
	played, ok1 := evs[0].Event.(CardPlayed)
	annul, ok2 := evs[1].Event.(CardAnnulled)
	if !ok1 || !ok2 || played.Result != Annulled || annul.FEN != before || annul.Reason == "" {
		t.Fatalf("echo on echo recorded as %+v", evs)
	}
	if after.FEN() != before || after.toAct() != 0 || !slices.Contains(after.Discard, "echo") || len(after.Lasting) != 2 {
		t.Fatalf("after the annulment: %s, seat %d to act, discard %v", after.FEN(), after.toAct(), after.Discard)
	}
	if got := after.Record[len(after.Record)-1]; got != "[echo] annulled" {
		t.Fatalf("the record says %q", got)
	}
	move(t, after, "d2d4") // White still plays its turn
}

// Rule 5: checkmate wins; a mate save in hand means it is not mate yet.
func TestCheckmateUnlessACardSavesTheKing(t *testing.T) {
	mated := "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3" // fool's mate
	s := table(t, mated, nil, nil)
	if st := (Rules{}).Status(s); !st.Over || st.Outcome.Reason != "checkmate" || !slices.Equal(st.Outcome.Winners, []int{1}) {
		t.Fatalf("fool's mate: %+v", st)
	}
	saved := table(t, mated, []string{"interpose"}, nil)
	if st := (Rules{}).Status(saved); st.Over || st.Phase != "check" {
		t.Fatalf("fool's mate with a mate save in hand: %+v", st)
	}
	saved, _ = lay(t, saved, "interpose", at("d2", "g3"), "")
	expect(t, saved, map[string]string{"g3": "P"})
	useless := table(t, mated, []string{"truce"}, nil)
	if st := (Rules{}).Status(useless); !st.Over {
		t.Fatal("a card that does not save the king saves it from mate")
	}
}

// Rules 5 and 11: with a clock, laying a card uses its player's time like a move, and a
// flag that falls loses.
func TestACardUsesTimeAndTheFlagLoses(t *testing.T) {
	r := Rules{}
	s, _ := setup(t, "clock", game.Options{"clock": "1+2"})
	s = r.Evolve(s, PlanningEnded{At: t0, Reason: "time"}).(State)
	s.Hands[0] = []string{"truce"}
	evs, err := r.Decide(s, game.Action{Seat: 0, At: t0.Add(10 * time.Second), Do: cards.PlayCard{Card: "truce", Slot: -1, Targets: []string{}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := evs[0].Event.(CardPlayed).Stamp; got.LeftMs != 52_000 {
		t.Fatalf("a card after 10 s of a minute plus 2: %d ms left, want 52000", got.LeftMs)
	}
	s = r.Evolve(s, evs[0].Event).(State)
	late := s.Clock.Deadline(1)
	evs, err = r.Decide(s, game.Action{Seat: game.System, At: late, Do: game.Timeout{Deadline: late}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := evs[0].Event.(clock.FlagFell); !ok {
		t.Fatalf("the timeout: %+v", evs)
	}
	s = r.Evolve(s, evs[0].Event).(State)
	if st := r.Status(s); !st.Over || st.Outcome.Reason != "timeout" || !slices.Equal(st.Outcome.Winners, []int{0}) {
		t.Fatalf("after Black's flag: %+v", st)
	}
}

// The view: a player sees its own hand and the size of the other's; a spectator sees no
// hand; the plays of the seat to act include its cards, and nobody else's.
func TestTheViewHidesTheOtherHand(t *testing.T) {
	r := Rules{}
	s := table(t, start, []string{"truce", "wall"}, []string{"frost"})
	white := r.View(s, game.Viewpoint{Seats: []int{0}, Teams: []int{0}}).(*View)
	black := r.View(s, game.Viewpoint{Seats: []int{1}, Teams: []int{1}}).(*View)
	spect := r.View(s, game.Viewpoint{}).(*View)
	if len(white.Hand) != 2 || len(black.Hand) != 1 || black.Hand[0].Card != "frost" || spect.Hand != nil {
		t.Fatalf("hands: white %v, black %v, spectator %v", white.Hand, black.Hand, spect.Hand)
	}
	if white.Cards[0].HandSize != 2 || white.Cards[1].HandSize != 1 {
		t.Fatalf("sizes %+v", white.Cards)
	}
	cardsIn := func(v *View) int {
		n := 0
		for _, p := range v.Plays() {
			if p.Kind == game.KindCard {
				n++
			}
		}
		return n
	}
	if cardsIn(white) == 0 || len(black.Plays()) != 0 || len(spect.Plays()) != 0 {
		t.Fatal("the plays are not White's alone")
	}
}

// The draws the rules are silent on, taken from chess: bare kings with empty hands, and
// 75 moves without a capture or a pawn move; a card in hand keeps a dead position alive.
func TestDrawsNoCardCanChange(t *testing.T) {
	bare := "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
	if st := (Rules{}).Status(table(t, bare, nil, nil)); !st.Over || st.Outcome.Reason != "insufficient material" || len(st.Outcome.Winners) != 0 {
		t.Fatalf("bare kings, empty hands: %+v", st)
	}
	if st := (Rules{}).Status(table(t, bare, []string{"reinforce"}, nil)); st.Over {
		t.Fatalf("bare kings with a card to lay: %+v", st)
	}
	if st := (Rules{}).Status(table(t, "4k3/8/8/8/8/8/8/R3K3 w - - 150 90", nil, nil)); !st.Over || st.Outcome.Reason != "seventy-five-move rule" {
		t.Fatalf("75 moves: %+v", st)
	}
}

// A card and the move it owes are one turn: the match counts a seat's first move by
// turns, so White's card and move do not count as Black's first move too.
func TestACardAndItsMoveAreOneTurn(t *testing.T) {
	s := table(t, start, []string{"knight-leap"}, nil)
	s, _ = lay(t, s, "knight-leap", at("c1"), "c1d3")
	first, turns := Rules{}.Turns(s)
	if first != 1 || len(turns) != 1 || turns[0].Side != 0 || len(turns[0].Plays) != 2 {
		t.Fatalf("turns %v", turns)
	}
	s = move(t, s, "e7e5")
	if _, turns = (Rules{}).Turns(s); len(turns) != 2 || turns[1].Side != 1 {
		t.Fatalf("turns %v", turns)
	}
}

// Echo repeats the last card laid when that card was its player's whole turn (window
// before): Echo is itself the turn and brings no move, so after every card that a move
// goes with (during, close), as the catalog's text says, it is discarded without effect,
// changes nothing on the board and ends its player's turn; it does not reach back to an
// earlier card of the turn (Black's wall). The cardTests' echo repeats a wall.
func TestEchoRepeatsOnlyACardThatWasTheTurn(t *testing.T) {
	if e := byID["echo"]; !strings.Contains(e.TextEn, "if that card was its whole turn") || !strings.Contains(e.TextEs, "si esa carta fue todo su turno") {
		t.Fatalf("the catalog's Echo does not say it repeats a whole turn only: %q / %q", e.TextEn, e.TextEs)
	}
	tried := 0
	for _, e := range entries {
		if e.Window != During && e.Window != Close {
			continue
		}
		// Black lays a wall first, so that a card of the turn stands further back.
		s := table(t, start, []string{e.ID}, []string{"wall", "echo"})
		s = move(t, s, "e2e4")
		s, _ = lay(t, s, "wall", at("h3"), "")
		hc := handCard(t, s, 0, e.ID)
		if !hc.Playable {
			t.Fatalf("%s is not playable in the test's position: %s", e.ID, hc.Reason)
		}
		s, _ = lay(t, s, e.ID, hc.Targets[0], "")
		for s.toAct() == 0 { // the card's move, or Haste's two
			s = move(t, s, legal(s)[0])
		}
		before, lasting := s.FEN(), len(s.Lasting)
		s, evs := lay(t, s, "echo", nil, "")
		if p := evs[0].Event.(CardPlayed); p.Result != NoEffect || strings.Fields(s.FEN())[0] != strings.Fields(before)[0] {
			t.Errorf("echo after %s: %s, %s from %s", e.ID, p.Result, s.FEN(), before)
		}
		if !slices.Contains(s.Discard, "echo") || len(s.Lasting) > lasting || s.toAct() != 0 {
			t.Errorf("echo after %s: discard %v, %d lasting (%d before), seat %d to act", e.ID, s.Discard, len(s.Lasting), lasting, s.toAct())
		}
		tried++
	}
	if tried != 9 {
		t.Fatalf("%d cards that a move goes with tried, the catalog has 9", tried)
	}
}

// Rule 8, "texto específico > texto general": when two effects clash, the more specific
// wins. Black's Wall closes b3, one square by name; White's Knight's leap then gives the
// rook on a1 a knight's moves, a way of moving and no square by name: the rook may leap
// to c2, but not onto b3.
func TestASpecificEffectBeatsAGeneralOne(t *testing.T) {
	s := table(t, "4k3/8/8/8/8/8/8/R3K3 b - - 0 1", []string{"knight-leap"}, []string{"wall"})
	s, _ = lay(t, s, "wall", at("b3"), "")
	s, _ = lay(t, s, "knight-leap", at("a1"), "")
	if !slices.Contains(legal(s), "a1c2") {
		t.Fatalf("Knight's leap gives the rook no knight's move: %v", legal(s))
	}
	noMove(t, s, "a1b3")
	move(t, s, "a1c2")
}

// A draw the server chose (the rules are silent): a player to act with no legal move, not
// in check, and no card it may lay is stalemated, a draw; a card it may lay keeps the game
// going, and laying it is the turn.
func TestAStalemateWithNoCardToLay(t *testing.T) {
	s := table(t, stalemated, nil, nil)
	if st := (Rules{}).Status(s); !st.Over || st.Outcome.Reason != "stalemate" || len(st.Outcome.Winners) != 0 {
		t.Fatalf("no move and empty hands: %+v", st)
	}
	s = table(t, stalemated, nil, []string{"truce"})
	if st := (Rules{}).Status(s); st.Over || !slices.Equal(st.ToAct, []int{1}) {
		t.Fatalf("no move but a card to lay: %+v", st)
	}
	s, _ = lay(t, s, "truce", nil, "")
	isTurnOf(t, s, 0)
}
