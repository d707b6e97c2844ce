package unfair

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
)

// One card per turn, only on one's own turn; a card that adds to the move leaves the same
// seat to act until its move comes, in the same command or in the next one.
func TestOneCardPerTurnAndTheMoveItOwes(t *testing.T) {
	start := table(t, "4k3/8/8/8/8/8/4N3/4K3 w - - 0 1", holding("shield", "wall"), holding("truce"))
	s, _ := playCard(t, start, "shield", at("e2"), "")
	if st := (Rules{}).Status(s); st.Phase != "move-after-card" || !slices.Equal(st.ToAct, []int{0}) {
		t.Fatalf("after a card that adds to the move: %+v", st)
	}
	if hc := handCard(t, s, 0, "wall"); hc.Playable || hc.Reason != "you have already played a card this turn" {
		t.Errorf("a second card: %+v", hc)
	}
	if why := refused(t, s, cards.PlayCard{Card: "wall", Slot: -1, Targets: at("e7")}, game.IllegalMove); !strings.Contains(why, "already played a card") {
		t.Errorf("a second card refused because %q", why)
	}
	s = move(t, s, "Kd2")
	if st := (Rules{}).Status(s); st.Phase != "play" || !slices.Equal(st.ToAct, []int{1}) {
		t.Fatalf("after the move: %+v", st)
	}
	if hc := handCard(t, s, 0, "wall"); hc.Playable || hc.Reason != "it is not your turn" {
		t.Errorf("White's card on Black's turn: %+v", hc)
	}
	// The same turn in one command.
	if one, _ := playCard(t, start, "shield", at("e2"), "Kd2"); board(one) != board(s) || one.toAct() != 1 {
		t.Errorf("card and move in one command: %s", one.Pos.FEN())
	}
	// A move that cannot follow refuses the whole command.
	refused(t, start, cards.PlayCard{Card: "shield", Slot: -1, Targets: at("e2"), Move: "zz"}, game.BadInput)
	refused(t, start, cards.PlayCard{Card: "shield", Slot: -1, Targets: at("e2"), Move: "Kf3"}, game.IllegalMove)
	// A card is played by its slot as well as by its ID.
	if bySlot, _ := act(t, start, cards.PlayCard{Slot: 1, Targets: at("e7")}); bySlot.Sides[0].Discard[0] != "wall" {
		t.Errorf("slot 1 played %v", bySlot.Sides[0].Discard)
	}
}

// What Decide refuses, with which code, leaving the state as it was.
func TestRefusals(t *testing.T) {
	s := table(t, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", holding("wall", "", "shield"), holding("truce"))
	for _, c := range []struct {
		do   any
		code game.Code
	}{
		{game.Move{Notation: "e2e5"}, game.IllegalMove},
		{game.Move{Notation: "Ke3"}, game.IllegalMove},
		{game.Move{Notation: "zz"}, game.BadInput},
		{game.ClaimDraw{}, game.BadInput},
		{game.Choose{Option: "keep"}, game.BadInput},
		{cards.PlayCard{Card: "joker", Slot: -1}, game.BadInput},
		{cards.PlayCard{Slot: 7}, game.BadInput},
		{cards.PlayCard{Slot: -1}, game.BadInput},
		{cards.PlayCard{Slot: 1}, game.IllegalMove},                                      // an empty slot
		{cards.PlayCard{Card: "teleport", Slot: -1}, game.IllegalMove},                   // not in the hand
		{cards.PlayCard{Card: "wall", Slot: -1, Targets: at("e9")}, game.BadInput},       // not a square
		{cards.PlayCard{Card: "wall", Slot: -1, Targets: at("e7", "e6")}, game.BadInput}, // one target too many
		{cards.PlayCard{Card: "wall", Slot: -1, Targets: at("e7"), Move: "e4"}, game.BadInput},
	} {
		refused(t, s, c.do, c.code)
	}
	if _, err := (Rules{}).Decide(s, game.Action{Seat: game.System, Do: game.Timeout{}}); game.CodeOf(err) != game.BadInput {
		t.Errorf("a timeout in an untimed game: %v", err)
	}
	for _, do := range []any{game.Move{Notation: "Kd7"}, cards.PlayCard{Card: "truce", Slot: -1}} {
		if _, err := (Rules{}).Decide(s, game.Action{Seat: 1, Do: do}); game.CodeOf(err) != game.NotYourTurn {
			t.Errorf("Black's %+v on White's turn: %v", do, err)
		}
	}
	if why := refused(t, marked(t, s, "e2", Sleep, 1), game.Move{Notation: "e4"}, game.IllegalMove); !strings.Contains(why, "barred this turn") {
		t.Errorf("a sleeping pawn's move refused because %q", why)
	}
}

// In check, only the cards that save the king are playable, each on the targets that do.
func TestInCheckOnlySavingCardsArePlayable(t *testing.T) {
	// The e8 rook checks the white king down the e-file.
	s := table(t, "4r2k/8/8/8/8/8/8/1N2K3 w - - 0 1", holding("teleport", "wall", "shield", "king-flight"), holding())
	if st := (Rules{}).Status(s); st.Phase != "check" || st.Over {
		t.Fatalf("status %+v", st)
	}
	want := map[string][][]string{
		"teleport":    {{"b1", "e2"}, {"b1", "e3"}, {"b1", "e4"}, {"b1", "e5"}, {"b1", "e6"}, {"b1", "e7"}},
		"king-flight": {{"e1", "c1"}, {"e1", "g1"}, {"e1", "c2"}, {"e1", "g2"}, {"e1", "c3"}, {"e1", "d3"}, {"e1", "f3"}, {"e1", "g3"}},
	}
	for _, hc := range (Rules{}).Hand(s, 0) {
		switch {
		case hc.Card == "wall" || hc.Card == "shield":
			if hc.Playable || hc.Reason != "your king is in check and this does not save it" {
				t.Errorf("%s in check: %+v", hc.Card, hc)
			}
		case !hc.Playable || !slices.EqualFunc(hc.Targets, want[hc.Card], slices.Equal):
			t.Errorf("%s: playable %v on %v, want %v", hc.Card, hc.Playable, hc.Targets, want[hc.Card])
		}
	}
	s, _ = playCard(t, s, "teleport", at("b1", "e4"), "")
	if board(s) != "4r2k/8/8/8/4N3/8/8/4K3" || s.Pos.InCheck() {
		t.Errorf("after the block: %s", s.Pos.FEN())
	}
}

// In check, a card that adds to the move is playable only if the card itself takes the
// king out of check (the rules: "seules les cartes qui t'en sortent restent jouables"); a
// legal move after it that would do so is not enough. The e8 rook checks the white king.
func TestInCheckACardThatAddsToTheMoveMustItselfSave(t *testing.T) {
	s := table(t, "4r2k/8/8/8/8/8/8/2N1K3 w - - 0 1", holding("gallop", "shield", "double-move", "sidestep"), holding())
	if hc := handCard(t, s, 0, "gallop"); !hc.Playable || !slices.EqualFunc(hc.Targets, [][]string{{"c1", "e2"}}, slices.Equal) {
		t.Errorf("gallop, whose jump to e2 blocks the check: %+v", hc)
	}
	for _, card := range []string{"shield", "double-move", "sidestep"} {
		if hc := handCard(t, s, 0, card); hc.Playable || hc.Reason != "your king is in check and this does not save it" {
			t.Errorf("%s, which saves nothing, though the king could move after it: %+v", card, hc)
		}
	}
	refused(t, s, cards.PlayCard{Card: "shield", Slot: -1, Targets: at("c1"), Move: "Kd2"}, game.IllegalMove)
	refused(t, s, cards.PlayCard{Card: "gallop", Slot: -1, Targets: at("c1", "d3"), Move: "Kd2"}, game.IllegalMove)
	s, _ = playCard(t, s, "gallop", at("c1", "e2"), "Kd2")
	if board(s) != "4r2k/8/8/8/8/8/3KN3/8" || s.toAct() != 1 {
		t.Errorf("after the block and the move: %s", s.Pos.FEN())
	}
}

// Mate on the board is mate only when no card in hand saves the king.
func TestMateOnlyWhenNoCardSaves(t *testing.T) {
	const foolsMate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
	mated := table(t, foolsMate, holding("wall", "poison", "shield"), holding())
	if st := (Rules{}).Status(mated); !st.Over || st.Outcome.Reason != "checkmate" || !slices.Equal(st.Outcome.Winners, []int{1}) {
		t.Fatalf("no card saves White: %+v", st)
	}
	if hc := handCard(t, mated, 0, "wall"); hc.Playable || hc.Reason != "the game is over" {
		t.Errorf("a card after mate: %+v", hc)
	}
	refused(t, mated, game.Move{Notation: "Kf2"}, game.IllegalMove)
	saved := table(t, foolsMate, holding("wall", "teleport"), holding())
	st := (Rules{}).Status(saved)
	if st.Over || st.Phase != "check" || !slices.Equal(st.ToAct, []int{0}) || len(legal(saved)) != 0 {
		t.Fatalf("a teleport saves White: %+v, moves %v", st, legal(saved))
	}
	hc := handCard(t, saved, 0, "teleport")
	if !hc.Playable || !slices.ContainsFunc(hc.Targets, func(tg []string) bool { return slices.Equal(tg, at("b1", "g3")) }) {
		t.Fatalf("teleport: %+v", hc)
	}
	for _, tg := range hc.Targets {
		if tg[1] != "f2" && tg[1] != "g3" {
			t.Errorf("teleport to %s does not block the h4 queen", tg[1])
		}
	}
	saved, _ = playCard(t, saved, "teleport", at("b1", "g3"), "")
	if st := (Rules{}).Status(saved); st.Over || !slices.Equal(st.ToAct, []int{1}) {
		t.Errorf("after the save: %+v", st)
	}
	if got := (Rules{}).MoveList(saved); !slices.Equal(got, []string{"[teleport b1→g3]"}) {
		t.Errorf("move list %v", got)
	}
}

// Stalemate is a draw only when no card can be played either.
func TestStalemate(t *testing.T) {
	const stale = "k7/8/1Q6/8/8/8/8/7K b - - 0 1"
	s := table(t, stale, holding(), holding("antidote"))
	if st := (Rules{}).Status(s); !st.Over || st.Outcome.Reason != "stalemate" || len(st.Outcome.Winners) != 0 {
		t.Fatalf("no move, no playable card: %+v", st)
	}
	s = table(t, stale, holding(), holding("truce"))
	if st := (Rules{}).Status(s); st.Over || st.Phase != "play" {
		t.Fatalf("a playable truce: %+v", st)
	}
	s, _ = playCard(t, s, "truce", at(), "")
	if st := (Rules{}).Status(s); st.Over || !slices.Equal(st.ToAct, []int{0}) {
		t.Errorf("after the truce: %+v", st)
	}
}

// A restriction that would leave the opponent no legal move is suspended for that turn.
func TestRestrictionsThatWouldStalemateAreSuspended(t *testing.T) {
	// No-man's land around e7 bars every square of the lone black king.
	s := table(t, bareKings, holding("no-mans-land"), holding())
	s, evs := playCard(t, s, "no-mans-land", at("e7"), "")
	if got := eventsOf[RestrictionsSuspended](evs); len(got) != 1 || got[0].Seat != 1 || !s.Suspended {
		t.Fatalf("suspended %+v", got)
	}
	if got := legal(s); !slices.Equal(got, []string{"e8d7", "e8d8", "e8e7", "e8f7", "e8f8"}) {
		t.Errorf("Black's moves: %v", got)
	}
	for _, m := range (Rules{}).Board(s).Marks {
		if m.Kind == "barred" && !strings.Contains(m.Note, "suspended") {
			t.Errorf("mark %+v does not say it is suspended", m)
		}
	}
	s = move(t, s, "Ke7")
	if s.Suspended || s.Bars[1].Card != "" {
		t.Errorf("the bars outlive Black's turn: %+v", s.Bars[1])
	}
	// Sleep too: Black's king is boxed in and its only pawn asleep.
	s = table(t, "k7/8/1Q6/8/8/8/p7/7K w - - 0 1", holding("sleep"), holding())
	s, evs = playCard(t, s, "sleep", at("a2"), "")
	if len(eventsOf[RestrictionsSuspended](evs)) != 1 || !slices.Contains(legal(s), "a2a1q") {
		t.Fatalf("a sleeping pawn as the only move: %v", legal(s))
	}
	s, evs = act(t, s, game.Move{Notation: "a1=Q+"})
	if woke := eventsOf[StatusEnded](evs); len(woke) != 1 || woke[0].Reason != "woke" {
		t.Errorf("the queen's check wakes her: %+v", woke)
	}
}

// The king is never destroyed nor changes sides: explosions spare it, no card aims at it.
func TestKingsAreNeverDestroyedNorConverted(t *testing.T) {
	s := table(t, "8/8/3k4/3n4/4K3/8/8/3R4 w - - 0 1", holding("desertion", "ambush", "push", "shackles"), holding())
	s = marked(t, s, "d5", Dynamite, 0)
	after, evs := act(t, s, game.Move{Notation: "Rxd5"})
	if board(after) != "8/8/3k4/8/4K3/8/8/8" {
		t.Errorf("after the blast %s", board(after))
	}
	if trig := eventsOf[StatusTriggered](evs); len(trig) != 1 || trig[0].Status != Dynamite || len(trig[0].Removed) != 1 || trig[0].Removed[0].Role != "R" {
		t.Errorf("blast %+v", trig)
	}
	kings := table(t, "8/8/3k4/8/4K3/8/8/8 w - - 0 1", holding("desertion", "ambush", "push", "shackles"), holding())
	for _, card := range []string{"desertion", "ambush", "push", "shackles"} {
		if hc := handCard(t, kings, 0, card); hc.Playable {
			t.Errorf("%s aims at %v with only the king to aim at", card, hc.Targets)
		}
	}
}

// The board shows statuses on their pieces and the squares and pieces that bind a seat.
func TestBoardMarks(t *testing.T) {
	s := table(t, "4k3/r7/8/8/8/8/4N3/4K3 w - - 0 1", holding("shackles"), holding())
	s = marked(t, marked(t, s, "e2", Poison, 0), "a7", Dynamite, 0)
	s, _ = playCard(t, s, "shackles", at("a7"), "")
	marks := (Rules{}).Board(s).Marks
	want := []game.Mark{
		{Square: "e2", Kind: Poison, Seat: 0, Note: "by seat 0"},
		{Square: "a7", Kind: Dynamite, Seat: 1, Note: "by seat 0"},
		{Square: "a7", Kind: "shackled", Seat: 1, Note: "shackles, during seat 1's turn"},
	}
	if !slices.Equal(marks, want) {
		t.Errorf("marks %+v\nwant %+v", marks, want)
	}
	if b := (Rules{}).Board(s); b.InCheck || len(b.Checked) != 0 || slices.Contains(b.LegalMoves, "a7a1") {
		t.Errorf("board %+v", b)
	}
}

// A card is a legal action too: a restriction that leaves the seat to act no move and no
// playable card is lifted when, without it, a card could be played, even with no move.
// Black's king is stalemated by the b6 queen and its h4 pawn is blocked; its only action
// is the teleport of that pawn, which White's shackles would take away.
func TestShacklesThatLeaveOnlyACardAreSuspended(t *testing.T) {
	s := table(t, "k7/8/1Q6/8/7p/7P/8/7K w - - 0 1", holding("shackles"), holding("teleport"))
	s, evs := playCard(t, s, "shackles", at("h4"), "")
	if st := (Rules{}).Status(s); st.Over || !slices.Equal(st.ToAct, []int{1}) {
		t.Fatalf("after the shackles: %+v", st)
	}
	if got := eventsOf[RestrictionsSuspended](evs); len(got) != 1 || got[0].Seat != 1 || !s.Suspended {
		t.Fatalf("suspended %+v", got)
	}
	if hc := handCard(t, s, 1, "teleport"); !hc.Playable {
		t.Fatalf("the teleport: %+v", hc)
	}
	s, _ = playCard(t, s, "teleport", at("h4", "d4"), "")
	if board(s) != "k7/8/1Q6/8/3p4/7P/8/7K" || s.toAct() != 0 {
		t.Errorf("after the teleport: %s", s.Pos.FEN())
	}
}

// Restrictions stay when the seat to act keeps a legal action under them, a card
// included: Black, its king barred from every square by no-man's land, may still play
// its truce, so the bars hold and the truce is its turn.
func TestRestrictionsStayWhileACardIsPlayable(t *testing.T) {
	s := table(t, bareKings, holding("no-mans-land"), holding("truce"))
	s, evs := playCard(t, s, "no-mans-land", at("e7"), "")
	if got := eventsOf[RestrictionsSuspended](evs); len(got) != 0 || s.Suspended {
		t.Fatalf("suspended %+v", got)
	}
	if st := (Rules{}).Status(s); st.Over || len(legal(s)) != 0 || !handCard(t, s, 1, "truce").Playable {
		t.Fatalf("Black: %+v, moves %v", st, legal(s))
	}
	s, _ = playCard(t, s, "truce", at(), "")
	if s.toAct() != 0 {
		t.Errorf("after the truce: %s", s.Pos.FEN())
	}
}

// The record reads by turns: a turn is its card and its move (or moves) together, and
// White's turn and Black's share a number.
func TestTurnsGroupCardsWithTheirMoves(t *testing.T) {
	s := table(t, chess.StartFEN, holding("shield", "double-move"), holding("shield"))
	s, _ = playCard(t, s, "shield", at("e2"), "")
	s = move(t, s, "e4")
	s = move(t, s, "e5")
	s, _ = playCard(t, s, "double-move", nil, "")
	s = move(t, s, "Nf3")
	s = move(t, s, "Nc3")
	s, _ = playCard(t, s, "shield", at("e5"), "Nc6")
	first, turns := Rules{}.Turns(s)
	want := []game.Turn{
		{Side: 0, Plays: []string{"[shield e2]", "e4"}}, {Side: 1, Plays: []string{"e5"}},
		{Side: 0, Plays: []string{"[double-move]", "Nf3", "Nc3"}}, {Side: 1, Plays: []string{"[shield e5]", "Nc6"}},
	}
	if first != 1 || !reflect.DeepEqual(turns, want) {
		t.Fatalf("turns from %d: %+v\nwant %+v (record %v)", first, turns, want, Rules{}.MoveList(s))
	}
}
