package unfair

import (
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
)

// Poison: the piece that captures a poisoned piece dies with it; a king survives.
func TestPoisonKillsTheCapturer(t *testing.T) {
	s := table(t, "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", holding(), holding())
	s = marked(t, s, "d5", Poison, 1)
	knight, rook := idOn(t, s, "d5"), idOn(t, s, "d1")
	after, evs := act(t, s, game.Move{Notation: "Rxd5"})
	if board(after) != "4k3/8/8/8/8/8/8/4K3" {
		t.Errorf("after Rxd5: %s", board(after))
	}
	want := StatusTriggered{Piece: int(knight), Square: "d5", Status: Poison, Removed: []Removed{{Piece: int(rook), Square: "d5", Role: "R"}}}
	if got := eventsOf[StatusTriggered](evs); len(got) != 1 || string(encoded(got[0])) != string(encoded(want)) {
		t.Errorf("triggered %+v, want %+v", got, want)
	}
	if played := eventsOf[MovePlayed](evs)[0]; played.SAN != "Rxd5" || played.FEN != after.Pos.FEN() {
		t.Errorf("recorded %+v", played)
	}
	if after.Sides[0].Taken[0].Role != chess.Rook || after.Sides[1].Taken[0].Role != chess.Knight || len(after.Statuses) != 0 {
		t.Errorf("taken %v / %v, statuses %v", after.Sides[0].Taken, after.Sides[1].Taken, after.Statuses)
	}
	// The king takes a poisoned pawn and lives.
	s = marked(t, table(t, "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", holding(), holding()), "d2", Poison, 1)
	after, evs = act(t, s, game.Move{Notation: "Kxd2"})
	if board(after) != "4k3/8/8/8/8/8/3K4/8" || len(eventsOf[StatusTriggered](evs)) != 0 {
		t.Errorf("the king's capture: %s, %+v", board(after), evs)
	}
}

// A capture whose poison or dynamite would leave the mover's king attacked is illegal.
func TestWhatACaptureSetsOffMustNotExposeTheKing(t *testing.T) {
	// Rxe4 would die of poison on the e-file and open it to the e8 rook.
	s := marked(t, table(t, "4r2k/8/8/8/4p3/4R3/8/4K3 w - - 0 1", holding(), holding()), "e4", Poison, 1)
	if why := refused(t, s, game.Move{Notation: "Rxe4"}, game.IllegalMove); !strings.Contains(why, "would leave your king in check") {
		t.Errorf("refused because %q", why)
	}
	if slices.Contains(legal(s), "e3e4") || !slices.Contains(legal(s), "e3d3") {
		t.Errorf("moves %v", legal(s))
	}
	// Nxd4 would blow up the e3 pawn that shields the king from the e8 rook.
	s = marked(t, table(t, "4r2k/8/8/8/3p4/4P3/2N5/4K3 w - - 0 1", holding(), holding()), "d4", Dynamite, 1)
	refused(t, s, game.Move{Notation: "Nxd4"}, game.IllegalMove)
}

// Dynamite explodes when its piece captures or is captured: the piece and all on the eight
// squares around die, kings excepted; a piece caught in the blast sets nothing off.
func TestDynamite(t *testing.T) {
	// The c3 knight carries dynamite and takes on d5. Around d5: White's e4 pawn, Black's
	// dynamited c6 knight (it does not explode in turn: the b7 pawn lives) and poisoned e6
	// bishop (its poison kills nobody).
	s := table(t, "4k3/1p6/2n1b3/3p4/4P3/2N5/8/4K3 w - - 0 1", holding(), holding())
	s = marked(t, marked(t, marked(t, s, "c3", Dynamite, 0), "c6", Dynamite, 0), "e6", Poison, 1)
	knight := idOn(t, s, "c3")
	after, evs := act(t, s, game.Move{Notation: "Nxd5"})
	if board(after) != "4k3/1p6/8/8/8/8/8/4K3" {
		t.Errorf("after the blast: %s", board(after))
	}
	trig := eventsOf[StatusTriggered](evs)
	if len(trig) != 1 || trig[0].Piece != int(knight) || trig[0].Square != "d5" || len(trig[0].Removed) != 4 {
		t.Fatalf("one explosion, four pieces blown up: %+v", trig)
	}
	var roles []string
	for _, r := range trig[0].Removed {
		roles = append(roles, r.Square+r.Role)
	}
	if got := strings.Join(roles, " "); got != "e4P d5N c6n e6b" {
		t.Errorf("blown up: %s", got)
	}
	if len(after.Statuses) != 0 || len(after.Sides[0].Taken) != 2 || len(after.Sides[1].Taken) != 3 {
		t.Errorf("statuses %v, taken %v / %v", after.Statuses, after.Sides[0].Taken, after.Sides[1].Taken)
	}
	// Captured: the c6 knight carries the dynamite; Bxc6 takes the bishop with it, and the
	// b7 pawn, but not the black king on d7.
	s = marked(t, table(t, "8/1p1k4/2n5/8/4B3/8/8/4K3 w - - 0 1", holding(), holding()), "c6", Dynamite, 1)
	after, _ = act(t, s, game.Move{Notation: "Bxc6+"})
	if board(after) != "8/3k4/8/8/8/8/8/4K3" {
		t.Errorf("after Bxc6: %s", board(after))
	}
}

// Sleep: a sleeping piece cannot move; every sleeping piece wakes when a king is put in check.
func TestSleepersWakeOnCheck(t *testing.T) {
	s := table(t, "4k3/r7/8/8/8/8/4N3/4K2R w - - 0 1", holding(), holding())
	s = marked(t, marked(t, s, "a7", Sleep, 0), "e2", Sleep, 1)
	if slices.ContainsFunc(legal(s), func(m string) bool { return m[:2] == "e2" }) {
		t.Fatalf("the sleeping knight moves: %v", legal(s))
	}
	s = move(t, s, "Kf1")
	if slices.ContainsFunc(legal(s), func(m string) bool { return m[:2] == "a7" }) {
		t.Fatalf("the sleeping rook moves: %v", legal(s))
	}
	s = move(t, s, "Kd8")
	after, evs := act(t, s, game.Move{Notation: "Rh8+"})
	woke := eventsOf[StatusEnded](evs)
	if len(woke) != 2 || woke[0].Reason != "woke" || woke[1].Reason != "woke" || len(after.Statuses) != 0 {
		t.Fatalf("woken %+v", woke)
	}
	if after.bound(1).Frozen != 0 {
		t.Errorf("Black's pieces stay asleep: %v", after.bound(1).Frozen.Squares())
	}
	if got := (Rules{}).MoveList(after); !slices.Equal(got, []string{"Kf1", "Kd8", "Rh8+"}) {
		t.Errorf("moves %v", got)
	}
}

// Shield: the opponent cannot capture the piece during its next turn; then it expires.
func TestShieldExpiresAfterTheOpponentsTurn(t *testing.T) {
	s := table(t, "4k3/4r3/8/8/8/8/4N3/3K4 w - - 0 1", holding("shield"), holding())
	s, _ = playCard(t, s, "shield", at("e2"), "Kc2")
	if slices.Contains(legal(s), "e7e2") {
		t.Fatalf("Black takes the shielded knight: %v", legal(s))
	}
	after, evs := act(t, s, game.Move{Notation: "Kd8"})
	if ended := eventsOf[StatusEnded](evs); len(ended) != 1 || ended[0] != (StatusEnded{Piece: int(idOn(t, s, "e2")), Square: "e2", Status: Shield, Reason: "expired"}) {
		t.Errorf("ended %+v", ended)
	}
	after = move(t, after, "Kb3")
	if !slices.Contains(legal(after), "e7e2") {
		t.Errorf("the shield outlived Black's turn: %v", legal(after))
	}
}

// Sleepers wake on a check that stands, the opponent's king attacked when a turn ends;
// never on a seat uncovering its own king in the middle of a card that adds to the move.
// Each of the first three cards below takes the piece that shields White's king off the line of a black
// rook or bishop, then the move it owes covers the king again. The sleeping a7 pawn
// must stay asleep (TestSleepersWakeOnCheck shows a check that stands waking sleepers).
func TestSelfExposureWakesNoSleeper(t *testing.T) {
	for _, c := range []struct {
		name, fen, card string
		targets         []string
		then            string
	}{
		{"gallop", "4r2k/p7/8/8/8/8/4N3/4KB2 w - - 0 1", "gallop", at("e2", "c3"), "Be2"},
		{"sidestep", "4r2k/p7/8/8/8/8/4N3/4KB2 w - - 0 1", "sidestep", at("e2", "d2"), "Be2"},
		{"pawn surge", "7k/p7/8/b7/8/8/2PP4/4K3 w - - 0 1", "pawn-surge", at("d2", "d3"), "c3"},
		// A check given by the card and taken back by the move does not stand either.
		{"a check taken back", "7k/p7/8/4N3/8/8/8/4K3 w - - 0 1", "gallop", at("e5", "f7"), "Nd6"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := table(t, c.fen, holding(c.card), holding())
			s = marked(t, s, "a7", Sleep, 0)
			after, evs := playCard(t, s, c.card, c.targets, c.then)
			if woke := eventsOf[StatusEnded](evs); len(woke) != 0 {
				t.Errorf("sleepers woke: %+v", woke)
			}
			hasStatus(t, after, "a7", Sleep, true)
			if after.kingAttacked(0) || after.toAct() != 1 {
				t.Fatalf("the turn did not end with the king covered: %s", after.Pos.FEN())
			}
		})
	}
}
