package sovereignchess

import (
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
)

// under starts a game as e records it, under the rules of an older version.
func under(t *testing.T, version string, e GameStarted) State {
	t.Helper()
	old, ok := r.Under(version)
	if !ok {
		t.Fatalf("no rules %s", version)
	}
	if err := old.(Rules).Audit(nil, e); err != nil {
		t.Fatalf("%+v: %v", e, err)
	}
	return old.Evolve(nil, e).(State)
}

func TestUnderKnowsTheOlderVersionsOnly(t *testing.T) {
	for _, v := range []string{"rulebook-2017.1", "rulebook-2017.2", "rulebook-2017.3", "rulebook-2017.4", "rulebook-2017.5"} {
		if old, ok := r.Under(v); !ok || old.Info().RulesVersion != v || old.Info().ID != ID {
			t.Errorf("Under(%s) = %v, %v", v, old, ok)
		}
	}
	for _, v := range []string{RulesVersion, "rulebook-2017.7", "rulebook-2016.1", ""} {
		if old, ok := r.Under(v); ok {
			t.Errorf("Under(%q) = %v", v, old.Info())
		}
	}
}

// audited checks that each of the stored events passes the audit from the state before
// it under the rules of version (the state's own), and folds them.
func audited(t *testing.T, version string, st State, stored []game.Event) game.State {
	t.Helper()
	var s game.State = st
	for i, e := range stored {
		if err := r.Audit(s, e); err != nil {
			t.Fatalf("%s: event %d (%s) refused: %v", version, i, e.EventType(), err)
		}
		s = r.Evolve(s, e)
	}
	return s
}

// Before rulebook-2017.3 a two-player defection's forced king move could take the other
// king: the slate king on k6 defects to yellow and must leave k6, and a yellow king may
// take the black king standing on the slate square j7. The match went on as Royale's
// capture of a king does, and ended a tied stalemate. Under 2017.2 (and 2017.1) that
// move is decided and the stream that recorded it passes the audit and folds; under
// 2017.3 the move is illegal (TestAuditRefusesAKingCapturedByADefection).
func TestUnder20172ADefectionsKingMoveTookTheKing(t *testing.T) {
	start, stored := kingTakenByDefection(t)
	refused(t, from(t, start), 1, game.Move{Notation: "=yk6j7"}, game.IllegalMove)
	for _, v := range []string{"rulebook-2017.1", "rulebook-2017.2"} {
		st := under(t, v, start)
		same(t, v+": the move decided", decided(t, st, 1, game.Move{Notation: "=yk6j7"}), stored)
		s := audited(t, v, st, stored)
		if st := r.Status(s); !st.Over || st.Outcome.Reason != "stalemate" || len(st.Outcome.Winners) != 0 {
			t.Errorf("%s: the game after the capture: %+v", v, st)
		}
	}
}

// Before rulebook-2017.2 a Royale seat that resigned while the game went on did not
// withdraw: Withdraw recorded nothing, and the seat kept its king, its army and its
// turns. Under 2017.2 and later Slate withdraws and its turns are skipped
// (TestRoyaleWithdrawalOfASeatNotToAct).
func TestUnder20171AResignedRoyaleSeatKeptItsTurns(t *testing.T) {
	e := GameStarted{Mode: Royale, Position: notation(t, royaleKings+"wki1 wpe2 spo8", "1 w a s b - 0"), FirstMover: -1, Order: royaleOrder2031}
	if evs := r.Withdraw(under(t, "rulebook-2017.2", e), 3, noon); len(evs) == 0 {
		t.Fatal("rulebook-2017.2: Slate does not withdraw")
	}
	st := under(t, "rulebook-2017.1", e)
	if evs := r.Withdraw(st, 3, noon); evs != nil {
		t.Fatalf("rulebook-2017.1: Slate withdraws: %v", evs)
	}
	same(t, "the status", r.Status(st), game.Status{ToAct: []int{2}, Phase: "play"})
	_, seats := toAct(t, st, 4)
	same(t, "turns", seats, []int{2, 0, 3, 1})
}

// quietRoyale plays the rounds from to to (at most 50) of a Royale game in which nothing is
// captured, no pawn moves and no position comes twice: White's rook on c2 walks a snake
// over ranks 2 to 4 (files c to n), the rook on c13 steps once, and the first rook walks
// back, while Ash, Slate and Black shuffle their kings in the corners, out of reach.
// White plays at seat 2 (royaleOrder2031).
func quietRoyale(t *testing.T, st State, from, to int) State {
	t.Helper()
	var walk []string
	for _, rank := range []string{"2", "3", "4"} {
		for f := range 12 {
			if rank == "3" {
				f = 11 - f
			}
			walk = append(walk, string(rune('c'+f))+rank)
		}
	}
	var white []string
	for i := 1; i < len(walk); i++ {
		white = append(white, walk[i-1]+walk[i])
	}
	white = append(white, "c13d13")
	for i := len(walk) - 1; i > 21; i-- {
		white = append(white, walk[i]+walk[i-1])
	}
	kings := [2][3]string{{"a16b16", "p16o16", "p1o1"}, {"b16a16", "o16p16", "o1p1"}}
	for r := from; r < to; r++ {
		st = play(t, st, white[r], kings[r%2][0], kings[r%2][1], kings[r%2][2])
	}
	return st
}

const quietRoyaleStart = "wka1 wrc2 wrc13 aka16 skp16 bkp1"

// The fifty-move rule is fifty moves by each player. Under rulebook-2017.3 a Royale draw
// could be claimed after 100 quiet plies, 25 moves by each of the four; since
// rulebook-2017.4 it takes 200. A stored claim at 100 still passes the audit under 2017.3.
func TestRoyaleFiftyMoveClaimIsFiftyMovesEach(t *testing.T) {
	e := GameStarted{Mode: Royale, Position: notation(t, quietRoyaleStart, "1 w a s b - 0"), FirstMover: -1, Order: royaleOrder2031}
	st := quietRoyale(t, from(t, e), 0, 25)
	if err := refused(t, st, 2, game.ClaimDraw{}, game.IllegalMove); !strings.Contains(err.Reason, "100 of 200 plies") {
		t.Errorf("refusal after 25 moves each: %q", err.Reason)
	}
	old := quietRoyale(t, under(t, "rulebook-2017.3", e), 0, 25)
	stored := decided(t, old, 2, game.ClaimDraw{})
	same(t, "rulebook-2017.3: the claim after 25 moves each", stored, []game.Event{
		DrawClaimed{Seat: 2, Reason: "fifty-move rule"},
		GameEnded{Reason: "draw claimed (fifty-move rule)", Winners: []int{}, Standings: []string{"tied", "tied", "tied", "tied"}},
	})
	audited(t, "rulebook-2017.3", old, stored)
	st = quietRoyale(t, st, 25, 50)
	_, evs := act(t, st, 2, game.ClaimDraw{})
	same(t, "the claim after 50 moves each", evs[0], DrawClaimed{Seat: 2, Reason: "fifty-move rule"})
}

// A Royale army whose king was captured "can not win the game" and, unlike an escaped
// king's, is never "considered to have tied" (rulebook p.4): from rulebook-2017.5 its seat
// may not claim a draw, and a draw another seat claims ranks it lost. White (seat 2) lost
// its king; its rook and the three kings shuffle until the start comes a third time.
// Under rulebook-2017.4 White's claim ended the game with all four tied.
func TestRoyaleSeatWithoutItsKingClaimsNoDraw(t *testing.T) {
	e := GameStarted{Mode: Royale, Position: notation(t, "wrc2 aka16 skp16 bkp1", "1 w a s b - 0"), FirstMover: -1, Order: royaleOrder2031}
	round := []string{"c2d2", "a16b16", "p16o16", "p1o1", "d2c2", "b16a16", "o16p16", "o1p1"}
	repeat := func(st State) State { return play(t, st, slices.Concat(round, round, round, round)...) }

	st := repeat(from(t, e))
	if !st.claimable() {
		t.Fatal("the start has not come three times")
	}
	err := refused(t, st, 2, game.ClaimDraw{}, game.IllegalMove)
	if !strings.Contains(err.Reason, "your king was captured") {
		t.Errorf("White's claim refused with %q", err.Reason)
	}
	// White plays on; Ash, whose king stands, claims: White ranks lost, the others tied.
	st = play(t, st, "c2d2")
	_, evs := act(t, st, 0, game.ClaimDraw{})
	same(t, "Ash's claim", evs, []game.Event{
		DrawClaimed{Seat: 0, Reason: "threefold repetition"},
		GameEnded{Reason: "draw claimed (threefold repetition)", Winners: []int{}, Standings: []string{"tied", "tied", "lost", "tied"}},
	})

	old := repeat(under(t, "rulebook-2017.4", e))
	stored := decided(t, old, 2, game.ClaimDraw{})
	same(t, "rulebook-2017.4: White's claim", stored, []game.Event{
		DrawClaimed{Seat: 2, Reason: "threefold repetition"},
		GameEnded{Reason: "draw claimed (threefold repetition)", Winners: []int{}, Standings: []string{"tied", "tied", "tied", "tied"}},
	})
	audited(t, "rulebook-2017.4", old, stored)
	// Under rulebook-2017.5 the same stored claim is refused by the audit.
	if err := r.Audit(repeat(from(t, e)), stored[0]); err == nil {
		t.Error("rulebook-2017.5: the audit takes White's claim")
	}
}

// An escaped king's seat still claims under rulebook-2017.5: it ties if the battle ends
// before it crowns a new king, and a claim gives it just that.
func TestRoyaleSeatWhoseKingEscapedClaimsADraw(t *testing.T) {
	st := royale(t, "wrc2 aka16 skp16 bkp1", "1 w* a s b - 0")
	round := []string{"c2d2", "a16b16", "p16o16", "p1o1", "d2c2", "b16a16", "o16p16", "o1p1"}
	st = play(t, st, slices.Concat(round, round, round, round)...)
	_, evs := act(t, st, 2, game.ClaimDraw{})
	same(t, "White's claim", evs, []game.Event{
		DrawClaimed{Seat: 2, Reason: "threefold repetition"},
		GameEnded{Reason: "draw claimed (threefold repetition)", Winners: []int{}, Standings: []string{"tied", "tied", "tied", "tied"}},
	})
}

// "A player may castle with their king and a rook that they either own or control, as
// long as neither piece has moved during the game" (rulebook, Castling). From
// rulebook-2017.6 the white king's move off a1 keeps the right of Black's rook on a16
// (on file a with a1, but on rank 16 with Black's unmoved king), and Black castles;
// under rulebook-2017.5 the move took that right, and a match of then still refuses the
// castling. Found by TestModelPlayouts, from its opening "castlings of eight squares".
func TestAKingsMoveKeepsAnotherKingsCastling(t *testing.T) {
	e := GameStarted{Mode: TwoPlayer, Position: notation(t, "wka1 wrp1 wpe2 bkp16 bra16 bpe15", "1 w b Pa 10"), FirstMover: -1}
	st := play(t, from(t, e), "a1a2", "p16h16O")
	same(t, "after the castling", r.Board(st).FEN, notation(t, "wka2 wrp1 wpe2 bkh16 bri16 bpe15", "1 w b - 12"))
	old := play(t, under(t, "rulebook-2017.5", e), "a1a2")
	refused(t, old, 1, game.Move{Notation: "p16h16O"}, game.IllegalMove)
}
