package unfair

import (
	"reflect"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
)

// under20261 is the table of table, under the rules of unfair-2026.1.
func under20261(t *testing.T, fen string, white, black cardsOf) State {
	t.Helper()
	s := table(t, fen, white, black)
	s.v = Rules{pinned: "unfair-2026.1"}.Evolve(nil, GameStarted{FEN: fen}).(State).v
	if s.v == (variant{}) {
		t.Fatal("unfair-2026.1 plays as the current version")
	}
	return s
}

func TestUnderKnowsTheOlderVersionsOnly(t *testing.T) {
	r, ok := Rules{}.Under("unfair-2026.1")
	if !ok || r.Info().RulesVersion != "unfair-2026.1" || r.Info().ID != ID {
		t.Fatalf("Under(unfair-2026.1) = %v, %v", r, ok)
	}
	for _, v := range []string{RulesVersion, "unfair-2026.5", "unfair-2025.1", ""} {
		if r, ok := (Rules{}).Under(v); ok {
			t.Errorf("Under(%q) = %v", v, r.Info())
		}
	}
	if (Rules{}).Info().RulesVersion != RulesVersion {
		t.Errorf("the current rules name %q", Rules{}.Info().RulesVersion)
	}
}

// unfair-2026.1 woke the sleepers whenever an action put a king in check, the mover's
// own too: White's gallop takes the e2 knight off the e-file, where Black's e8 rook now
// attacks White's king, and the bishop's Be2 covers it again. Under 2026.2 that is no
// check and the a7 pawn sleeps on (TestSelfExposureWakesNoSleeper); under 2026.1 it woke.
func TestUnder20261ASelfExposureWokeTheSleepers(t *testing.T) {
	const fen = "4r2k/p7/8/8/8/8/4N3/4KB2 w - - 0 1"
	for _, c := range []struct {
		name  string
		s     State
		sleep bool
	}{
		{"unfair-2026.2", table(t, fen, holding("gallop"), holding()), true},
		{"unfair-2026.1", under20261(t, fen, holding("gallop"), holding()), false},
	} {
		s := marked(t, c.s, "a7", Sleep, 0)
		after, evs := playCard(t, s, "gallop", at("e2", "c3"), "Be2")
		hasStatus(t, after, "a7", Sleep, c.sleep)
		if woke := eventsOf[StatusEnded](evs); c.sleep != (len(woke) == 0) {
			t.Errorf("%s: %+v", c.name, woke)
		}
	}
	// A check that stands wakes them under both: Black's Re1 is mate-free check.
	for _, s := range []State{table(t, fen, holding(), holding()), under20261(t, fen, holding(), holding())} {
		s.Pos.PassTurn()
		s = marked(t, s, "a7", Sleep, 0)
		after := move(t, s, "Rxe2+")
		hasStatus(t, after, "a7", Sleep, false)
	}
}

// unfair-2026.1 lifted the restrictions that would stalemate counting the board's moves
// only: White's shackles on Black's h4 pawn, whose king the b6 queen stalemates, took
// away its teleport, its only action, and the game ended in stalemate. Under 2026.2 the
// shackles are suspended and Black teleports (TestShacklesThatLeaveOnlyACardAreSuspended).
func TestUnder20261ShacklesThatLeftOnlyACardStalemated(t *testing.T) {
	const fen = "k7/8/1Q6/8/7p/7P/8/7K w - - 0 1"
	now, evs := playCard(t, table(t, fen, holding("shackles"), holding("teleport")), "shackles", at("h4"), "")
	if st := (Rules{}).Status(now); st.Over || len(eventsOf[RestrictionsSuspended](evs)) != 1 {
		t.Fatalf("unfair-2026.2: %+v, %v", st, evs)
	}
	then, evs := playCard(t, under20261(t, fen, holding("shackles"), holding("teleport")), "shackles", at("h4"), "")
	st := Rules{}.Status(then)
	if len(eventsOf[RestrictionsSuspended](evs)) != 0 || then.Suspended || !st.Over || st.Outcome.Reason != "stalemate" || len(st.Outcome.Winners) != 0 {
		t.Fatalf("unfair-2026.1: suspended %v, status %+v", then.Suspended, st)
	}
	if hc := handCard(t, then, 1, "teleport"); hc.Playable {
		t.Errorf("unfair-2026.1: the shackled pawn's teleport %+v", hc)
	}
}

// unfair-2026.1 let a seat in check play a card that adds to the move whenever a move
// could follow it: the e8 rook checks White's king, and the shield saves nothing, but
// Kd2 could follow. Under 2026.2 the card itself must save the king
// (TestInCheckACardThatAddsToTheMoveMustItselfSave).
func TestUnder20261InCheckACardWasPlayableWhenAMoveSavedAfterIt(t *testing.T) {
	const fen = "4r2k/8/8/8/8/8/8/2N1K3 w - - 0 1"
	now := table(t, fen, holding("shield"), holding())
	if hc := handCard(t, now, 0, "shield"); hc.Playable || hc.Reason != "your king is in check and this does not save it" {
		t.Errorf("unfair-2026.2: %+v", hc)
	}
	refused(t, now, cards.PlayCard{Card: "shield", Slot: -1, Targets: at("c1"), Move: "Kd2"}, game.IllegalMove)
	then := under20261(t, fen, holding("shield"), holding())
	if hc := handCard(t, then, 0, "shield"); !hc.Playable {
		t.Errorf("unfair-2026.1: %+v", hc)
	}
	after, _ := playCard(t, then, "shield", at("c1"), "Kd2")
	hasStatus(t, after, "c1", Shield, true)
	if board(after) != "4r2k/8/8/8/8/8/3K4/2N5" || after.toAct() != 1 {
		t.Errorf("unfair-2026.1, after the shield and Kd2: %s", after.Pos.FEN())
	}
}

// Seeded random games under unfair-2026.1 pass the audit at every step, and their
// events fold to the state Decide computed (act), as today's do (TestRandomPlayoutsReplay).
func TestUnder20261RandomPlayoutsReplay(t *testing.T) {
	old, _ := Rules{}.Under("unfair-2026.1")
	for seed := range uint64(10) {
		evs, final := playoutUnder(t, old.(Rules), seed, 200)
		var st game.State
		for _, e := range evs {
			st = old.Evolve(st, e)
		}
		folded := st.(State)
		folded.pending, final.pending = nil, nil
		if !reflect.DeepEqual(folded, final) || final.v != variants["unfair-2026.1"] {
			t.Fatalf("seed %d: the stream folds to another state", seed)
		}
	}
}

// The move generator's fix of magic-2026.3 (a grant gave the king the granted squares
// too, and a granted movement could take a king: chess.Restrictions.GrantToKing) changed
// no UnfairChess play, so it kept unfair-2026.2: its movement cards move their own piece
// only, never onto a king. The bishop granted the knight's leap reaches the g8 king by
// the old generator; the card does not take it, under either generator.
func TestAGrantNeverTookAKing(t *testing.T) {
	s := table(t, "6k1/4B3/8/8/8/8/8/4K3 w - - 0 1", holding("knight-leap"), holding())
	old := chess.Restrictions{Grant: chess.Grant{Piece: idOn(t, s, "e7"), As: chess.Knight}, GrantToKing: true}
	if !slices.Contains(uciOf(s.Pos.LegalMovesWith(nil, old)), "e7g8") {
		t.Fatal("the old generator does not take the king: the test shows nothing")
	}
	hc := handCard(t, s, 0, "knight-leap")
	want := [][]string{{"e7", "c6"}, {"e7", "c8"}, {"e7", "d5"}, {"e7", "f5"}, {"e7", "g6"}}
	if !hc.Playable || !slices.EqualFunc(sorted(hc.Targets), want, slices.Equal) {
		t.Errorf("knight's leap: %+v", hc)
	}
	// In every position of seeded random games, every piece granted every movement
	// reaches the same squares by the generator of before the fix as by today's.
	for seed := range uint64(6) {
		evs, _ := playout(t, seed, 150)
		var st game.State
		for _, e := range evs {
			st = Rules{}.Evolve(st, e)
			s, ok := st.(State)
			if !ok || len(s.pending) > 0 {
				continue
			}
			r := s.restrictions()
			for _, from := range s.pieces(s.Pos.Turn(), not()) {
				pc, _ := s.Pos.PieceAt(from)
				for _, as := range []chess.Role{chess.Knight, chess.Bishop, chess.Rook, chess.Queen, chess.King} {
					was := r
					was.GrantToKing = true
					if a, b := s.grantedReach(r, from, pc, as), s.grantedReach(was, from, pc, as); a != b {
						t.Fatalf("seed %d, %s: %v granted a %v's movement reaches %v, and %v before the fix", seed, s.Pos.FEN(), from, as, a.Squares(), b.Squares())
					}
				}
			}
		}
	}
}

func uciOf(ms []chess.Move) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.UCI())
	}
	return out
}

func sorted(targets [][]string) [][]string {
	out := slices.Clone(targets)
	slices.SortFunc(out, func(a, b []string) int { return slices.Compare(a, b) })
	return out
}
