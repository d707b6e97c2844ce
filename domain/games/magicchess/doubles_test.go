package magicchess

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/visibility"
)

// doubles is a doubles table in play from the start, the planning over at t0, with the
// given hands by seat (the rest of the classic deck in the table's deck, in catalog
// order) and the clock c (nil: none).
func doubles(t testing.TB, hands [4][]string, c *clock.Setup) Table {
	t.Helper()
	return doublesUnder(t, Rules{}, hands, c)
}

// doublesUnder is doubles under the rules r (an older version: Under).
func doublesUnder(t testing.TB, r Rules, hands [4][]string, c *clock.Setup) Table {
	t.Helper()
	var st game.State = r.Evolve(nil, GameStarted{FEN: doublesFEN, Mode: Classic, HandSize: MaxHand, DeckSize: len(classicDeck()), PlanEnds: t0, Clock: c, Boards: 2})
	st = r.Evolve(st, DeckShuffled{Cards: classicDeck(), Key: reshuffleKey(fairness.Current, []byte("a test's match seed of 32 bytes.")), Fairness: int(fairness.Current)})
	for seat, h := range hands {
		st = r.Evolve(st, CardsDealt{Seat: seat, Count: len(h), Cards: h})
	}
	return r.Evolve(st, PlanningEnded{At: t0, Reason: "time"}).(Table)
}

// setupDoubles is a doubles table set up by the rules from opts (boards "2" among them)
// at t0, in its planning.
func setupDoubles(t testing.TB, opts game.Options) Table {
	t.Helper()
	r := Rules{}
	evs, err := r.Setup(game.Setup{Plan: game.Plan{Seats: 4}, Options: opts, Seed: []byte("a test's match seed of 32 bytes."), Fairness: fairness.V1, At: t0})
	if err != nil {
		t.Fatal(err)
	}
	var st game.State
	for _, e := range evs {
		st = r.Evolve(st, e.Event)
	}
	return st.(Table)
}

// noSaves are hands without a mate save, one card each.
var noSaves = [4][]string{{"frost"}, {"wall"}, {"truce"}, {"paralysis"}}

// dact has seat do something at at: each event passes the audit and is folded in.
func dact(t *testing.T, tb Table, seat int, at time.Time, do any) (Table, []game.Emitted) {
	t.Helper()
	return dactUnder(t, Rules{}, tb, seat, at, do)
}

// dactUnder is dact under the rules r (an older version: Under).
func dactUnder(t *testing.T, r Rules, tb Table, seat int, at time.Time, do any) (Table, []game.Emitted) {
	t.Helper()
	if st := r.Status(tb); !slices.Contains(st.ToAct, seat) && seat != game.System {
		t.Fatalf("%+v: seat %d is not to act (%v)", do, seat, st.ToAct)
	}
	evs, err := r.Decide(tb, game.Action{Seat: seat, At: at, Do: do})
	if err != nil {
		t.Fatalf("seat %d %+v: %v", seat, do, err)
	}
	var st game.State = tb
	for _, e := range evs {
		if err := r.Audit(st, e.Event); err != nil {
			t.Fatalf("seat %d %+v: Audit refuses %T: %v", seat, do, e.Event, err)
		}
		if e.Visibility != r.Sight(e.Event) {
			t.Fatalf("%T emitted as %v, Sight says %v", e.Event, e.Visibility, r.Sight(e.Event))
		}
		st = r.Evolve(st, e.Event)
	}
	return st.(Table), evs
}

// dmoves plays moves, each "seat:move", at t0.
func dmoves(t *testing.T, tb Table, moves ...string) Table {
	t.Helper()
	for _, m := range moves {
		seat, notation, _ := strings.Cut(m, ":")
		tb, _ = dact(t, tb, int(seat[0]-'0'), t0, game.Move{Notation: notation})
	}
	return tb
}

// drefused checks that seat's do is refused with code, and returns the reason.
func drefused(t *testing.T, tb Table, seat int, do any, code game.Code) string {
	t.Helper()
	_, err := Rules{}.Decide(tb, game.Action{Seat: seat, At: t0, Do: do})
	if game.CodeOf(err) != code {
		t.Fatalf("seat %d %+v: got %v, want %s", seat, do, err, code)
	}
	return err.(*game.Error).Reason
}

// Four seats, two teams: partners on different boards with opposite colours; rule 6's
// clock of 20+5 by default; doubles are classic.
func TestDoublesSeating(t *testing.T) {
	r := Rules{}
	plan, err := r.Plan(game.Options{"boards": "2"})
	if err != nil || plan.Seats != 4 || !slices.Equal(plan.Teams, []int{0, 1, 1, 0}) {
		t.Fatalf("plan %+v, %v: want four seats, teams 0+3 and 1+2", plan, err)
	}
	for seat := range 4 {
		p := partnerOf(seat)
		if teamOf(p) != teamOf(seat) || boardOf(p) == boardOf(seat) || localOf(p) == localOf(seat) {
			t.Errorf("seat %d's partner %d: same team, other board, other colour", seat, p)
		}
	}
	for _, bad := range []game.Options{{"boards": "3"}, {"boards": "2", "reaction": "5"}} {
		if _, err := r.Plan(bad); game.CodeOf(err) != game.BadInput {
			t.Errorf("options %v: %v, want BAD_USER_INPUT", bad, err)
		}
	}
	evs, err := r.Setup(game.Setup{Plan: plan, Options: game.Options{"boards": "2"}, Seed: []byte("seat"), At: t0})
	if err != nil {
		t.Fatal(err)
	}
	if c := evs[0].Event.(GameStarted).Clock; c == nil || c.String() != "20+5" {
		t.Fatalf("the default clock of two boards is %v, want 20+5", c)
	}
}

// One deck for the table: the four hands are dealt from it, one card at a time. The
// classic deck has 33 cards (no reactions), so "up to ten" deals 9, 8, 8 and 8 and
// spends the deck. Each hand is its seat's secret, its partner's too.
func TestDoublesDealOneDeck(t *testing.T) {
	r := Rules{}
	evs, err := r.Setup(game.Setup{Plan: game.Plan{Seats: 4, Teams: doublesTeams}, Options: game.Options{"boards": "2"}, Seed: []byte("deal"), At: t0})
	if err != nil {
		t.Fatal(err)
	}
	var st game.State
	var all []string
	for _, e := range evs {
		if err := r.Audit(st, e.Event); err != nil {
			t.Fatalf("%T: %v", e.Event, err)
		}
		if d, ok := e.Event.(CardsDealt); ok {
			if e.Visibility != visibility.Seat(d.Seat) || len(d.Cards) != []int{9, 8, 8, 8}[d.Seat] {
				t.Fatalf("seat %d dealt %d cards visible to %v", d.Seat, len(d.Cards), e.Visibility)
			}
			all = append(all, d.Cards...)
		}
		st = r.Evolve(st, e.Event)
	}
	slices.Sort(all)
	if want := slices.Sorted(slices.Values(classicDeck())); !slices.Equal(all, want) {
		t.Fatal("the four hands are not the table's one deck")
	}
	tb := st.(Table)
	if len(tb.Deck) != 0 {
		t.Fatalf("the deck holds %d cards after the deal", len(tb.Deck))
	}
	v := r.View(tb, game.Viewpoint{Seats: []int{0}, Teams: []int{0}}).(*View)
	mine := tb.Boards[0].Hands[0]
	for _, hc := range v.Hand {
		if hc.Card != mine[hc.Slot] {
			t.Fatalf("seat 0 sees %s in slot %d, its hand holds %s", hc.Card, hc.Slot, mine[hc.Slot])
		}
	}
	if len(v.Cards) != 4 || v.Cards[3].HandSize != 8 {
		t.Fatalf("seat 0 sees the seats' cards as %+v", v.Cards)
	}
}

// A capture passes the piece to the partner, who drops it on its board instead of moving
// (standard bughouse: no pawn on the first or last rank).
//
//	board A: 1. e4 d5 2. exd5 — a black pawn passes to seat 3, Black on board B
//	board B: 1. Nf3, then seat 3 drops the pawn on e5
func TestCapturesPassToThePartner(t *testing.T) {
	r := Rules{}
	tb := doubles(t, noSaves, nil)
	tb = dmoves(t, tb, "0:e4", "1:d5")
	tb, evs := dact(t, tb, 0, t0, game.Move{Notation: "exd5"})
	if mv := evs[0].Event.(MovePlayed); mv.Passes != "p" || mv.Board != 0 {
		t.Fatalf("exd5 recorded as %+v: it passes a black pawn", mv)
	}
	if fen := tb.Boards[1].Pos.FEN(); !strings.Contains(fen, "[p]") {
		t.Fatalf("board B is %s: Black holds the pawn", fen)
	}
	tb = dmoves(t, tb, "2:Nf3")
	v := r.View(tb, game.Viewpoint{Seats: []int{3}, Teams: []int{0}}).(*View)
	if !slices.Contains(v.Board.LegalMoves, "P@e5") || slices.Contains(v.Board.LegalMoves, "P@e1") {
		t.Fatalf("seat 3's legal moves %v: P@e5 but never a pawn on the first rank", v.Board.LegalMoves)
	}
	if got := v.Boards[1].Pockets; got != [2]string{"", "P"} {
		t.Fatalf("board B's pockets are %q, want Black's pawn", got)
	}
	drefused(t, tb, 3, game.Move{Notation: "P@e1"}, game.IllegalMove)
	drefused(t, tb, 3, OnBoard{Board: 0, Do: game.Move{Notation: "P@e5"}}, game.BadInput)
	tb, _ = dact(t, tb, 3, t0, OnBoard{Board: 1, Do: game.Move{Notation: "P@e5"}})
	if fen := tb.Boards[1].Pos.FEN(); !strings.HasPrefix(fen, "rnbqkbnr/pppppppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R[]") {
		t.Fatalf("board B after the drop: %s", fen)
	}
	if rec := r.MoveList(tb); !slices.Equal(rec, []string{"A:e4", "A:d5", "A:exd5", "B:Nf3", "B:P@e5"}) {
		t.Fatalf("the table's record is %v", rec)
	}
}

// Either board's mate ends the match for both teams: fool's mate on board A, while board
// B has not moved.
func TestAMateOnOneBoardEndsTheMatch(t *testing.T) {
	r := Rules{}
	tb := dmoves(t, doubles(t, noSaves, nil), "0:f3", "1:e5", "0:g4", "1:Qh4")
	st := r.Status(tb)
	if !st.Over || st.Outcome.Reason != "checkmate" || !slices.Equal(st.Outcome.Winners, []int{1, 2}) {
		t.Fatalf("status %+v: team 1 (seats 1 and 2) wins by mate", st)
	}
	for seat := range 4 {
		if plays := r.View(tb, game.Viewpoint{Seats: []int{seat}}).Plays(); len(plays) != 0 {
			t.Fatalf("seat %d may still play %v", seat, plays)
		}
	}
	drefused(t, tb, 2, game.Move{Notation: "e4"}, game.IllegalMove)
}

// Each board has its clock; the match's deadline is the earlier; a flag on either board
// ends the match, and an action on one board after the other's flag fell finds it.
func TestAFlagOnOneBoardEndsTheMatch(t *testing.T) {
	r := Rules{}
	c := clock.Setup{InitialMs: 60_000}
	tb := doubles(t, noSaves, &c)
	tb, _ = dact(t, tb, 0, t0.Add(time.Second), game.Move{Notation: "e4"})
	st := r.Status(tb)
	if !slices.Equal(st.ToAct, []int{1, 2}) || !st.Deadline.Equal(t0.Add(time.Minute)) {
		t.Fatalf("status %+v: seats 1 and 2 to act, until board B's deadline", st)
	}
	late, evs := dact(t, tb, 1, t0.Add(time.Minute+time.Second/2), game.Move{Notation: "e5"})
	if f, ok := evs[0].Event.(clock.FlagFell); !ok || f.Seat != 2 || !f.At.Equal(t0.Add(time.Minute)) {
		t.Fatalf("seat 1's move after board B's deadline gives %+v, want seat 2's flag at that deadline", evs)
	}
	if st := r.Status(late); !st.Over || st.Outcome.Reason != "timeout" || !slices.Equal(st.Outcome.Winners, []int{0, 3}) {
		t.Fatalf("status %+v: team 0 wins on time", st)
	}
	timed, evs := dact(t, tb, game.System, t0.Add(time.Minute+3*time.Second), game.Timeout{Deadline: t0.Add(time.Minute)})
	if f, ok := evs[0].Event.(clock.FlagFell); !ok || f.Seat != 2 || !f.At.Equal(t0.Add(time.Minute)) || !r.Status(timed).Over {
		t.Fatalf("the timeout gives %+v", evs)
	}
	drefused(t, tb, game.System, game.Timeout{Deadline: t0.Add(2 * time.Minute)}, game.Conflict)
}

// The team channel: a fixed set of signals, seen by the team alone, in the views as in
// the events (Sight); no free text.
func TestSignalsAreTheTeamsAlone(t *testing.T) {
	r := Rules{}
	tb := doubles(t, noSaves, nil)
	tb, evs := dact(t, tb, 0, t0, SendSignal{Signal: "save-ready"})
	if evs[0].Visibility != visibility.Team(0) {
		t.Fatalf("a signal of seat 0 is seen by %v, want team 0", evs[0].Visibility)
	}
	drefused(t, tb, 0, SendSignal{Signal: "take his queen"}, game.BadInput)
	drefused(t, tb, 0, SendSignal{Signal: "save-ready"}, game.Conflict)
	for _, p := range []game.Viewpoint{{Seats: []int{3}, Teams: []int{0}}, {Seats: []int{0}, Teams: []int{0}}} {
		if v := r.View(tb, p).(*View); !slices.Equal(v.Signals, []Signal{{Seat: 0, Signal: "save-ready"}}) {
			t.Fatalf("team 0's seat %v sees %v", p.Seats, v.Signals)
		}
	}
	for _, p := range []game.Viewpoint{{Seats: []int{1}, Teams: []int{1}}, {Seats: []int{2}, Teams: []int{1}}, {}} {
		if v := r.View(tb, p).(*View); len(v.Signals) != 0 {
			t.Fatalf("%v sees team 0's signals %v", p.Seats, v.Signals)
		}
	}
}

// The table's deck runs out: a player that lays the last card of its hand draws, and
// the discard is shuffled into a new deck first (server-only), from the match's key.
func TestTheDiscardIsReshuffledWhenTheDeckRunsOut(t *testing.T) {
	deck := slices.DeleteFunc(classicDeck(), func(c string) bool { return c == "banish" })
	tb := doubles(t, [4][]string{{"banish"}, deck[:13], deck[13:26], deck[26:]}, nil)
	if len(tb.Deck) != 0 {
		t.Fatalf("the deck holds %v", tb.Deck)
	}
	tb, evs := dact(t, tb, 0, t0, cards.PlayCard{Card: "banish", Slot: -1, Targets: []string{"d7"}})
	var types []string
	for _, e := range evs {
		types = append(types, e.Event.EventType())
	}
	if !slices.Equal(types, []string{"CardPlayed", "DeckReshuffled", "CardDrawn"}) {
		t.Fatalf("laying the last card gives %v", types)
	}
	if evs[1].Visibility != visibility.Server || evs[2].Visibility != visibility.Seat(0) {
		t.Fatal("the new deck is not the server's, or the draw not the drawer's alone")
	}
	if d := evs[2].Event.(CardDrawn); d.Card != "banish" || (CardDrawn{Seat: 0}) != d.Shadow() {
		t.Fatalf("seat 0 drew %+v", d)
	}
	if h := tb.Boards[0].Hands[0]; !slices.Equal(h, []string{"", "banish"}) || tb.Shuffles != 1 {
		t.Fatalf("seat 0's hand is %v after %d reshuffles", h, tb.Shuffles)
	}
}

// Cards across boards: a card acts on its own board, and Echo repeats the last card laid
// on its own board, not on the other: here none, so it has no effect.
func TestEchoRepeatsItsOwnBoard(t *testing.T) {
	tb := doubles(t, [4][]string{{"echo", "frost"}, {"wall"}, {"banish", "truce"}, {"paralysis"}}, nil)
	tb, _ = dact(t, tb, 2, t0, cards.PlayCard{Card: "banish", Slot: -1, Targets: []string{"d7"}})
	tb, evs := dact(t, tb, 0, t0, cards.PlayCard{Card: "echo", Slot: -1, Targets: []string{}})
	if p := evs[0].Event.(CardPlayed); p.Result != NoEffect || p.Board != 0 {
		t.Fatalf("Echo on board A after a card on board B: %+v", p)
	}
	if a, b := tb.Boards[0].Pos.FEN(), tb.Boards[1].Pos.FEN(); !strings.Contains(a, "/pppppppp/") || strings.Contains(b, "/pppppppp/") {
		t.Fatalf("boards %s and %s: banish took board B's d7 pawn only", a, b)
	}
}

// Cards across boards: a square a card closes refuses a drop there, and a piece a card
// takes off the board leaves the game (only a move's capture passes to the partner).
//
//	board A: 1. e4 d5 2. exd5 — Dee (seat 3, Black on board B) holds a pawn
//	board B: Cid (seat 2) lays Wall on e5, then Banish on Dee's d7 pawn
func TestCardsAcrossBoards(t *testing.T) {
	tb := doubles(t, [4][]string{{"frost"}, {"truce"}, {"wall", "banish"}, {"paralysis"}}, nil)
	tb = dmoves(t, tb, "0:e4", "1:d5", "0:exd5")
	tb, _ = dact(t, tb, 2, t0, cards.PlayCard{Card: "wall", Slot: -1, Targets: []string{"e5"}})
	why := drefused(t, tb, 3, game.Move{Notation: "P@e5"}, game.IllegalMove)
	if !strings.Contains(why, "card") {
		t.Fatalf("a drop on a walled square refused as %q: say the card bars it", why)
	}
	tb = dmoves(t, tb, "3:P@e6")
	tb, evs := dact(t, tb, 2, t0, cards.PlayCard{Card: "banish", Slot: -1, Targets: []string{"d7"}})
	if p := evs[0].Event.(CardPlayed); p.Result != Resolved || p.Board != 1 || p.Seat != 2 {
		t.Fatalf("Banish on board B: %+v", p)
	}
	if a := tb.Boards[0].Pos.FEN(); !strings.Contains(a, "[]") {
		t.Fatalf("board A is %s: a banished pawn passes to nobody", a)
	}
}

// arbiter replay draws both boards of a table with their seats and pockets.
func TestDoublesDiagram(t *testing.T) {
	tb := dmoves(t, doubles(t, noSaves, nil), "0:e4", "1:d5", "0:exd5")
	d := Rules{}.Diagram(tb)
	for _, want := range []string{
		"board A: seat 0 White (in hand \"\"), seat 1 Black (in hand \"\")\n 8  r n b q k b n r\n 7  p p p . p p p p\n",
		" 5  . . . P . . . .\n",
		"board B: seat 2 White (in hand \"\"), seat 3 Black (in hand \"P\")\n 8  r n b q k b n r\n",
	} {
		if !strings.Contains(d, want) {
			t.Fatalf("the diagram\n%s\nlacks\n%s", d, want)
		}
	}
}

// The audit (arbiter verify) derives what the table adds and refuses a forgery of it: a
// capture that passes another piece, a draw that is not the deck's top, a reshuffle in
// another order, a move on one board after the other board's flag fell, a signal of the
// wrong kind.
func TestTheAuditRefusesForgedDoubles(t *testing.T) {
	r := Rules{}
	tb := dmoves(t, doubles(t, noSaves, nil), "0:e4", "1:d5")
	if err := r.Audit(tb, MovePlayed{Seat: 0, Board: 0, UCI: "e4d5", SAN: "exd5", FEN: "x", Passes: "q"}); err == nil {
		t.Fatal("a capture of a pawn passing a queen passes the audit")
	}
	deck := slices.DeleteFunc(classicDeck(), func(c string) bool { return c == "banish" })
	spent := doubles(t, [4][]string{{"banish"}, deck[:13], deck[13:26], deck[26:]}, nil)
	if err := r.Audit(spent, CardDrawn{Seat: 0, Card: "banish"}); err == nil {
		t.Fatal("a draw from an empty deck and a full hand passes the audit")
	}
	after, evs := dact(t, spent, 0, t0, cards.PlayCard{Card: "banish", Slot: -1, Targets: []string{"d7"}})
	laid := r.Evolve(spent, evs[0].Event)
	if err := r.Audit(laid, DeckReshuffled{Count: 1, Cards: []string{"wall"}}); err == nil {
		t.Fatal("a reshuffle of cards the discard does not hold passes the audit")
	}
	if err := r.Audit(r.Evolve(laid, evs[1].Event), CardDrawn{Seat: 0, Card: "wall"}); err == nil {
		t.Fatal("a draw that is not the top of the deck passes the audit")
	}
	if err := r.Audit(after, Signalled{Seat: 1, Signal: "resign now"}); err == nil {
		t.Fatal("a signal outside the set passes the audit")
	}
	c := clock.Setup{InitialMs: 60_000}
	timed := doubles(t, noSaves, &c)
	late := MovePlayed{Seat: 0, Board: 0, UCI: "e2e4", SAN: "e4", FEN: "x", Stamp: clock.Stamp{At: t0.Add(time.Minute)}}
	if err := r.Audit(timed, late); err == nil || !strings.Contains(err.Error(), "flag of board B") {
		t.Fatalf("a move on board A after board B's flag fell: %v", err)
	}
}
