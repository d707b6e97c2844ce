package rating

import (
	"math"
	"testing"
)

func TestNewcomersMoveFasterForTenGames(t *testing.T) {
	newcomer := Player{Rating: Initial, Games: 0}
	veteran := Player{Rating: Initial, Games: ProvisionalGames}
	a, b := Update(newcomer, veteran, 1)
	if a != 1420 || b != 1390 {
		t.Fatalf("equal ratings, newcomer wins: got %v and %v, want 1420 (K=40) and 1390 (K=20)", a, b)
	}
	ninth := Player{Rating: Initial, Games: ProvisionalGames - 1}
	if ninth.K() != KProvisional {
		t.Fatalf("the tenth rated game is still provisional")
	}
}

func TestDrawBetweenUnequalPlayersMovesTowardEachOther(t *testing.T) {
	strong := Player{Rating: 1800, Games: 50}
	weak := Player{Rating: 1400, Games: 50}
	s, w := Update(strong, weak, 0.5)
	if !(s < 1800 && w > 1400) {
		t.Fatalf("draw: got %v, %v", s, w)
	}
	if math.Abs((1800-s)-(w-1400)) > 1e-9 {
		t.Fatalf("with equal K the points lost equal the points won: %v vs %v", 1800-s, w-1400)
	}
	if e := Expected(1800, 1400); math.Abs(e-0.909) > 0.001 {
		t.Fatalf("expected score of +400 is about 0.909, got %v", e)
	}
}

func TestUpdateManyWithTwoSeatsIsUpdate(t *testing.T) {
	a, b := Player{Rating: 1500, Games: 3}, Player{Rating: 1420, Games: 30}
	for _, score := range []float64{1, 0.5, 0} {
		wa, wb := Update(a, b, score)
		got := UpdateMany([]Player{a, b}, []int{0, 1}, []float64{score, 1 - score})
		if math.Abs(got[0]-wa) > 1e-9 || math.Abs(got[1]-wb) > 1e-9 {
			t.Errorf("score %g: UpdateMany %v, Update %g %g", score, got, wa, wb)
		}
	}
}

// Royale: four players of equal rating and K, one winner. The winner gains what a win
// against one equal gains; the three losers lose it together, and nothing is created.
func TestUpdateManyFourPlayers(t *testing.T) {
	ps := []Player{{1400, 30}, {1400, 30}, {1400, 30}, {1400, 30}}
	got := UpdateMany(ps, []int{0, 1, 2, 3}, []float64{0, 0, 1, 0})
	if got[2] != 1410 {
		t.Errorf("the winner: %g, want 1410 (K 20 times 0.5)", got[2])
	}
	for _, i := range []int{0, 1, 3} {
		if math.Abs(got[i]-(1400-10.0/3)) > 1e-9 {
			t.Errorf("loser %d: %g, want %g", i, got[i], 1400-10.0/3)
		}
	}
	sum := 0.0
	for _, r := range got {
		sum += r
	}
	if math.Abs(sum-4*1400) > 1e-9 {
		t.Errorf("the ratings sum to %g, not %d: points were created", sum, 4*1400)
	}
}

// Two teams of two: teammates are not opponents, and a team's players move alike.
func TestUpdateManyTeams(t *testing.T) {
	ps := []Player{{1400, 30}, {1400, 30}, {1400, 30}, {1400, 30}}
	got := UpdateMany(ps, []int{0, 1, 0, 1}, []float64{1, 0, 1, 0})
	if got[0] != 1410 || got[2] != 1410 || got[1] != 1390 || got[3] != 1390 {
		t.Errorf("team ratings: %v", got)
	}
}
