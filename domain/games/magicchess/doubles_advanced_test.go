package magicchess

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
)

// The advanced mode in doubles: a board's reaction window is its opponent's across that
// board alone, the board's clocks stop while it is open and the other board plays on; a
// capture's piece passes when its window closes, unless a reaction brought it back; a
// rewind keeps a piece that came from the other board meanwhile; the window says nothing
// of the hand to anyone.

// advDoubles is an advanced doubles table in play from t0 with the given hands by seat,
// reaction windows of 10 seconds and the clock clk ("" for none).
func advDoubles(t testing.TB, hands [4][]string, clk string) Table {
	t.Helper()
	return advDoublesUnder(t, Rules{}, hands, clk)
}

// advDoublesUnder is advDoubles under the rules r (an older version: Under).
func advDoublesUnder(t testing.TB, r Rules, hands [4][]string, clk string) Table {
	t.Helper()
	var c *clock.Setup
	if clk != "" {
		s, err := clock.Parse(clk)
		if err != nil {
			t.Fatal(err)
		}
		c = &s
	}
	deck := deckOf(Advanced)
	var st game.State = r.Evolve(nil, GameStarted{FEN: doublesFEN, Mode: Advanced, HandSize: MaxHand, DeckSize: len(deck), PlanEnds: t0,
		Clock: c, Boards: 2, ReactionMs: DefaultReaction.Milliseconds()})
	st = r.Evolve(st, DeckShuffled{Cards: deck, Key: reshuffleKey(fairness.Current, []byte("a test's match seed of 32 bytes.")), Fairness: int(fairness.Current)})
	for seat, h := range hands {
		st = r.Evolve(st, CardsDealt{Seat: seat, Count: len(h), Cards: h})
	}
	return r.Evolve(st, PlanningEnded{At: t0, Reason: "time"}).(Table)
}

// dwindow is the window open on board b, checked to be of kind for seat (the table's).
func dwindow(t *testing.T, tb Table, b int, kind string, seat int) *Window {
	t.Helper()
	w := tb.Boards[b].Window
	if w == nil || w.Kind != kind || seatOn(b, w.Seat) != seat {
		t.Fatalf("board %d's window %+v, want %s for seat %d", b, w, kind, seat)
	}
	return w
}

// dtimeout lets the engine's timeout of deadline come.
func dtimeout(t *testing.T, tb Table, deadline time.Time) Table {
	t.Helper()
	tb, _ = dact(t, tb, game.System, deadline, game.Timeout{Deadline: deadline})
	return tb
}

// Who reacts: the opponent across the board where the card was laid, alone; the other
// board's players, the layer's partner among them, may not, and play on meanwhile. The
// board's clocks stop while its window is open; the other board's run.
func TestADoublesWindowIsTheBoardsOpponents(t *testing.T) {
	tb := advDoubles(t, [4][]string{{"truce", "frost"}, {"counterspell", "wall"}, {"counterspell", "swamp"}, {"counterspell", "paralysis"}}, "5+0")
	tb, evs := dact(t, tb, 0, sec(2), cards.PlayCard{Card: "truce", Slot: -1, Targets: []string{}})
	opened := evs[len(evs)-1].Event.(ReactionWindowOpened)
	if opened.Seat != 1 || opened.Board != 0 || opened.Window != R1 {
		t.Fatalf("the window opened for %+v, want seat 1 on board 0", opened)
	}
	w := dwindow(t, tb, 0, R1, 1)
	st := Rules{}.Status(tb)
	if !slices.Equal(st.ToAct, []int{2}) || st.Phase != "reaction-R1" || !st.Deadline.Equal(w.Answers) {
		t.Fatalf("in board A's reading time: %+v, want seat 2 (board B) to act until %s", st, w.Answers)
	}
	// Board B plays on; none of its players may answer board A's card.
	tb = dmovesAt(t, tb, sec(3), "2:e4")
	for _, seat := range []int{2, 3} {
		if !slices.Contains(Rules{}.Status(tb).ToAct, seat) {
			continue
		}
		drefusedAt(t, tb, seat, sec(3), React{Card: "counterspell", Slot: -1}, game.IllegalMove)
	}
	drefusedAt(t, tb, 0, sec(3), game.Move{Notation: "d4"}, game.NotYourTurn)
	tb = dtimeout(t, tb, w.Answers)
	if st := (Rules{}).Status(tb); !slices.Equal(st.ToAct, []int{1, 3}) || !slices.Equal(st.Choices, []string{Pass}) {
		t.Fatalf("answers taken: %+v, want seats 1 (the window) and 3 (board B) to act", st)
	}
	drefusedAt(t, tb, 3, sec(5), React{Card: "counterspell", Slot: -1}, game.IllegalMove)
	v := Rules{}.View(tb, game.Viewpoint{Seats: []int{1}, Teams: []int{1}}).(*View)
	if v.Reaction == nil || v.Reaction.Seat != 1 || v.Boards[0].Reaction == nil || v.Boards[0].Reaction.Seat != 1 || v.Boards[0].Phase != "reaction-R1" || v.Boards[1].Reaction != nil {
		t.Fatalf("seat 1's view of the window: %+v, boards %+v", v.Reaction, v.Boards)
	}
	if v.Boards[0].Clock.Running != -1 || v.Boards[1].Clock.Running != 1 { // a board's reading numbers its seats 0 (White) and 1
		t.Fatalf("clocks in board A's window: A runs %d, B runs %d", v.Boards[0].Clock.Running, v.Boards[1].Clock.Running)
	}
	plays := v.Plays()
	if !slices.ContainsFunc(plays, func(p game.Play) bool { r, ok := p.Do.(React); return ok && r.Card == "counterspell" && p.Seat == 1 }) {
		t.Fatalf("seat 1's plays in its window: %+v", plays)
	}
	tb, evs = dact(t, tb, 1, sec(5), React{Card: "counterspell", Slot: -1, Targets: []string{}})
	if r := result(t, evs); r != Cancelled {
		t.Fatalf("the truce countered resolves as %s", r)
	}
	// White on board A thought 2 s; the 3 s of the window are not counted.
	a := tb.Boards[0].Clock
	if a.Left[0] != 5*time.Minute-2*time.Second || !a.Deadline(1).Equal(sec(5).Add(5*time.Minute)) {
		t.Fatalf("board A's clock after the window: %v left, Black's deadline %s", a.Left, a.Deadline(1))
	}
	if b := tb.Boards[1].Clock; b.Left[0] != 5*time.Minute-3*time.Second || !b.Deadline(1).Equal(sec(3).Add(5*time.Minute)) {
		t.Fatalf("board B's clock ran on: %v left, Black's deadline %s", b.Left, b.Deadline(1))
	}
}

// A board's window stops its clocks: a deadline that comes while it is open is no flag,
// and an action on the other board at that time is played, not met by a flag.
func TestAWindowStopsItsBoardsFlag(t *testing.T) {
	tb := advDoubles(t, [4][]string{{"truce"}, {"wall", "frost"}, {"swamp"}, {"paralysis"}}, "0.1+0") // 6 s each
	tb = dmovesAt(t, tb, sec(1), "2:e4")
	tb, _ = dact(t, tb, 0, sec(5), cards.PlayCard{Card: "truce", Slot: -1, Targets: []string{}})
	// Board A's White would flag at 6 s, but its window is open from 5 s to 15 s.
	tb = dmovesAt(t, tb, sec(6.5), "3:e5")
	if _, over := tb.outcome(); over {
		t.Fatal("board A's flag fell in its window")
	}
}

// A capture that opens a window passes its piece when the window closes: to the partner
// if the window was passed, to nobody if a reaction brought it back (Rewind, Deflection).
func TestACapturesPieceWaitsForItsWindow(t *testing.T) {
	hands := [4][]string{{"frost"}, {"rewind", "deflect", "wall"}, {"truce"}, {"paralysis"}}
	capture := func() Table {
		tb := advDoubles(t, hands, "")
		tb = dmovesAt(t, tb, sec(1), "0:e4", "1:d5")
		tb = dmovesAt(t, tb, sec(2), "0:exd5")
		dwindow(t, tb, 0, R2, 1)
		if got := tb.Boards[1].Pos.Pocket(chess.Black).String(); got != "" || tb.Passing[0] != "p" {
			t.Fatalf("board B's black pocket %q during the capture's window (passing %q)", got, tb.Passing[0])
		}
		return dtimeout(t, tb, tb.Boards[0].Window.Answers)
	}
	tb, _ := dact(t, capture(), 1, sec(5), game.Choose{Option: Pass})
	if got := tb.Boards[1].Pos.Pocket(chess.Black).String(); got != "P" || tb.Passing[0] != "" {
		t.Fatalf("after the pass board B's black pocket holds %q", got)
	}
	for _, reaction := range []React{{Card: "rewind", Slot: -1, Targets: []string{}}, {Card: "deflect", Slot: -1, Targets: []string{"d6"}}} {
		tb, _ := dact(t, capture(), 1, sec(5), reaction)
		if got := tb.Boards[1].Pos.Pocket(chess.Black).String(); got != "" || tb.Passing[0] != "" {
			t.Fatalf("after %s the piece passed: board B's black pocket holds %q", reaction.Card, got)
		}
	}
}

// Whether a captured piece passes to the partner when a reaction closes the capture's
// window is the catalog's word (UndoesCapture), and the word must be right: every
// reaction of the catalog that the rules allow after exd5, on each of its choices of
// targets, leaves the black pawn either back on board A (the card undoes the capture, and
// is marked so) or in Black's pocket on board B (it is not), never both and never
// neither. Each marked card is met here, so a new card that brings a captured piece back
// without the mark, or wears it wrongly, fails here instead of doubling or losing a piece.
func TestACapturedPieceIsBackOrPassedAsTheCatalogSays(t *testing.T) {
	pawns := func(b State) int {
		placement, _, _ := strings.Cut(b.Pos.FEN(), " ")
		placement, _, _ = strings.Cut(placement, "[") // the pockets
		return strings.Count(placement, "p")
	}
	met := map[string]int{}
	for _, e := range Entries() {
		if e.Window != Reaction {
			continue
		}
		tb := advDoubles(t, [4][]string{{"frost"}, {e.ID, "wall"}, {"truce"}, {"paralysis"}}, "")
		tb = dmovesAt(t, tb, sec(1), "0:e4", "1:d5")
		tb = dmovesAt(t, tb, sec(2), "0:exd5")
		dwindow(t, tb, 0, R2, 1)
		tb = dtimeout(t, tb, tb.Boards[0].Window.Answers)
		for _, p := range (Rules{}).View(tb, game.Viewpoint{Seats: []int{1}}).Plays() {
			r, ok := p.Do.(React)
			if !ok || r.Card != e.ID {
				continue
			}
			after, _ := dact(t, tb, 1, sec(5), r)
			back, passed := pawns(after.Boards[0]) == 8, after.Boards[1].Pos.Pocket(chess.Black).String() != ""
			switch {
			case back == passed:
				t.Errorf("%s on %v: the pawn back on board A %v, passed to board B %v", e.ID, r.Targets, back, passed)
			case back != e.UndoesCapture:
				t.Errorf("%s on %v undoes the capture: %v; the catalog says %v", e.ID, r.Targets, back, e.UndoesCapture)
			}
			met[e.ID]++
		}
	}
	for _, e := range Entries() {
		if e.UndoesCapture && met[e.ID] == 0 {
			t.Errorf("%s, marked as undoing a capture, is never laid after exd5 here", e.ID)
		}
	}
	if _, err := readCatalog(bytes.Replace(catalogJSON, []byte(`"reaction": "",`), []byte(`"reaction": "", "undoesCapture": true,`), 1)); err == nil || !strings.Contains(err.Error(), "undoes a capture") {
		t.Errorf("a card that is no reaction marked as undoing a capture: %v", err)
	}
	t.Logf("laid after exd5: %v", met)
}

// Rewind restores its board as it was before the move, but a piece that came to that
// board's pocket from the other board while the window was open stays there.
func TestARewindKeepsAPieceThatCameMeanwhile(t *testing.T) {
	tb := advDoubles(t, [4][]string{{"frost"}, {"rewind", "wall"}, {"truce"}, {}}, "")
	tb = dmovesAt(t, tb, sec(1), "0:e4", "1:d5", "2:e4", "3:d5")
	before := tb.Boards[0].Pos.FEN()
	tb = dmovesAt(t, tb, sec(2), "0:exd5")
	dwindow(t, tb, 0, R2, 1)
	tb = dmovesAt(t, tb, sec(3), "2:exd5") // seat 3 holds no card: no window, the pawn passes at once to seat 1
	if got := tb.Boards[0].Pos.Pocket(chess.Black).String(); got != "P" {
		t.Fatalf("board A's black pocket %q after board B's capture", got)
	}
	tb = dtimeout(t, tb, tb.Boards[0].Window.Answers)
	tb, _ = dact(t, tb, 1, sec(5), React{Card: "rewind", Slot: -1, Targets: []string{}})
	a := tb.Boards[0]
	if got := a.Pos.Pocket(chess.Black).String(); got != "P" || a.toAct() != 0 || a.Record[len(a.Record)-1] != "[rewind]" {
		t.Fatalf("board A after the rewind: %s, record %v", a.Pos.FEN(), a.Record)
	}
	if strings.Split(a.Pos.FEN(), "[")[0] != strings.Split(before, "[")[0] {
		t.Fatalf("board A after the rewind: %s, want the position before exd5, %s", a.Pos.FEN(), before)
	}
	dmovesAt(t, tb, sec(6), "0:d4", "1:P@e6")
}

// dmovesAt plays moves, each "seat:move", at at.
func dmovesAt(t *testing.T, tb Table, at time.Time, moves ...string) Table {
	t.Helper()
	for _, m := range moves {
		seat, notation, _ := strings.Cut(m, ":")
		tb, _ = dact(t, tb, int(seat[0]-'0'), at, game.Move{Notation: notation})
	}
	return tb
}

// drefusedAt checks that seat's do at at is refused with code, and returns the reason.
func drefusedAt(t *testing.T, tb Table, seat int, at time.Time, do any, code game.Code) string {
	t.Helper()
	_, err := Rules{}.Decide(tb, game.Action{Seat: seat, At: at, Do: do})
	if game.CodeOf(err) != code {
		t.Fatalf("seat %d %+v: got %v, want %s", seat, do, err, code)
	}
	return err.(*game.Error).Reason
}

// A window says nothing of the hand of the seat it is offered to: with a reaction in hand
// or none, the events, the status and the views of the three other seats and of a
// spectator are the same.
func TestADoublesWindowIsOfferedWhateverTheHand(t *testing.T) {
	look := func(hand1 []string) []any {
		tb := advDoubles(t, [4][]string{{"frost"}, hand1, {"truce"}, {"paralysis"}}, "5+0")
		var evs []game.Emitted
		for _, m := range []struct {
			seat int
			at   float64
			do   any
		}{{0, 1, game.Move{Notation: "e4"}}, {1, 2, game.Move{Notation: "d5"}}, {2, 2, game.Move{Notation: "e4"}}, {0, 3, game.Move{Notation: "exd5"}}} {
			var more []game.Emitted
			tb, more = dact(t, tb, m.seat, sec(m.at), m.do)
			evs = append(evs, more...)
		}
		tb = dtimeout(t, tb, tb.Boards[0].Window.Answers)
		out := []any{Rules{}.Status(tb)}
		for _, e := range evs {
			out = append(out, e.Event, e.Visibility)
		}
		for _, p := range []game.Viewpoint{{Seats: []int{0}, Teams: []int{0}}, {Seats: []int{2}, Teams: []int{1}}, {Seats: []int{3}, Teams: []int{0}}, {}} {
			v := Rules{}.View(tb, p).(*View)
			v.hand, v.more = nil, nil
			out = append(out, *v)
		}
		return out
	}
	a, b := look([]string{"counterspell", "rewind"}), look([]string{"teleport", "swap"})
	if a[0].(game.Status).Phase != "reaction-R2" {
		t.Fatalf("no window: %+v", a[0])
	}
	for i := range a {
		if !reflect.DeepEqual(a[i], b[i]) {
			t.Fatalf("what the others see differs with seat 1's hand:\n%+v\n%+v", a[i], b[i])
		}
	}
}

// Seeded random advanced doubles: the seats to act choose among the plays their own views
// list, and time passes now and then to a deadline (a reading time, a lapse). Every event
// passes the audit, no king is lost, and the side not to move is never in check on
// either board. Holds for every seed.
func TestRandomAdvancedDoubles(t *testing.T) {
	r := Rules{}
	count := map[string]int{}
	for seed := range uint64(6) {
		rng := rand.New(rand.NewPCG(seed, 41))
		evs, err := r.Setup(game.Setup{Plan: game.Plan{Seats: 4, Teams: doublesTeams}, Options: game.Options{"mode": Advanced, "boards": "2", "clock": "off", "reaction": "2"},
			Seed: []byte(fmt.Sprint("advanced doubles ", seed)), At: t0})
		if err != nil {
			t.Fatal(err)
		}
		var st game.State
		for _, e := range evs {
			if err := r.Audit(st, e.Event); err != nil {
				t.Fatalf("the setup: %v", err)
			}
			st = r.Evolve(st, e.Event)
		}
		tb := r.Evolve(st, PlanningEnded{At: t0, Reason: "time"}).(Table)
		now := t0
		for n := 0; n < 400 && !r.Status(tb).Over; n++ {
			now = now.Add(100 * time.Millisecond)
			st := r.Status(tb)
			if len(st.ToAct) == 0 || rng.IntN(30) == 0 && !st.Deadline.IsZero() {
				if st.Deadline.IsZero() {
					t.Fatalf("nobody to act and no deadline: %+v", st)
				}
				now = st.Deadline
				tb = dtimeout(t, tb, st.Deadline)
				continue
			}
			seat := st.ToAct[rng.IntN(len(st.ToAct))]
			var mine, cardPlays []game.Play
			for _, p := range r.View(tb, game.Viewpoint{Seats: []int{seat}, Teams: []int{teamOf(seat)}}).(*View).Plays() {
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
			if len(cardPlays) > 0 && rng.IntN(3) > 0 {
				p = cardPlays[rng.IntN(len(cardPlays))]
			}
			var out []game.Emitted
			tb, out = dact(t, tb, seat, now, p.Do)
			for _, e := range out {
				count[e.Event.EventType()]++
			}
			for b, s := range tb.Boards {
				for _, c := range []chess.Color{chess.White, chess.Black} {
					if _, ok := s.Pos.KingSquare(c); !ok {
						t.Fatalf("seed %d: after %+v a king is gone from board %d", seed, p.Do, b)
					}
				}
				if s.Window == nil && s.kingAttacked(1-s.toAct()) {
					t.Fatalf("seed %d: after %+v the side not to move on board %d is in check (%s)", seed, p.Do, b, s.Pos.FEN())
				}
			}
		}
	}
	t.Logf("events: %v", count)
	for _, want := range []string{"ReactionWindowOpened", "ReactionPlayed", "ReactionPassed", "CardResolved", "CardDrawn", "DeckReshuffled"} {
		if count[want] == 0 {
			t.Errorf("no %s in six random advanced doubles", want)
		}
	}
}
